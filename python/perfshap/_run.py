# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Keywords -> the subcommand's flags -> the engine's in-process run -> a Result.

Every method runs the command line's own code (engine/cli/embed.hpp) on in-memory tables, so a
call gives the numbers `perfshap <command>` gives for the same data, flags and seed, bit for bit.
"""
from __future__ import annotations

import os
import sys
import time

from . import _perfshap
from .result import Result

_flags_cache: dict = {}


def flags_of(command: str) -> set:
    if command not in _flags_cache:
        _flags_cache[command] = set(_perfshap.command_flags(command))
    return _flags_cache[command]


def _text(v) -> str:
    if isinstance(v, float):
        return repr(v)  # round-trips: the CLI parses the same double
    if isinstance(v, (list, tuple)):
        return ",".join(_text(x) for x in v)
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    return str(v)


def arguments(command: str, options: dict, function: str) -> list:
    """The flags of `options` (keyword names with '_' for '-'); True = a bare flag, False/None = absent."""
    known = flags_of(command)
    args = [command]
    for key, value in options.items():
        flag = key.replace("_", "-")
        if flag not in known:
            raise TypeError(f"{function}() got an unexpected keyword argument '{key}'")
        if value is None or value is False:
            continue
        args.append("--" + flag)
        if value is not True:
            args.append(_text(value))
    return args


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


def run(command: str, options: dict, *, tables=None, models=None, progress=None, function=None, cls=Result) -> Result:
    """Runs `command` with `options` as flags; `progress` is None, True (a bar on stderr) or a
    callable progress(done, total, elapsed_seconds, eta_seconds)."""
    args = arguments(command, options, function or command)
    callback = _Bar(command) if progress is True else (progress or None)
    if callback is not None and not callable(callback):
        raise TypeError("progress must be True, False/None or a callable(done, total, elapsed, eta)")
    out = _perfshap.run(args, tables or {}, models or {}, callback, defer=True)
    return cls(command, out["files"] if out["deferred"] is None else out["deferred"], out["console"])
