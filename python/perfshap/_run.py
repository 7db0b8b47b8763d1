# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Keywords -> the engine's request (engine/src/api/) -> one library call -> a Result.

Every method calls the request layer the command line calls, on in-memory tables, so a call
gives the numbers `perfshap <command>` gives for the same data, options and seed, bit for bit.
The keywords are the command's long options, checked here against its declarations
(_options.json, written at build time from the command line's) before the call.
"""
from __future__ import annotations

import json
import math
import numbers
import os
import re
import sys
import time

import numpy as np

from . import _perfshap
from .result import Result

_options_cache: dict = {}

# The widths of the CLI's integer flags: CLI11 names every unsigned type "UINT" (the CLI's are
# std::size_t and std::uint64_t) and every signed one "INT" (the CLI's are int).
_INTEGER_RANGES = {"UINT": (0, 2**64 - 1), "INT": (-(2**31), 2**31 - 1)}
_RANGE = re.compile(r"\bin \[([-+0-9.eE]+) - ([-+0-9.eE]+)\]")


def options_of(command: str) -> dict:
    """{flag: its declaration} for the command's long flags: _options.json, written at build time
    from the command line's declarations ({"names", "type", "switch", "many"})."""
    if not _options_cache:
        with open(os.path.join(os.path.dirname(__file__), "_options.json"), encoding="utf-8") as f:
            for name, specs in json.load(f).items():
                _options_cache[name] = {flag: spec for spec in specs for flag in spec["names"]}
    if command not in _options_cache:
        raise ValueError(f"unknown method {command!r}; the methods: {', '.join(_options_cache)}")
    return _options_cache[command]


def flags_of(command: str) -> set:
    return set(options_of(command))


def _bound_text(v) -> str:
    for power in (64, 63, 31):
        if v == 2**power - 1:
            return f"2**{power}-1"
        if v == -(2**power):
            return f"-2**{power}"
    return str(v)


def _validators(spec) -> list:
    return spec["type"].split(":")[1:]


def _bounds(spec, lo, hi):
    """(lo, hi) narrowed by the option's validators in its type name: a CLI11 range ("INT in
    [1 - 30]"), NONNEGATIVE."""
    for v in _validators(spec):
        m = _RANGE.search(v)
        if m:
            lo, hi = max(lo, float(m.group(1))), min(hi, float(m.group(2)))
        if v == "NONNEGATIVE":
            lo = max(lo, 0)
    return lo, hi


def _integer(key: str, value, spec, function: str) -> int:
    base = spec["type"].split(":")[0]
    lo, hi = _bounds(spec, *_INTEGER_RANGES[base])
    if "POSITIVE" in _validators(spec):
        lo = max(lo, 1)
    lo, hi = math.ceil(lo), math.floor(hi)
    wanted = f"an integer in {_bound_text(lo)} .. {_bound_text(hi)}"
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{function}(): {key} takes {wanted}, not a bool ({value})")
    if isinstance(value, numbers.Integral):
        v = int(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*[-+]?[0-9]+\s*", value):
        v = int(value)  # decimal (the CLI would read "010" as octal)
    else:
        raise TypeError(f"{function}(): {key} takes {wanted}, not {type(value).__name__} {value!r}"[:300])
    if not lo <= v <= hi:
        shown = str(v) if len(str(v)) <= 40 else str(v)[:37] + "..."
        raise ValueError(f"{function}(): {key}={shown} is out of range: {key} takes {wanted}")
    return v


def _real(key: str, value, spec, function: str) -> float:
    lo, hi = _bounds(spec, -math.inf, math.inf)
    positive = "POSITIVE" in _validators(spec)
    wanted = "a finite number" + (" > 0" if positive else "")
    if lo > -math.inf or hi < math.inf:
        wanted += f" in [{lo:g}, {hi:g}]"
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{function}(): {key} takes {wanted}, not a bool ({value})")
    try:
        if not isinstance(value, (numbers.Real, str)):
            raise TypeError
        v = float(value)
    except OverflowError:  # an int beyond a double: out of range
        v = math.copysign(math.inf, value)
    except (TypeError, ValueError):
        raise TypeError(f"{function}(): {key} takes {wanted}, not {type(value).__name__} {value!r}"[:300]) from None
    if not (math.isfinite(v) and lo <= v <= hi and (v > 0 or not positive)):
        raise ValueError(f"{function}(): {key}={v!r} is out of range: {key} takes {wanted}")
    return v


def checked(key: str, value, spec, function: str):
    """`value` for the flag declared by `spec`, checked against its type and bounds in Python:
    the CLI's own parse would read -1 or 2**64 into an unsigned flag as 2**64-1 and let a NaN
    through a range, and a False switch or a bool for a number would pass unseen."""
    if spec["switch"]:
        if value is None or isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise TypeError(f"{function}(): {key} is a switch: pass True or False, not {value!r}"[:300])
    base = spec["type"].split(":")[0]
    check = _integer if base in _INTEGER_RANGES else _real if base == "FLOAT" else None
    if check is None or value is None:
        return value
    if spec.get("many") and isinstance(value, (list, tuple, np.ndarray)):
        return [check(key, v, spec, function) for v in value]
    return check(key, value, spec, function)


def _text(v) -> str:
    if isinstance(v, float):
        return repr(v)  # round-trips: the CLI parses the same double
    if isinstance(v, (list, tuple)):
        return ",".join(_text(x) for x in v)
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    return str(v)


class _Bar:
    """progress=True: one line on stderr, redrawn."""

    def __init__(self, what: str):
        self.what = what
        self.last = 0.0

    def __call__(self, done, total, elapsed, eta):
        now = time.monotonic()
        final = total > 0 and done >= total
        if now - self.last < 0.2 and not final:
            return
        self.last = now
        frac = done / total if total else 0.0
        cells = int(round(frac * 30))
        sys.stderr.write(f"\r{self.what} [{'#' * cells}{'.' * (30 - cells)}] {100 * frac:5.1f}% "
                         f"{done}/{total} ETA {eta:.1f}s ")
        if final:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _model_params(options: dict, function: str) -> dict:
    """The learner options of model_param=["KEY=VALUE", ...] (or a {KEY: VALUE} dict), C= and
    no_standardize=True, as text: each key once."""
    params: dict = {}
    items = options.pop("model_param", None) or []
    if isinstance(items, dict):
        items = [f"{k}={_text(v)}" for k, v in items.items()]
    elif isinstance(items, str):
        items = [items]
    for item in items:
        key, sep, value = str(item).partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(f"{function}(): model_param {item!r} is not KEY=VALUE (e.g. model_param=['C=2'])")
        if key in params:
            raise ValueError(f"{function}(): model_param gives {key} twice; give each option once")
        params[key] = value.strip()
    for key, name, value in (("C", "C", options.pop("C", None)),
                             ("no_standardize", "standardize", "false" if options.pop("no_standardize", None) else None)):
        if value is None:
            continue
        if name in params:
            raise ValueError(f"{function}(): {key}= and model_param both set {name}; give it once")
        params[name] = repr(float(value)) if key == "C" else value
    return params


def _keyword_error(e, keywords: dict, function: str):
    """The engine's error `e` (DataError or InvalidArgument) with the keywords that set the
    options it names after the message ("... (cv)"); `options` keeps the library's names, as
    every method's errors do."""
    names = []
    known = {flag.replace("-", "_") for flag in flags_of(function.replace("_", "-"))}
    for option in getattr(e, "options", []) or []:
        name = keywords.get(option, option)
        if name not in known and option not in keywords:  # a learner's own option, set by model_param
            name = "model_param"
        if name not in names:
            names.append(name)
    text = str(e) + (f" ({', '.join(names)})" if names else "")
    again = type(e)(text)
    again.options = list(getattr(e, "options", []) or [])
    return again


def _typed_options(function: str, command: str, options: dict) -> dict:
    """The keywords checked against the command's declarations (an unknown one is a TypeError);
    lists of names joined, paths as text."""
    known = options_of(command)
    typed = {}
    comm = options.pop("comm", None)
    if comm is not None:
        # An mpi4py communicator: every process of it makes the same call and gets the whole
        # result, bitwise one process's (the work is shared; README, "Across processes").
        try:
            from mpi4py import MPI
        except ImportError:
            raise TypeError(f"{function}(comm=...) takes an mpi4py communicator, and mpi4py is not importable") from None
        if not isinstance(comm, MPI.Comm):
            raise TypeError(f"{function}(comm=...) takes an mpi4py communicator (mpi4py.MPI.Comm), got {type(comm).__name__}")
        typed["mpi_comm"] = MPI._addressof(comm)
    for key, value in options.items():
        flag = key.replace("_", "-")
        if flag not in known:
            raise TypeError(f"{function}() got an unexpected keyword argument '{key}'")
        value = checked(key, value, known[flag], function)
        if isinstance(value, (list, tuple)) and key in ("features", "metrics"):
            value = ",".join(_text(v) for v in value)
        elif isinstance(value, os.PathLike):
            value = os.fspath(value)
        typed[key] = value
    typed.pop("quiet", None)  # nothing is printed from Python
    return typed


def _callback(function: str, progress):
    callback = _Bar(function) if progress is True else (progress or None)
    if callback is not None and not callable(callback):
        raise TypeError("progress must be True, False/None or a callable(done, total, elapsed, eta)")
    return callback


def _result(function: str, run_) -> Result:
    result = Result(function, run_, run_.console)
    result.__dict__["_typed"] = run_.arrays()
    return result


def _iteration_range(value):
    """iteration_range= as (begin, end): a pair, or the text "BEGIN:END"."""
    if value is None:
        return None
    if isinstance(value, str):
        parts = value.replace(",", ":").split(":")
    else:
        parts = list(value)
    try:
        begin, end = (int(p) for p in parts)
        if begin < 0 or end < 0:
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"iteration_range={value!r}: give (begin, end), the boosting rounds [begin, end) to use "
                         "(0-based, end 0 = to the last round)") from None
    return begin, end


# The library's option names that shap() spells otherwise.
_SHAP_KEYWORDS = {
    "learner": "model", "model_file": "model", "model_params": "model_param", "background_file": "background",
    "time_limit_seconds": "time_limit", "max_model_evaluations": "max_evaluations", "data": "X",
    "max_players": "budget",
}


def _rows(value):
    """rows= as (first, last): a pair, one row, or the text "I..J" (0-based, both included)."""
    if value is None:
        return None
    try:
        if isinstance(value, str):
            first, dots, last = value.partition("..")
            pair = (first, last if dots else first)
            if not all(p.strip().isdigit() for p in pair):
                raise ValueError
            first, last = (int(p) for p in pair)
        elif isinstance(value, numbers.Integral) and not isinstance(value, bool):
            first = last = int(value)
        else:
            first, last = value
            if any(isinstance(p, bool) or not isinstance(p, numbers.Integral) for p in (first, last)):
                raise ValueError
            first, last = int(first), int(last)
        if first < 0 or last < 0:
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"rows={value!r}: give (first, last) or 'I..J', the first and last rows of X to explain "
                         "(0-based, both included)") from None
    return first, last


def explain_shap(options: dict, table, train, background, model, learner, progress, cls) -> Result:
    """perfshap.shap through the engine's request layer; the explanation's arrays come from the
    engine's buffers (ShapResult)."""
    function = "shap"
    iteration_range = _iteration_range(options.pop("iteration_range", None))
    rows = _rows(options.pop("rows", None))
    typed = _typed_options(function, function, options)
    params = _model_params(typed, function)
    callback = _callback(function, progress)
    try:
        run_ = _perfshap.explain_shap(table, train, background, typed, model, learner, params, iteration_range, rows,
                                      callback)
    except (_perfshap.DataError, _perfshap.InvalidArgument) as e:
        raise _keyword_error(e, _SHAP_KEYWORDS, function) from None
    result = cls(function, run_, run_.console)
    result.__dict__["_engine"] = run_.arrays()
    return result


def _names(value, keyword: str):
    """A list of names: a list / tuple, or the text "a,b,c"."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else [str(v) for v in value]
    items = [v.strip() for v in items if v.strip()]
    if not items:
        raise ValueError(f"{keyword}={value!r}: give the names, a list or 'a,b,c'")
    return items


def _comm_address(comm, function: str) -> int:
    """An mpi4py communicator's address, for the engine (every process of it makes the same call
    and gets the whole result, bitwise one process's; README, "Across processes")."""
    try:
        from mpi4py import MPI
    except ImportError:
        raise TypeError(f"{function}(comm=...) takes an mpi4py communicator, and mpi4py is not importable") from None
    if not isinstance(comm, MPI.Comm):
        raise TypeError(f"{function}(comm=...) takes an mpi4py communicator (mpi4py.MPI.Comm), got {type(comm).__name__}")
    return MPI._addressof(comm)


_declared_cache: dict = {}


def declared(method: str) -> tuple:
    """(description, [declarations]) of a registered method, as the engine's registry declares
    them (the names, aliases, defaults, ranges and help every front end shows)."""
    if not _declared_cache:
        _declared_cache.update(_perfshap.method_options())
    return _declared_cache[method]


def options_doc(method: str) -> str:
    """The keywords of a registered method, one per line: name, default, range or choices, help,
    and the aliases (as the command line's --help lists them)."""
    lines = ["Keywords (the engine's declarations):"]
    for o in declared(method)[1]:
        facts = []
        if o["default"]:
            facts.append(f"default {o['default']}")
        if o["choices"]:
            facts.append("one of " + ", ".join(o["choices"]))
        elif o["range"]:
            facts.append(o["range"])
        if o["aliases"]:
            facts.append("alias " + ", ".join(o["aliases"]))
        shown = f" ({'; '.join(facts)})" if facts else ""
        lines.append(f"    {o['name']}{shown}: {o['help']}")
    return "\n".join(lines)


def run_registered(method: str, options: dict, progress, data=None, train=None, background=None, model=None,
                   learner=None, splits=None, split_listed=False) -> Result:
    """A registered method: the keywords go to the engine's registry as they are (it parses and
    checks them, with the command line's and the C API's messages); an unknown one is a
    TypeError, as Python's."""
    function = method.replace("-", "_")
    names = set()
    for o in declared(method)[1]:
        names.add(o["name"])
        names.update(o["aliases"])
    comm = options.pop("comm", None)
    options.pop("quiet", None)  # nothing is printed from Python
    for key in options:
        if key not in names:
            raise TypeError(f"{function}() got an unexpected keyword argument '{key}'")
    if comm is not None:
        options["mpi_comm"] = _comm_address(comm, function)
    callback = _callback(function, progress)
    try:
        run_ = _perfshap.run(method, data, train, background, model, learner, splits, split_listed, options, callback)
    except (_perfshap.DataError, _perfshap.InvalidArgument) as e:
        # The keywords that set the options the message is about, as the command line appends
        # their flags: "... (exact_limit)".
        # The data are Python's X and a model object its model= (unless given as data= or
        # model_file=, a file's path).
        names = list(getattr(e, "options", []) or [])
        own = {"data": "X", "model_file": "model"}
        said = [own[n] if n in own and n not in options else n for n in names]
        again = type(e)(str(e) + (f" ({', '.join(said)})" if said else ""))
        again.options = names
        raise again from None
    return _result(function, run_)
