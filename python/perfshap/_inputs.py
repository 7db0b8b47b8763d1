# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""numpy arrays and pandas DataFrames as the engine's in-memory tables.

A table is (source, [(name, column), ...]); a numeric column is a 1-D numpy view of the caller's
memory (float64, float32, integer or bool: the engine reads it in place through its strides and
converts each value once), a text column a list of str / None (None = missing).

Which columns are numbers and which are text, whatever container holds them:

- numeric dtypes (float, int, uint, bool) are numbers; float16, non-native byte orders and the
  pandas nullable dtypes (Int64, Float64, boolean ...) are converted once to float64, their
  missing cells (pd.NA) to NaN;
- a column of dtype ``object`` (what ``DataFrame.to_numpy()`` gives for mixed dtypes, a list of
  lists, a pandas object column) is read cell by cell: numbers only (int, float, bool, numpy
  scalars, Decimal) make a numeric column, str (or bytes, as UTF-8) only a text column. A column
  mixing numbers and text is refused with a TypeError naming the column and the first cell of
  the other kind: convert it (``pandas.to_numeric(..., errors="coerce")`` or ``.astype(str)``)
  rather than have perfshap guess. Any other object (a date, a list) is refused alike;
- pandas ``category`` columns are text (their levels, whatever the categories' type), as are
  numpy ``str`` / ``bytes`` arrays and the pandas ``string`` dtype;
- missing cells are ``None``, ``NaN``, ``pd.NA`` and ``pd.NaT`` in every kind of column: the
  engine's ``missing=`` policy (error / category / drop) decides what becomes of them (in a
  text column ``missing="category"`` makes them a level "NA"), never a level spelled "<NA>";
- datetimes, timedeltas and complex numbers are refused (TypeError); convert them to numbers.
"""
from __future__ import annotations

import decimal
import numbers
import sys

import numpy as np

_NUMERIC_KINDS = {"f": (4, 8), "i": (1, 2, 4, 8), "u": (1, 2, 4, 8), "b": (1,)}


# The attributes are looked up on the type: on an instance, hasattr evaluates a property
# (a DataFrame's dtypes builds a Series each time).
def is_frame(x) -> bool:
    t = type(x)
    return hasattr(t, "columns") and hasattr(t, "dtypes") and hasattr(t, "iloc")


def is_series(x) -> bool:
    t = type(x)
    return hasattr(t, "dtype") and hasattr(t, "name") and hasattr(t, "iloc") and not hasattr(t, "columns")


def _numeric(a: np.ndarray) -> bool:
    return a.dtype.isnative and a.dtype.kind in _NUMERIC_KINDS and a.dtype.itemsize in _NUMERIC_KINDS[a.dtype.kind]


# Cell types numpy turns into doubles exactly as float() does (bool as 0 / 1).
_PLAIN_NUMBERS = {float, int, bool, np.float64, np.float32, np.int64, np.int32, np.int16, np.int8, np.uint64, np.uint32,
                  np.uint16, np.uint8, np.bool_}


def is_missing(v) -> bool:
    """None, a NaN (float, numpy or Decimal), pd.NA, pd.NaT or numpy's NaT."""
    if v is None:
        return True
    if isinstance(v, (float, np.floating)):
        return v != v
    if isinstance(v, decimal.Decimal):
        return v.is_nan()
    if isinstance(v, (np.datetime64, np.timedelta64)):
        return bool(np.isnat(v))
    pd = sys.modules.get("pandas")  # pd.NA / pd.NaT exist only once pandas is imported
    return pd is not None and (v is pd.NA or v is pd.NaT)


def _is_number(v) -> bool:
    if isinstance(v, (np.datetime64, np.timedelta64)):  # numpy counts timedelta64 as an integer
        return False
    return isinstance(v, (numbers.Real, np.bool_, decimal.Decimal))


def _where(what: str, name: str) -> str:
    return f"{what}: column '{name}'"


def _kind_of(v):
    if isinstance(v, (str, bytes)):
        return "text"
    if _is_number(v):
        return "number"
    return None


def _decoded(v, what, name, row):
    if isinstance(v, bytes):
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{_where(what, name)}, row {row}: the bytes {v[:20]!r} are not UTF-8 text; decode them "
                             f"first") from None
    return v


def _cells(cells: list, name: str, what: str):
    """A column given cell by cell (dtype object, a list): numbers only -> float64 (missing NaN);
    text only -> [str | None]; all missing -> float64 NaN (the missing policy then decides);
    numbers mixed with text, or another type of cell -> TypeError naming the column and cell."""
    types = set(map(type, cells))
    if types <= {str}:
        return list(cells)  # text with no missing cell: the common case, without a look at each cell
    if types <= _PLAIN_NUMBERS:
        try:
            return np.array(cells, dtype=np.float64)  # numbers (NaN missing): numpy converts them at once
        except OverflowError:
            pass  # an int beyond a double: the cell by cell path names it
    kind = None
    first = 0
    for i, v in enumerate(cells):
        if is_missing(v):
            continue
        k = _kind_of(v)
        if k is None:
            raise TypeError(f"{_where(what, name)}, row {i}: {_shown(v)} (a {type(v).__name__}) is neither a "
                            f"number nor text; convert the column to numbers or to str")
        if kind is None:
            kind, first = k, i
        elif k != kind:
            raise TypeError(f"{_where(what, name)} mixes numbers and text: row {first} holds {_shown(cells[first])} "
                            f"and row {i} holds {_shown(v)}; convert the column to numbers "
                            f"(pandas.to_numeric(..., errors='coerce') makes the text missing) or to text "
                            f"(.astype(str))")
    if kind == "text":
        return [None if is_missing(v) else _decoded(v, what, name, i) for i, v in enumerate(cells)]
    out = np.empty(len(cells), dtype=np.float64)
    for i, v in enumerate(cells):
        if is_missing(v):
            out[i] = np.nan
            continue
        try:
            out[i] = float(v)
        except (OverflowError, ValueError):
            raise ValueError(f"{_where(what, name)}, row {i}: {_shown(v)} does not fit a double; scale the column")
    return out


def _shown(v) -> str:
    """A cell for a message, cut short (a message never prints an unbounded value)."""
    text = repr(v) if isinstance(v, (str, bytes)) else str(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _text_cells(values, name: str, what: str) -> list:
    """A pandas categorical's cells as text: its categories' text, missing cells None."""
    return [None if is_missing(v) else str(_decoded(v, what, name, i)) for i, v in enumerate(values)]


def _series(values, name: str, what: str):
    """A pandas Series as a numpy array or text cells (see the module's rules)."""
    dtype = values.dtype
    if str(dtype) == "category":
        return _text_cells(values.tolist(), name, what)
    kind = getattr(dtype, "kind", None)
    if isinstance(dtype, np.dtype):
        return values.to_numpy(copy=False)
    # An extension dtype: nullable integers / floats / booleans (and sparse numbers) as float64
    # with pd.NA as NaN; strings and other objects cell by cell.
    if kind in ("i", "u", "f", "b"):
        return values.to_numpy(dtype=np.float64, na_value=np.nan)
    if kind == "O" or str(dtype) in ("string", "str"):
        return values.to_numpy(dtype=object)  # pd.NA stays pd.NA: a missing cell
    raise TypeError(f"{_where(what, name)} has dtype {dtype}, which is neither numbers nor text; convert it to numbers")


def column(values, name: str, what: str = "X"):
    """One column: a numeric 1-D array (a view when the dtype allows) or a list of text cells."""
    if is_series(values):
        a = _series(values, name, what)
        if isinstance(a, list):
            return a
    elif isinstance(values, (list, tuple)):
        a = _list_array(values, what)
    else:
        a = _plain(values, what)
    if a.ndim == 2 and a.shape[1] == 1:
        a = a[:, 0]  # a column vector (n x 1), as scikit-learn takes it
    if a.ndim != 1:
        raise ValueError(f"{_where(what, name)} is not one-dimensional (shape {a.shape})")
    return _array_column(a, name, what)


def _array_column(a: np.ndarray, name: str, what: str):
    kind = a.dtype.kind
    if kind == "O":
        return _cells(a.tolist(), name, what)
    if kind in "SU":
        return [_decoded(v, what, name, i) for i, v in enumerate(a.tolist())]
    if kind not in "fiub":
        raise TypeError(f"{_where(what, name)} has dtype {a.dtype}, which is neither numbers nor text; convert it to "
                        f"numbers")
    if not _numeric(a):
        a = a.astype(np.float64)  # float16, a non-native byte order: the one copy
    return a


def _plain(x, what: str) -> np.ndarray:
    """An array-like as a plain ndarray: a masked array's masked cells missing (NaN / None), a
    subclass (np.matrix) as its base array."""
    if isinstance(x, np.ma.MaskedArray):
        if not np.ma.getmaskarray(x).any():
            return np.asarray(np.ma.getdata(x))
        if x.dtype.kind in "fiub":
            return np.ma.filled(x.astype(np.float64), np.nan)
        return np.ma.filled(x.astype(object), None)
    return np.asarray(x)


def _list_array(values, what: str) -> np.ndarray:
    """A list (of lists) as an array, its cells kept as they are: numpy would turn [1, "a"] into
    the strings "1" and "a"."""
    try:
        a = np.asarray(values)
        if a.dtype.kind in "OSU":
            a = np.array(values, dtype=object)
    except ValueError:
        raise ValueError(f"{what}: the rows have different lengths; give one value per column in every row") from None
    return a


def feature_columns(X, feature_names=None, what="X"):
    """[(name, column)] of X: a DataFrame's columns by name, a 2-D array's columns (x0, x1, ... or
    feature_names), each a view of X's memory where its dtype allows."""
    if is_series(X):
        X = X.to_frame(name="x0" if X.name is None else X.name)  # one feature
    if is_frame(X):
        names = [str(c) for c in X.columns]
        if feature_names is not None:
            raise TypeError("feature_names is for numpy arrays; a DataFrame's column names are its features")
        _check_unique(names, what)
        dtypes = set(X.dtypes)
        if len(dtypes) == 1 and len(names) > 0:
            (dtype,) = dtypes
            if isinstance(dtype, np.dtype) and dtype.kind in "fiub":
                # One numeric dtype: the frame's block as one (rows x columns) view, its columns
                # read in place (to_numpy copies only when the frame holds several blocks).
                a = X.to_numpy(copy=False)
                return [(n, _array_column(a[:, j], n, what)) for j, n in enumerate(names)]
        return [(n, column(X.iloc[:, j], n, what)) for j, n in enumerate(names)]
    if isinstance(X, (list, tuple)):
        X = _list_array(X, what)
    if not isinstance(X, np.ndarray):
        raise TypeError(f"{what} must be a numpy array or a pandas DataFrame, not {type(X).__name__}")
    X = _plain(X, what)
    if X.ndim != 2:
        hint = ": for one feature pass X.reshape(-1, 1), for one row X.reshape(1, -1)" if X.ndim == 1 else ""
        raise ValueError(f"{what} must be 2-dimensional (rows x features); it has shape {X.shape}{hint}")
    names = [str(n) for n in feature_names] if feature_names is not None else [f"x{j}" for j in range(X.shape[1])]
    if len(names) != X.shape[1]:
        raise ValueError(f"{len(names)} feature names for the {X.shape[1]} columns of {what}")
    _check_unique(names, what if feature_names is None else "feature_names")
    if X.dtype.kind not in "OSUfiub":
        raise TypeError(f"{what} has dtype {X.dtype}, which is neither numbers nor text; convert it to numbers")
    if X.dtype.kind in "fiub" and not _numeric(X):
        X = X.astype(np.float64)  # the one copy of an unsupported dtype
    return [(n, _array_column(X[:, j], n, what)) for j, n in enumerate(names)]


def _check_unique(names, what):
    seen = set()
    for n in names:
        if n in seen:
            raise ValueError(f"{what} has two columns named '{n}'; column names must be unique (as text): rename one")
        seen.add(n)


def source_of(X) -> str:
    if is_frame(X):
        return "pandas.DataFrame"
    return "numpy.ndarray"


def check_aligned(X, other, what: str, other_what: str):
    """Rows are paired by position; a pandas X and y (or Y) whose indexes differ would pair rows
    that pandas itself would not: refused."""
    if (is_frame(X) or is_series(X)) and (is_frame(other) or is_series(other)) and len(X) == len(other):
        if not X.index.equals(other.index):
            raise ValueError(f"{other_what} and {what} have different indexes; perfshap pairs rows by position: align "
                             f"them ({other_what} = {other_what}.loc[{what}.index]) or reset both "
                             f"(.reset_index(drop=True))")


def table(X, y=None, *, label=None, feature_names=None, what="X", extra=None):
    """(table, label name): X's columns, then y as the label column (named `label`, y's name or
    "label"); with y None, `label` names a column of X (or there is no label)."""
    if label is not None:
        label = str(label)
    if hasattr(type(X), "__arrow_c_stream__") or hasattr(type(X), "__arrow_c_array__"):
        # Arrow data (the PyCapsule protocol: pyarrow, polars, duckdb, pandas 2 ...): a stream of
        # record batches, or one record batch (a struct array); the engine imports it itself; its
        # label is one of its columns.
        if y is not None or extra:
            raise TypeError(f"{what} is Arrow data: give its label as one of its columns, named by label=, not as y")
        if feature_names is not None:
            raise TypeError("feature_names is for numpy arrays; an Arrow table's column names are its features")
        if hasattr(type(X), "__arrow_c_stream__"):
            return ("arrow", X.__arrow_c_stream__()), label
        return ("arrow", tuple(X.__arrow_c_array__())), label
    cols = feature_columns(X, feature_names, what)
    n = len(X)
    if y is not None:
        if label is None:
            label = str(y.name) if is_series(y) and y.name is not None else "label"
        if any(name == label for name, _ in cols):
            raise ValueError(f"{what} already has a column '{label}'; name the label otherwise (label=...)")
        if is_frame(y) and y.shape[1] == 1:
            y = y.iloc[:, 0]
        ycol = column(y, label, "y")
        if len(ycol) != n:
            raise ValueError(f"y has {len(ycol)} values and {what} has {n} rows; give one label per row")
        check_aligned(X, y, what, "y")
        cols.append((label, ycol))
    for name, values in extra or []:
        if len(values) != n:
            raise ValueError(f"'{name}' has {len(values)} values and {what} has {n} rows")
        check_aligned(X, values, what, f"'{name}'")
        cols.append((name, column(values, name, what)))
    return (what, cols), label
