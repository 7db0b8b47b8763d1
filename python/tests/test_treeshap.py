# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""perfshap.treeshap against XGBoost's pred_contribs and the CLI's contributions.csv, bit for bit."""
import csv
import os
import subprocess
import tempfile
import threading

import numpy as np
import pytest
import xgboost as xgb

import perfshap

FIXTURES = os.environ["PERFSHAP_FIXTURES"]
CLI = os.environ["PERFSHAP_CLI"]
MODEL = os.path.join(FIXTURES, "xgboost", "binary_logistic_100x6.json")
DATA = os.path.join(FIXTURES, "data", "breast_cancer.csv")


def breast_cancer():
    rows = list(csv.reader(open(DATA)))
    header = rows[0]
    keep = [k for k, name in enumerate(header) if name != "label"]
    X = np.array([[float(r[k]) for k in keep] for r in rows[1:]])
    return X, [header[k] for k in keep]


def test_equals_pred_contribs_and_adds_up():
    X, names = breast_cancer()
    result = perfshap.treeshap(MODEL, X)
    booster = xgb.Booster()
    booster.load_model(MODEL)
    theirs = booster.predict(xgb.DMatrix(X, feature_names=names), pred_contribs=True)
    assert result.values.shape == (569, 30)
    assert np.abs(result.contributions[:, 0, :] - theirs).max() < 1e-5
    margin = perfshap.load_model(MODEL).margin(X)[:, 0]
    assert np.abs(result.values.sum(axis=1) + result.base_values - margin).max() < 1e-9
    # A Booster object gives the same values.
    again = perfshap.treeshap(booster, X)
    assert np.array_equal(again.values, result.values)


def test_interactions_equal_pred_interactions_and_add_up():
    """interactions=True: XGBoost's pred_interactions (200 rows of the 100-tree acceptance model,
    binary; a multi-class model with NaN cells), each matrix row adding up to the SHAP value;
    interaction_features: those rows of the matrix, bit for bit."""
    X, names = breast_cancer()
    X = X[:200]
    result = perfshap.treeshap(MODEL, X, interactions=True)
    booster = xgb.Booster()
    booster.load_model(MODEL)
    theirs = booster.predict(xgb.DMatrix(X, feature_names=names), pred_interactions=True)
    assert result.interactions.shape == theirs.shape == (200, 31, 31)
    assert np.abs(result.interactions - theirs).max() < 1e-5
    assert np.abs(result.interactions.sum(axis=2)[:, :-1] - result.values).max() < 1e-12
    assert result.interaction_features == names + ["bias"]
    part = perfshap.treeshap(MODEL, X, interaction_features=["mean_texture", 0])
    assert part.interaction_features == ["mean_texture", names[0]]
    assert np.array_equal(part.interactions, result.interactions[:, [1, 0], :])
    with pytest.raises(ValueError, match="'nope' is not one of the model's features"):
        perfshap.treeshap(MODEL, X, interaction_features=["nope"])

    wine = os.path.join(FIXTURES, "xgboost", "multi_softprob.json")
    rng = np.random.RandomState(0)
    W = rng.rand(30, 13) * 10
    W[rng.rand(*W.shape) < 0.1] = np.nan
    multi = perfshap.treeshap(wine, W, interactions=True, threads=2)
    b = xgb.Booster()
    b.load_model(wine)
    want = b.predict(xgb.DMatrix(W, missing=np.nan), pred_interactions=True)
    assert multi.interactions.shape == want.shape == (30, 3, 14, 14)
    assert np.abs(multi.interactions - want).max() < 1e-5


def test_every_layout_of_the_rows_gives_the_same_bits():
    """A float64 matrix is read in place in C or Fortran order (a column with its step), a
    slice with a stride too, a float64 DataFrame through its block; other dtypes converted once."""
    import pandas as pd
    X, names = breast_cancer()
    want = perfshap.treeshap(MODEL, X).contributions
    wide = np.zeros((X.shape[0] * 2, X.shape[1] + 3))
    wide[::2, 1:-2] = X
    layouts = {
        "Fortran order": np.asfortranarray(X),
        "every other row of a wider matrix": wide[::2, 1:-2],
        "values rounded to float32 (XGBoost compares in float)": X.astype(np.float32).astype(np.float64),
        "a DataFrame": pd.DataFrame(X, columns=names),
        "a Fortran DataFrame": pd.DataFrame(np.asfortranarray(X), columns=names),
    }
    for what, rows in layouts.items():
        assert np.array_equal(perfshap.treeshap(MODEL, rows).contributions, want), what
    # Integers converted once: the same as their float64 values.
    ints = np.rint(X * 10).astype(np.int64)
    assert np.array_equal(perfshap.treeshap(MODEL, ints).contributions,
                          perfshap.treeshap(MODEL, ints.astype(np.float64)).contributions)
    # The result owns its values: the rows may go.
    r = perfshap.treeshap(MODEL, np.array(X))
    assert r.contributions.flags.owndata or r.contributions.base is not None
    assert np.array_equal(r.contributions, want)


def test_same_numbers_as_the_cli_and_any_thread_count():
    X, _ = breast_cancer()
    result = perfshap.treeshap(MODEL, X, threads=1)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([CLI, "treeshap", "--model-file", MODEL, "--data", DATA, "--label", "label", "--quiet",
                        "--force", "--out", out], check=True)
        rows = list(csv.reader(open(os.path.join(out, "contributions.csv"))))
    cli = np.array([[float(v) for v in r[1:]] for r in rows[1:]])
    assert np.array_equal(cli, result.contributions[:, 0, :])  # %.17g reads back to the same doubles
    assert np.array_equal(perfshap.treeshap(MODEL, X, threads=2).values, result.values)


def test_releases_the_gil():
    X, _ = breast_cancer()
    X = np.tile(X, (20, 1))
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            done.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    perfshap.treeshap(MODEL, X, threads=1)
    done.set()
    t.join()
    assert len(ticks) > 1  # the other thread ran while the engine computed


def test_errors_are_value_errors_with_the_engines_message():
    with pytest.raises(ValueError, match="truncated"):
        perfshap.treeshap(os.path.join(FIXTURES, "xgboost", "truncated.json"), np.zeros((1, 30)))
    with pytest.raises(ValueError, match="gblinear"):
        perfshap.load_model(os.path.join(FIXTURES, "xgboost", "gblinear.json"))
    with pytest.raises(ValueError, match="31 columns"):
        perfshap.treeshap(MODEL, np.zeros((2, 31)))
    with pytest.raises(ValueError, match="cannot read"):
        perfshap.treeshap("/nonexistent/m.json", np.zeros((2, 30)))


def test_numpy_columns_by_position_are_said_and_empty_frames_are_refused():
    """Hardening round 2: a numpy X for a model that knows its feature names is read in the
    model's order, and perfshap says so (a DataFrame is matched by name, in any order); a 0-row
    DataFrame is a one-line error, not an internal one."""
    import warnings

    import pandas as pd

    X, names = breast_cancer()
    X = X[:20]
    with pytest.warns(UserWarning, match="X has no column names.*model's order.*DataFrame"):
        by_position = perfshap.treeshap(MODEL, X)
    frame = pd.DataFrame(X, columns=names)
    reordered = frame[names[::-1]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        by_name = perfshap.treeshap(MODEL, reordered)
    assert np.array_equal(by_name.values, by_position.values)
    with pytest.raises(ValueError, match="X has no rows"):
        perfshap.treeshap(MODEL, frame.iloc[:0])
