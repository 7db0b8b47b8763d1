# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Issue 20 from Python: an early-stopped XGBoost model is explained up to its best_iteration
(as XGBoost's scikit-learn predict and shap) unless iteration_range= says otherwise, and the
result says which rounds; a deep tree is explained in a thread with a 1 MB stack; malformed
models and JSON files raise ValueError with the engine's one-line message."""
import csv
import json
import os
import tempfile
import threading

import numpy as np
import pytest
import xgboost as xgb

import perfshap

FIXTURES = os.environ["PERFSHAP_FIXTURES"]
EARLY = os.path.join(FIXTURES, "xgboost", "early_stopped.json")
BINARY = os.path.join(FIXTURES, "xgboost", "binary_logistic.json")


def wine():
    rows = list(csv.reader(open(os.path.join(FIXTURES, "data", "wine.csv"))))
    return np.array([[float(v) for v in r[:-1]] for r in rows[1:]])


def xgboost_contribs(X, iteration_range):
    booster = xgb.Booster()
    booster.load_model(EARLY)
    return booster, booster.predict(xgb.DMatrix(X), pred_contribs=True, iteration_range=iteration_range)


def test_early_stopped_model_stops_at_best_iteration():
    X = wine()
    booster, theirs = xgboost_contribs(X, (0, int(xgb.Booster(model_file=EARLY).attr("best_iteration")) + 1))
    result = perfshap.treeshap(EARLY, X)
    assert result.best_iteration == 9
    assert result.iteration_range == (0, 10)
    assert np.abs(result.contributions - theirs).max() < 1e-5
    # The Booster object and a loaded TreeModel say the same.
    assert np.array_equal(perfshap.treeshap(booster, X).values, result.values)
    model = perfshap.load_model(EARLY)
    assert model.iteration_range == (0, 10) and model.best_iteration == 9
    assert "rounds [0, 10) of 13 (best_iteration 9)" in model.describe()


def test_iteration_range_overrides_best_iteration():
    X = wine()
    _, everything = xgboost_contribs(X, (0, 0))
    result = perfshap.treeshap(EARLY, X, iteration_range=(0, 0))
    assert result.iteration_range == (0, 13)
    assert np.abs(result.contributions - everything).max() < 1e-5
    # A loaded model is read again with the range; numpy integers are integers.
    model = perfshap.load_model(EARLY)
    again = perfshap.load_model(model, iteration_range=(np.int64(2), 7))
    assert again.iteration_range == (2, 7)
    assert perfshap.load_model(model) is model


@pytest.mark.parametrize("bad", [(5, 3), (0, 14), (-1, 2), (1.5, 3), (True, 3), "0:5", (1, 2, 3), (0, 2**70)])
def test_bad_iteration_ranges_are_value_errors(bad):
    with pytest.raises(ValueError, match="iteration.range"):
        perfshap.load_model(EARLY, iteration_range=bad)


def test_shap_takes_iteration_range_and_reports_it():
    X = wine()[:2]
    result = perfshap.shap(EARLY, X, iteration_range=(0, 4), output="margin", background=5)
    assert result.json["iteration_range"] == [0, 4]
    assert result.json["best_iteration"] == 9


def test_duplicate_feature_names_are_refused():
    model = json.load(open(BINARY))
    names = model["learner"]["feature_names"]
    names[5] = names[0]
    with pytest.raises(ValueError, match="names two features 'mean_radius' \\(features 0 and 5\\)"):
        perfshap.load_model(json.dumps(model))


def test_negative_child_index_is_refused():
    model = json.load(open(BINARY))
    model["learner"]["gradient_booster"]["model"]["trees"][1]["left_children"][0] = -3
    with pytest.raises(ValueError, match="tree 1, node 0 has children -3 and"):
        perfshap.treeshap(json.dumps(model), np.zeros((2, 30)))


def deep_model(depth):
    """binary_logistic.json with one tree, a chain `depth` splits deep on 3 features."""
    model = json.load(open(BINARY))
    learner = model["learner"]
    learner["learner_model_param"]["num_feature"] = "3"
    learner["feature_names"] = ["a", "b", "c"]
    learner["feature_types"] = ["float"] * 3
    learner.pop("attributes", None)  # best_iteration 19 of the 20 rounds it had
    n = 2 * depth + 1
    left, right = [-1] * n, [-1] * n
    split, cond, hess, dleft = [0] * n, [0.0] * n, [1.0] * n, [0] * n
    for k in range(depth):
        i = 2 * k
        left[i], right[i], split[i] = i + 1, i + 2, k % 3
        cond[i] = float((k * 5) % 7 - 3)
        cond[i + 1] = 0.01 * (k % 11) - 0.05
        hess[i] = float(depth - k + 1)
        dleft[i] = k % 2
    tree = learner["gradient_booster"]["model"]["trees"][0]
    tree.update({"left_children": left, "right_children": right, "parents": [0] * n, "split_indices": split,
                 "split_conditions": cond, "split_type": [0] * n, "default_left": dleft, "sum_hessian": hess,
                 "base_weights": [0.0] * n, "loss_changes": [0.0] * n, "id": 0})
    tree["tree_param"]["num_nodes"] = str(n)
    tree["tree_param"]["num_feature"] = "3"
    learner["gradient_booster"]["model"]["trees"] = [tree]
    learner["gradient_booster"]["model"]["tree_info"] = [0]
    learner["gradient_booster"]["model"]["gbtree_model_param"]["num_trees"] = "1"
    return json.dumps(model)


def test_deep_tree_in_a_thread_with_a_one_megabyte_stack():
    X = (np.arange(60, dtype=float).reshape(20, 3) % 9) - 3.75
    outcome = {}

    def explain():
        try:
            model = perfshap.load_model(deep_model(5000))
            outcome["values"] = perfshap.treeshap(model, X, threads=1)
            outcome["margin"] = model.margin(X)[:, 0]
        except BaseException as e:  # reported below
            outcome["error"] = e

    previous = threading.stack_size(1 << 20)
    try:
        t = threading.Thread(target=explain)
        t.start()
        t.join()
    finally:
        threading.stack_size(previous)
    assert "error" not in outcome, outcome.get("error")
    r = outcome["values"]
    assert np.abs(r.values.sum(axis=1) + r.base_values - outcome["margin"]).max() < 1e-9


def test_deeply_nested_groups_file_is_a_value_error():
    X = wine()
    y = (np.arange(len(X)) % 2).astype(float)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "groups.json")
        with open(path, "w") as f:
            f.write("[" * 65000 + "]" * 65000)
        with pytest.raises(ValueError, match="more than 64 levels deep"):
            perfshap.robustness(X, y, groups=path, cv="holdout")


def test_a_model_that_is_no_tree_model_is_told_what_treeshap_takes():
    from sklearn.linear_model import LogisticRegression

    X = np.random.default_rng(0).random((20, 3))
    y = (X[:, 0] > 0.5).astype(int)
    for model in (LogisticRegression().fit(X, y), lambda z: z.sum(axis=1)):
        with pytest.raises(ValueError, match="is not a tree model.*XGBoost.*scikit-learn tree model.*perfshap.shap"):
            perfshap.treeshap(model, X)
