#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""A scikit-learn estimator as perfshap's learner (perfshap.robustness(X, y, model=GaussianNB()))
against the plain scikit-learn loop of bench/peer_shapauc_sklearn.py on the same splits: the
values agree (max |difference| of phi, per split and in the mean), and the times are measured
in one run: the loop, perfshap with the estimator (each coalition a clone fitted in Python, the
engine scheduling the coalitions, splits and AUCs), and perfshap's own gnb learner.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/estimator_learner.py [--reps 20]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import pandas as pd
from sklearn.naive_bayes import GaussianNB

import perfshap

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "tests", "fixtures", "data", "banknote.csv")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        splits, peer = os.path.join(tmp, "splits.json"), os.path.join(tmp, "peer.json")
        subprocess.run([sys.executable, os.path.join(HERE, "peer_shapauc_sklearn.py"), "banknote", "--data", DATA,
                        "--reps", str(args.reps), "--splits-out", splits, "--json", peer],
                       check=True, stdout=subprocess.DEVNULL)
        with open(peer) as f:
            loop = json.load(f)
        with open(splits) as f:
            plan = json.load(f)
    frame = pd.read_csv(DATA)
    X, y = frame.drop(columns="label"), frame["label"]
    t = time.perf_counter()
    mine = perfshap.robustness(X, y, model=GaussianNB(), split=plan)
    estimator_seconds = time.perf_counter() - t
    t = time.perf_counter()
    native = perfshap.robustness(X, y, model="gnb", split=plan)
    native_seconds = time.perf_counter() - t
    by_split = np.asarray(mine["phi_by_split"]) if "phi_by_split" in mine.json else None
    out = {
        "reps": args.reps,
        "max_abs_diff_phi_mean": float(np.abs(np.asarray(mine.phi) - np.asarray(loop["phi_mean"])).max()),
        "max_abs_diff_phi_std": float(np.abs(np.asarray(mine.phi_std) - np.asarray(loop["phi_std"])).max()),
        "max_abs_diff_gnb_vs_estimator": float(np.abs(np.asarray(mine.phi) - np.asarray(native.phi)).max()),
        "sklearn_loop_seconds": loop["loop_seconds"],
        "perfshap_estimator_seconds": estimator_seconds,
        "perfshap_gnb_seconds": native_seconds,
    }
    if by_split is not None:
        out["max_abs_diff_phi_by_split"] = float(np.abs(by_split - np.asarray(loop["phi_by_split"])).max())
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
