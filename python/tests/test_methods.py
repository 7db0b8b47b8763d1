# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Every method from Python equals the CLI's result.json and tables on the same data, bit for bit;
threads and seeds behave as on the command line; pandas and numpy inputs; results' objects."""
import csv
import json
import os
import subprocess
import tempfile

import numpy as np
import pandas as pd
import pytest

import perfshap
import support

FIXTURES = os.environ["PERFSHAP_FIXTURES"]
CLI = os.environ["PERFSHAP_CLI"]
DATA = os.path.join(FIXTURES, "data")
MODEL = os.path.join(FIXTURES, "xgboost", "binary_logistic_100x6.json")

# Keys that name where the data came from or how long the run took: not numbers of the method.
VOLATILE = {"elapsed_seconds", "data", "files", "model_source", "background_source", "seconds", "stages",
            "timing", "source", "train"}


def read(name):
    """(features DataFrame, label Series) of a fixture CSV, doubles parsed exactly."""
    frame = pd.read_csv(os.path.join(DATA, name), float_precision="round_trip")
    return frame.drop(columns=["label"]), frame["label"]


def cli(args, tmp_path):
    out = tmp_path / "cli"
    subprocess.run([CLI] + args + ["--quiet", "--out", str(out)], check=True, capture_output=True, text=True)
    return {p.name: p.read_text() for p in out.iterdir()}


def strip(doc):
    return support.strip(doc, VOLATILE)


def assert_same(result, files):
    """result.json's numbers and every CSV equal, bit for bit (JSON doubles round-trip)."""
    theirs = json.loads(files["result.json"])
    assert strip(result.json) == strip(theirs)
    for name, text in files.items():
        if name.endswith(".csv"):
            assert result.files[name] == text, name


def test_robustness_equals_cli_from_a_dataframe(tmp_path):
    X, y = read("banknote.csv")
    args = ["--cv", "mc:10", "--seed", "3", "--threads", "2"]
    r = perfshap.robustness(X, y, cv="mc:10", seed=3, threads=2)
    assert_same(r, cli(["robustness", "--data", os.path.join(DATA, "banknote.csv"), "--label", "label"] + args,
                       tmp_path))
    assert r.phi.shape == (4,) and r.phi_std.shape == (4,)
    assert [p["name"] for p in r.players] == list(X.columns)
    assert r.value == pytest.approx(r.base + r.phi.sum(), abs=1e-12)  # efficiency


def test_robustness_equals_the_authors_scripts_on_their_split():
    """The ShapAUC / ShapAUPRC authors' scripts (scikit-learn 1.2.1, thresholds:101), as the C++
    CLI test checks them: tests/fixtures/shaproc_banknote_peer.json."""
    X, y = read("banknote.csv")
    with open(os.path.join(FIXTURES, "refs", "shapauc", "banknote_gnb_seed0.json")) as f:
        ref = json.load(f)
    with open(os.path.join(FIXTURES, "shaproc_banknote_peer.json")) as f:
        peer = json.load(f)
    split = {"train": ref["train_rows"], "test": ref["test_rows"]}
    for strategy in ("optimistic", "interpolation"):
        r = perfshap.robustness(X, y, model="gnb", split=split, curve_points="thresholds:101", strategy=strategy)
        np.testing.assert_allclose(r.phi, peer["phi_auc"], rtol=0, atol=1e-13)
        np.testing.assert_allclose(r.phi_auprc, peer["phi_auprc"], rtol=0, atol=1e-13)
        np.testing.assert_allclose(r.shap_roc_integrated["mean"], peer[strategy]["shap_roc_integrated"], rtol=0,
                                   atol=1e-13)


def test_robustness_numpy_float32_equals_the_cli_on_the_same_doubles(tmp_path):
    X, y = read("banknote.csv")
    x32 = X.to_numpy(dtype=np.float32)  # read in place: the engine converts each value once
    path = tmp_path / "f32.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([f"x{j}" for j in range(4)] + ["label"])
        for row, label in zip(x32.astype(np.float64), y):
            w.writerow([repr(float(v)) for v in row] + [int(label)])
    r = perfshap.robustness(x32, y.to_numpy(), cv="kfold:5", model="logistic", seed=1)
    assert_same(r, cli(["robustness", "--data", str(path), "--label", "label", "--cv", "kfold:5", "--model",
                        "logistic", "--seed", "1"], tmp_path))


def test_results_do_not_depend_on_threads():
    X, y = read("pima.csv")
    one = perfshap.robustness(X, y, cv="mc:6", threads=1, seed=5)
    two = perfshap.robustness(X, y, cv="mc:6", threads=2, seed=5)
    assert one.json["threads"] == 1 and two.json["threads"] == 2
    del one.json["threads"], two.json["threads"]
    assert strip(one.json) == strip(two.json) and one.files["phi.csv"] == two.files["phi.csv"]
    other_seed = perfshap.robustness(X, y, cv="mc:6", threads=2, seed=6)
    assert other_seed.files["phi.csv"] != one.files["phi.csv"]


def test_xper_equals_cli(tmp_path):
    X, y = read("pima.csv")
    train = (X.iloc[:500], y.iloc[:500])
    r = perfshap.xper(X.iloc[500:].reset_index(drop=True), y.iloc[500:].reset_index(drop=True), model="logistic",
                      train=train, metric="auc", seed=2)
    pd.concat([X.iloc[:500], y.iloc[:500]], axis=1).to_csv(tmp_path / "train.csv", index=False)
    pd.concat([X.iloc[500:], y.iloc[500:]], axis=1).to_csv(tmp_path / "test.csv", index=False)
    # pandas writes the shortest round-trip repr, so the files hold the same doubles
    files = cli(["xper", "--data", str(tmp_path / "test.csv"), "--label", "label", "--model", "logistic", "--train",
                 str(tmp_path / "train.csv"), "--metric", "auc", "--seed", "2"], tmp_path)
    assert_same(r, files)
    assert r.phi.shape == (8,)


def test_xper_builtin_design_equals_cli(tmp_path):
    r = perfshap.xper(threads=2)
    assert_same(r, cli(["xper", "--threads", "2"], tmp_path))


def test_shap_of_an_xgboost_model_equals_cli(tmp_path):
    import xgboost as xgb

    X, _ = read("breast_cancer.csv")
    booster = xgb.Booster()
    booster.load_model(MODEL)
    rows = X.iloc[:12]
    r = perfshap.shap(booster, rows, background=X.iloc[100:140], solver="kernel", budget=400, seed=4)
    rows.to_csv(tmp_path / "rows.csv", index=False)
    X.iloc[100:140].to_csv(tmp_path / "bg.csv", index=False)
    files = cli(["shap", "--model-file", MODEL, "--data", str(tmp_path / "rows.csv"), "--background-file",
                 str(tmp_path / "bg.csv"), "--solver", "kernel", "--budget", "400", "--seed", "4"], tmp_path)
    assert_same(r, files)
    assert r.values.shape == (12, 30) and r.base_values.shape == (12,)
    assert r.phi_se is not None


def test_a_numpy_x_takes_the_xgboost_models_feature_names():
    X, _ = read("breast_cancer.csv")
    by_name = perfshap.shap(MODEL, X.iloc[:5], approach="tree")
    by_position = perfshap.shap(MODEL, X.iloc[:5].to_numpy(), approach="tree")
    np.testing.assert_array_equal(by_name.values, by_position.values)
    assert by_position.feature_names == list(X.columns)


def test_shap_tree_approach_matches_treeshap():
    X, _ = read("breast_cancer.csv")
    r = perfshap.shap(MODEL, X.iloc[:30], approach="tree")
    fast = perfshap.treeshap(MODEL, X.iloc[:30])
    np.testing.assert_array_equal(r.values, fast.values)
    np.testing.assert_array_equal(r.base_values, fast.base_values)


def test_shap_of_a_learner_fitted_on_train_equals_cli(tmp_path):
    X, y = read("pima.csv")
    r = perfshap.shap("logistic", X.iloc[600:610], train=(X.iloc[:600], y.iloc[:600]), background=50, seed=1)
    pd.concat([X.iloc[:600], y.iloc[:600]], axis=1).to_csv(tmp_path / "train.csv", index=False)
    X.iloc[600:610].to_csv(tmp_path / "rows.csv", index=False)
    files = cli(["shap", "--model", "logistic", "--train", str(tmp_path / "train.csv"), "--label", "label", "--data",
                 str(tmp_path / "rows.csv"), "--background", "50", "--seed", "1"], tmp_path)
    assert_same(r, files)


def test_axom_equals_cli(tmp_path):
    X, y = read("wine.csv")
    r = perfshap.axom(X, y, trees=10, neighbours=50, seed=2)
    files = cli(["axom", "--data", os.path.join(DATA, "wine.csv"), "--label", "label", "--trees", "10",
                 "--neighbours", "50", "--seed", "2"], tmp_path)
    assert_same(r, files)
    assert "rf" in r.keys() and "axom" in r.keys()


def test_chains_equals_cli(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(300, 2)).astype(float)
    Y = np.column_stack([X[:, 0] * X[:, 1], np.maximum(X[:, 0], X[:, 1]), (X[:, 0] != X[:, 1]).astype(float)])
    frame = pd.DataFrame(np.column_stack([X, Y]), columns=["x1", "x2", "and", "or", "xor"])
    frame.to_csv(tmp_path / "xor.csv", index=False)
    r = perfshap.chains(frame[["x1", "x2"]], frame[["and", "or", "xor"]], order="and,or,xor", seed=1)
    files = cli(["chains", "--data", str(tmp_path / "xor.csv"), "--outputs", "and,or,xor", "--order", "and,or,xor",
                 "--seed", "1"], tmp_path)
    assert_same(r, files)


def test_result_objects_tables_figures_and_html():
    r = perfshap.robustness(cv="mc:3")
    assert r.to_json() == r.files["result.json"]
    frame = r.to_frame("phi")
    assert list(frame["feature"]) == [p["name"] for p in r.players]
    svg = r.plot_waterfall_auc()
    assert svg.lstrip().startswith("<") and "<svg" in svg and r._repr_svg_() == r.plot()
    html = r.to_html()
    assert html.startswith("<!DOCTYPE html>") and "<table" in html and html.count("<svg") >= len(r.figures)
    assert "waterfall_auc" in dir(r) or "plot_waterfall_auc" in dir(r)
    with pytest.raises(AttributeError):
        r.plot_no_such_figure()


def test_report_html_on_disk_and_nothing_overwritten_without_force(tmp_path):
    out = tmp_path / "run"
    perfshap.robustness(cv="mc:3", out=str(out), report="html")
    assert (out / "report.html").exists() and (out / "result.json").exists()
    with pytest.raises(ValueError, match="not empty"):
        perfshap.robustness(cv="mc:3", out=str(out))
    perfshap.robustness(cv="mc:3", out=str(out), force=True)


def test_progress_callback_sees_the_work():
    seen = []
    perfshap.robustness(cv="mc:40", progress=lambda done, total, elapsed, eta: seen.append((done, total)))
    assert seen, "the callback was never called"
    assert seen[-1][0] == seen[-1][1] > 0
    assert all(d <= t for d, t in seen)


def test_progress_callback_that_raises_stops_the_run():
    def boom(*_):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        perfshap.robustness(cv="mc:2000", progress=boom)


def test_bad_input_is_a_python_exception_with_the_engines_message():
    X, y = read("banknote.csv")
    x = X.to_numpy().copy()
    x[7, 2] = np.nan
    with pytest.raises(ValueError, match=r"column 'x2', row 7: missing value"):
        perfshap.robustness(x, y.to_numpy())
    with pytest.raises(ValueError, match="one label per row"):
        perfshap.robustness(X, y.iloc[:-1])
    with pytest.raises(TypeError, match="dtype complex"):
        perfshap.robustness(X.to_numpy().astype(complex), y)
    with pytest.raises(TypeError, match="unexpected keyword argument 'no_such_flag'"):
        perfshap.robustness(X, y, no_such_flag=1)
    with pytest.raises(ValueError, match="cv"):
        perfshap.robustness(X, y, cv="nonsense")
    with pytest.raises((ValueError, TypeError)):
        perfshap.shap(object(), X)
    with pytest.raises(ValueError, match="not 0 or 1"):
        perfshap.robustness(X, y + 3)
    with pytest.raises(TypeError, match="numpy array or a pandas DataFrame"):
        perfshap.robustness("banknote.csv", y)


def test_text_columns_and_missing_policies_as_the_csv_reader(tmp_path):
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0] * 4,
                          "colour": pd.Categorical(["red", "blue", None, "red", "green"] * 8),
                          "label": [0, 1] * 20})
    r = perfshap.robustness(frame, label="label", missing="category", cv="kfold:2")
    text = frame.astype({"colour": object}).fillna({"colour": "NA"})
    text.to_csv(tmp_path / "t.csv", index=False)
    files = cli(["robustness", "--data", str(tmp_path / "t.csv"), "--label", "label", "--missing", "category", "--cv",
                 "kfold:2"], tmp_path)
    assert_same(r, files)
    with pytest.raises(ValueError, match="missing value"):
        perfshap.robustness(frame, label="label", cv="kfold:2")


def test_robustness_interactions_rows_add_up_to_phi_and_match_the_command():
    """interactions=True: the features' SII matrix on the AUC (mean and std over the splits), the
    same numbers as the command's result.json, each row adding up to the feature's phi."""
    frame = pd.read_csv(os.path.join(FIXTURES, "data", "banknote.csv"), float_precision="round_trip")
    r = perfshap.robustness(frame.drop(columns=["label"]), frame["label"], cv="mc:3", seed=4, interactions=True,
                            threads=2)
    assert r.interactions.shape == (4, 4) and r.interactions_std.shape == (4, 4)
    np.testing.assert_allclose(r.interactions.sum(axis=1), r.phi, atol=1e-12)
    assert np.array_equal(r.interactions, r.interactions.T)
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([os.environ["PERFSHAP_CLI"], "robustness", "--data", os.path.join(FIXTURES, "data", "banknote.csv"),
                        "--label", "label", "--cv", "mc:3", "--seed", "4", "--interactions", "--threads", "2",
                        "--quiet", "--force", "--out", out], check=True)
        cli = json.load(open(os.path.join(out, "result.json")))["interactions"]
    assert np.array_equal(np.array(cli["mean"]), r.interactions)
    assert np.array_equal(np.array(cli["std"]), r.interactions_std)


def test_shap_interventional_interactions_come_as_an_array_and_a_missing_background_is_said():
    """interactions=True with the interventional approach: rows x (features + 1) x (features + 1),
    as treeshap's, each matrix row adding up to the feature's SHAP value; with no background the
    console and result.json say where it was drawn from."""
    X, y = read("pima.csv")
    r = perfshap.shap("logistic", X.iloc[600:606], train=(X.iloc[:600], y.iloc[:600]), seed=1, interactions=True)
    F = X.shape[1]
    assert r.interactions.shape == (6, F + 1, F + 1)
    assert r.interaction_features == list(X.columns) + ["bias"]
    np.testing.assert_allclose(r.interactions[:, :F, :F].sum(axis=2), r.values, atol=1e-9)
    np.testing.assert_allclose(r.interactions[:, :F, :F], r.interactions[:, :F, :F].transpose(0, 2, 1), atol=1e-12)
    assert r.json["background"]["given"] is False
    assert "no background was given" in r.console
    given = perfshap.shap("logistic", X.iloc[600:606], train=(X.iloc[:600], y.iloc[:600]), seed=1, background=100)
    assert given.json["background"]["given"] is True and "no background was given" not in given.console
    assert given.interactions is None
