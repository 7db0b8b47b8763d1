# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The user's own model as a Python function f(X) (or a fitted estimator) in perfshap.shap and
perfshap.xper: the engine calls f with batches of hybrid rows. Checked against the exact
interventional values computed here from the definition, v(S) = mean over the background b of
f(x_S, b_notS), enumerating every coalition."""
import itertools
import math
import threading

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

import perfshap


def data(n=200, p=4, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.randn(n, p) * np.array([1.0, 3.0, 0.5, 2.0])[:p] + np.array([0.0, 5.0, -1.0, 2.0])[:p]
    y = (X[:, 0] + 0.3 * X[:, 1] - X[:, 2] + 0.2 * rng.randn(n) > 1.5).astype(int)
    return X, y


def exact_interventional(f, rows, background):
    """phi: rows x outputs x features, from the definition (all 2^p coalitions)."""
    n, p = rows.shape
    out = np.asarray(f(rows[:1]))
    k = 1 if out.ndim == 1 else out.shape[1]
    phi = np.zeros((n, k, p))

    def v(x, S):
        hybrid = background.copy()
        hybrid[:, list(S)] = x[list(S)]
        y = np.asarray(f(hybrid), dtype=np.float64).reshape(len(background), k)
        return y.mean(axis=0)

    for r, x in enumerate(rows):
        for j in range(p):
            others = [q for q in range(p) if q != j]
            for size in range(p):
                w = math.factorial(size) * math.factorial(p - size - 1) / math.factorial(p)
                for S in itertools.combinations(others, size):
                    phi[r, :, j] += w * (v(x, S + (j,)) - v(x, S))
    return phi


@pytest.mark.parametrize("pipeline", [False, True])
def test_predict_proba_equals_the_definition(pipeline):
    X, y = data()
    model = (Pipeline([("scale", StandardScaler()), ("lr", LogisticRegression(C=0.5))]) if pipeline else
             LogisticRegression(C=0.5)).fit(X, y)
    rows, background = X[:8], X[100:140]
    e = perfshap.shap(model.predict_proba, rows, background=background, solver="exact")
    expected = exact_interventional(model.predict_proba, rows, background)
    assert e.values.shape == (8, 2, 4)
    assert np.abs(e.values - np.transpose(expected, (0, 1, 2))).max() < 1e-12
    p = model.predict_proba(rows)
    assert np.abs(e.values.sum(axis=-1) + e.base_values - p).max() < 1e-12
    # The estimator itself: its predict_proba.
    same = perfshap.shap(model, rows, background=background, solver="exact")
    assert np.array_equal(same.values, e.values)


def test_a_plain_function_every_solver_and_threads():
    X, _ = data(p=3)

    def f(Z):
        return np.tanh(Z[:, 0] * Z[:, 1]) + 0.1 * Z[:, 2] ** 2

    rows, background = X[:5], X[50:70]
    exact = perfshap.shap(f, rows, background=background, solver="exact")
    assert np.abs(exact.values - exact_interventional(f, rows, background)[:, 0, :]).max() < 1e-12
    for solver in ("kernel", "permutation"):
        one = perfshap.shap(f, rows, background=background, solver=solver, threads=1, seed=3)
        two = perfshap.shap(f, rows, background=background, solver=solver, threads=2, seed=3)
        assert np.array_equal(one.values, two.values), solver  # bitwise at any thread count
        assert np.abs(one.values.sum(axis=-1) + one.base_values - f(rows)).max() < 1e-9


def test_batches_are_large_and_calls_hold_the_gil_only_inside():
    X, _ = data(n=300, p=4)
    sizes = []
    threads = set()

    def f(Z):
        sizes.append(len(Z))
        threads.add(threading.get_ident())
        return Z @ np.array([1.0, -0.5, 2.0, 0.25])

    perfshap.shap(f, X[:100], background=X[100:200], solver="exact", threads=2)
    assert max(sizes) >= 1000  # thousands of hybrid rows a call, not one row at a time
    assert sum(sizes) >= 16 * 100 * 100  # every coalition's hybrid rows were predicted


@pytest.mark.parametrize("solver", ["permutation", "kernel"])
def test_sampled_solvers_batch_coalitions_into_few_calls(solver):
    # Issue 37's shape: 30 features, 100 background rows, one row at 1,000 evaluations. The
    # solvers hand the model whole batches of coalitions: at most one call per 60 of them (one
    # a coalition before), the same values at 1 and 2 threads.
    rng = np.random.RandomState(5)
    rows, background = rng.randn(1, 30), rng.randn(100, 30)
    calls = []

    def f(Z):
        calls.append(len(Z))
        return np.tanh((Z[:, 0::2] * Z[:, 1::2]).sum(axis=1)) + 0.1 * Z[:, 3]

    one = perfshap.shap(f, rows, background=background, solver=solver, budget=1000, seed=3, threads=1)
    evaluations = sum(calls) // 100  # each coalition is 100 hybrid rows (the probe is one row)
    assert evaluations >= 900
    assert len(calls) * 60 <= evaluations, (len(calls), evaluations)
    calls.clear()
    two = perfshap.shap(f, rows, background=background, solver=solver, budget=1000, seed=3, threads=2)
    assert np.array_equal(one.values, two.values)
    assert len(calls) * 60 <= evaluations


def test_xper_of_a_function_decomposes_its_auc():
    X, y = data()
    model = LogisticRegression().fit(X[:100], y[:100])
    x = perfshap.xper(X[100:], y[100:], model=lambda Z: model.predict_proba(Z)[:, 1])
    auc = roc_auc_score(y[100:], model.predict_proba(X[100:])[:, 1])
    assert abs(x["value"] - auc) < 1e-12
    assert abs(x["base"] + np.sum(x["phi"]) - x["value"]) < 1e-12
    assert x["model"]["kind"] == "function"
    # The estimator itself: P(class 1), the same numbers.
    same = perfshap.xper(X[100:], y[100:], model=model)
    assert same["phi"].tolist() == x["phi"].tolist()


def test_bad_functions_are_one_line_errors():
    X, y = data(n=60, p=3)
    rows, background = X[:4], X[10:20]

    def wrong_shape(Z):
        return np.zeros((len(Z) + 1,)) if len(Z) > 1 else np.zeros(1)

    with pytest.raises(ValueError, match=r"wrong_shape returned an array of shape \(41,\) for 40 rows; it must return "
                                         r"40 values"):
        perfshap.shap(wrong_shape, rows, background=background, solver="exact")

    def nan_after_probe(Z):
        out = Z[:, 0].copy()
        if len(Z) > 1:
            out[3] = np.nan
        return out

    with pytest.raises(ValueError, match="returned NaN for row 3"):
        perfshap.shap(nan_after_probe, rows, background=background, solver="exact")

    class Boom(RuntimeError):
        pass

    calls = []

    def raises(Z):
        calls.append(1)
        if len(calls) > 1:
            raise Boom("the user's error")
        return Z[:, 0]

    with pytest.raises(Boom, match="the user's error"):
        perfshap.shap(raises, rows, background=background, solver="exact")
    with pytest.raises(ValueError, match="not fitted"):
        perfshap.shap(LogisticRegression(), rows, background=background)
    with pytest.raises(ValueError, match="returns 2 values a row"):
        perfshap.xper(X, y, model=LogisticRegression().fit(X, y).predict_proba)
    with pytest.raises(ValueError, match="interventional"):
        perfshap.shap(lambda Z: Z[:, 0], rows, approach="tree")


def test_a_scikit_learn_estimator_as_the_robustness_learner():
    """model=GaussianNB(): a clone trained on every coalition of every split gives model="gnb"'s
    numbers (banknote, mc:20); a Pipeline runs; the estimator's own errors reach the caller."""
    import os

    import pandas as pd
    from sklearn.naive_bayes import GaussianNB

    frame = pd.read_csv(os.path.join(os.environ["PERFSHAP_FIXTURES"], "data", "banknote.csv"))
    X, y = frame.drop(columns="label"), frame["label"]
    native = perfshap.robustness(X, y, model="gnb", cv="mc:20", seed=0)
    mine = perfshap.robustness(X, y, model=GaussianNB(), cv="mc:20", seed=0)
    assert np.abs(np.asarray(mine.phi) - np.asarray(native.phi)).max() < 1e-12
    assert np.abs(np.asarray(mine.phi_std) - np.asarray(native.phi_std)).max() < 1e-12
    assert abs(mine.value - native.value) < 1e-12
    assert mine.json["model"] == "GaussianNB"
    assert mine.json["model_params"] == {"estimator": "GaussianNB()"}
    pipe = perfshap.robustness(X, y, model=Pipeline([("s", StandardScaler()), ("lr", LogisticRegression())]),
                               cv="mc:3", seed=0, threads=2)
    assert len(pipe.phi) == 4 and pipe.value > 0.95

    class Failing(GaussianNB):
        def fit(self, X, y):
            raise ArithmeticError("the estimator's own error")

    with pytest.raises(ArithmeticError, match="own error"):
        perfshap.robustness(X, y, model=Failing(), cv="mc:2", seed=0)

    class NoPredict:
        def fit(self, X, y):
            return self

    with pytest.raises(TypeError, match="no predict_proba or predict"):
        perfshap.robustness(X, y, model=NoPredict(), cv="mc:2")


def test_an_estimator_fitted_on_train_and_retrained_per_coalition():
    """shap(GaussianNB(), X, train=...) fits the estimator on train as model="gnb" does; with
    approach="retrain" a clone is refitted on every coalition: the same values as gnb's."""
    import os

    import pandas as pd
    from sklearn.naive_bayes import GaussianNB

    frame = pd.read_csv(os.path.join(os.environ["PERFSHAP_FIXTURES"], "data", "banknote.csv"))
    X, y = frame.drop(columns="label"), frame["label"]
    train = (X.iloc[:800], y.iloc[:800])
    for approach in ("interventional", "retrain"):
        native = perfshap.shap("gnb", X.iloc[800:820], train=train, approach=approach, background=50, seed=1)
        mine = perfshap.shap(GaussianNB(), X.iloc[800:820], train=train, approach=approach, background=50, seed=1)
        assert np.abs(mine.values - native.values).max() < 1e-12, approach
        assert np.abs(mine.base_values - native.base_values).max() < 1e-12, approach


def test_errors_keep_their_kind_and_option_names():
    """The engine's DataError and InvalidArgument reach Python as perfshap.DataError and
    perfshap.InvalidArgument (both ValueError), with the option names in `options`."""
    X, y = data(n=60, p=3)
    bad = y.astype(float).copy()
    bad[4] = 2.0  # a label that is not 0/1
    with pytest.raises(perfshap.DataError) as info:
        perfshap.robustness(X, bad, cv="mc:2")
    assert isinstance(info.value, ValueError)
    with pytest.raises(perfshap.InvalidArgument) as info:
        perfshap.robustness(X, y, cv="mc:2", exact_limit=2)  # 3 features, the exact solver's limit 2
    assert "exact_limit" in info.value.options and "solver" in info.value.options, info.value.options
    with pytest.raises(perfshap.DataError):
        perfshap.shap(lambda Z: Z[:, 0] * np.nan, X[:3], background=X[10:15], solver="exact")


def test_a_function_that_writes_into_its_input_leaves_the_callers_data_alone():
    # Hardening round 2, item 4: every call (the first-row probe too) gets a copy, never a view.
    X, _ = data(n=40, p=3)
    rows, background = X[:3].copy(), X[10:20].copy()
    kept_rows, kept_background = rows.copy(), background.copy()

    def vandal(Z):
        out = Z[:, 0] + 2.0 * Z[:, 1]
        Z[:] = 0.0
        return out

    got = perfshap.shap(vandal, rows, background=background, solver="exact")
    np.testing.assert_array_equal(rows, kept_rows)
    np.testing.assert_array_equal(background, kept_background)
    clean = perfshap.shap(lambda Z: Z[:, 0] + 2.0 * Z[:, 1], rows, background=background, solver="exact")
    np.testing.assert_array_equal(got.values, clean.values)

    import pandas as pd

    frame = pd.DataFrame(rows, columns=["a", "b", "c"])
    kept = frame.copy()

    def frame_vandal(Z):
        out = np.asarray(Z["a"], dtype=float)
        Z.iloc[:, :] = 0.0
        return out

    perfshap.shap(frame_vandal, frame, background=pd.DataFrame(background, columns=["a", "b", "c"]), solver="exact")
    pd.testing.assert_frame_equal(frame, kept)


def test_a_function_returning_complex_numbers_is_refused():
    # Item 9: the imaginary part is never dropped silently, on the probe or on a later batch.
    X, _ = data(n=40, p=3)
    rows, background = X[:3], X[10:20]
    with pytest.raises(TypeError, match="complex numbers"):
        perfshap.shap(lambda Z: Z[:, 0] + 1j, rows, background=background, solver="exact")

    def complex_later(Z):
        return Z[:, 0] + (1j if len(Z) > 1 else 0)

    with pytest.raises(ValueError, match="returned complex numbers"):
        perfshap.shap(complex_later, rows, background=background, solver="exact")
