#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Interventional TreeSHAP's cost as the explained rows and the background grow: an XGBoost model
of 100 trees of depth 6 over 30 features (trained here on generated data), perfshap.treeshap(...,
background=B) for rows x background in a grid (1e3..1e5 each by default), and optionally the
1,000,000 x 1,000,000 run. Time grows with rows + background (the background's patterns are
counted once per path, then each row is a table look-up per path), not with their product.
Prints one line per run; with --json FILE writes the numbers.

Usage (from the repository root, after building):
  PYTHONPATH=build/release/python /usr/bin/python3 bench/interventional_scaling.py \
      [--sizes 1000,10000,100000] [--big 1000000] [--threads 2] [--json out.json]
"""
import argparse
import json
import sys
import time

import numpy as np
import xgboost as xgb

import perfshap


def rows(n, features, seed):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, features))
    X[rng.rand(n, features) < 0.02] = np.nan
    return X


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="1000,10000,100000")
    p.add_argument("--big", type=int, default=0, help="also rows = background = BIG (e.g. 1000000)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--json")
    a = p.parse_args()
    features = 30
    X = rows(20000, features, 0)
    y = (np.nan_to_num(X[:, 0]) * np.nan_to_num(X[:, 1]) + np.nan_to_num(X[:, 2]) > 0).astype(float)
    booster = xgb.train({"objective": "binary:logistic", "max_depth": 6, "eta": 0.1, "nthread": 2, "seed": 0,
                         "tree_method": "hist"}, xgb.DMatrix(X, label=y, missing=np.nan), num_boost_round=100)
    model = perfshap.load_model(booster)
    sizes = [int(s) for s in a.sizes.split(",")]
    runs = [(r, b) for r in sizes for b in sizes]
    if a.big:
        runs.append((a.big, a.big))
    results = []
    print(f"interventional TreeSHAP, 100 trees of depth 6, {features} features, {a.threads} threads")
    print(f"{'rows':>9} {'background':>11} {'seconds':>9} {'us per row':>11}")
    for r, b in runs:
        x = rows(r, features, 1)
        bg = rows(b, features, 2)
        t0 = time.perf_counter()
        phi = model.treeshap(x, a.threads, bg)
        s = time.perf_counter() - t0
        assert phi.shape == (r, 1, features + 1)
        results.append({"rows": r, "background": b, "seconds": s})
        print(f"{r:>9} {b:>11} {s:>9.3f} {1e6 * s / r:>11.2f}", flush=True)
        del x, bg, phi
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"threads": a.threads, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
