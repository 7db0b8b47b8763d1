# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Keywords the engine reads as integers or numbers are refused naming the keyword and its range,
by the method registry's declarations (robustness and shap here; every option of every method,
through every front end: test_registry.py)."""
import numpy as np
import pytest

import perfshap
from perfshap import _run, _perfshap
from support import MODEL, assert_same_run, read


@pytest.mark.parametrize("seed", [-1, 2**64, 2**70])
def test_a_seed_out_of_range_is_refused(seed):
    with pytest.raises(ValueError, match=r"option seed = .* is not an integer in 0 \.\. 18446744073709551615 \(seed\)$"):
        perfshap.robustness(cv="mc:2", seed=seed)


@pytest.mark.parametrize("seed", [1.5, 3.0, np.float64(2.0), True, False, np.bool_(True), "1e3", [1]])
def test_a_seed_that_is_not_an_integer_is_refused(seed):
    with pytest.raises(ValueError, match=r"option seed = .* is not (an integer in 0 \.\. 18446744073709551615|a list)"):
        perfshap.robustness(cv="mc:2", seed=seed)


def test_seeds_at_the_ends_of_the_range_and_of_any_integer_type_run_as_given():
    top = perfshap.robustness(cv="mc:2", rows=200, seed=2**64 - 1)
    assert top.json["seed"] == 2**64 - 1
    assert_same_run(perfshap.robustness(cv="mc:2", rows=200, seed=np.uint64(2**64 - 1)), top)
    assert_same_run(perfshap.robustness(cv="mc:2", rows=200, seed=np.int8(7)),
                    perfshap.robustness(cv="mc:2", rows=200, seed=7))


@pytest.mark.parametrize("options, message", [
    ({"threads": -1}, r"option threads must be an integer >= 0, got '-1' \(threads\)$"),
    ({"threads": 2**40}, r"option threads must be an integer >= 0, got '1099511627776'"),
    ({"rows": -5}, r"option rows = '-5' is not an integer in \[10, 100000000\] \(rows\)$"),
    ({"budget": 2**64}, r"option budget = '18446744073709551616' is not an integer in 0 \.\. 18446744073709551615"),
    ({"test_size": float("nan")}, r"option test_size = 'nan' is not a number in \[0.01, 0.99\]"),
    ({"stratify": "maybe"}, r"option stratify = 'maybe' is not true or false \(stratify\)$"),
])
def test_bounded_keywords_are_refused_by_name(options, message):
    with pytest.raises((ValueError, TypeError), match=message):
        perfshap.robustness(cv="mc:2", **options)


def test_shap_background_count_and_treeshap_threads_are_checked():
    X, _ = read("breast_cancer.csv")
    with pytest.raises(ValueError, match=r"option background = '-1' is not an integer in 0 \.\. 18446744073709551615"):
        perfshap.shap(MODEL, X.iloc[:3], background=-1)
    with pytest.raises(ValueError, match=r"option background = 'true' is not an integer"):
        perfshap.shap(MODEL, X.iloc[:3], background=True)
    a = perfshap.shap(MODEL, X.iloc[:30], approach="tree", background=np.int64(20), seed=1)
    b = perfshap.shap(MODEL, X.iloc[:30], approach="tree", background=20, seed=1)
    assert a.json["background"]["rows"] == 20
    np.testing.assert_array_equal(a.values, b.values)
    for threads, error in ((-1, ValueError), (2**40, ValueError), (1.0, TypeError)):
        with pytest.raises(error, match=r"threads"):
            perfshap.treeshap(MODEL, X.iloc[:3], threads=threads)


def test_registered_options_declare_their_types_once():
    options = {o["name"]: o for o in _run.declared("robustness")[1]}  # the engine's registry
    assert options["seed"]["type"] == "integer" and options["seed"]["unsigned"] and not options["seed"]["switch"]
    assert options["threads"]["type"] == "integer" and options["threads"]["min"] == 0
    assert options["stratify"]["switch"]
    assert options["test_size"]["type"] == "number" and options["test_size"]["max"] == 0.99
