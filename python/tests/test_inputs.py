# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""numpy / pandas inputs are read as the numbers and text they hold, or refused with a message
naming the column or cell: object arrays of numbers, pandas nullable dtypes and missing values,
column names, shapes, indexes, masked arrays, TreeSHAP's matrix."""
import numpy as np
import pandas as pd
import pytest

import perfshap
from support import MODEL, assert_same_run, read


def test_an_object_array_of_numbers_and_text_reads_as_the_dataframe():
    """adult's DataFrame.to_numpy() is an object array: its integer columns stay numbers (one
    player each, as in the DataFrame), not one-hot encoded value by value."""
    X, y = read("adult_head.csv")
    X = X[["age", "workclass", "education_num", "sex", "hours_per_week", "race"]]  # 3 numbers, 3 texts
    cells = X.to_numpy()
    assert cells.dtype == object
    frame = perfshap.robustness(X, y, model="logistic", cv="kfold:2", seed=1)
    array = perfshap.robustness(cells, y.to_numpy(), feature_names=list(X.columns), model="logistic", cv="kfold:2",
                                seed=1)
    assert_same_run(array, frame)


def test_object_columns_of_numbers_none_and_nan_are_numbers():
    X, y = read("banknote.csv")
    floats = X.copy()
    floats.iloc[3, 1] = np.nan
    floats.iloc[9, 2] = np.nan
    objects = X.astype(object)
    objects.iloc[3, 1] = None
    objects.iloc[9, 2] = np.nan
    objects["variance"] = [int(v) if v == int(v) else v for v in X["variance"]]  # Python ints and floats
    floats["variance"] = X["variance"]
    a = perfshap.robustness(objects, y, missing="drop", cv="kfold:2")
    b = perfshap.robustness(floats, y, missing="drop", cv="kfold:2")
    assert_same_run(a, b)
    with pytest.raises(ValueError, match=r"column 'skewness', row 3: missing value"):
        perfshap.robustness(objects, y, cv="kfold:2")


def test_a_column_mixing_numbers_and_text_is_refused_naming_it():
    X, y = read("banknote.csv")
    dates = X.copy()
    X = X.astype(object)
    X.iloc[5, 2] = "n/a"
    with pytest.raises(TypeError, match=r"column 'curtosis' mixes numbers and text: row 0 holds .* row 5 holds 'n/a'"):
        perfshap.robustness(X, y)
    with pytest.raises(TypeError, match=r"column 'x2' mixes numbers and text"):
        perfshap.robustness(X.to_numpy(), y.to_numpy())
    dates["when"] = pd.Timestamp("2020-01-01")
    dates["when"] = dates["when"].astype(object)
    with pytest.raises(TypeError, match=r"column 'when', row 0: .* is neither a number nor text"):
        perfshap.robustness(dates, y)


def test_a_list_of_rows_keeps_its_numbers():
    """numpy makes [[1.5, "a"], ...] all strings; the numbers stay numbers."""
    X, y = read("adult_head200.csv")
    X = X[["age", "workclass", "capital_gain", "sex"]]
    rows = X.values.tolist()
    a = perfshap.robustness(rows, list(y), feature_names=list(X.columns), model="logistic", cv="kfold:2")
    b = perfshap.robustness(X, y, model="logistic", cv="kfold:2")
    assert_same_run(a, b)


def frame_with_gaps():
    X, y = read("pima.csv")
    X = X.iloc[:400, :5].copy()
    y = y.iloc[:400]
    colour = np.array(["red", "green", "blue", "red"] * 100, dtype=object)
    gaps = [4, 17, 250]
    return X, y, colour, gaps


@pytest.mark.parametrize("missing", [None, pd.NA, np.nan, pd.NaT])
def test_missing_cells_of_text_columns_are_missing_not_a_level(missing):
    X, y, colour, gaps = frame_with_gaps()
    with_gaps = colour.copy()
    with_gaps[gaps] = missing
    spelled = colour.copy()
    spelled[gaps] = "NA"  # the engine's name of the missing level, as the CSV reader's
    for column in (with_gaps, pd.array(with_gaps.tolist(), dtype="string"), pd.Categorical(with_gaps)):
        a = perfshap.robustness(X.assign(colour=column), y, missing="category", cv="kfold:2")
        b = perfshap.robustness(X.assign(colour=spelled), y, missing="category", cv="kfold:2")
        assert_same_run(a, b)
        with pytest.raises(ValueError, match=r"column 'colour', row 4: missing value"):
            perfshap.robustness(X.assign(colour=column), y, cv="kfold:2")
        kept = [i for i in range(len(y)) if i not in gaps]
        c = perfshap.robustness(X.assign(colour=column), y, missing="drop", cv="kfold:2")
        d = perfshap.robustness(X.assign(colour=colour).iloc[kept].reset_index(drop=True),
                                y.iloc[kept].reset_index(drop=True), missing="drop", cv="kfold:2")
        assert c.json["input"]["dropped_rows"] == len(gaps)
        c.json["input"]["dropped_rows"] = 0
        assert_same_run(c, d)


@pytest.mark.parametrize("dtype", ["Int64", "Float64", "boolean"])
def test_nullable_numeric_columns_are_numbers_with_pd_na_missing(dtype):
    X, y, _, gaps = frame_with_gaps()
    values = (X["glucose"] > 120) if dtype == "boolean" else X["glucose"]
    plain = X.assign(v=values.astype(float))
    nullable = X.assign(v=values.astype(dtype))
    assert_same_run(perfshap.robustness(nullable, y, cv="kfold:2"), perfshap.robustness(plain, y, cv="kfold:2"))
    nullable.loc[gaps, "v"] = pd.NA
    plain.loc[gaps, "v"] = np.nan
    with pytest.raises(ValueError, match=r"column 'v', row 4: missing value"):
        perfshap.robustness(nullable, y, cv="kfold:2")
    assert_same_run(perfshap.robustness(nullable, y, missing="drop", cv="kfold:2"),
                    perfshap.robustness(plain, y, missing="drop", cv="kfold:2"))


def test_a_nullable_label_is_numbers():
    X, y, _, _ = frame_with_gaps()
    a = perfshap.robustness(X, y.astype("Int64"), cv="kfold:2")
    b = perfshap.robustness(X, y.astype("boolean"), cv="kfold:2")
    assert_same_run(a, perfshap.robustness(X, y, cv="kfold:2"))
    assert_same_run(b, a)
    gap = y.astype("Int64")
    gap[7] = pd.NA
    with pytest.raises(ValueError, match=r"row 7: the label is missing"):
        perfshap.robustness(X, gap, cv="kfold:2")


def test_bool_columns_are_zero_one_numbers():
    X, y, _, _ = frame_with_gaps()
    flag = X["glucose"] > 120
    a = perfshap.robustness(X.assign(f=flag), y, cv="kfold:2")
    b = perfshap.robustness(X.assign(f=flag.astype(float)), y, cv="kfold:2")
    c = perfshap.robustness(X.assign(f=flag.astype(object)), y, cv="kfold:2")
    assert_same_run(a, b)
    assert_same_run(c, b)


def test_non_string_column_names_are_their_text_and_duplicates_are_refused():
    X, y = read("banknote.csv")
    numbered = X.set_axis(range(4), axis=1)
    r = perfshap.robustness(numbered, y, cv="kfold:2")
    assert [p["name"] for p in r.players] == ["0", "1", "2", "3"]
    assert_same_run(r, perfshap.robustness(X.set_axis(["0", "1", "2", "3"], axis=1), y, cv="kfold:2"))
    with pytest.raises(ValueError, match=r"X has two columns named 'skewness'"):
        perfshap.robustness(X.set_axis(["variance", "skewness", "skewness", "entropy"], axis=1), y)
    with pytest.raises(ValueError, match=r"X has two columns named '1'"):
        perfshap.robustness(X.set_axis([0, 1, "1", 3], axis=1), y)
    with pytest.raises(ValueError, match=r"feature_names has two columns named 'a'"):
        perfshap.robustness(X.to_numpy(), y.to_numpy(), feature_names=["a", "b", "a", "c"])


def test_empty_and_one_dimensional_inputs_are_refused_with_what_to_do():
    X, y = read("banknote.csv")
    with pytest.raises(ValueError, match=r"no rows"):
        perfshap.robustness(X.iloc[:0], y.iloc[:0])
    with pytest.raises(ValueError, match=r"no feature columns"):
        perfshap.robustness(X.iloc[:, :0], y)
    with pytest.raises(ValueError, match=r"shape \(1372,\): for one feature pass X.reshape\(-1, 1\)"):
        perfshap.robustness(X["variance"].to_numpy(), y)
    one = perfshap.robustness(X["variance"], y, cv="kfold:2")  # a Series: one feature, its name
    assert_same_run(one, perfshap.robustness(X[["variance"]], y, cv="kfold:2"))


def test_x_and_y_with_different_indexes_are_refused():
    X, y = read("banknote.csv")
    shuffled = y.sample(frac=1.0, random_state=0)
    with pytest.raises(ValueError, match=r"y and X have different indexes"):
        perfshap.robustness(X, shuffled)
    assert_same_run(perfshap.robustness(X, shuffled.loc[X.index], cv="kfold:2"),
                    perfshap.robustness(X, y, cv="kfold:2"))


def test_a_masked_array_masks_its_cells():
    X, y = read("banknote.csv")
    cells = np.ma.masked_array(X.to_numpy(), mask=np.zeros(X.shape, dtype=bool))
    cells.mask[6, 1] = True
    with pytest.raises(ValueError, match=r"column 'x1', row 6: missing value"):
        perfshap.robustness(cells, y.to_numpy())


def test_treeshap_reads_object_and_nullable_columns_as_numbers():
    X, _ = read("breast_cancer.csv")
    rows = X.iloc[:20].copy()
    floats = rows.copy()
    floats.iloc[2, 3] = np.nan
    nullable = rows.astype("Float64")
    nullable.iloc[2, 3] = pd.NA
    expected = perfshap.treeshap(MODEL, floats).contributions
    np.testing.assert_array_equal(perfshap.treeshap(MODEL, nullable).contributions, expected)
    cells = floats.to_numpy().astype(object)
    cells[2, 3] = None
    np.testing.assert_array_equal(perfshap.treeshap(MODEL, cells).contributions, expected)
    texts = rows.astype(object)
    texts.iloc[0, 5] = "high"
    with pytest.raises(TypeError, match=r"mixes numbers and text"):
        perfshap.treeshap(MODEL, texts)
    doubled = pd.concat([rows, rows.iloc[:, :1]], axis=1)
    with pytest.raises(ValueError, match=rf"two columns named '{rows.columns[0]}'"):
        perfshap.treeshap(MODEL, doubled)
    with pytest.raises(ValueError, match=r"2-dimensional"):
        perfshap.treeshap(MODEL, rows.to_numpy()[0])


def test_chains_outputs_name_each_column_of_y_once():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(50, 2)).astype(float)
    Y = np.column_stack([X[:, 0], X[:, 1]])
    with pytest.raises(ValueError, match=r"outputs names 1 outputs and Y has 2 columns"):
        perfshap.chains(X, Y, outputs=["a"])


def test_groups_of_numpy_names_equal_groups_of_lists():
    X, y = read("banknote.csv")
    a = perfshap.robustness(X, y, groups={"shape": np.array(["skewness", "curtosis"])}, cv="kfold:2")
    b = perfshap.robustness(X, y, groups={"shape": ["skewness", "curtosis"]}, cv="kfold:2")
    assert len(a.players) == 3
    a.json["input"].pop("groups"), b.json["input"].pop("groups")  # the temporary --groups file's name
    assert_same_run(a, b)


def test_a_lone_surrogate_in_a_text_cell_is_a_one_line_error_naming_the_cell():
    X, y, colour, _ = frame_with_gaps()
    bad = colour.copy()
    bad[3] = "r\udce9d"  # bytes decoded with errors="surrogateescape"
    with pytest.raises(ValueError, match=r"row 3, column 'colour' holds text that is not valid Unicode"):
        perfshap.robustness(X.assign(colour=bad), y, cv="kfold:2")


def test_a_column_transformer_naming_columns_is_told_what_to_do():
    from sklearn.compose import ColumnTransformer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    X, y, colour, _ = frame_with_gaps()
    pipe = make_pipeline(ColumnTransformer([("text", OneHotEncoder(), ["colour"])], remainder="passthrough"),
                         LogisticRegression(max_iter=200))
    with pytest.raises(ValueError, match="selects columns by name.*without its ColumnTransformer"):
        perfshap.robustness(X.assign(colour=colour), y, model=pipe, cv="holdout")


def test_a_huge_option_value_is_not_echoed_whole():
    # Hardening round 2, minor: a 50 MB value in a message is cut to its ends and its length.
    X, y = read("banknote.csv")
    with pytest.raises(ValueError, match=r"unknown model .yyy+\.\.\.yyy+.: \(50000003 bytes\)") as caught:
        perfshap.robustness(X, y, model="y" * 50_000_000)
    assert len(str(caught.value)) < 600
