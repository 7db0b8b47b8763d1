# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""perfshap: Shapley values of models' performance, robustness and predictions.

This first slice of the Python interface exposes TreeSHAP of XGBoost models::

    import perfshap
    result = perfshap.treeshap("m.json", X)          # or an xgboost.Booster / XGBClassifier
    result.values, result.base_values, result.feature_names

Arrays are numpy arrays or pandas DataFrames (their column names are matched to the model's
features); the computation runs with the GIL released; the engine's errors are ValueError with
its one-line message.
"""
from __future__ import annotations

import os

import numpy as np

from . import _perfshap

__all__ = ["TreeShapResult", "load_model", "treeshap"]


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
    raise ValueError("the model must be a path to an XGBoost JSON model, its JSON text, or an xgboost Booster")


def load_model(model) -> _perfshap.TreeModel:
    """A tree model (XGBoost gbtree) from a path, JSON text/bytes or an xgboost Booster."""
    if isinstance(model, _perfshap.TreeModel):
        return model
    text, source = _model_json(model)
    return _perfshap.TreeModel(text, source)


def _matrix(X, model: _perfshap.TreeModel, what: str):
    """X as a float64 rows x features array in the model's feature order."""
    names = list(model.feature_names)
    if hasattr(X, "columns") and hasattr(X, "to_numpy"):  # a pandas DataFrame
        columns = [str(c) for c in X.columns]
        if names:
            missing = [n for n in names if n not in columns]
            if missing:
                raise ValueError(f"{what} has no column '{missing[0]}', a feature of the model")
            X = X[names]
        X = X.to_numpy(dtype=np.float64)
    return np.asarray(X, dtype=np.float64), names


class TreeShapResult:
    """SHAP values of a tree model's margins.

    values: rows x features (one output) or rows x outputs x features; base_values: one per row
    (and output); feature_names: the model's features. Each row adds up:
    values.sum(-1) + base_values = the margin.
    """

    def __init__(self, contributions: np.ndarray, feature_names):
        self.contributions = contributions  # rows x outputs x (features + 1), as XGBoost's pred_contribs
        k = contributions.shape[1]
        self.values = contributions[:, 0, :-1] if k == 1 else contributions[:, :, :-1]
        self.base_values = contributions[:, 0, -1] if k == 1 else contributions[:, :, -1]
        self.feature_names = list(feature_names) or [f"f{j}" for j in range(contributions.shape[2] - 1)]

    def to_frame(self):
        """A pandas DataFrame of the values (one output) with a `bias` column."""
        import pandas as pd  # optional dependency

        if self.values.ndim != 2:
            raise ValueError("to_frame() takes a one-output model; index values[:, k, :] per class")
        frame = pd.DataFrame(self.values, columns=self.feature_names)
        frame["bias"] = self.base_values
        return frame

    def __repr__(self) -> str:
        return f"TreeShapResult(rows={self.values.shape[0]}, features={len(self.feature_names)})"


def treeshap(model, X, *, background=None, threads: int = 0) -> TreeShapResult:
    """TreeSHAP of an XGBoost model's margins: path-dependent, or interventional against
    `background` rows. Bitwise the same at any `threads` (0 = every core)."""
    m = load_model(model)
    x, names = _matrix(X, m, "X")
    bg = None if background is None else _matrix(background, m, "the background")[0]
    return TreeShapResult(m.treeshap(x, threads, bg), names)
