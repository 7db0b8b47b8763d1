# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Keywords -> the engine's method registry (engine/src/api/registry.hpp) -> one call -> a Result.

Every method is the registry's, which the command line and the C API call too, on in-memory
tables, so a call gives the numbers `perfshap <method>` gives for the same data, options and
seed, bit for bit. The keywords go to the engine as they are: the registry's declarations parse
and check them, with the command line's and the C API's messages.
"""
from __future__ import annotations

import sys
import time

from . import _perfshap
from .result import Result


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


def _callback(function: str, progress):
    callback = _Bar(function) if progress is True else (progress or None)
    if callback is not None and not callable(callback):
        raise TypeError("progress must be True, False/None or a callable(done, total, elapsed, eta)")
    return callback


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
    and gets the whole result, bitwise one process's; docs/mpi.md)."""
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
                   learner=None, splits=None, split_listed=False, cls=Result, arrays="_typed") -> Result:
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
    result = cls(function, run_, run_.console)
    result.__dict__[arrays] = run_.arrays()
    return result
