# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""scikit-learn tree models as perfshap tree models, from their fitted arrays.

DecisionTree*, RandomForest*, ExtraTrees*, GradientBoosting* and HistGradientBoosting*
(classifiers and regressors, one target) become a perfshap TreeModel whose margins are the
model's own raw scores and whose predictions are its own output scale:

- a decision tree or a forest: the leaves' class fractions (predict_proba; a binary classifier's
  one output is P(class 1)) or values, a forest averaging its trees (tree scale 1 / n_trees);
- gradient boosting: the init estimator's constant raw prediction plus learning_rate x the
  trees (decision_function), through the logistic (binary) or the softmax (multi-class);
- histogram gradient boosting: its baseline plus the trees (shrinkage is in the leaves), through
  its loss's link (logit, softmax, log for poisson, identity), NaN going where each split sends
  missing values.

scikit-learn's trees compare float32(x) <= threshold; each threshold t is moved to the largest
double u with float32(x) <= t exactly when x <= u, so that the engine compares in double and
splits every row as scikit-learn does. Covers are the nodes' weighted training samples (counts
for histogram boosting), as shap's TreeExplainer takes them.
"""
import numpy as np

from . import _perfshap

_FLOAT32_TOP = float(2.0**128)  # the float32 rounding boundary past FLT_MAX, as a double


def is_tree_model(model) -> bool:
    """True for a fitted scikit-learn tree model this module converts (by class name, so that
    scikit-learn is imported only by the caller)."""
    name = type(model).__name__
    module = type(model).__module__ or ""
    return module.startswith("sklearn.") and name in _KINDS


def _float32_thresholds(t: np.ndarray) -> np.ndarray:
    """u with (float32(x) <= t) == (x <= u) for every double x."""
    t = np.asarray(t, dtype=np.float64)
    f = t.astype(np.float32)
    f = np.where(f.astype(np.float64) > t, np.nextafter(f, np.float32(-np.inf)), f).astype(np.float32)
    up = np.nextafter(f, np.float32(np.inf)).astype(np.float64)
    up = np.where(np.isinf(up), _FLOAT32_TOP, up)
    mid = (f.astype(np.float64) + up) / 2.0  # exact: 25 significant bits
    even = (f.view(np.uint32) & 1) == 0  # a tie rounds to the even neighbour
    return np.where(even, mid, np.nextafter(mid, -np.inf))


def _cart(tree, *, output: int, width: int, fractions: bool, classes=None, float32=True) -> dict:
    """The node arrays of a fitted sklearn.tree._tree.Tree: values as class fractions (a binary
    classifier's P(class 1) when width is 1) or as they are."""
    left = tree.children_left.astype(np.int32)
    right = tree.children_right.astype(np.int32)
    leaf = left < 0
    feature = np.where(leaf, 0, tree.feature).astype(np.int32)
    threshold = np.where(leaf, 0.0, tree.threshold)
    if float32:
        threshold = np.where(leaf, 0.0, _float32_thresholds(threshold))
    value = tree.value[:, 0, :].astype(np.float64)
    if fractions:
        total = value.sum(axis=1, keepdims=True)
        value = np.divide(value, total, out=np.zeros_like(value), where=total > 0)
        if width == 1:
            value = value[:, 1:2]
    return {
        "feature": feature, "threshold": threshold, "left": np.where(leaf, -1, left).astype(np.int32),
        "right": np.where(leaf, -1, right).astype(np.int32), "default_left": np.ones(len(left), dtype=np.uint8),
        "cover": tree.weighted_n_node_samples.astype(np.float64), "value": value.reshape(-1), "output": output,
        "width": width,
    }


def _hist(predictor, output: int) -> dict:
    """The node arrays of a HistGradientBoosting TreePredictor (x <= num_threshold in double)."""
    nodes = predictor.nodes
    if np.any(nodes["is_categorical"][nodes["is_leaf"] == 0]):
        raise ValueError("the HistGradientBoosting model has categorical splits, which perfshap does not read; "
                         "train it without categorical_features (one-hot encode them)")
    leaf = nodes["is_leaf"].astype(bool)
    return {
        "feature": np.where(leaf, 0, nodes["feature_idx"]).astype(np.int32),
        "threshold": np.where(leaf, 0.0, nodes["num_threshold"]).astype(np.float64),
        "left": np.where(leaf, -1, nodes["left"]).astype(np.int32),
        "right": np.where(leaf, -1, nodes["right"]).astype(np.int32),
        "default_left": nodes["missing_go_to_left"].astype(np.uint8),
        "cover": nodes["count"].astype(np.float64),
        "value": np.where(leaf, nodes["value"], 0.0).astype(np.float64),
        "output": output, "width": 1,
    }


def _one_target(model):
    if getattr(model, "n_outputs_", 1) != 1:
        raise ValueError(f"the {type(model).__name__} predicts {model.n_outputs_} targets; perfshap reads models of "
                         "one target: fit one model per target")


def _classes(model) -> int:
    k = len(model.classes_)
    if k < 2:
        raise ValueError(f"the {type(model).__name__} was fitted on one class; fit it on two or more")
    return k


def _forest(model, classifier: bool):
    trees = model.estimators_ if hasattr(model, "estimators_") else [model]
    k = _classes(model) if classifier else 1
    width = (1 if k == 2 else k) if classifier else 1
    converted = [_cart(t.tree_, output=0, width=width, fractions=classifier) for t in trees]
    return converted, width, [0.0] * width, 1.0 / len(trees), "identity"


def _gradient_boosting(model, classifier: bool):
    init = model.init_
    if not (isinstance(init, str) and init == "zero") and type(init).__name__ not in ("DummyClassifier",
                                                                                    "DummyRegressor"):
        raise ValueError("the GradientBoosting model has an init estimator of its own, whose raw prediction is not a "
                         "constant; fit it with the default init")
    loss = getattr(model, "loss", "")
    if classifier and loss == "exponential":
        raise ValueError("the GradientBoostingClassifier has loss='exponential' (probabilities expit(2 x raw)), which "
                         "perfshap does not read; fit it with loss='log_loss'")
    n = model.estimators_.shape[1]
    base = model._raw_predict_init(np.zeros((1, model.n_features_in_)))[0]
    trees = [_cart(model.estimators_[s, k].tree_, output=k, width=1, fractions=False)
             for s in range(model.estimators_.shape[0]) for k in range(n)]
    transform = ("logistic" if n == 1 else "softmax") if classifier else "identity"
    return trees, n, [float(b) for b in np.ravel(base)], float(model.learning_rate), transform


_LINKS = {"IdentityLink": "identity", "LogLink": "exp", "LogitLink": "logistic", "MultinomialLogit": "softmax"}


def _hist_gradient_boosting(model, classifier: bool):
    link = type(model._loss.link).__name__
    if link not in _LINKS:
        raise ValueError(f"the HistGradientBoosting model's loss has the link {link}, which perfshap does not read")
    k = model.n_trees_per_iteration_
    trees = [_hist(predictors[j], j) for predictors in model._predictors for j in range(k)]
    base = np.ravel(model._baseline_prediction)
    return trees, k, [float(b) for b in base], 1.0, _LINKS[link]


_KINDS = {
    "DecisionTreeClassifier": (_forest, True),
    "DecisionTreeRegressor": (_forest, False),
    "ExtraTreeClassifier": (_forest, True),
    "ExtraTreeRegressor": (_forest, False),
    "RandomForestClassifier": (_forest, True),
    "RandomForestRegressor": (_forest, False),
    "ExtraTreesClassifier": (_forest, True),
    "ExtraTreesRegressor": (_forest, False),
    "GradientBoostingClassifier": (_gradient_boosting, True),
    "GradientBoostingRegressor": (_gradient_boosting, False),
    "HistGradientBoostingClassifier": (_hist_gradient_boosting, True),
    "HistGradientBoostingRegressor": (_hist_gradient_boosting, False),
}


def allows_missing(model) -> bool:
    """Whether the model itself predicts rows with NaN (histogram boosting; scikit-learn 1.2's
    other trees refuse them)."""
    return type(model).__name__.startswith("HistGradientBoosting")


def convert(model) -> "_perfshap.TreeModel":
    """The perfshap TreeModel of a fitted scikit-learn tree model."""
    name = type(model).__name__
    make, classifier = _KINDS[name]
    fitted = hasattr(model, "n_features_in_") and (hasattr(model, "tree_") or hasattr(model, "estimators_") or
                                                   hasattr(model, "_predictors"))
    if not fitted:
        raise ValueError(f"the {name} is not fitted; call fit(X, y) first")
    _one_target(model)
    trees, n_outputs, base, scale, transform = make(model, classifier)
    names = [str(c) for c in getattr(model, "feature_names_in_", [])]
    depth = max((int(_depth(t)) for t in trees), default=0)
    description = f"scikit-learn {name}, {len(trees)} tree{'s' if len(trees) != 1 else ''}, depth <= {depth}"
    classes = [str(c) for c in model.classes_] if classifier else []
    return _perfshap.TreeModel.from_trees(trees, int(model.n_features_in_), int(n_outputs), base, scale, transform,
                                          bool(classifier), names, description, f"the {name}", classes)


def _depth(tree: dict) -> int:
    left, right = tree["left"], tree["right"]
    depth = np.zeros(len(left), dtype=np.int64)
    for i in range(len(left)):  # children follow their parents in both layouts
        if left[i] >= 0:
            depth[left[i]] = depth[right[i]] = depth[i] + 1
    return int(depth.max()) if len(depth) else 0
