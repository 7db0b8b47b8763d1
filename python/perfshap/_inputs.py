# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""numpy arrays and pandas DataFrames as the engine's in-memory tables.

A table is (source, [(name, column), ...]); a numeric column is a 1-D numpy view of the caller's
memory (float64, float32, integer or bool: the engine reads it in place through its strides and
converts each value once), a text column a list of str / None (None = missing). pandas
categorical and object columns are text; other dtypes (float16, nullable Int64, datetimes) are
converted once to float64.
"""
from __future__ import annotations

import numpy as np

_NUMERIC_KINDS = {"f": (4, 8), "i": (1, 2, 4, 8), "u": (1, 2, 4, 8), "b": (1,)}


def is_frame(x) -> bool:
    return hasattr(x, "columns") and hasattr(x, "dtypes") and hasattr(x, "iloc")


def is_series(x) -> bool:
    return hasattr(x, "dtype") and hasattr(x, "name") and hasattr(x, "iloc") and not hasattr(x, "columns")


def _numeric(a: np.ndarray) -> bool:
    return a.dtype.isnative and a.dtype.kind in _NUMERIC_KINDS and a.dtype.itemsize in _NUMERIC_KINDS[a.dtype.kind]


def _text(values) -> list:
    out = []
    for v in values:
        if v is None or (isinstance(v, float) and v != v):
            out.append(None)
        else:
            out.append(str(v))
    return out


def column(values, name: str):
    """One column: a numeric 1-D array (a view when the dtype allows) or a list of text cells."""
    if is_series(values):
        dtype = values.dtype
        if str(dtype) in ("category", "object", "string", "str") or getattr(dtype, "kind", None) in ("O", "S", "U"):
            return _text(values.tolist())
        try:
            a = values.to_numpy(copy=False)
        except (TypeError, ValueError):
            a = values.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        a = np.asarray(values)
    if a.ndim != 1:
        raise ValueError(f"column '{name}' is not one-dimensional (shape {a.shape})")
    if a.dtype.kind in "OSU":
        return _text(a.tolist())
    if a.dtype.kind not in "fiub":
        raise TypeError(f"column '{name}' has dtype {a.dtype}, which is neither numbers nor text")
    if not _numeric(a):
        try:
            a = a.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"column '{name}' has dtype {a.dtype}, which is neither numbers nor text") from None
    return a


def feature_columns(X, feature_names=None, what="X"):
    """[(name, column)] of X: a DataFrame's columns by name, a 2-D array's columns (x0, x1, ... or
    feature_names), each a view of X's memory where its dtype allows."""
    if is_frame(X):
        names = [str(c) for c in X.columns]
        if feature_names is not None:
            raise TypeError("feature_names is for numpy arrays; a DataFrame's column names are its features")
        dtypes = set(X.dtypes)
        if len(dtypes) == 1 and len(names) > 0:
            (dtype,) = dtypes
            if isinstance(dtype, np.dtype) and dtype.kind in "fiub":
                # One numeric dtype: the frame's block as one (rows x columns) view, its columns
                # read in place (to_numpy copies only when the frame holds several blocks).
                a = X.to_numpy(copy=False)
                return [(n, column(a[:, j], n)) for j, n in enumerate(names)]
        return [(n, column(X.iloc[:, j], n)) for j, n in enumerate(names)]
    if isinstance(X, (list, tuple)):
        X = np.asarray(X)
    if not isinstance(X, np.ndarray):
        raise TypeError(f"{what} must be a numpy array or a pandas DataFrame, not {type(X).__name__}")
    if X.ndim != 2:
        raise ValueError(f"{what} must be 2-dimensional (rows x features); it has shape {X.shape}")
    names = [str(n) for n in feature_names] if feature_names is not None else [f"x{j}" for j in range(X.shape[1])]
    if len(names) != X.shape[1]:
        raise ValueError(f"{len(names)} feature names for the {X.shape[1]} columns of {what}")
    if X.dtype.kind in "OSU":
        return [(n, _text(X[:, j].tolist())) for j, n in enumerate(names)]
    if X.dtype.kind not in "fiub":
        raise TypeError(f"{what} has dtype {X.dtype}, which is neither numbers nor text")
    if not _numeric(X):
        try:
            X = X.astype(np.float64)  # the one copy of an unsupported dtype
        except (TypeError, ValueError):
            raise TypeError(f"{what} has dtype {X.dtype}, which is neither numbers nor text") from None
    return [(n, X[:, j]) for j, n in enumerate(names)]


def source_of(X) -> str:
    if is_frame(X):
        return "pandas.DataFrame"
    return "numpy.ndarray"


def table(X, y=None, *, label=None, feature_names=None, what="X", extra=None):
    """(table, label name): X's columns, then y as the label column (named `label`, y's name or
    "label"); with y None, `label` names a column of X (or there is no label)."""
    cols = feature_columns(X, feature_names, what)
    n = len(X)
    if y is not None:
        if label is None:
            label = str(y.name) if is_series(y) and y.name is not None else "label"
        if any(name == label for name, _ in cols):
            raise ValueError(f"{what} already has a column '{label}'; name the label otherwise (label=...)")
        ycol = column(y, label)
        if len(ycol) != n:
            raise ValueError(f"y has {len(ycol)} values and {what} has {n} rows; give one label per row")
        cols.append((label, ycol))
    for name, values in extra or []:
        if len(values) != n:
            raise ValueError(f"'{name}' has {len(values)} values and {what} has {n} rows")
        cols.append((name, column(values, name)))
    return (what, cols), label
