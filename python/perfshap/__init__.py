# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""perfshap: Shapley values of models' performance, robustness and predictions.

Every method of the command line, from Python, on numpy arrays or pandas DataFrames::

    import perfshap
    r = perfshap.robustness(X, y, model="gnb", cv="mc:100", seed=0)   # ShapAUC / ShapROC / ShapPRC
    r.phi, r.phi_std, r.players, r.to_frame(), r.plot_waterfall_auc(), r.to_html()
    perfshap.xper(X, y, model="logistic", metric="auc")               # XPER
    perfshap.shap(booster, X, background=100)                          # SHAP (interventional)
    perfshap.treeshap(booster, X)                                      # TreeSHAP, the fast path
    perfshap.axom(X, y, trees=100)                                     # AXOM
    perfshap.chains(X, Y)                                              # Shapley Chains

Each call makes the engine's typed request (engine/src/api/, the layer the command line calls)
and runs it in-process, so it gives the numbers ``perfshap <command>`` gives for the same data,
options and seed, bit for bit. Keywords are the command's long options (``test_size=0.3`` is
``--test-size 0.3``; ``True`` sets a switch); errors name keywords, never flags. The GIL
is released while the engine works; Ctrl-C stops it (KeyboardInterrupt); ``progress=True``
draws a bar on stderr, or pass a callable ``progress(done, total, elapsed, eta)``; bad input
raises ValueError / TypeError with the engine's one-line message.

Inputs are read as the values they hold, whatever the container: an array of dtype ``object``
(``DataFrame.to_numpy()`` of mixed dtypes) or a list of rows keeps its numbers as numbers and its
str cells as text, column by column; a column mixing numbers and text is refused (TypeError
naming the column and the cell); ``None``, ``NaN``, ``pd.NA`` and ``pd.NaT`` are missing values
in every dtype (nullable ``Int64`` / ``Float64`` / ``boolean``, ``string``, ``category``,
object), handled by ``missing="error" | "category" | "drop"``; duplicate column names, X and y
with different pandas indexes, and integer keywords out of their range (``seed`` in
0 .. 2**64-1, ``threads`` in 0 .. 2**31-1, ...) are refused before the run, naming them.
``split=`` takes {"train": rows, "test": rows} with rows as lists or numpy arrays of any
integer dtype, a (train, test) pair, or a list / iterable of them (as ``KFold(k).split(X)``
yields). See perfshap._inputs for the rules.
"""
from __future__ import annotations

import numbers
import os

import numpy as np

from . import _inputs, _perfshap, _run, _sklearn
from .result import Result

DataError = _perfshap.DataError  # the data cannot be used as they are (a ValueError)
InvalidArgument = _perfshap.InvalidArgument  # an option or argument outside its domain (a ValueError)

__all__ = ["DataError", "InvalidArgument", "Result", "ShapResult", "TreeShapResult", "axom", "chains", "demo", "load_model", "robustness", "sage", "shap", "treeshap",
           "xper", "xper_montecarlo"]


def _model_json(model):
    """The JSON text of a model: a path, JSON text or bytes, an xgboost Booster or sklearn-style model."""
    if hasattr(model, "get_booster"):  # XGBClassifier / XGBRegressor
        model = model.get_booster()
    if hasattr(model, "save_raw"):  # xgboost.Booster
        return bytes(model.save_raw(raw_format="json")).decode(), "the xgboost Booster"
    if isinstance(model, (bytes, bytearray)):
        return bytes(model).decode(), "the model's JSON bytes"
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        if path.lstrip().startswith("{"):
            return path, "the model's JSON text"
        try:
            with open(path, encoding="utf-8") as f:
                return f.read(), path
        except OSError as e:
            raise ValueError(f"{path}: cannot read the model ({e.strerror}); check the path") from None
    raise ValueError(f"a {type(model).__name__} is not a tree model perfshap reads: give an XGBoost model (a Booster, "
                     "an XGBClassifier / XGBRegressor, a path to its JSON file, or its JSON text or bytes) or a fitted "
                     "scikit-learn tree model (DecisionTree*, RandomForest*, ExtraTrees*, GradientBoosting*, "
                     "HistGradientBoosting*); explain any other model or function with perfshap.shap")


def load_model(model, *, iteration_range=None) -> _perfshap.TreeModel:
    """A tree model: XGBoost gbtree from a path, JSON text/bytes or an xgboost Booster, or a
    fitted scikit-learn tree model (DecisionTree*, RandomForest*, ExtraTrees*,
    GradientBoosting*, HistGradientBoosting*), converted from its arrays with its own raw
    scores as the margins (perfshap/_sklearn.py).

    iteration_range=(begin, end): the boosting rounds [begin, end) to use (end 0 = to the last).
    By default an early-stopped model is used up to its best_iteration, as XGBoost's
    scikit-learn predict and shap do; (0, 0) takes every round. The model's `iteration_range`
    and `best_iteration` say which rounds are used."""
    if isinstance(model, _perfshap.TreeModel):
        if iteration_range is None:
            return model
        if not model.json:
            raise ValueError("iteration_range selects boosting rounds of an XGBoost model; this model was converted "
                             "from scikit-learn: drop iteration_range")
        return _perfshap.TreeModel(model.json, model.source, iteration_range)
    if _sklearn.is_tree_model(model):
        if iteration_range is not None:
            raise ValueError("iteration_range selects boosting rounds of an XGBoost model; drop it for a "
                             "scikit-learn model")
        return _sklearn.convert(model)
    text, source = _model_json(model)
    return _perfshap.TreeModel(text, source, iteration_range)


def _matrix(X, model: _perfshap.TreeModel, what: str):
    """X as a float64 rows x features array in the model's feature order; its cells read by the
    rules of the other methods (perfshap._inputs: an object array of numbers is numbers, None /
    pd.NA are missing, NaN for the trees), text refused."""
    names = list(model.feature_names)
    if np.ndim(X) >= 1 and len(X) == 0:
        raise ValueError(f"{what} has no rows; give at least one row to explain")
    if isinstance(X, np.ndarray) and type(X) is np.ndarray and X.dtype.kind in "fiub":
        if X.ndim != 2:
            _inputs.feature_columns(X, what=what)  # raises the shape's message
        if names and what == "X":
            _warn_by_position(names)
        return np.asarray(X, dtype=np.float64), names  # float64 in either order: read in place
    if _inputs.is_frame(X) and names and list(map(str, X.columns)) == names and len(X.columns) > 0 \
            and all(d == np.float64 for d in X.dtypes):
        # A float64 frame in the model's order: its block, read in place (no copy when it has one).
        return X.to_numpy(dtype=np.float64, copy=False), names
    if _inputs.is_frame(X) and names:
        columns = [str(c) for c in X.columns]
        _inputs.feature_columns(X.iloc[:0], what=what)  # duplicate names refused, naming the name
        missing = [n for n in names if n not in columns]
        if missing:
            raise ValueError(f"{what} has no column '{missing[0]}', a feature of the model")
        X = X.iloc[:, [columns.index(n) for n in names]]
    cols = _inputs.feature_columns(X, what=what)
    for name, col in cols:
        if isinstance(col, list):
            raise TypeError(f"{what}: column '{name}' holds text; a tree model takes numbers: encode it as the model "
                            f"was trained")
    n = len(X)
    return np.column_stack([c for _, c in cols]).astype(np.float64) if cols else np.empty((n, 0)), names


def treeshap(model, X, *, background=None, threads: int = 0, iteration_range=None, interactions: bool = False,
             interaction_features=None) -> "ShapResult":
    """TreeSHAP of a tree model's margins (an XGBoost model, or a scikit-learn tree model: see
    load_model): path-dependent, or interventional against
    `background` rows. Bitwise the same at any `threads` (0 = every core). iteration_range:
    as load_model (default: up to an early-stopped model's best_iteration).

    interactions=True: SHAP interaction values too (result.interactions, as XGBoost's
    pred_interactions: rows x (features + 1) x (features + 1), with an outputs axis after the
    rows for several outputs; entry (i, j) is half the pair's Shapley interaction index, each row
    adds up to the feature's SHAP value). interaction_features=[names or indices]: only those
    features' rows of the matrix (rows x k x (features + 1)), implying interactions=True."""
    if isinstance(threads, (bool, np.bool_)) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"treeshap(): threads takes an integer >= 0 (0: every core), not {threads!r}"[:300])
    if not 0 <= threads < 2**31:
        raise ValueError(f"treeshap(): threads={threads} is out of range: an integer in 0 .. 2**31-1")
    threads = int(threads)
    m = load_model(model, iteration_range=iteration_range)
    x, names = _matrix(X, m, "X")
    bg = None if background is None else _matrix(background, m, "the background")[0]
    if _sklearn.is_tree_model(model) and not _sklearn.allows_missing(model):
        for what, a in (("X", x), ("the background", bg)):
            if a is not None and np.isnan(a).any():
                r, j = np.argwhere(np.isnan(a))[0]
                raise ValueError(f"{what} has a missing value (NaN) at row {r}, feature '{names[j] if names else j}'; "
                                 f"the {type(model).__name__} does not predict missing values (scikit-learn 1.2): "
                                 "impute them, or use HistGradientBoosting")
    # One path with shap(approach="tree"): the registry's treeshap on the rows as a table in the
    # model's feature order, the loaded model handed over as it is (its rounds already chosen).
    names = names or [f"f{j}" for j in range(m.n_features)]
    options: dict = {"threads": threads}
    if interactions or interaction_features is not None:
        rows = _interaction_rows(interaction_features, names)
        options["interactions"] = True
        if rows:
            options["interaction_features"] = [names[j] for j in rows]
    t, _ = _inputs.table(x, None, feature_names=names, what="X")
    b = None if bg is None else _inputs.table(bg, None, feature_names=names, what="background")[0]
    result = _run.run_registered("treeshap", options, None, data=t, background=b, model=m, cls=ShapResult,
                                 arrays="_engine")
    result.__dict__["iteration_range"] = tuple(m.iteration_range)
    result.__dict__["best_iteration"] = m.best_iteration
    return result


def _interaction_rows(features, names) -> list:
    """Model feature indices of interaction_features (names or indices); [] for None (all)."""
    if features is None:
        return []
    if isinstance(features, str):
        features = [f for f in features.split(",") if f]
    rows = []
    for f in features:
        if isinstance(f, str):
            if f not in names:
                raise ValueError(f"interaction_features: '{f}' is not one of the model's features "
                                 f"({', '.join(names[:8])}{', ...' if len(names) > 8 else ''})")
            rows.append(names.index(f))
        elif isinstance(f, (int, np.integer)) and not isinstance(f, bool) and 0 <= int(f) < len(names):
            rows.append(int(f))
        else:
            raise ValueError(f"interaction_features: {f!r} is neither a feature name nor an index 0..{len(names) - 1}")
    if not rows:
        raise ValueError("interaction_features: name at least one feature (or leave it None for all)")
    return rows


# ---------------------------------------------------------------------------------------------
# The methods: data -> in-memory tables, keywords -> flags, one in-process run -> Result.


def _is_index_list(x) -> bool:
    """Whether x reads as one list of row indices (not a list of splits): a 1-D array, or a
    sequence whose first item is a scalar (or that is empty)."""
    if isinstance(x, np.ndarray) or _inputs.is_series(x) or hasattr(x, "__array__"):
        return np.ndim(x) == 1
    if isinstance(x, (list, tuple, range)):
        return len(x) == 0 or np.ndim(x[0]) == 0 and not isinstance(x[0], (dict, str))
    return False


def _row_indices(value, where: str, n_rows):
    """One list of row indices of split= as Python ints: any integer dtype, integral floats;
    booleans, fractions, negatives, rows past the data and 2-D arrays refused with ValueError."""
    try:
        a = np.asarray(value)
    except ValueError:
        raise ValueError(f"split: {where} is not a list of row indices") from None
    if a.ndim != 1:
        raise ValueError(f"split: {where} must be a 1-D list of row indices; it has shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"split: {where} is empty; each split needs at least one row in 'train' and one in 'test'")
    kind = a.dtype.kind
    if kind == "b" or (kind == "O" and any(isinstance(v, (bool, np.bool_)) for v in a)):
        raise ValueError(f"split: {where} holds booleans; give row indices (np.flatnonzero(mask) turns a mask into "
                         f"them)")
    if kind == "O":
        try:
            a = a.astype(np.float64) if any(isinstance(v, (float, np.floating)) for v in a) else a
        except (TypeError, ValueError):
            pass
        kind = a.dtype.kind
    if kind == "f":
        bad = np.flatnonzero(~np.isfinite(a) | (a != np.floor(a)))
        if bad.size:
            k = int(bad[0])
            raise ValueError(f"split: {where}[{k}] = {a[k]!r} is not a whole number; row indices are 0-based integers")
        rows = [int(v) for v in a]
    elif kind in "iu":
        rows = a.tolist()
    elif kind == "O":
        for k, v in enumerate(a):
            if not isinstance(v, numbers.Integral):
                raise ValueError(f"split: {where}[{k}] = {_inputs._shown(v)} is not a row index; row indices are "
                                 f"0-based integers")
        rows = [int(v) for v in a]
    else:
        raise ValueError(f"split: {where} has dtype {a.dtype}; give row indices (0-based integers)")
    for k, v in enumerate(rows):
        if v < 0:
            raise ValueError(f"split: {where}[{k}] = {v} is negative; row indices count from 0")
        if n_rows is not None and v >= n_rows:
            raise ValueError(f"split: {where}[{k}] = {v} is out of range: X has {n_rows} rows (indices 0 .. "
                             f"{n_rows - 1})")
    return rows


def _one_split(value, where: str, n_rows) -> dict:
    if isinstance(value, dict):
        unknown = [k for k in value if k not in ("train", "test")]
        if unknown or len(value) != 2:
            raise ValueError(f"split: {where or 'the split'} must hold exactly 'train' and 'test'"
                             + (f", not {unknown[0]!r}" if unknown else f"; it holds {sorted(map(str, value))}"))
        parts = value["train"], value["test"]
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        parts = value
    else:
        raise ValueError(f"split: {where or 'the split'} is a {type(value).__name__}; give {{'train': rows, 'test': "
                         f"rows}} or a (train, test) pair of row-index arrays")
    dot = where + "." if where else ""
    return {"train": _row_indices(parts[0], dot + "train", n_rows),
            "test": _row_indices(parts[1], dot + "test", n_rows)}


def _split_document(value, n_rows):
    """split= as the --split file's JSON: {"train": [...], "test": [...]} or {"splits": [...]}.
    Takes a dict {"train": rows, "test": rows} (rows: lists or numpy arrays of any integer dtype),
    a (train, test) pair, {"splits": [...]}, or a list / iterable of splits (as scikit-learn's
    KFold(...).split(X) yields them)."""
    if isinstance(value, dict) and "splits" in value:
        if len(value) != 1:
            raise ValueError("split: {'splits': [...]} holds nothing else")
        value = value["splits"]
        if isinstance(value, dict) or _is_index_list(value):
            raise ValueError("split: 'splits' must be a list of splits")
    elif isinstance(value, dict):
        return _one_split(value, "", n_rows)
    elif isinstance(value, np.ndarray):
        raise ValueError(f"split: a {value.ndim}-D array is not a split; give {{'train': rows, 'test': rows}} or "
                         f"a list of such splits")
    elif isinstance(value, (tuple, list)) and len(value) == 2 and _is_index_list(value[0]):
        return _one_split(value, "", n_rows)
    try:
        splits = list(value)
    except TypeError:
        raise ValueError(f"split: a {type(value).__name__} is not a split; give {{'train': rows, 'test': rows}}, a "
                         f"(train, test) pair or a list of them") from None
    if not splits:
        raise ValueError("split: the list of splits is empty")
    return {"splits": [_one_split(v, f"splits[{k}]", n_rows) for k, v in enumerate(splits)]}


def _rows_of(tables: dict):
    """The rows of the --data table, when there is one."""
    t = tables.get("X")
    if t is None or not t[1]:
        return None
    return len(t[1][0][1])


def _labelled(X, y, label, feature_names, options, tables):
    """X (and y) as the data table; none = data= (a CSV file) or the command's built-in data."""
    if X is None:
        if y is not None:
            raise TypeError("y without X: give the features too")
        if label is not None:
            options["label"] = label
        return
    if options.get("data") is not None:
        raise TypeError("give X or data= (a CSV file), not both")
    t, label = _inputs.table(X, y, label=label, feature_names=feature_names, what="X")
    if label is None:
        raise TypeError("give y (the labels), or label= naming the label column of X")
    tables["X"] = t
    options["label"] = label


def _train(train, label, options, tables):
    """train = (X, y) or a DataFrame with the label column `label`, as the --train table; the
    label column's name goes to --label."""
    if train is None:
        return
    Xt, yt = train if isinstance(train, tuple) else (train, None)
    t, label = _inputs.table(Xt, yt, label=label, what="train")
    if label is None:
        raise TypeError("train: give (X, y), or a DataFrame and label= naming its label column")
    tables["train"] = t
    options["train"] = "train"
    options["label"] = label


def _is_function_model(model) -> bool:
    """A callable f(X) or a fitted estimator with predict_proba / predict that is not a model the
    engine reads itself (a learner name, an XGBoost model, a scikit-learn tree model)."""
    if model is None or isinstance(model, (str, bytes, bytearray, os.PathLike, _perfshap.TreeModel)):
        return False
    if _sklearn.is_tree_model(model) or hasattr(model, "get_booster") or hasattr(model, "save_raw"):
        return False
    return callable(model) or hasattr(model, "predict_proba") or hasattr(model, "predict")


def _function_model(model, X, one_output: bool):
    """The engine's CallableModel of a function or an estimator, probed on X's first row for its
    number of outputs. An estimator gives predict_proba (P(class 1) alone where one output is
    needed, for a binary classifier) or predict; a DataFrame X makes each batch a DataFrame with
    its column names (a Pipeline whose ColumnTransformer selects columns by name)."""
    name = getattr(model, "__qualname__", None) or type(model).__name__
    classifier = False
    if callable(model) and not hasattr(model, "fit"):
        f = model
        owner = getattr(model, "__self__", None)
        classifier = getattr(model, "__name__", "") == "predict_proba" and owner is not None
    elif hasattr(model, "predict_proba"):
        _check_fitted(model)
        classes = len(getattr(model, "classes_", [0, 1]))
        f = (lambda Z: model.predict_proba(Z)[:, 1]) if one_output and classes == 2 else model.predict_proba
        name, classifier = type(model).__name__ + ".predict_proba", True
    else:
        _check_fitted(model)
        f = model.predict
        name = type(model).__name__ + ".predict"
    if X is None or np.ndim(X) != 2:
        raise TypeError("a function model needs X, a rows x features array or DataFrame, to explain")
    columns = [str(c) for c in X.columns] if _inputs.is_frame(X) else None
    if columns is not None:
        import pandas as pd  # X is a DataFrame: pandas is there

        call = lambda Z: f(pd.DataFrame(Z, columns=columns))  # noqa: E731
    else:
        call = f
    # The probe gets a copy of X's first row, never a view: a function that writes into its
    # input must not change the caller's data (the engine's batches are its own arrays too).
    try:
        probe = f(X.iloc[:1].copy()) if columns is not None else call(np.array(X[:1], dtype=np.float64))
    except Exception as e:
        raise type(e)(f"the model {name} failed on the first row of X: {e}") from e
    if np.iscomplexobj(probe):
        raise TypeError(f"the model {name} returned complex numbers for the first row of X; it must return real "
                        "numbers (take .real or abs() inside the function if that is what it means)")
    probe = np.asarray(probe)
    if probe.ndim not in (1, 2) or probe.shape[0] != 1:
        raise ValueError(f"the model {name} returned an array of shape {probe.shape} for 1 row; it must return one "
                         "value per row, or rows x outputs")
    k = 1 if probe.ndim == 1 else probe.shape[1]
    return _perfshap.CallableModel(call, int(np.shape(X)[1]), int(k), bool(classifier), "the function " + name)


def _check_fitted(estimator):
    try:
        from sklearn.utils.validation import check_is_fitted
    except ImportError:  # not a scikit-learn estimator: its own calls say what is wrong
        return
    try:
        check_is_fitted(estimator)
    except Exception as e:  # NotFittedError, or not an estimator
        raise ValueError(f"the {type(estimator).__name__} is not fitted; call fit(X, y) first ({e})") from None


def _model(model, options, models, X=None, feature_names=None, one_output=False):
    """A learner name (--model), or an XGBoost model (Booster, XGBClassifier, path, JSON text),
    handed to the engine as its JSON text. Returns X's feature names: feature_names=, or, for a
    numpy X without them, the XGBoost model's own when their count is X's (the model is then
    parsed here too; a DataFrame's column names need no parse)."""
    if model is None:
        return feature_names
    if _is_function_model(model):
        models["model"] = _function_model(model, X, one_output)
        options["model_file"] = "model"
        return feature_names
    if isinstance(model, str) and not model.lstrip().startswith("{") and model in _perfshap_learners():
        options["model"] = model
        return feature_names
    if _sklearn.is_tree_model(model) or (isinstance(model, _perfshap.TreeModel) and not model.json):
        # A scikit-learn tree model: converted from its arrays and handed over as it is.
        tree = model if isinstance(model, _perfshap.TreeModel) else _sklearn.convert(model)
        models["model"] = tree
        options["model_file"] = "model"
        names = list(tree.feature_names)
        if feature_names is not None or X is None or _inputs.is_frame(X) or np.ndim(X) != 2:
            return feature_names
        if not names or len(names) != np.shape(X)[1]:
            return None
        _warn_by_position(names)
        return names
    text = model.json if isinstance(model, _perfshap.TreeModel) else _model_json(model)[0]
    models["model"] = text
    options["model_file"] = "model"
    if feature_names is not None or X is None or _inputs.is_frame(X) or np.ndim(X) != 2:
        return feature_names
    names = list(load_model(model if isinstance(model, _perfshap.TreeModel) else text).feature_names)
    if len(names) != np.shape(X)[1]:
        return None
    _warn_by_position(names)
    return names


def _warn_by_position(names, stacklevel=4):
    """A numpy X (no column names) for a model that knows its features' names: its columns are
    taken in the model's order, which nothing can check. Said once per call site (warnings)."""
    import warnings

    shown = ", ".join(names[:4]) + (", ..." if len(names) > 4 else "")
    warnings.warn(f"X has no column names: its columns are taken as the model's features in the model's order "
                  f"({shown}); pass a DataFrame with those column names (or feature_names=[...]) so that "
                  "perfshap matches them by name", UserWarning, stacklevel=stacklevel)


def _perfshap_learners():
    return set(_perfshap.learner_names())


def robustness(X=None, y=None, *, label=None, feature_names=None, progress=None, **options) -> Result:
    """ShapAUC, ShapROC, ShapPRC and ShapAUPRC by retraining on coalitions, with bands over splits.

    X: features (DataFrame or 2-D array; None = the built-in probit design), y: 0/1 labels (or
    label= naming a column of X, with positive= the positive class). Keywords are the flags of
    ``perfshap robustness``: model="gnb", cv="holdout" | "mc:R" | "kfold:K", test_size, stratify,
    metrics, solver, budget, threads, seed, out, report ... Result keys: value (AUC), phi,
    phi_std, phi_se, phi_auprc, curves, players, auc_by_split ...
    model= may also be a scikit-learn estimator (fit and predict_proba, e.g. a Pipeline): a
    fresh sklearn.base.clone of it is trained on every coalition of every split.
    checkpoint="DIR" keeps every finished split, so the same call after a crash resumes.
    comm= (every method): an mpi4py communicator whose processes make the same call and share
    the work; each gets the whole result, bitwise one process's (docs/mpi.md).
    """
    tables: dict = {}
    models: dict = {}
    _learner(options, models)
    _labelled(X, y, label, feature_names, options, tables)
    learner = models.get(options.get("model")) if models else None
    splits, listed = _splits_in_memory(options, tables)
    groups = options.get("groups")
    if groups is not None and not isinstance(groups, (str, os.PathLike, dict)):
        raise ValueError(f"groups: give {{'name': ['column', ...], ...}} or a path, not a {type(groups).__name__}")
    return _run.run_registered("robustness", options, progress, data=tables.get("X"), learner=learner, splits=splits,
                               split_listed=listed)


def _splits_in_memory(options, tables):
    """split= given as splits themselves (not a file's path): (the (train, test) pairs, whether
    they came as a list), taken out of the options; else (None, False)."""
    split = options.get("split")
    if split is None or isinstance(split, (str, os.PathLike)):
        return None, False
    doc = _split_document(split, _rows_of(tables))
    listed = "splits" in doc
    options.pop("split")
    return [(s["train"], s["test"]) for s in (doc["splits"] if listed else [doc])], listed


def _learner(options, models):
    """model= a scikit-learn estimator: the engine's EstimatorLearner of it, named by its class."""
    est = options.get("model")
    if est is None or isinstance(est, str) or not hasattr(est, "fit"):
        return
    if not (hasattr(est, "predict_proba") or hasattr(est, "predict")):
        raise TypeError(f"model: the {type(est).__name__} has no predict_proba or predict; give a scikit-learn "
                        "estimator or a learner name")
    name = type(est).__name__
    models[name] = _perfshap.EstimatorLearner(est, name, hasattr(est, "predict_proba"))
    options["model"] = name


def xper(X=None, y=None, *, model=None, train=None, label=None, feature_names=None, progress=None,
         **options) -> Result:
    """XPER: a performance metric of a model decomposed over its features (globally and per row).

    model: a learner name ("logistic", "probit", "gnb", ...: fitted on `train`, a (X, y) pair or
    a DataFrame holding `label`) or an XGBoost model; X, y: the evaluation rows (None = the
    built-in design). Keywords are the flags of ``perfshap xper``: metric="auc", coef, threshold,
    solver, threads, seed, conditional ("marginal", the paper's, or "gaussian", "copula",
    "empirical", "ctree": the features off a coalition drawn given the row's values on it),
    conditional_samples ... background: a conditional value function's training rows (a number
    drawn with the seed, or rows; default the train sample, else X). Result keys: value, base,
    phi, phi_se, phi_individual ...
    """
    tables: dict = {}
    models: dict = {}
    feature_names = _model(model, options, models, X, feature_names, one_output=True)
    _labelled(X, y, label, feature_names, options, tables)
    _train(train, options.get("label"), options, tables)
    rows_of_background = _background_rows(options, feature_names)
    for key in ("train", "model_file"):  # the tables and the model themselves go to the request
        options.pop(key, None)
    return _run.run_registered("xper", options, progress, data=tables.get("X"), train=tables.get("train"),
                               background=rows_of_background, model=models.get("model"))


def _background_rows(options, feature_names):
    """background= a number of rows (an option) or the rows themselves (a table for the request)."""
    background = options.pop("background", None)
    if background is None:
        return None
    if isinstance(background, (numbers.Integral, np.bool_)):  # a count (bools refused as such)
        options["background"] = background
        return None
    rows, _ = _inputs.table(background, None, feature_names=feature_names, what="background")
    return rows


def xper_montecarlo(*, progress=None, **options) -> Result:
    """The XPER paper's Monte Carlo experiment (flags of ``perfshap xper-montecarlo``)."""
    return _run.run_registered("xper-montecarlo", options, progress)


def _model_or_learner(model, train, options, models, X, feature_names, one_output=False):
    """shap()'s and sage()'s model: an estimator with train= is the learner fitted on train (as
    model="gnb" with train= is; shap's approach="retrain" refits it on every coalition), anything
    else a model (_model). Returns X's feature names and the learner (or None)."""
    if train is not None and hasattr(model, "fit") and not _sklearn.is_tree_model(model):
        options["model"] = model
        _learner(options, models)
        return feature_names, models[options["model"]]
    return _model(model, options, models, X, feature_names, one_output=one_output), None


def shap(model, X, *, background=None, approach=None, train=None, label=None, feature_names=None,
         progress=None, **options) -> Result:
    """SHAP values of a model's predictions for the rows of X.

    model: an XGBoost model (Booster, XGBClassifier, path or JSON text), a fitted scikit-learn
    tree model, a function f(X) or a fitted estimator (its predict_proba / predict), or a learner
    name or a scikit-learn estimator fitted on `train` ((X, y) or a DataFrame with `label`;
    approach="retrain" refits it on every coalition); approach: "interventional" (default),
    "retrain" or "tree"; background: a number of rows drawn with the seed, or rows (array /
    DataFrame). Keywords are the flags of ``perfshap shap``: output, rows ((first, last) or "I..J"),
    explain_row, trees, max_depth, model_param, solver, budget, threads, seed ... The call goes to
    the engine's request layer (api::RunShap) as the command does. Result: values (rows x players, or rows x classes x players), base_values, and
    result.json's keys (base, players, mean_abs, phi_se ...).
    """
    if options.get("data") is not None:
        raise TypeError("shap(): X is the rows to explain; drop data=")
    tables: dict = {}
    models: dict = {}
    feature_names, learner = _model_or_learner(model, train, options, models, X, feature_names)
    t, _ = _inputs.table(X, None, feature_names=feature_names, what="X")
    if approach is not None:
        options["approach"] = approach
    if label is not None:
        options["label"] = label
    _train(train, label, options, tables)
    if background is not None:
        options["background"] = background
    rows_of_background = _background_rows(options, feature_names)
    for key in ("train", "model_file"):  # the tables and the model themselves go to the request
        options.pop(key, None)
    return _run.run_registered("shap", options, progress, data=t, train=tables.get("train"),
                               background=rows_of_background, model=models.get("model"), learner=learner,
                               cls=ShapResult, arrays="_engine")


def sage(model, X, y=None, *, metric=None, background=None, conditional=None, train=None, label=None,
         feature_names=None, progress=None, **options) -> Result:
    """SAGE values: a model's performance metric on (X, y) decomposed over its features.

    model: as shap()'s (an XGBoost model, a fitted scikit-learn tree model, a function f(X) or a
    fitted estimator: one output, a binary classifier's P(y=1) or a regressor's value; or a
    learner name or estimator fitted on `train`); y: the labels (or label= naming X's label
    column); metric: "log_loss" (default for a classifier), "mse" (default for a regressor),
    "auc", "brier", "accuracy", "r2" ...: losses are negated, so a positive value means the
    feature helps, and the values add up to metric(all features) - metric(none); background: a
    number of rows drawn with the seed, or rows; conditional: "marginal" (default), "gaussian",
    "copula", "empirical" or "ctree". cv="mc:20" (or split= explicit splits, as robustness()'s) fits
    the learner on every split's training part and gives bands over the splits; with them,
    compare_retrain=True puts ShapAUC (robustness(): the learner retrained on every coalition) on
    the same splits beside SAGE. Keywords are the flags of ``perfshap sage``. Result keys: phi,
    phi_se, metric_full, metric_empty, players (with splits: phi_std, phi_by_split; with
    compare_retrain: shapauc, shapauc_std), and result.json's.
    """
    if options.get("data") is not None:
        raise TypeError("sage(): X is the rows; drop data=")
    tables: dict = {}
    models: dict = {}
    feature_names, learner = _model_or_learner(model, train, options, models, X, feature_names, one_output=True)
    _labelled(X, y, label, feature_names, options, tables)
    _train(train, options.get("label"), options, tables)
    for key, value in (("metric", metric), ("conditional", conditional)):
        if value is not None:
            options[key] = value
    if background is not None:
        options["background"] = background
    rows_of_background = _background_rows(options, feature_names)
    for key in ("train", "model_file"):  # the tables and the model themselves go to the request
        options.pop(key, None)
    splits, listed = _splits_in_memory(options, tables)
    return _run.run_registered("sage", options, progress, data=tables.get("X"), train=tables.get("train"),
                               background=rows_of_background, model=models.get("model"), learner=learner,
                               splits=splits, split_listed=listed)


class ShapResult(Result):  # also treeshap()'s result (TreeShapResult)
    """A shap run's Result, with shap-style arrays built from the engine's own buffers (no file
    is parsed): values (rows x players, or rows x outputs x players), base_values (rows, or rows
    x outputs), feature_names (the players), output_names."""

    def _arrays_of_contributions(self):
        if "_shap" not in self.__dict__:
            e = self.__dict__.get("_engine")
            if e is None:
                raise ValueError("this shap result holds no explanation arrays")
            values, base = e["values"], e["base_values"]
            if values.shape[1] == 1:  # one output: rows x players, as shap's Explanation
                values, base = values[:, 0, :], base[:, 0]
            self.__dict__["_shap"] = (values, base, list(e["players"]), list(e["outputs"]))
        return self.__dict__["_shap"]

    @property
    def output_names(self) -> list:
        return self._arrays_of_contributions()[3]

    @property
    def contributions(self) -> np.ndarray:
        """rows x outputs x (features + 1): the values with the base value last, as XGBoost's
        pred_contribs."""
        e = self.__dict__.get("_engine")
        if e is None:
            raise ValueError("this shap result holds no explanation arrays")
        return np.concatenate([e["values"], e["base_values"][:, :, None]], axis=2)

    @property
    def values(self) -> np.ndarray:
        return self._arrays_of_contributions()[0]

    @property
    def base_values(self) -> np.ndarray:
        return self._arrays_of_contributions()[1]

    @property
    def feature_names(self) -> list:
        return self._arrays_of_contributions()[2]

    @property
    def interactions(self):
        """With interactions=True (or interaction_features=): the SHAP interaction values as an
        array, as treeshap's and XGBoost's pred_interactions: rows x matrix rows x (features + 1),
        with an outputs axis after the rows for a model of several outputs; the matrix rows are
        `interaction_features` (every feature and "bias" unless some were named). None without
        interactions. result.json's long table stays in .json["interactions"]."""
        e = self.__dict__.get("_engine")
        if e is None or "interactions" not in e:
            return None
        values = e["interactions"]
        return values[:, 0] if values.shape[1] == 1 else values

    @property
    def interaction_features(self):
        """The features of the interaction matrix's rows (None without interactions)."""
        e = self.__dict__.get("_engine")
        return None if e is None or "interaction_features" not in e else list(e["interaction_features"])


TreeShapResult = ShapResult  # the former name of treeshap()'s result


def axom(X=None, y=None, *, model=None, label=None, feature_names=None, progress=None, **options) -> Result:
    """AXOM: random forests explained by the trees that vote with them, and the robustness L_bar
    of tree, forest and AXOM explanations. y: class labels (any numbers). Keywords are the flags
    of ``perfshap axom``: trees, max_depth, tune, eps, neighbours, seeds, paper, wide ...
    Result keys: dt / rf / axom (L_mean, L_std, accuracy ...), p_values, mislabelling.

    model: a fitted forest of your own (scikit-learn RandomForestClassifier, ExtraTreesClassifier
    or DecisionTreeClassifier, fitted on raw features) instead of the forests the protocol fits:
    AXOM's and the forest's explanations of every row of X (no y) and their robustness there,
    each feature's box eps x its range over X. Result: values (AXOM, rows x features, the
    predicted class), forest_values, labels, kept_trees, l_bar_rf, l_bar_axom ..., and result.json's
    keys (rf / axom, p_values, mislabelling, scale, mean_abs).
    """
    tables: dict = {}
    models: dict = {}
    if model is not None:
        if y is not None:
            raise TypeError("y: a fitted forest explains the rows of X as they are; drop y (label= names a label "
                            "column of X to leave out)")
        for key in ("trees", "max_depth", "tune", "seeds", "paper", "wide"):
            if options.get(key) not in (None, False):
                raise TypeError(f"{key}= fits the forests of the protocol; model= is a fitted forest, used as it is: "
                                f"drop {key}")
        feature_names = _model(model, options, models, X, feature_names)
        options.pop("model_file", None)
        if X is not None:
            if options.get("data") is not None:
                raise TypeError("give X or data= (a CSV file), not both")
            tables["X"], label = _inputs.table(X, None, label=label, feature_names=feature_names, what="X")
        if label is not None:
            options["label"] = label
    else:
        _labelled(X, y, label, feature_names, options, tables)
    return _run.run_registered("axom", options, progress, data=tables.get("X"), model=models.get("model"))


def chains(X=None, Y=None, *, outputs=None, feature_names=None, progress=None, **options) -> Result:
    """Shapley Chains: direct and indirect contributions of the features to every output of a
    classifier chain. X: features; Y: 0/1 outputs (2-D array or DataFrame; outputs= their
    names), or outputs= naming columns of X. None = the built-in xor data. Keywords are the flags
    of ``perfshap chains``: order, orders, model, background, signed, solver ...
    """
    tables: dict = {}
    if isinstance(outputs, str):  # "a,b,c"
        outputs = _run._names(outputs, "outputs")
    if X is not None and options.get("data") is not None:
        raise TypeError("give X or data= (a CSV file), not both")
    if X is not None:
        extra = []
        if Y is not None:
            if _inputs.is_frame(Y):
                names = [str(c) for c in Y.columns]
                extra = [(n, Y.iloc[:, j]) for j, n in enumerate(names)]
            elif _inputs.is_series(Y):
                names = [str(Y.name) if Y.name is not None else "y0"]
                extra = [(names[0], Y)]
            else:
                Ya = _inputs._list_array(Y, "Y") if isinstance(Y, (list, tuple)) else _inputs._plain(Y, "Y")
                Ya = Ya.reshape(-1, 1) if Ya.ndim == 1 else Ya
                if Ya.ndim != 2:
                    raise ValueError(f"Y must be 1- or 2-dimensional (rows x outputs); it has shape {Ya.shape}")
                names = [str(n) for n in outputs] if outputs is not None else [f"y{j}" for j in range(Ya.shape[1])]
                if len(names) != Ya.shape[1]:
                    raise ValueError(f"outputs names {len(names)} outputs and Y has {Ya.shape[1]} columns; name each "
                                     f"column of Y once")
                extra = [(n, Ya[:, j]) for j, n in enumerate(names)]
            outputs = names
        t, _ = _inputs.table(X, None, feature_names=feature_names, what="X", extra=extra)
        tables["X"] = t
    models: dict = {}
    _learner(options, models)
    learner = models.get(options.get("model")) if models else None
    if outputs is not None:
        options["outputs"] = _run._names(outputs, "outputs")
    return _run.run_registered("chains", options, progress, data=tables.get("X"), learner=learner)


def demo(*, progress=None, **options) -> Result:
    """Every method briefly on built-in data (the flags of ``perfshap demo``)."""
    return _run.run_registered("demo", options, progress)


def _document_registered_options():
    """Each registered method's docstring ends with its options as the engine's registry declares
    them: the same names, defaults, ranges and help as ``perfshap <method> --help``."""
    for method in _perfshap.method_options():
        function = globals().get(method.replace("-", "_"))
        if function is not None:
            function.__doc__ = (function.__doc__ or "") + "\n\n" + _run.options_doc(method)


_document_registered_options()
