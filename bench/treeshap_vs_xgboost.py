#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""TreeSHAP values and interaction values: perfshap against XGBoost 1.7's pred_contribs and
pred_interactions (Debian's python3-xgboost) side by side in one run, on models trained here on
generated data (ROWS x FEATURES, a nonlinear target with interactions and 5% NaN cells), for each
depth and tree count asked. Each timing is the best of --repeat runs (XGBoost's interactions:
of one run when they take long); both libraries get the same float32-exact rows and the same
thread count. Prints a table and, with --json FILE, writes the numbers.

Usage (from the repository root, after building):
  PYTHONPATH=build/release/python /usr/bin/python3 bench/treeshap_vs_xgboost.py \
      [--rows 2000] [--features 40] [--models 8:200,4:100,6:300,10:100] [--threads 1,2] \
      [--interactions-rows 2000] [--repeat 3] [--json out.json]
"""
import argparse
import json
import sys
import time

import numpy as np
import xgboost as xgb

import perfshap


def data(rows, features, seed):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(rows, features))
    y = X[:, 0] * X[:, 1] + np.sin(X[:, 2]) + (X[:, 3] > 0) * X[:, 4] + 0.3 * X[:, 5:].sum(axis=1)
    y = (y + rng.normal(scale=0.5, size=rows) > 0).astype(np.float64)
    X[rng.rand(rows, features) < 0.05] = np.nan
    return X.astype(np.float32).astype(np.float64), y


def best(fn, repeat, limit=60.0):
    """The least time of `repeat` runs (fewer when one run takes over `limit` seconds) and the
    last result."""
    times = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if times[-1] > limit:
            break
    return min(times), out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", type=int, default=2000)
    p.add_argument("--features", type=int, default=40)
    p.add_argument("--models", default="8:200,4:100,6:300,10:100", help="depth:trees,...")
    p.add_argument("--threads", default="1,2")
    p.add_argument("--interactions-rows", type=int, default=2000,
                   help="rows for the interaction values (XGBoost's take features + 1 TreeSHAP runs)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json")
    p.add_argument("--save-models", help="folder to save each model in (XGBoost JSON, depth<D>_trees<T>.json)")
    a = p.parse_args()

    X, y = data(a.rows, a.features, 0)
    XI = X[: a.interactions_rows]
    threads = [int(t) for t in a.threads.split(",")]
    results = []
    print(f"perfshap vs XGBoost {xgb.__version__}: {a.rows} rows x {a.features} features "
          f"(interactions: {len(XI)} rows), best of {a.repeat}")
    print(f"{'depth':>5} {'trees':>5} {'thr':>3} | {'contribs xgb':>12} {'perfshap':>9} {'ratio':>6} | "
          f"{'interactions xgb':>16} {'perfshap':>9} {'ratio':>6} | {'max|diff| phi':>13} {'inter':>8}")
    for spec in a.models.split(","):
        depth, trees = (int(v) for v in spec.split(":"))
        booster = xgb.train({"objective": "binary:logistic", "max_depth": depth, "eta": 0.1, "nthread": 2,
                             "tree_method": "hist", "seed": 0, "max_bin": 256},
                            xgb.DMatrix(X, label=y, missing=np.nan), num_boost_round=trees)
        model = perfshap.load_model(booster)
        if a.save_models:
            booster.save_model(f"{a.save_models}/depth{depth}_trees{trees}.json")
        dm = xgb.DMatrix(X, missing=np.nan)
        dmi = xgb.DMatrix(XI, missing=np.nan)
        for t in threads:
            booster.set_param({"nthread": t})
            xc_s, xc = best(lambda: booster.predict(dm, pred_contribs=True), a.repeat)
            pc_s, pc = best(lambda: model.treeshap(X, t), a.repeat)
            xi_s, xi = best(lambda: booster.predict(dmi, pred_interactions=True), a.repeat)
            pi_s, pi = best(lambda: model.treeshap_interactions(XI, t), a.repeat)
            diff_phi = float(np.abs(pc[:, 0, :] - xc).max())
            diff_inter = float(np.abs(pi[:, 0] - xi).max())
            row = {"depth": depth, "trees": trees, "threads": t, "rows": a.rows, "features": a.features,
                   "interaction_rows": len(XI), "xgboost_contribs_s": xc_s, "perfshap_contribs_s": pc_s,
                   "xgboost_interactions_s": xi_s, "perfshap_interactions_s": pi_s,
                   "max_abs_diff_contribs": diff_phi, "max_abs_diff_interactions": diff_inter}
            results.append(row)
            print(f"{depth:>5} {trees:>5} {t:>3} | {xc_s:>11.3f}s {pc_s:>8.3f}s {xc_s / pc_s:>5.1f}x | "
                  f"{xi_s:>15.3f}s {pi_s:>8.3f}s {xi_s / pi_s:>5.1f}x | {diff_phi:>13.2e} {diff_inter:>8.1e}",
                  flush=True)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"xgboost": xgb.__version__, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
