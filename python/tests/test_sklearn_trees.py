# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""scikit-learn tree models through perfshap.treeshap (perfshap/_sklearn.py): the converted model's
margins and predictions are scikit-learn's own, TreeSHAP adds up to the margin on every row, and
on small models it equals the exact Shapley values of the conditional-expectation game computed
here from scikit-learn's own arrays by enumerating every coalition (Lundberg et al.'s EXPVALUE)."""
import itertools
import math

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.ensemble import (ExtraTreesClassifier, ExtraTreesRegressor, GradientBoostingClassifier,
                              GradientBoostingRegressor, HistGradientBoostingClassifier,
                              HistGradientBoostingRegressor, RandomForestClassifier, RandomForestRegressor)
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

import perfshap


def data(n=300, p=5, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, p)
    binary = (X[:, 0] + X[:, 1] * X[:, 2] > 0).astype(int)
    three = (X[:, 0] > 0).astype(int) + (X[:, 1] > 0.5)
    real = 2 * X[:, 0] + X[:, -1] ** 2 + 0.1 * rng.randn(n)
    return X, binary, three, real


def raw_scores(model, X):
    """scikit-learn's raw scores: decision_function of boosting classifiers, predict_proba of trees
    and forests (a binary classifier's P(class 1)), predict of regressors (boosting: its raw
    prediction, the log for the poisson loss)."""
    name = type(model).__name__
    if "Classifier" in name and "Gradient" in name:
        return model.decision_function(X).reshape(len(X), -1)
    if "Classifier" in name:
        p = model.predict_proba(X)
        return p[:, 1:] if p.shape[1] == 2 else p
    if name.startswith("HistGradientBoosting"):
        return model._raw_predict(X).reshape(len(X), -1)
    return model.predict(X).reshape(-1, 1)


def outputs(model, X):
    """scikit-learn's predictions on the output scale: probabilities, or predict."""
    if hasattr(model, "predict_proba"):
        p = model.predict_proba(X)
        return p[:, 1:] if p.shape[1] == 2 else p
    return model.predict(X).reshape(-1, 1)


def models():
    X, binary, three, real = data()
    return [
        (DecisionTreeClassifier(max_depth=5, random_state=0), binary),
        (DecisionTreeClassifier(max_depth=4, random_state=0), three),
        (DecisionTreeRegressor(max_depth=5, random_state=0), real),
        (RandomForestClassifier(n_estimators=15, max_depth=5, random_state=0), binary),
        (RandomForestClassifier(n_estimators=10, max_depth=4, random_state=0), three),
        (RandomForestRegressor(n_estimators=10, max_depth=6, random_state=0), real),
        (ExtraTreesClassifier(n_estimators=10, max_depth=5, random_state=0), binary),
        (ExtraTreesRegressor(n_estimators=10, max_depth=5, random_state=0), real),
        (GradientBoostingClassifier(n_estimators=20, max_depth=3, random_state=0), binary),
        (GradientBoostingClassifier(n_estimators=10, max_depth=2, random_state=0), three),
        (GradientBoostingRegressor(n_estimators=20, max_depth=3, random_state=0), real),
        (HistGradientBoostingClassifier(max_iter=20, random_state=0), binary),
        (HistGradientBoostingClassifier(max_iter=10, random_state=0), three),
        (HistGradientBoostingRegressor(max_iter=20, random_state=0), real),
        (HistGradientBoostingRegressor(loss="poisson", max_iter=15, random_state=0), np.exp(real / 4)),
    ], X


@pytest.mark.parametrize("k", range(15))
def test_margins_predictions_and_additivity(k):
    cases, X = models()
    model, y = cases[k]
    model.fit(X, y)
    m = perfshap.load_model(model)
    assert m.describe().startswith("scikit-learn " + type(model).__name__)
    assert np.abs(m.margin(X) - raw_scores(model, X)).max() < 1e-12
    assert np.abs(m.predict(X) - outputs(model, X)).max() < 1e-12
    r = perfshap.treeshap(model, X)
    c = r.contributions
    assert c.shape == (len(X), m.n_outputs, X.shape[1] + 1)
    assert np.abs(c.sum(axis=-1) - m.margin(X)).max() < 1e-9
    # Interventional against background rows adds up too; the same at any thread count.
    i1 = perfshap.treeshap(model, X[:40], background=X[100:150], threads=1).contributions
    i2 = perfshap.treeshap(model, X[:40], background=X[100:150], threads=2).contributions
    assert np.array_equal(i1, i2)
    assert np.abs(i1.sum(axis=-1) - m.margin(X[:40])).max() < 1e-9


def _cart_nodes(tree, width, fractions):
    """scikit-learn's own node arrays: (left, right, feature, threshold, cover, value, missing_left),
    splits compared as scikit-learn does, float32(x) <= threshold."""
    value = tree.value[:, 0, :].astype(np.float64)
    if fractions:
        value = value / value.sum(axis=1, keepdims=True)
        if width == 1:
            value = value[:, 1:]
    return (tree.children_left, tree.children_right, tree.feature, tree.threshold, tree.weighted_n_node_samples,
            value, None, True)


def _hist_nodes(predictor):
    n = predictor.nodes
    leaf = n["is_leaf"].astype(bool)  # a leaf's children are written 0
    return (np.where(leaf, -1, n["left"]), n["right"], n["feature_idx"], n["num_threshold"], n["count"].astype(np.float64),
            n["value"].reshape(-1, 1), n["missing_go_to_left"], False)


def _expvalue(nodes, x, S, i=0):
    """E[tree(x) | x_S], the path-dependent conditional expectation (Lundberg et al. 2020, Alg. 1)."""
    left, right, feature, threshold, cover, value, missing_left, float32 = nodes
    if left[i] < 0:
        return value[i]
    f = feature[i]
    if f in S:
        v = x[f]
        if np.isnan(v):
            go_left = bool(missing_left[i])
        else:
            go_left = (float(np.float32(v)) if float32 else v) <= threshold[i]
        return _expvalue(nodes, x, S, left[i] if go_left else right[i])
    l, r = left[i], right[i]
    return (cover[l] * _expvalue(nodes, x, S, l) + cover[r] * _expvalue(nodes, x, S, r)) / cover[i]


def _brute_force(trees, base, scale, x, p, k):
    """Exact Shapley values (p x k) of v(S) = base + scale sum_t E[tree_t(x) | x_S] by subsets."""
    def v(S):
        out = np.array(base, dtype=np.float64).copy()
        for output, nodes in trees:
            e = _expvalue(nodes, x, S)
            if output is None:
                out += scale * e
            else:
                out[output] += scale * e[0]
        return out
    phi = np.zeros((p, k))
    for j in range(p):
        others = [q for q in range(p) if q != j]
        for size in range(p):
            w = math.factorial(size) * math.factorial(p - size - 1) / math.factorial(p)
            for S in itertools.combinations(others, size):
                phi[j] += w * (v(set(S) | {j}) - v(set(S)))
    return phi


def _reference(model, X0):
    """(trees, base, scale, k) of the game, from scikit-learn's own attributes."""
    name = type(model).__name__
    if name.startswith("HistGradientBoosting"):
        k = model.n_trees_per_iteration_
        trees = [(j, _hist_nodes(pr[j])) for pr in model._predictors for j in range(k)]
        return trees, np.ravel(model._baseline_prediction), 1.0, k
    if name.startswith("GradientBoosting"):
        k = model.estimators_.shape[1]
        trees = [(j, _cart_nodes(model.estimators_[s, j].tree_, 1, False))
                 for s in range(model.estimators_.shape[0]) for j in range(k)]
        return trees, np.ravel(model._raw_predict_init(X0[:1])), model.learning_rate, k
    estimators = getattr(model, "estimators_", [model])
    classifier = "Classifier" in name
    k = (1 if len(model.classes_) == 2 else len(model.classes_)) if classifier else 1
    trees = [(None, _cart_nodes(t.tree_, k, classifier)) for t in estimators]
    return trees, np.zeros(k), 1.0 / len(estimators), k


SMALL = [
    (DecisionTreeClassifier(max_depth=3, random_state=0), "binary"),
    (DecisionTreeRegressor(max_depth=3, random_state=0), "real"),
    (RandomForestClassifier(n_estimators=3, max_depth=3, random_state=0), "three"),
    (ExtraTreesRegressor(n_estimators=3, max_depth=3, random_state=0), "real"),
    (GradientBoostingClassifier(n_estimators=4, max_depth=2, random_state=0), "binary"),
    (GradientBoostingClassifier(n_estimators=3, max_depth=2, random_state=0), "three"),
    (GradientBoostingRegressor(n_estimators=4, max_depth=3, random_state=0), "real"),
    (HistGradientBoostingClassifier(max_iter=4, max_leaf_nodes=6, random_state=0), "binary_missing"),
    (HistGradientBoostingRegressor(max_iter=4, max_leaf_nodes=6, random_state=0), "real_missing"),
]


@pytest.mark.parametrize("k", range(len(SMALL)))
def test_equals_brute_force_over_the_conditional_expectation_game(k):
    X, binary, three, real = data(n=200, p=4, seed=1)
    template, target = SMALL[k]
    y = {"binary": binary, "three": three, "real": real, "binary_missing": binary, "real_missing": real}[target]
    if target.endswith("missing"):
        X = X.copy()
        X[::5, 1] = np.nan  # histogram boosting learns where missing values go
        X[::7, 3] = np.nan
    model = clone(template).fit(X, y)
    trees, base, scale, outputs_k = _reference(model, X)
    rows = X[:12]
    r = perfshap.treeshap(model, rows).contributions
    for i, x in enumerate(rows):
        phi = _brute_force(trees, base, scale, x, X.shape[1], outputs_k)
        assert np.abs(r[i, :, :-1] - phi.T).max() < 1e-12, (type(model).__name__, i)
        assert np.abs(r[i, :, -1] - (np.asarray(base) + scale * sum(
            _expvalue(nodes, x, set()) if o is None else np.eye(outputs_k)[o] * _expvalue(nodes, x, set())[0]
            for o, nodes in trees))).max() < 1e-12


def test_histogram_boosting_sends_missing_values_its_own_way():
    X, binary, _, _ = data(n=400, p=4, seed=2)
    X[::3, 0] = np.nan
    model = HistGradientBoostingClassifier(max_iter=10, random_state=0).fit(X, binary)
    m = perfshap.load_model(model)
    rows = np.vstack([X[:30], np.full((1, 4), np.nan)])
    assert np.isnan(rows[:, 0]).sum() >= 10
    assert np.abs(m.margin(rows)[:, 0] - model.decision_function(rows)).max() < 1e-12
    nodes = model._predictors[0][0].nodes
    assert len(set(nodes["missing_go_to_left"][nodes["is_leaf"] == 0])) == 2  # both directions occur


def test_float32_splits_as_scikit_learn():
    """Rows at a threshold, just below and above it, and at the float32 rounding boundaries:
    every one splits as scikit-learn's float32(x) <= threshold."""
    X, binary, _, real = data(n=300, p=3, seed=3)
    X = X * 1000.0
    model = DecisionTreeRegressor(max_depth=6, random_state=0).fit(X, real)
    t = model.tree_
    probes = []
    for i in np.flatnonzero(t.children_left >= 0):
        f, th = t.feature[i], t.threshold[i]
        below = np.float32(th)
        for v in (th, np.nextafter(th, -np.inf), np.nextafter(th, np.inf), float(below),
                  float(np.nextafter(below, np.float32(np.inf))), (float(below) + float(np.nextafter(
                      below, np.float32(np.inf)))) / 2):
            x = X[0].copy()
            x[f] = v
            probes.append(x)
    probes = np.array(probes)
    m = perfshap.load_model(model)
    assert np.array_equal(m.margin(probes)[:, 0], model.predict(probes))


def test_bad_models_and_input_are_one_line_errors():
    X, binary, _, _ = data(n=100, p=3)
    model = RandomForestClassifier(n_estimators=3, random_state=0)
    with pytest.raises(ValueError, match="not fitted"):
        perfshap.treeshap(model, X)
    model.fit(X, binary)
    with pytest.raises(ValueError, match="iteration_range"):
        perfshap.treeshap(model, X, iteration_range=(0, 1))
    bad = X.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"missing value \(NaN\) at row 3"):
        perfshap.treeshap(model, bad)
    with pytest.raises(ValueError, match="columns"):
        perfshap.load_model(model).treeshap(X[:, :2])
    two = RandomForestRegressor(n_estimators=2, random_state=0).fit(X, np.column_stack([X[:, 0], X[:, 1]]))
    with pytest.raises(ValueError, match="2 targets"):
        perfshap.treeshap(two, X)
    from sklearn.ensemble import GradientBoostingClassifier as G
    with pytest.raises(ValueError, match="exponential"):
        perfshap.treeshap(G(loss="exponential", n_estimators=2).fit(X, binary), X)


def test_shap_and_xper_take_a_scikit_learn_tree_model():
    """The converted model through the methods: shap(approach="tree") equals treeshap; XPER
    decomposes the AUC of the model's own predict_proba (the value is scikit-learn's
    roc_auc_score, and the values add up to it)."""
    from sklearn.metrics import roc_auc_score

    X, binary, _, _ = data(n=240, p=4, seed=4)
    model = GradientBoostingClassifier(n_estimators=15, max_depth=2, random_state=0).fit(X[:160], binary[:160])
    tree = perfshap.treeshap(model, X[160:200])
    s = perfshap.shap(model, X[160:200], approach="tree")
    assert s.values.shape == tree.values.shape
    assert np.abs(s.values - tree.values).max() < 1e-12
    assert np.abs(s.base_values - tree.base_values).max() < 1e-12
    x = perfshap.xper(X[160:], binary[160:], model=model)
    auc = roc_auc_score(binary[160:], model.predict_proba(X[160:])[:, 1])
    assert abs(x["value"] - auc) < 1e-12
    assert abs(x["base"] + np.sum(x["phi"]) - x["value"]) < 1e-12
    assert x["model"]["kind"] == "tree_model"
    # Interventional SHAP of the probabilities: adds up to predict_proba.
    i = perfshap.shap(model, X[160:170], background=X[:50], solver="exact")
    p = model.predict_proba(X[160:170])[:, 1]
    assert np.abs(i.values.sum(axis=1) + i.base_values - p).max() < 1e-12
