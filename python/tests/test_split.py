# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""split= of numpy index arrays (any integer dtype, pairs, lists, what KFold(k).split(X) yields)
equals the split of lists; a bad one is a ValueError naming the keyword."""
import json
import os

import numpy as np
import pytest

import perfshap
from support import FIXTURES, assert_same_run, read


def reference_split():
    with open(os.path.join(FIXTURES, "refs", "shapauc", "banknote_gnb_seed0.json")) as f:
        ref = json.load(f)
    return ref["train_rows"], ref["test_rows"]


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint16, np.intp, np.float64])
def test_a_split_of_numpy_arrays_equals_the_split_of_lists(dtype):
    X, y = read("banknote.csv")
    train, test = reference_split()
    lists = perfshap.robustness(X, y, split={"train": train, "test": test})
    arrays = perfshap.robustness(X, y, split={"train": np.array(train, dtype=dtype),
                                               "test": np.array(test, dtype=dtype)})
    assert_same_run(arrays, lists, cv=False)
    pair = perfshap.robustness(X, y, split=(np.array(train, dtype=dtype), np.array(test, dtype=dtype)))
    assert_same_run(pair, lists, cv=False)


def test_several_splits_of_numpy_arrays_as_kfold_yields_them():
    X, y = read("banknote.csv")
    rows = np.random.default_rng(0).permutation(len(y))
    folds = [(np.setdiff1d(rows, part), part) for part in np.array_split(rows, 3)]  # what KFold(3).split(X) yields
    as_lists = [{"train": tr.tolist(), "test": te.tolist()} for tr, te in folds]
    expected = perfshap.robustness(X, y, split=as_lists)
    assert len(expected.json["auc_by_split"]) == 3
    for split in (folds, (f for f in folds), [{"train": tr, "test": te} for tr, te in folds],
                  {"splits": [{"train": tr, "test": te} for tr, te in folds]}):
        assert_same_run(perfshap.robustness(X, y, split=split), expected, cv=False)


@pytest.mark.parametrize("split, message", [
    ({"train": np.array([0.5, 1.0, 2.0]), "test": np.array([3, 4])}, r"split: train\[0\] = 0.5 is not a whole number"),
    ({"train": np.array([0, -1, 2]), "test": np.array([3, 4])}, r"split: train\[1\] = -1 is negative"),
    ({"train": np.array([0, 1, 2]), "test": np.array([3, 5000])},
     r"split: test\[1\] = 5000 is out of range: X has 1372 rows \(indices 0 \.\. 1371\)"),
    ({"train": np.array([[0, 1], [2, 3]]), "test": np.array([4])}, r"split: train must be a 1-D list of row indices"),
    ({"train": np.ones(5, dtype=bool), "test": np.array([4])}, r"split: train holds booleans"),
    ({"train": np.array([0, 1]), "validation": np.array([4])},
     r"split: the split must hold exactly 'train' and 'test'"),
    ({"train": np.array([0, 1]), "test": np.array([], dtype=int)}, r"split: test is empty"),
    (np.array([[0, 1], [2, 3]]), r"split: a 2-D array is not a split"),
    ([(np.array([0, 1]), np.array([2])), (np.array([0, 2]), np.array([np.nan]))],
     r"split: splits\[1\]\.test\[0\] = nan is not a whole number"),
    (42, r"split: a int is not a split"),
])
def test_a_bad_split_is_a_value_error_naming_the_keyword(split, message):
    X, y = read("banknote.csv")
    with pytest.raises(ValueError, match=message):
        perfshap.robustness(X, y, split=split)


def test_the_engines_split_messages_name_the_keyword_not_a_temporary_file():
    X, y = read("banknote.csv")
    with pytest.raises(ValueError, match=r"^split: row 3 is in both train and test") as error:
        perfshap.robustness(X, y, split={"train": np.array([0, 1, 3]), "test": np.array([3, 4])})
    assert ".json" not in str(error.value)
    with pytest.raises(ValueError, match=r"split: splits\[0\]\.train\[0\]: row 999 is out of range"):
        perfshap.robustness(rows=200, split=[{"train": np.array([999]), "test": np.array([1])}])
