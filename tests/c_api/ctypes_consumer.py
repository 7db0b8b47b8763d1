# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""A Python consumer that uses libperfshap_c.so alone, through ctypes (no perfshap module): XPER
of pima's columns, lent as float64 buffers, equals the command line's result.json bit for bit;
shap's permutation values of five rows equal the command's contributions; an unknown option and
a value of the wrong kind come back as a status with the option's name.

    python3 ctypes_consumer.py LIBPERFSHAP_C PERFSHAP_CLI FIXTURES_DIR WORK_DIR
"""
import array
import csv
import ctypes as C
import json
import os
import shutil
import subprocess
import sys

lib_path, cli, fixtures, work = sys.argv[1:5]
lib = C.CDLL(lib_path)
P = C.c_void_p
for name, args in {
    "perfshap_table_create": [C.c_char_p, C.POINTER(P)],
    "perfshap_table_add_numeric": [P, C.c_char_p, C.c_int, P, C.c_int64, C.c_int64],
    "perfshap_table_free": [P],
    "perfshap_request_create": [C.c_char_p, C.c_char_p, C.POINTER(P)],
    "perfshap_request_set_table": [P, C.c_char_p, P],
    "perfshap_request_free": [P],
    "perfshap_run": [P, C.POINTER(P)],
    "perfshap_result_array": [P, C.c_char_p, C.POINTER(C.POINTER(C.c_double)), C.POINTER(C.POINTER(C.c_size_t)),
                              C.POINTER(C.c_size_t)],
    "perfshap_result_free": [P],
    "perfshap_last_error_option": [C.c_size_t],
}.items():
    getattr(lib, name).argtypes = args
lib.perfshap_last_error.restype = C.c_char_p
lib.perfshap_last_error_option.restype = C.c_char_p
lib.perfshap_version.restype = C.c_char_p
FLOAT64 = 1

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
pima = os.path.join(fixtures, "data", "pima.csv")
with open(pima) as f:
    rows = list(csv.reader(f))
names, rows = rows[0], rows[1:]
columns = [array.array("d", (float(r[j]) for r in rows)) for j in range(len(names))]  # kept alive


def check(status, what):
    if status != 0:
        sys.exit(f"{what}: status {status}: {lib.perfshap_last_error().decode()}")


table = P()
check(lib.perfshap_table_create(b"pima", C.byref(table)), "table")
for name, col in zip(names, columns):
    address, n = col.buffer_info()
    check(lib.perfshap_table_add_numeric(table, name.encode(), FLOAT64, address, n, 0), name)


def run(method, options, train=True):
    request = P()
    check(lib.perfshap_request_create(method, json.dumps(options).encode(), C.byref(request)), "request")
    check(lib.perfshap_request_set_table(request, b"data", table), "data")
    if train:
        check(lib.perfshap_request_set_table(request, b"train", table), "train")
    result = P()
    status = lib.perfshap_run(request, C.byref(result))
    lib.perfshap_request_free(request)
    return status, result


def values(result, name):
    data, shape, ndim = C.POINTER(C.c_double)(), C.POINTER(C.c_size_t)(), C.c_size_t()
    check(lib.perfshap_result_array(result, name, C.byref(data), C.byref(shape), C.byref(ndim)), name.decode())
    n = 1
    for k in range(ndim.value):
        n *= shape[k]
    return [data[i] for i in range(n)]


def cli_run(*args):
    subprocess.run([cli, *args, "--quiet", "--progress", "none", "--force"], check=True)


status, result = run(b"xper", {"label": "label", "model": "logistic", "metric": "brier", "threads": 1})
check(status, "xper")
phi, value = values(result, b"phi"), values(result, b"value")
lib.perfshap_result_free(result)
cli_run("xper", "--data", pima, "--label", "label", "--model", "logistic", "--train", pima, "--metric", "brier",
        "--threads", "1", "--out", os.path.join(work, "xper"))
doc = json.load(open(os.path.join(work, "xper", "result.json")))
assert value == [doc["value"]], (value, doc["value"])
assert phi == list(doc["phi"].values()), (phi, doc["phi"])

status, result = run(b"shap", {"label": "label", "model": "logistic", "rows": [0, 4], "background": 40,
                               "solver": "permutation", "budget": 300, "seed": 3, "threads": 2})
check(status, "shap")
shap_values = values(result, b"values")
lib.perfshap_result_free(result)
cli_run("shap", "--data", pima, "--label", "label", "--model", "logistic", "--train", pima, "--rows", "0..4",
        "--background", "40", "--solver", "permutation", "--budget", "300", "--seed", "3", "--threads", "2", "--out",
        os.path.join(work, "shap"))
with open(os.path.join(work, "shap", "contributions.csv")) as f:
    table_rows = list(csv.reader(f))
header = table_rows[0]
features = [h for h in header if h in names]
want = [float(r[header.index(h)]) for r in table_rows[1:] for h in features]
assert shap_values == want, (shap_values[:4], want[:4])

status, result = run(b"xper", {"model": "logistic", "treshold": 0.5})
assert status == 1 and lib.perfshap_last_error_option(0) == b"treshold", (status, lib.perfshap_last_error())
status, result = run(b"xper", {"model": "logistic", "threads": "all"})
assert status == 1 and lib.perfshap_last_error_option(0) == b"threads", (status, lib.perfshap_last_error())
lib.perfshap_table_free(table)
print(f"ctypes: libperfshap_c {lib.perfshap_version().decode()}: xper ({len(phi)} features) and shap "
      f"({len(shap_values)} values) equal the command line's bit for bit; errors name their option")
