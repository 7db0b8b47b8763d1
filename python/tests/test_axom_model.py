# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""perfshap.axom with a forest the user fitted (model=): AXOM's values are the mean TreeSHAP of
the trees that vote with the forest, computed here tree by tree; the forest's values are its
TreeSHAP; the robustness is judged in each feature's range over X, so a forest fitted on X * 4
gives bitwise the numbers of the forest fitted on X; bad models and keywords are refused."""
import json
import os

import numpy as np
import pandas as pd
import pytest
from sklearn.ensemble import ExtraTreesClassifier, GradientBoostingClassifier, RandomForestClassifier

import perfshap

FIXTURE_XGBOOST = os.path.join(os.environ["PERFSHAP_FIXTURES"], "xgboost", "binary_logistic_100x6.json")


def data(n=240, seed=1):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, 4) * np.array([1.0, 10.0, 0.1, 3.0])
    binary = (X[:, 0] + X[:, 1] / 10 * X[:, 2] * 10 > 0).astype(int)
    three = (X[:, 0] > 0).astype(int) + (X[:, 3] > 1.5)
    return X, binary, three


def per_tree_class_values(tree, X, label, n_classes):
    """Each row's TreeSHAP of one tree for class label[r] (a binary tree's one output is P(class 1):
    class 0's values are its negation)."""
    phi = perfshap.load_model(tree).treeshap(X)[:, :, :-1]  # rows x outputs x features
    if n_classes == 2:
        return np.where((label == 1)[:, None], phi[:, 0, :], -phi[:, 0, :])
    return phi[np.arange(len(X)), label, :]


@pytest.mark.parametrize("kind,classes", [(RandomForestClassifier, "binary"), (RandomForestClassifier, "three"),
                                          (ExtraTreesClassifier, "three")])
def test_axom_of_a_fitted_forest_is_the_mean_treeshap_of_the_trees_voting_with_it(kind, classes):
    X, binary, three = data()
    y = binary if classes == "binary" else three
    forest = kind(n_estimators=12, max_depth=4, random_state=0).fit(X, y)
    rows = X[:30]
    r = perfshap.axom(rows, model=forest, neighbours=50, seed=3)
    label = np.argmax(forest.predict_proba(rows), axis=1)
    np.testing.assert_array_equal(r.labels, label)
    k = len(forest.classes_)
    votes = np.array([np.argmax(t.predict_proba(rows), axis=1) == label for t in forest.estimators_])  # trees x rows
    np.testing.assert_array_equal(r.kept_trees, votes.sum(axis=0))
    per_tree = np.array([per_tree_class_values(t, rows, label, k) for t in forest.estimators_])  # trees x rows x F
    axom = (per_tree * votes[:, :, None]).sum(axis=0) / votes.sum(axis=0)[:, None]
    np.testing.assert_allclose(r.values, axom, rtol=0, atol=1e-12)
    np.testing.assert_allclose(r.forest_values, per_tree.mean(axis=0), rtol=0, atol=1e-12)
    doc = json.loads(r.to_json())
    assert doc["method"] == "axom" and doc["trees"] == 12 and doc["n_rows"] == 30
    assert doc["classes"] == [str(c) for c in forest.classes_]
    widths = rows.max(axis=0) - rows.min(axis=0)
    assert list(doc["scale"].values()) == pytest.approx(list(widths), rel=0, abs=0)
    assert np.isfinite(r.l_bar_rf).any() and np.isfinite(r.l_bar_axom).any()
    assert doc["rf"]["L_mean"] == pytest.approx(np.nanmean(r.l_bar_rf), rel=1e-12)
    frame = r.to_frame("points")
    assert list(frame.columns[:3]) == ["row", "label", "kept_trees"] and len(frame) == 30


def test_the_robustness_is_judged_in_each_features_range_so_units_do_not_matter():
    # Features times 4 (exact in float32 and float64): scikit-learn grows the same trees with
    # thresholds times 4, and perfshap's boxes and distances in each feature's range see the same
    # neighbours on the same sides of every threshold: bitwise the same robustness and values.
    X, binary, _ = data()
    a = RandomForestClassifier(n_estimators=10, max_depth=5, random_state=0).fit(X, binary)
    b = RandomForestClassifier(n_estimators=10, max_depth=5, random_state=0).fit(X * 4, binary)
    ra = perfshap.axom(X[:40], model=a, neighbours=200, eps=0.05, seed=1)
    rb = perfshap.axom(X[:40] * 4, model=b, neighbours=200, eps=0.05, seed=1)
    for key in ("l_bar_rf", "l_hat_rf", "l_bar_axom", "l_hat_axom", "values", "forest_values", "labels"):
        np.testing.assert_array_equal(getattr(ra, key), getattr(rb, key), err_msg=key)
    assert np.isfinite(ra.l_bar_axom).sum() > 20


def test_a_dataframe_is_read_by_the_models_feature_names():
    X, _, three = data()
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    forest = RandomForestClassifier(n_estimators=5, max_depth=3, random_state=0).fit(frame, three)
    shuffled = frame.assign(extra=1.0)[["d", "extra", "b", "a", "c"]]  # other order, a column the model lacks
    r1 = perfshap.axom(frame.iloc[:20], model=forest, neighbours=30)
    r2 = perfshap.axom(shuffled.iloc[:20], model=forest, neighbours=30)
    np.testing.assert_array_equal(r1.values, r2.values)
    np.testing.assert_array_equal(r1.l_bar_axom, r2.l_bar_axom)
    with pytest.raises(ValueError, match="'c'"):
        perfshap.axom(frame.drop(columns=["c"]).iloc[:20], model=forest)


def test_models_and_keywords_axom_cannot_take_are_refused():
    X, binary, _ = data()
    forest = RandomForestClassifier(n_estimators=3, random_state=0).fit(X, binary)
    with pytest.raises(TypeError, match="drop y"):
        perfshap.axom(X, binary, model=forest)
    with pytest.raises(TypeError, match="trees="):
        perfshap.axom(X, model=forest, trees=10)
    boosted = GradientBoostingClassifier(n_estimators=3, random_state=0).fit(X, binary)
    with pytest.raises(ValueError, match="class fractions"):
        perfshap.axom(X, model=boosted)
    with pytest.raises(ValueError, match="function"):
        perfshap.axom(X, model=lambda Z: forest.predict_proba(Z))
    with pytest.raises(ValueError, match=r"boosted trees.*\(model\)$"):
        perfshap.axom(X, model=FIXTURE_XGBOOST)
    bad = X.copy()
    bad[5, 2] = np.nan
    with pytest.raises(ValueError, match="row 5"):
        perfshap.axom(bad, model=forest)
    with pytest.raises(ValueError, match="not fitted"):
        perfshap.axom(X, model=RandomForestClassifier())
