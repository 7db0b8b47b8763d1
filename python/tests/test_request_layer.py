# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""perfshap.robustness through the library's request layer: its arrays are the engine's (no file
read until asked), the CLI's learner, split, group and output options all reach it, the numbers
equal the CLI's bit for bit, and errors name the keywords."""
import json
import os
import subprocess

import numpy as np
import pytest

import perfshap
from test_methods import CLI, DATA, assert_same, cli, read, strip


def test_the_arrays_need_no_file_and_equal_result_json():
    X, y = read("banknote.csv")
    r = perfshap.robustness(X, y, cv="mc:7", seed=2)
    phi, std, se = r.phi, r.phi_std, r.phi_se
    assert r.__dict__["_files"] is None  # nothing written yet
    doc = json.loads(r.to_json())
    assert phi.tolist() == list(doc["phi"].values())
    assert std.tolist() == list(doc["phi_std"].values())
    assert se.tolist() == list(doc["phi_se"].values())
    assert r.value == doc["value"] and r.auc_by_split.tolist() == doc["auc_by_split"]
    assert r.feature_names == list(doc["phi"])
    assert r.n_trainings == doc["n_trainings"] and r.n_splits == doc["n_splits"] == 7
    assert "ShapAUC" in r.console or "phi" in r.console


def test_learner_options_groups_metrics_and_out_equal_the_cli(tmp_path):
    X, y = read("banknote.csv")
    groups = tmp_path / "groups.json"
    groups.write_text(json.dumps({"shape": ["skewness", "curtosis"]}))
    out = tmp_path / "py"
    r = perfshap.robustness(X, y, model="logistic", cv="mc:4", seed=5, C=0.5, model_param=["max_iterations=80"],
                            metrics=["brier", "accuracy"], groups={"shape": ["skewness", "curtosis"]},
                            stratify=True, grid=21, out=str(out), report="html")
    # Every file the run wrote, and the manifest of their names (what a later force=True may replace).
    assert sorted(os.listdir(out)) == sorted(list(r.files) + [".perfshap-manifest.json"])
    assert "report.html" in r.files
    theirs = cli(["robustness", "--data", os.path.join(DATA, "banknote.csv"), "--label", "label", "--model", "logistic",
                  "--cv", "mc:4", "--seed", "5", "--C", "0.5", "--model-param", "max_iterations=80", "--metrics",
                  "brier,accuracy", "--groups", str(groups), "--stratify", "--grid", "21"], tmp_path)
    mine = dict(r.json)
    mine["input"] = dict(mine["input"], groups=json.loads(theirs["result.json"])["input"]["groups"])
    r.__dict__["_json"] = mine
    assert_same(r, theirs)
    with pytest.raises(ValueError, match="not empty"):
        perfshap.robustness(X, y, cv="holdout", out=str(out))
    again = perfshap.robustness(X, y, cv="holdout", out=str(out), force=True)
    assert sorted(os.listdir(out)) == sorted(list(again.files) + [".perfshap-manifest.json"])  # the whole set replaced


def test_a_splits_file_and_the_same_splits_in_memory_agree(tmp_path):
    X, y = read("banknote.csv")
    rows = np.random.default_rng(4).permutation(len(y))
    splits = [{"train": rows[300:].tolist(), "test": rows[:300].tolist()},
              {"train": rows[:1000].tolist(), "test": rows[1000:].tolist()}]
    path = tmp_path / "splits.json"
    path.write_text(json.dumps({"splits": splits}))
    from_file = perfshap.robustness(X, y, split=str(path))
    in_memory = perfshap.robustness(X, y, split=splits)
    assert from_file.phi.tolist() == in_memory.phi.tolist()
    assert from_file.files["phi.csv"] == in_memory.files["phi.csv"]
    assert in_memory.json["cv"] == "split" and from_file.json["cv"] == str(path)


def test_errors_keep_their_kind_and_name_the_keywords():
    X, y = read("banknote.csv")
    with pytest.raises(perfshap.InvalidArgument, match=r"\(cv\)$") as e:
        perfshap.robustness(X, y, cv="mc:x")
    assert e.value.options == ["cv"]  # the option as the registry declares it (the library's field: plan)
    with pytest.raises(perfshap.InvalidArgument, match=r"has no option max_iter .*\(model_param\)$"):
        perfshap.robustness(X, y, model="logistic", model_param=["max_iter=5"])
    with pytest.raises(ValueError, match="model_param gives C twice"):
        perfshap.robustness(X, y, model="logistic", model_param=["C=1", "C=2"])
    with pytest.raises(ValueError, match="options C and model_param both set C"):
        perfshap.robustness(X, y, model="logistic", C=1.0, model_param=["C=2"])
    with pytest.raises(perfshap.InvalidArgument, match=r"option slice_fpr must be a finite number in \[0, 1\], got '2.0' \(slice_fpr\)$"):
        perfshap.robustness(X, y, slice_fpr=2.0)
    with pytest.raises(perfshap.InvalidArgument, match=r"option tolerance must be a finite number in \(0, 1\), got '2.0' \(tolerance\)$"):
        perfshap.robustness(X, y, solver="kernel", tolerance=2.0)
    with pytest.raises(perfshap.InvalidArgument, match="option report = 'pdf' is not one of html"):
        perfshap.robustness(X, y, report="pdf")
    for e in (perfshap.InvalidArgument, perfshap.DataError):
        assert issubclass(e, ValueError)
    with pytest.raises(perfshap.InvalidArgument, match="no feature named 'nope' in X"):
        perfshap.robustness(X, y, features=["variance", "nope"])
    with pytest.raises(perfshap.DataError, match="label"):
        perfshap.robustness(X, y + 3)


def test_xper_arrays_need_no_file_and_errors_name_the_keywords(tmp_path):
    X, y = read("pima.csv")
    r = perfshap.xper(X, y, model="logistic", train=(X, y), features=["glucose", "bmi", "age"])
    phi, value = r.phi, r.value
    assert r.__dict__["_files"] is None
    doc = json.loads(r.to_json())
    assert value == doc["value"] and r.base == doc["base"]
    assert phi.tolist() == [doc["phi"][name] for name in r.feature_names]
    assert abs(r.base + phi.sum() - value) < 1e-12  # efficiency
    with pytest.raises(perfshap.InvalidArgument, match=r"give one model.*\(coef, train, model\)$"):
        perfshap.xper(X, y, model="logistic", train=(X, y), coef=str(tmp_path / "c.csv"))
    with pytest.raises(perfshap.InvalidArgument, match=r"outside 0\.\.767.*\(explain_row\)$"):
        perfshap.xper(X, y, model="logistic", train=(X, y), features=["glucose"], explain_row=768)
    with pytest.raises(ValueError, match="option clusters = '1' is not auto"):
        perfshap.xper(X, y, model="logistic", train=(X, y), clusters=1)
    with pytest.raises(ValueError, match=r"option iteration_range = 'x' is not BEGIN:END"):
        perfshap.xper(X, y, model="logistic", train=(X, y), iteration_range="x")


def test_xper_of_an_xgboost_model_takes_its_iteration_range_as_a_pair_or_text():
    from test_methods import MODEL
    X, y = read("breast_cancer.csv")
    X, y = X.iloc[:60], y.iloc[:60]
    with open(MODEL) as f:
        text = f.read()
    run = dict(solver="kernel", budget=600, seed=1, metric="brier")
    pair = perfshap.xper(X, y, model=text, iteration_range=(0, 5), **run)
    written = perfshap.xper(X, y, model=text, iteration_range="0:5", **run)
    everything = perfshap.xper(X, y, model=text, **run)
    assert pair.phi.tolist() == written.phi.tolist()
    assert "rounds [0, 5) of 100" in pair.json["model"]["description"]
    assert "rounds [0, 5)" not in everything.json["model"]["description"]
    assert pair.value != everything.value


def test_shap_arrays_need_no_file_and_equal_contributions():
    X, y = read("pima.csv")
    r = perfshap.shap("logistic", X.iloc[600:610], train=(X.iloc[:600], y.iloc[:600]), background=40, seed=2,
                      rows=(2, 6))
    values, base = r.values, r.base_values
    assert r.__dict__["_files"] is None  # nothing written yet
    assert values.shape == (5, 8) and base.shape == (5,)
    frame = r.to_frame("contributions")
    np.testing.assert_array_equal(frame[r.feature_names].to_numpy(), values)
    np.testing.assert_array_equal(frame["bias"].to_numpy(), base)
    assert r.json["model"]["source"] == "logistic trained on train"
    assert "--" not in r.json["background"]["source"]
    same = perfshap.shap("logistic", X.iloc[600:610], train=(X.iloc[:600], y.iloc[:600]), background=40, seed=2,
                         rows="2..6")
    np.testing.assert_array_equal(same.values, values)


def test_shap_errors_name_the_keywords_never_a_flag():
    X, y = read("pima.csv")
    train = (X.iloc[:600], y.iloc[:600])
    rows = X.iloc[600:610]
    cases = [
        (dict(rows=(3, 40)), perfshap.InvalidArgument, r"past the last row.*\(rows\)$"),
        (dict(explain_row=1, rows=(3, 5)), perfshap.InvalidArgument, r"not among the rows explained.*\(explain_row\)$"),
        (dict(approach="tree"), perfshap.InvalidArgument, r"tree model"),
        (dict(approach="kernel"), perfshap.InvalidArgument, r"is not one of interventional, retrain, tree \(approach\)$"),
        (dict(output="odds"), perfshap.InvalidArgument, r"is not one of probability, margin \(output\)$"),
        (dict(max_depth=3), perfshap.InvalidArgument, r"tree and forest learners.*\(max_depth\)$"),
        (dict(model_param=["max_iter=3"]), perfshap.InvalidArgument, r"max_iter.*\(model_param\)$"),
        (dict(keep_samples=True), perfshap.InvalidArgument, r"\(keep_samples\)$"),
    ]
    for keywords, kind, message in cases:
        with pytest.raises(kind, match=message) as e:
            perfshap.shap("logistic", rows, train=train, **keywords)
        assert "--" not in str(e.value), str(e.value)
    with pytest.raises(ValueError, match=r"option rows = 'x\.\.2' is not I\.\.J"):
        perfshap.shap("logistic", rows, train=train, rows="x..2")
    with pytest.raises(perfshap.InvalidArgument, match=r"already fitted.*\(train\)$"):
        from test_methods import MODEL
        perfshap.shap(MODEL, X.iloc[:3], train=train)


def test_axom_through_the_request_layer_takes_a_feature_pair_and_names_keywords(tmp_path):
    X, y = read("wine.csv")
    run = dict(trees=6, neighbours=30, seed=3, heatmap_grid=4)
    pair = perfshap.axom(X, y, heatmap_features=("alcohol", "proline"), **run)
    text = perfshap.axom(X, y, heatmap_features="alcohol,proline", **run)
    assert strip(pair.json) == strip(text.json)
    files = cli(["axom", "--data", os.path.join(DATA, "wine.csv"), "--label", "label", "--trees", "6",
                 "--neighbours", "30", "--seed", "3", "--heatmap-grid", "4", "--heatmap-features", "alcohol,proline"],
                tmp_path)
    assert_same(pair, files)
    for keywords, message in ((dict(eps=0.9), r"\(eps\)$"), (dict(heatmap_features=("alcohol", "nope")),
                                                             r"'nope' is not a feature.*\(heatmap_features\)$"),
                              (dict(model_file="m.json"), r"boosted trees.*\(model_file\)$")):
        with pytest.raises(perfshap.InvalidArgument, match=message) as e:
            perfshap.axom(X, y, **dict(run, **keywords))
        assert "--" not in str(e.value)
    with pytest.raises(ValueError, match="option heatmap_features = .* is not two column names"):
        perfshap.axom(X, y, heatmap_features="alcohol", **run)


def test_chains_through_the_request_layer_takes_lists_an_estimator_and_names_keywords():
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(1)
    X = rng.normal(size=(240, 3))
    Y = np.column_stack([(X[:, 0] > 0), (X[:, 0] + X[:, 1] > 0)]).astype(float)
    listed = perfshap.chains(X, Y, outputs=["a", "b"], order=["b", "a"], rows=10, background=20, seed=2)
    text = perfshap.chains(X, Y, outputs="a,b", order="b,a", rows=10, background=20, seed=2)
    assert strip(listed.json) == strip(text.json)
    assert listed.json["outputs"] == ["a", "b"]
    fitted = perfshap.chains(X, Y, outputs=["a", "b"], model=LogisticRegression(), rows=5, background=10, seed=2)
    assert fitted.json["learner"] == "LogisticRegression"
    for keywords, message in ((dict(order=["a"]), r"every output once.*\(order\)$"),
                              (dict(orders="some"), r"option orders = 'some' is not one of all \(orders\)$"),
                              (dict(background=0), r"option background must be an integer >= 1.*\(background\)$")):
        with pytest.raises(perfshap.InvalidArgument, match=message) as e:
            perfshap.chains(X, Y, outputs=["a", "b"], **keywords)
        assert "--" not in str(e.value)
    with pytest.raises(perfshap.InvalidArgument, match=r"give the data too.*\(outputs, X\)$"):
        perfshap.chains(outputs=["a"])


def test_demo_and_xper_montecarlo_through_the_library_equal_the_cli(tmp_path):
    r = perfshap.demo(rows=300, seed=5, threads=2)
    files = cli(["demo", "--rows", "300", "--seed", "5", "--threads", "2"], tmp_path / "demo")
    assert strip(r.json) == strip(json.loads(files["result.json"]))
    X, y = read("banknote.csv")
    on_data = perfshap.demo(data=os.path.join(DATA, "banknote.csv"), label="label", seed=5)
    assert on_data.json["n_rows"] == len(y) and on_data.json["features"] == list(X.columns)
    mc = perfshap.xper_montecarlo(samples=6, rows=200, train_rows=140, seed=3)
    files = cli(["xper-montecarlo", "--samples", "6", "--rows", "200", "--train-rows", "140", "--seed", "3"],
                tmp_path / "mc")
    mine, theirs = dict(mc.json), json.loads(files["result.json"])
    mine.pop("seconds_per_sample"), theirs.pop("seconds_per_sample")
    assert strip(mine) == strip(theirs)
    assert mc.files["samples.csv"] == files["samples.csv"]
    with pytest.raises(perfshap.InvalidArgument, match=r"above the exact limit 2.*\(exact_limit\)$") as e:
        perfshap.demo(rows=300, exact_limit=2)
    assert "--" not in str(e.value)
    with pytest.raises(perfshap.InvalidArgument, match=r"label.*\(label\)$"):
        perfshap.demo(data=os.path.join(DATA, "banknote.csv"))


def test_data_names_a_csv_file_for_every_method_and_is_not_given_twice():
    path = os.path.join(DATA, "banknote.csv")
    X, y = read("banknote.csv")
    from_file = perfshap.robustness(data=path, label="label", cv="mc:3", seed=1)
    in_memory = perfshap.robustness(X, y, cv="mc:3", seed=1)
    assert from_file.phi.tolist() == in_memory.phi.tolist()
    axom = perfshap.axom(data=os.path.join(DATA, "wine.csv"), trees=5, neighbours=20)
    assert axom.json["method"] == "axom"
    with pytest.raises(TypeError, match="not both"):
        perfshap.robustness(X, y, data=path)
    with pytest.raises(TypeError, match="drop data="):
        perfshap.shap("logistic", X, train=(X, y), data=path)
