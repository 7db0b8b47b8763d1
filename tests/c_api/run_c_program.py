# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Runs the C11 program (tests/c_api/c_program.c, built against libperfshap_c.so) and the
command line on the same data, and requires every number the program read through the C API to
equal the command's, bit for bit: XPER's value and phi (result.json), TreeSHAP's values and bias
(contributions.csv, written with 17 significant digits).

    python3 run_c_program.py C_PROGRAM PERFSHAP_CLI FIXTURES_DIR WORK_DIR
"""
import csv
import json
import os
import shutil
import subprocess
import sys

program, cli, fixtures, work = sys.argv[1:5]
pima = os.path.join(fixtures, "data", "pima.csv")
bc = os.path.join(fixtures, "data", "breast_cancer.csv")
model = os.path.join(fixtures, "xgboost", "binary_logistic.json")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)

out = subprocess.run([program, pima, bc, model], capture_output=True, text=True)
if out.returncode != 0:
    sys.exit(f"the C program failed ({out.returncode}): {out.stderr}")
got = {}
for line in out.stdout.splitlines():
    parts = line.split(" ")
    if parts[0] in ("xper", "treeshap"):
        got[(parts[0], parts[1], int(parts[2]))] = float(parts[3])
print(out.stdout.strip().splitlines()[-3:])


def run(*args):
    subprocess.run([cli, *args, "--quiet", "--progress", "none", "--force"], check=True)


run("xper", "--data", pima, "--label", "label", "--model", "logistic", "--train", pima, "--metric", "auc",
    "--threads", "2", "--out", os.path.join(work, "xper"))
doc = json.load(open(os.path.join(work, "xper", "result.json")))
want = {("xper", "value", 0): doc["value"]}
for j, v in enumerate(doc["phi"].values()):
    want[("xper", "phi", j)] = v

run("treeshap", "--data", bc, "--label", "label", "--model-file", model, "--rows", "0..9", "--out",
    os.path.join(work, "treeshap"))
with open(os.path.join(work, "treeshap", "contributions.csv")) as f:
    rows = list(csv.reader(f))
header, rows = rows[0], rows[1:]
features = len(header) - 2  # row, the features, bias
for r, row in enumerate(rows):
    for j in range(features):
        want[("treeshap", "values", r * features + j)] = float(row[1 + j])
    want[("treeshap", "base_values", r)] = float(row[-1])

missing = sorted(set(want) - set(got))
if missing:
    sys.exit(f"the C program printed no {missing[:5]}")
differ = [(k, got[k], want[k]) for k in want if got[k] != want[k]]
if differ:
    sys.exit(f"{len(differ)} of {len(want)} numbers differ from the command line's, e.g. {differ[:3]}")
print(f"c_api: {len(want)} numbers equal the command line's bit for bit")
