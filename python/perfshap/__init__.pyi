# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Type stubs of the perfshap package (the methods take the flags of their command as keywords)."""
from os import PathLike
from typing import Any, Callable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

ArrayLike = Any  # numpy.ndarray or pandas.DataFrame
LabelLike = Any  # a 1-D numpy array, a pandas Series or a list
ModelLike = Any  # xgboost.Booster / XGBClassifier, a path, JSON text or bytes, a TreeModel, or a learner name
Progress = Union[bool, None, Callable[[int, int, float, float], None]]

class Result:
    method: str
    files: dict[str, str]
    console: str
    json: dict[str, Any]
    values: np.ndarray  # shap: rows x players (or rows x classes x players)
    base_values: np.ndarray
    feature_names: list[str]
    def __getattr__(self, name: str) -> Any: ...
    def __getitem__(self, key: str) -> Any: ...
    def keys(self) -> list[str]: ...
    @property
    def tables(self) -> list[str]: ...
    @property
    def figures(self) -> list[str]: ...
    def to_json(self) -> str: ...
    def to_frame(self, table: Optional[str] = ...) -> Any: ...
    def plot(self, name: Optional[str] = ...) -> str: ...
    def _repr_svg_(self) -> Optional[str]: ...
    def to_html(self) -> str: ...
    def save(self, directory: Union[str, PathLike], *, force: bool = ..., html: bool = ...) -> list[str]: ...

class ShapResult(Result):
    """shap()'s and treeshap()'s result: one type, one path (the engine's shap / treeshap)."""
    contributions: np.ndarray  # rows x outputs x (features + 1), the base value last
    values: np.ndarray
    base_values: np.ndarray
    feature_names: list[str]
    output_names: list[str]
    iteration_range: Optional[Tuple[int, int]]  # treeshap(): the boosting rounds explained, [begin, end)
    best_iteration: Optional[int]
    interactions: Optional[np.ndarray]
    interaction_features: Optional[list[str]]

TreeShapResult = ShapResult

class TreeModel:
    def __init__(self, json: str, source: str, iteration_range: Optional[Tuple[int, int]] = ...) -> None: ...
    n_features: int
    n_outputs: int
    feature_names: list[str]
    json: str
    source: str
    iteration_range: Tuple[int, int]  # the boosting rounds used, [begin, end)
    best_iteration: Optional[int]
    def describe(self) -> str: ...
    def treeshap(self, X: np.ndarray, threads: int = ..., background: Optional[np.ndarray] = ...) -> np.ndarray: ...
    def treeshap_interactions(self, X: np.ndarray, threads: int = ..., background: Optional[np.ndarray] = ...,
                              features: list[int] = ...) -> np.ndarray: ...
    def margin(self, X: np.ndarray) -> np.ndarray: ...
    def predict(self, X: np.ndarray) -> np.ndarray: ...
    @staticmethod
    def from_trees(trees: list[dict], n_features: int, n_outputs: int, base_margin: list[float], tree_scale: float,
                   transform: str, classifier: bool, feature_names: list[str], description: str,
                   source: str) -> "TreeModel": ...

class DataError(ValueError):
    options: list[str]

class InvalidArgument(ValueError):
    options: list[str]

class CallableModel:
    def __init__(self, f: Any, n_features: int, n_outputs: int, classifier: bool, description: str) -> None: ...

class EstimatorLearner:
    def __init__(self, estimator: Any, name: str, classifier: bool) -> None: ...

def load_model(model: ModelLike, *, iteration_range: Optional[Tuple[int, int]] = ...) -> TreeModel: ...
def treeshap(model: ModelLike, X: ArrayLike, *, background: Optional[ArrayLike] = ..., threads: int = ...,
             iteration_range: Optional[Tuple[int, int]] = ..., interactions: bool = ...,
             interaction_features: Optional[Sequence[Union[str, int]]] = ...) -> ShapResult: ...
def robustness(X: Optional[ArrayLike] = ..., y: Optional[LabelLike] = ..., *, label: Optional[str] = ...,
               feature_names: Optional[Sequence[str]] = ..., progress: Progress = ..., model: str = ...,
               cv: str = ..., threads: int = ..., seed: int = ..., **options: Any) -> Result: ...
def xper(X: Optional[ArrayLike] = ..., y: Optional[LabelLike] = ..., *, model: Optional[ModelLike] = ...,
         train: Union[None, ArrayLike, Tuple[ArrayLike, LabelLike]] = ..., label: Optional[str] = ...,
         feature_names: Optional[Sequence[str]] = ..., progress: Progress = ..., metric: str = ..., conditional: str = ...,
         background: Union[None, int, ArrayLike] = ...,
         threads: int = ..., seed: int = ..., **options: Any) -> Result: ...
def xper_montecarlo(*, progress: Progress = ..., **options: Any) -> Result: ...
def shap(model: ModelLike, X: ArrayLike, *, background: Union[None, int, ArrayLike] = ..., approach: Optional[str] = ...,
         train: Union[None, ArrayLike, Tuple[ArrayLike, LabelLike]] = ..., label: Optional[str] = ...,
         feature_names: Optional[Sequence[str]] = ..., progress: Progress = ..., threads: int = ..., seed: int = ...,
         **options: Any) -> ShapResult: ...
def sage(model: ModelLike, X: ArrayLike, y: Optional[LabelLike] = ..., *, metric: Optional[str] = ...,
         background: Union[None, int, ArrayLike] = ..., conditional: Optional[str] = ...,
         train: Union[None, ArrayLike, Tuple[ArrayLike, LabelLike]] = ..., label: Optional[str] = ...,
         feature_names: Optional[Sequence[str]] = ..., progress: Progress = ..., threads: int = ..., seed: int = ...,
         **options: Any) -> Result: ...
def axom(X: Optional[ArrayLike] = ..., y: Optional[LabelLike] = ..., *, model: Any = ..., label: Optional[str] = ...,
         feature_names: Optional[Sequence[str]] = ..., progress: Progress = ..., threads: int = ..., seed: int = ...,
         **options: Any) -> Result: ...
def chains(X: Optional[ArrayLike] = ..., Y: Optional[ArrayLike] = ..., *, outputs: Optional[Sequence[str]] = ...,
           feature_names: Optional[Sequence[str]] = ..., progress: Progress = ..., threads: int = ..., seed: int = ...,
           **options: Any) -> Result: ...
def demo(*, progress: Progress = ..., **options: Any) -> Result: ...
