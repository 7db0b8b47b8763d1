# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The result of a perfshap run: the engine's record (its arrays as numpy, from the engine's
buffers), result.json's keys as attributes (the engine's document, handed over as Python objects:
no file is parsed), the tables as DataFrames, the figures as SVG text (shown inline in Jupyter),
the HTML report."""
from __future__ import annotations

import html
import io
import os

import numpy as np

from . import _perfshap


def _is_number(v) -> bool:
    return v is None or (isinstance(v, (int, float)) and not isinstance(v, bool))


def arrays(value):
    """result.json's value with numbers as numpy arrays: a list of numbers (or of equal-length
    lists of numbers) becomes a float array, a {name: number} object an array in its order
    (null = NaN); other objects keep their keys, their values converted alike."""
    if isinstance(value, list):
        if value and all(_is_number(v) for v in value):
            return np.array([np.nan if v is None else v for v in value], dtype=float)
        if value and all(isinstance(v, list) and v and all(_is_number(x) for x in v) for v in value):
            if len({len(v) for v in value}) == 1:
                return np.array([[np.nan if x is None else x for x in v] for v in value], dtype=float)
        return [arrays(v) for v in value]
    if isinstance(value, dict):
        if value and all(_is_number(v) for v in value.values()):
            return np.array([np.nan if v is None else v for v in value.values()], dtype=float)
        return {k: arrays(v) for k, v in value.items()}
    return value


class Result:
    """What one method computed.

    Attributes: result.json's keys (``phi``, ``phi_std``, ``phi_se``, ``base``, ``players``,
    ``curves`` ...) with {player: value} objects and lists of numbers as numpy arrays in player
    order (``json`` keeps the document as written). ``files``: every file the run wrote, by name.
    Methods: ``to_frame(table)``, ``to_json()``, ``to_html()``, ``plot(name)`` / ``plot_<name>()``
    (the SVG text; ``_repr_svg_`` shows the first figure in Jupyter), ``save(dir)``.
    """

    def __init__(self, method: str, run, console: str = ""):
        """`run`: the engine's MethodRun (its files and document are made when first read)."""
        self.method = method
        self.console = console
        self._run = run
        self._files = None
        self._json = None
        self._arrays = {}

    @property
    def files(self) -> dict:
        """Every file the run wrote, by name (result.json, the CSV tables, the SVG figures)."""
        if self._files is None:
            self._files = dict(self._run.files())
            if "result.json" not in self._files:
                raise ValueError(f"the {self.method} run wrote no result.json")
        return self._files

    @property
    def json(self) -> dict:
        """result.json's document (a dict in the file's order; None where the file has null): the
        engine's own, not the file parsed."""
        if self._json is None:
            self._json = self._run.document()
        return self._json

    # result.json's keys as attributes
    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        typed = self.__dict__.get("_typed")
        if typed is not None and name in typed:  # the engine's own arrays, no file read
            return typed[name]
        if name.startswith("plot_"):
            figure = name[len("plot_"):] + ".svg"
            if figure in self.files:
                return lambda: self.files[figure]
            raise AttributeError(f"no figure {figure}; the figures: {', '.join(self.figures) or 'none'}")
        doc = self.json
        if name in doc:
            if name not in self._arrays:
                self._arrays[name] = arrays(doc[name])
            return self._arrays[name]
        raise AttributeError(f"'{type(self).__name__}' has no attribute '{name}' (result.json's keys: "
                             f"{', '.join(doc)})")

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.json) | {"plot_" + f[:-4] for f in self.figures})

    def keys(self):
        """result.json's top-level keys."""
        return list(self.json)

    def __getitem__(self, key):
        return getattr(self, key)

    @property
    def tables(self) -> list:
        """The CSV tables the run wrote."""
        return [n for n in self.files if n.endswith(".csv")]

    @property
    def figures(self) -> list:
        """The figures (SVG) the run wrote."""
        return [n for n in self.files if n.endswith(".svg")]

    def to_json(self) -> str:
        """result.json's text, exactly as the command line writes it."""
        return self.files["result.json"]

    def to_frame(self, table: str | None = None):
        """A table as a pandas DataFrame: `table` names a CSV (with or without .csv); default: the
        run's main table (phi.csv, contributions.csv, points.csv, direct.csv ...: the first one)."""
        import pandas as pd  # optional: the rest of the result needs only numpy

        name = self._file(table, self.tables, ".csv", "table", "wrote no table")
        return pd.read_csv(io.StringIO(self.files[name]), float_precision="round_trip")

    def plot(self, name: str | None = None) -> str:
        """A figure's SVG text (default: the first one)."""
        return self.files[self._file(name, self.figures, ".svg", "figure", "drew no figure")]

    def _file(self, name, names, suffix, kind, none):
        """The file `name` (with or without its suffix) among `names`, or the first of them."""
        if not names:
            raise ValueError(f"the {self.method} run {none}")
        name = name or names[0]
        if not name.endswith(suffix):
            name += suffix
        if name not in self.files:
            raise ValueError(f"no {kind} {name}; the {kind}s: {', '.join(names)}")
        return name

    def _repr_svg_(self):
        return self.files[self.figures[0]] if self.figures else None

    def _repr_html_(self):
        """In Jupyter: the run's report.html inline, in a sandboxed frame of its own (its styles and
        script stay inside it), opening on its summary and main figure."""
        page = html.escape(self.to_html(), quote=True)
        return (f'<iframe srcdoc="{page}" title="perfshap {html.escape(str(self.method))} report" '
                'sandbox="allow-scripts" style="width:100%;height:640px;border:1px solid #d1d9e0"></iframe>')

    def to_html(self) -> str:
        """The self-contained report.html (settings, sortable tables, inline figures, result.json):
        the page `--report html` writes."""
        if "report.html" in self.files:
            return self.files["report.html"]
        return _perfshap.html_report([(n, c) for n, c in self.files.items()])

    def save(self, directory, *, force: bool = False, html: bool = True) -> list:
        """Writes the files (and report.html) into `directory`; a non-empty one only with force."""
        directory = os.fspath(directory)
        if os.path.isdir(directory) and os.listdir(directory) and not force:
            raise ValueError(f"output directory '{directory}' is not empty; pass force=True or choose another")
        os.makedirs(directory, exist_ok=True)
        files = dict(self.files)
        if html:
            files["report.html"] = self.to_html()
        for name, content in files.items():
            path = os.path.join(directory, name)
            tmp = os.path.join(directory, f".{name}.tmp.{os.getpid()}")
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                f.write(content)
            os.replace(tmp, path)
        return list(files)

    def __str__(self) -> str:
        """The console text, as the command line prints it: the summary (the question, the
        strongest features with their bands, data, model, result, solver), then the method's own
        lines."""
        return self.console or repr(self)

    def __repr__(self) -> str:
        """The method and the record's arrays with their shapes: cheap (no file is written)."""
        parts = []
        for name, value in (self.__dict__.get("_typed") or self.__dict__.get("_engine") or {}).items():
            shape = getattr(value, "shape", None)
            parts.append(f"{name}{list(shape)}" if shape else f"{name}[{len(value)}]" if isinstance(value, list)
                         else name)
        return f"perfshap.{type(self).__name__}(method={self.method!r}, arrays=[{', '.join(parts)}])"
