# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""What the input tests share: the fixtures' data and the comparison of two runs."""
import os

import pandas as pd

FIXTURES = os.environ["PERFSHAP_FIXTURES"]
DATA = os.path.join(FIXTURES, "data")
MODEL = os.path.join(FIXTURES, "xgboost", "binary_logistic_100x6.json")

# Keys that name where the data came from or how long the run took: not numbers of the method.
VOLATILE = {"elapsed_seconds", "data", "files", "seconds", "stages", "timing", "source"}


def read(name):
    """(features DataFrame, label Series) of a fixture CSV, doubles parsed exactly."""
    frame = pd.read_csv(os.path.join(DATA, name), float_precision="round_trip")
    return frame.drop(columns=["label"]), frame["label"]


def strip(doc, volatile=VOLATILE):
    """`doc` without the keys in `volatile` (timings, paths), at every depth."""
    if isinstance(doc, dict):
        return {k: strip(v, volatile) for k, v in doc.items() if k not in volatile}
    if isinstance(doc, list):
        return [strip(v, volatile) for v in doc]
    return doc


def assert_same_run(a, b, *, cv=True):
    """Equal results, bit for bit; cv=False: but for "cv", which names split='s file."""
    if not cv:
        a.json.pop("cv", None), b.json.pop("cv", None)
    assert strip(a.json) == strip(b.json)
    assert a.files["phi.csv"] == b.files["phi.csv"]
