# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The method registry under every front end (issue 36): for every registered method and every
option it declares, the command line (the perfshap binary), Python (perfshap.<method>) and the C
API (libperfshap_c through ctypes) refuse the same values with the same one-line message, naming
the same option; and they accept the same values with the same numbers."""
import ctypes
import json
import math
import os
import subprocess
import tempfile

import pytest

import perfshap
from perfshap import _run, _perfshap

CLI = os.environ["PERFSHAP_CLI"]
C = ctypes.CDLL(os.environ["PERFSHAP_C_LIBRARY"])
C.perfshap_last_error.restype = ctypes.c_char_p
C.perfshap_last_error_option.restype = ctypes.c_char_p
C.perfshap_last_error_option_count.restype = ctypes.c_size_t
C.perfshap_last_error_option.argtypes = [ctypes.c_size_t]
C.perfshap_request_create.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
C.perfshap_run.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)]
C.perfshap_request_free.argtypes = [ctypes.c_void_p]
C.perfshap_result_free.argtypes = [ctypes.c_void_p]
C.perfshap_result_file.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p),
                                   ctypes.POINTER(ctypes.c_size_t)]

METHODS = _perfshap.method_options()


def _number(v: float) -> str:
    return str(int(v)) if v == math.floor(v) and abs(v) < 1e15 else repr(v)


def bad_values(o: dict) -> list:
    """Values the declaration refuses: of the wrong type, below and above its range, outside its
    choices or its grammar."""
    kind = o["type"]
    if o["switch"]:
        return ["maybe"]  # only the text front ends can give a switch a value
    if kind == "bool":
        return ["maybe"]
    if kind in ("integer", "number"):
        out = ["abc", "1x"]
        if kind == "integer":
            out.append("1.5")
        lo, hi = o["min"], o["max"]
        if o["unsigned"]:
            out.append("-1")
        elif math.isfinite(lo) and abs(lo) < 1e15:
            out.append(_number(lo) if o["min_exclusive"] else _number(lo - (1 if kind == "integer" else 0.001)))
        if math.isfinite(hi) and abs(hi) < 1e15:
            out.append(_number(hi) if o["max_exclusive"] else _number(hi + (1 if kind == "integer" else 0.001)))
        return out
    if o["choices"]:
        return ["no-such-choice"]
    if o["value"] == "SIZE":
        return ["3Q"]
    return []


CASES = [(method, o["name"], value)
         for method, (_, options) in METHODS.items()
         for o in options
         for value in bad_values(o)]


def cli_error(method, name, value):
    flag = "--" + name.replace("_", "-")
    done = subprocess.run([CLI, method, f"{flag}={value}", "--quiet"], capture_output=True, text=True)
    assert done.returncode == 2, done.stderr
    text = done.stderr.strip()
    prefix = "perfshap: error: "
    assert text.startswith(prefix), text
    text = text[len(prefix):]
    suffix = f" ({flag})"  # the command line names the flag that set the option
    assert text.endswith(suffix), text
    return text[: -len(suffix)]


def python_error(method, name, value):
    # The call every perfshap.<method> makes once its arguments are tables (shap and treeshap
    # take a model and X first).
    with pytest.raises(ValueError) as e:
        _run.run_registered(method, {name: value}, None)
    text = str(e.value)
    suffix = f" ({name})"  # Python names the keyword that set the option
    assert text.endswith(suffix), text
    return text[: -len(suffix)], list(getattr(e.value, "options", []))


def c_error(method, name, value):
    request = ctypes.c_void_p()
    status = C.perfshap_request_create(method.encode(), json.dumps({name: value}).encode(), ctypes.byref(request))
    if status == 0:
        result = ctypes.c_void_p()
        status = C.perfshap_run(request, ctypes.byref(result))
        C.perfshap_request_free(request)
        if status == 0:
            C.perfshap_result_free(result)
    assert status != 0
    options = [C.perfshap_last_error_option(i).decode() for i in range(C.perfshap_last_error_option_count())]
    return C.perfshap_last_error().decode(), options


@pytest.mark.parametrize("method,name,value", CASES, ids=[f"{m}-{n}-{v}" for m, n, v in CASES])
def test_every_front_end_refuses_alike(method, name, value):
    cli = cli_error(method, name, value)
    py, py_options = python_error(method, name, value)
    c, c_options = c_error(method, name, value)
    assert cli == py == c
    assert name in cli  # the message names the option as declared
    assert py_options == c_options == [name]


def test_the_walk_covers_every_method_and_kind():
    # A registry change that left a method without refusals (or a kind unwalked) shows here.
    assert {m for m, _, _ in CASES} == set(METHODS)
    assert len(CASES) >= 20


def test_an_unknown_option_is_refused_by_every_front_end():
    for method in METHODS:
        done = subprocess.run([CLI, method, "--no-such-option", "1"], capture_output=True, text=True)
        assert done.returncode == 2 and "no-such-option" in done.stderr
        with pytest.raises(TypeError, match="no_such_option"):
            _run.run_registered(method, {"no_such_option": 1}, None)
        message, options = c_error(method, "no_such_option", 1)
        assert message.startswith(f"{method} has no option 'no_such_option'"), message
        assert options == ["no_such_option"]


def _c_result_json(method, options):
    request = ctypes.c_void_p()
    assert C.perfshap_request_create(method.encode(), json.dumps(options).encode(), ctypes.byref(request)) == 0
    result = ctypes.c_void_p()
    assert C.perfshap_run(request, ctypes.byref(result)) == 0, C.perfshap_last_error()
    text, length = ctypes.c_char_p(), ctypes.c_size_t()
    assert C.perfshap_result_file(result, b"result.json", ctypes.byref(text), ctypes.byref(length)) == 0
    doc = json.loads(ctypes.string_at(text, length.value))
    C.perfshap_result_free(result)
    C.perfshap_request_free(request)
    return doc


def _stable(doc):
    if isinstance(doc, dict):
        return {k: _stable(v) for k, v in doc.items() if "seconds" not in k and k not in ("threads", "version")}
    if isinstance(doc, list):
        return [_stable(v) for v in doc]
    return doc


def test_every_front_end_accepts_alike():
    options = {"samples": 2, "rows": 200, "train_rows": 120, "comparator": "permuted", "seed": 5, "threads": 1}
    with tempfile.TemporaryDirectory() as out:
        argv = [CLI, "xper-montecarlo", "--out", out, "--quiet"]
        for k, v in options.items():
            argv += ["--" + k.replace("_", "-"), str(v)]
        subprocess.run(argv, check=True)
        with open(os.path.join(out, "result.json"), encoding="utf-8") as f:
            cli = json.load(f)
    py = perfshap.xper_montecarlo(**options).json
    c = _c_result_json("xper-montecarlo", options)
    assert _stable(cli) == _stable(py) == _stable(c)


def test_help_lists_the_same_options_in_every_front_end():
    # `perfshap <method> --help` and help(perfshap.<method>) show the registry's declarations.
    import re
    for method, (_, options) in METHODS.items():
        text = subprocess.run([CLI, method, "--help"], capture_output=True, text=True, check=True).stdout
        flags = {f[2:].replace("-", "_") for f in re.findall(r"--[A-Za-z][A-Za-z0-9-]*", text)}
        flags -= {"help", "quiet", "progress"}  # the terminal's own
        doc = _run.options_doc(method)  # the end of perfshap.<method>'s docstring
        for o in options:
            assert o["name"] in flags, (method, o["name"])
            assert f"    {o['name']}" in doc and o["help"] in doc, (method, o["name"])
        declared_names = {o["name"] for o in options} | {a for o in options for a in o["aliases"]}
        assert flags <= declared_names | {"model_param"}, (method, flags - declared_names)
