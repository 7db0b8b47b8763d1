# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""perfshap.sage: SAGE values of a user's model against a brute force written here with numpy and
scikit-learn's metrics (every coalition's imputed predictions from the background rows, the
metric, the Shapley formula), the same run from the command line, and bad input."""
import itertools
import json
import math
import os
import subprocess

import numpy as np
import pytest
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LinearRegression
from sklearn.metrics import log_loss, r2_score, roc_auc_score

import perfshap
from support import DATA, read


def brute_force(predict, X, background, metric):
    """Shapley values of v(S) = metric(mean over the background rows of predict(x_S, b_notS))."""
    n, F = X.shape
    value = {}
    for S in itertools.product([0, 1], repeat=F):
        mask = np.array(S, dtype=bool)
        hybrid = np.repeat(background[None, :, :], n, axis=0)  # n x B x F
        hybrid[:, :, mask] = X[:, None, mask]
        value[S] = metric(predict(hybrid.reshape(-1, F)).reshape(n, -1).mean(axis=1))
    phi = np.zeros(F)
    for j in range(F):
        for S, v in value.items():
            if S[j]:
                continue
            s = sum(S)
            with_j = tuple(1 if k == j else S[k] for k in range(F))
            phi[j] += math.factorial(s) * math.factorial(F - s - 1) / math.factorial(F) * (value[with_j] - v)
    return phi


def test_sage_of_an_estimator_equals_the_brute_force():
    X, y = read("banknote.csv")
    X, y = X.iloc[::7], y.iloc[::7].to_numpy(dtype=float)  # both classes
    model = GradientBoostingClassifier(n_estimators=20, max_depth=2, random_state=0).fit(X.to_numpy(), y)
    background = X.iloc[::20].to_numpy()
    proba = lambda Z: model.predict_proba(Z)[:, 1]  # noqa: E731
    for metric, reference in (("log_loss", lambda p: -log_loss(y, p)), ("auc", lambda p: roc_auc_score(y, p))):
        r = perfshap.sage(proba, X.to_numpy(), y, metric=metric, background=background, solver="exact")
        expected = brute_force(proba, X.to_numpy(), background, reference)
        np.testing.assert_allclose(r["phi"], expected, rtol=0, atol=1e-10)
        sign = -1.0 if metric == "log_loss" else 1.0
        assert r["phi"].sum() == pytest.approx(sign * (r["metric_full"] - r["metric_empty"]), abs=1e-12)
        assert r.json["players"] == list(X.columns) or r.json["players"] == [f"x{j}" for j in range(4)]


def test_sage_of_a_regressor_under_the_gaussian_value_function():
    rng = np.random.default_rng(3)
    X = rng.multivariate_normal([0, 0, 0], [[1, 0.8, 0], [0.8, 1, 0], [0, 0, 1]], size=300)
    y = X @ np.array([1.0, 0.0, 0.5]) + rng.normal(size=300) * 0.3
    model = LinearRegression().fit(X, y)
    marginal = perfshap.sage(model, X, y, metric="r2", background=X[:100], solver="exact")
    expected = brute_force(model.predict, X, X[:100], lambda p: r2_score(y, p))
    np.testing.assert_allclose(marginal["phi"], expected, rtol=0, atol=1e-10)
    # Conditional: x1 carries x0's information, so it gets a share of x0's importance.
    # (perfshap's own linear learner: a model it can see is linear, so the gaussian path is exact.)
    conditional = perfshap.sage("linear", X, y, train=(X, y), metric="r2", background=X[:100],
                                conditional="gaussian", solver="exact")
    assert conditional.json["conditional_exact"] is True
    assert conditional["phi"][1] > marginal["phi"][1] + 0.1
    assert conditional["phi"].sum() == pytest.approx(marginal["phi"].sum(), abs=1e-9)
    # Beside it, the marginal SAGE of the same (least-squares) model on the same background.
    side = conditional.json["marginal_comparison"]
    assert side["value_function"] == "gaussian"
    for j, name in enumerate(conditional["players"]):
        assert side["players"][name]["marginal"] == pytest.approx(marginal["phi"][j], abs=1e-8)
        assert side["players"][name]["conditional"] == conditional["phi"][j]


def test_the_command_line_gives_the_same_run(tmp_path):
    path = os.path.join(DATA, "banknote.csv")
    out = tmp_path / "cli"
    subprocess.run([os.environ["PERFSHAP_CLI"], "sage", "--data", path, "--label", "label", "--train", path,
                    "--model", "logistic", "--metric", "brier", "--background", "30", "--out", str(out),
                    "--quiet"], check=True)
    cli = json.loads((out / "result.json").read_text())
    X, y = read("banknote.csv")
    py = perfshap.sage("logistic", X, y, train=(X, y), metric="brier", background=30)
    assert cli["phi"] == py.json["phi"]
    assert cli["metric_full"] == py.json["metric_full"]
    assert (out / "sage.csv").read_text().splitlines()[0] == "feature,phi,phi_se"


def test_model_variability_bands_across_splits():
    X, y = read("pima.csv")
    r = perfshap.sage("logistic", X, y, cv="kfold:4", background=40)
    cv = r.json["cv"]
    by_split = np.array(cv["phi_by_split"])
    assert by_split.shape == (4, X.shape[1])
    assert sum(cv["test_rows_by_split"]) == len(X)  # k-fold: every row tested once
    np.testing.assert_allclose(r["phi"], by_split.mean(axis=0), rtol=0, atol=1e-15)
    np.testing.assert_allclose(r["phi_std"], by_split.std(axis=0, ddof=1), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(r["phi_by_split"], by_split)
    for phi, full, empty in zip(by_split, cv["metric_full_by_split"], cv["metric_empty_by_split"]):
        assert phi.sum() == pytest.approx(empty - full, abs=1e-12)  # log-loss: a loss, negated
    assert max(cv["phi_std"]) > 0
    with pytest.raises(perfshap.InvalidArgument, match="drop the training sample"):
        perfshap.sage("logistic", X, y, train=(X, y), cv="kfold:4")


def test_explicit_splits_in_memory_and_from_a_file(tmp_path):
    """split= (robustness's explicit splits): each split's values are those of a plain run with
    the learner fitted on its training rows, on its test rows; in memory as from --split FILE."""
    X, y = read("pima.csv")
    rng = np.random.default_rng(5)
    splits = []
    for _ in range(3):
        order = rng.permutation(len(X))
        splits.append((np.sort(order[:500]), np.sort(order[500:])))
    r = perfshap.sage("logistic", X, y, split=splits, background=30)
    assert r.json["cv"]["plan"] == "split"
    assert np.asarray(r["phi_by_split"]).shape == (3, X.shape[1])
    for (train, test), phi in zip(splits, r["phi_by_split"]):
        plain = perfshap.sage("logistic", X.iloc[test], y[test], train=(X.iloc[train], y[train]), background=30)
        np.testing.assert_allclose(phi, plain["phi"], rtol=0, atol=1e-12)
    path = tmp_path / "splits.json"
    path.write_text(json.dumps({"splits": [{"train": a.tolist(), "test": b.tolist()} for a, b in splits]}))
    out = tmp_path / "cli"
    subprocess.run([os.environ["PERFSHAP_CLI"], "sage", "--data", os.path.join(DATA, "pima.csv"), "--label", "label", "--model",
                    "logistic", "--split", str(path), "--background", "30", "--out", str(out), "--quiet"], check=True)
    cli = json.loads((out / "result.json").read_text())
    np.testing.assert_array_equal(np.array(cli["cv"]["phi_by_split"]), r["phi_by_split"])
    with pytest.raises(perfshap.InvalidArgument, match="give cv .* or split .*, not both"):
        perfshap.sage("logistic", X, y, split=splits, cv="kfold:3")
    with pytest.raises(perfshap.InvalidArgument, match="test_size and stratify shape the splits of cv"):
        perfshap.sage("logistic", X, y, test_size=0.3)


def test_retrain_vs_marginalise_on_the_same_splits():
    """compare_retrain: ShapAUC beside SAGE is robustness() on the same splits and learner."""
    X, y = read("pima.csv")
    rng = np.random.default_rng(9)
    splits = [tuple(np.sort(part) for part in np.split(rng.permutation(len(X)), [550])) for _ in range(3)]
    r = perfshap.sage("logistic", X, y, split=splits, metric="auc", background=30, compare_retrain=True)
    shapauc = perfshap.robustness(X, y, model="logistic", split=splits)
    np.testing.assert_array_equal(r["shapauc"], shapauc["phi"])
    np.testing.assert_array_equal(r["shapauc_std"], shapauc["phi_std"])
    c = r.json["retrain_comparison"]
    assert c["splits"] == 3 and c["sage_metric"] == r.json["metric"]
    for j, name in enumerate(r["players"]):
        assert c["players"][name]["sage"] == r["phi"][j]
        assert c["players"][name]["shapauc"] == shapauc["phi"][j]
    ranks = [c["players"][name]["rank_sage"] for name in r["players"]]
    assert sorted(ranks) == list(range(1, len(ranks) + 1))
    with pytest.raises(perfshap.InvalidArgument, match="compare_retrain puts ShapAUC beside SAGE"):
        perfshap.sage("logistic", X, y, train=(X, y), compare_retrain=True)


def test_cv_reads_the_data_once(tmp_path):
    """With cv the data is also the training sample: read once, so a pipe works as a file does."""
    path = os.path.join(DATA, "pima.csv")
    args = ["sage", "--label", "label", "--model", "logistic", "--cv", "kfold:3", "--background", "20", "--quiet"]
    subprocess.run([os.environ["PERFSHAP_CLI"], *args, "--data", path, "--out", str(tmp_path / "file")], check=True)
    with open(path, "rb") as f:
        subprocess.run([os.environ["PERFSHAP_CLI"], *args, "--data", "/dev/stdin", "--out", str(tmp_path / "pipe")],
                       input=f.read(), check=True)
    file_run = json.loads((tmp_path / "file" / "result.json").read_text())
    pipe_run = json.loads((tmp_path / "pipe" / "result.json").read_text())
    assert pipe_run["cv"]["phi_by_split"] == file_run["cv"]["phi_by_split"]


def test_compare_retrain_reads_the_data_once(tmp_path):
    """The ShapAUC side uses the rows sage read: a pipe gives what the file gives."""
    path = os.path.join(DATA, "pima.csv")
    args = ["sage", "--label", "label", "--model", "logistic", "--cv", "kfold:3", "--metric", "auc", "--background",
            "20", "--compare-retrain", "--quiet"]
    subprocess.run([os.environ["PERFSHAP_CLI"], *args, "--data", path, "--out", str(tmp_path / "file")], check=True)
    with open(path, "rb") as f:
        subprocess.run([os.environ["PERFSHAP_CLI"], *args, "--data", "/dev/stdin", "--out", str(tmp_path / "pipe")],
                       input=f.read(), check=True)
    file_run = json.loads((tmp_path / "file" / "result.json").read_text())
    pipe_run = json.loads((tmp_path / "pipe" / "result.json").read_text())
    assert pipe_run["retrain_comparison"] == file_run["retrain_comparison"]


def test_bad_input_names_the_option():
    X, y = read("banknote.csv")
    with pytest.raises(perfshap.InvalidArgument, match="reads probabilities"):
        perfshap.sage(lambda Z: Z[:, 0], X.to_numpy(), y.to_numpy(), metric="log_loss")
    with pytest.raises(perfshap.DataError, match="row 762: the label .3. is not 0 or 1"):
        perfshap.sage("logistic", X, y * 3.0, train=(X, y))
    W, c = read("wine.csv")  # three classes
    with pytest.raises(perfshap.InvalidArgument, match="gives 3 .one a class.: name the positive class"):
        perfshap.sage("forest", W, c, train=(W, c), trees=5)
