#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""TreeSHAP values and interaction values: perfshap against XGBoost's pred_contribs and
pred_interactions side by side in one run, each XGBoost in its own process (Debian's 1.7.4 and
the shared 3.4.1 peer are both named `xgboost`). Models are trained by the first peer on
generated data (TRAIN_ROWS x FEATURES, a nonlinear target with interactions, 5% NaN cells) for
each objective (binary:logistic, multi:softprob with 3 classes, reg:squarederror) and each
depth:trees asked, plus the few-feature model (depth 8, 200 trees, 30 features, label
x0*x1 + x2 > 0); then explained on ROWS rows (interactions on INTERACTION_ROWS) at each thread
count. Each timing is the median of --repeat runs; both libraries get the same float32-exact rows
and the same thread count. Prints a table with the ratio per cell (peer seconds / perfshap
seconds) and each column's median ratio; with --json FILE, writes the numbers. A peer given as
NAME=PATH:contribs times pred_contribs only (1.7.4's pred_interactions takes minutes a cell).

Usage (from the repository root, after building; the 3.4.1 peer unpacked as ../shared/peers says):
  PYTHONPATH=build/release/python /usr/bin/python3 bench/treeshap_vs_xgboost.py \
      --peer 3.4.1=/tmp/xgb3/xgboost-3.4.1/python-package --peer 1.7.4=system:contribs \
      [--objectives binary,multi,reg] [--models 4:500,6:300,8:200,10:100] [--few-feature] \
      [--train-rows 10000] [--rows 2000] [--interaction-rows 200] [--features 40] \
      [--threads 1,2] [--repeat 3] [--json out.json]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

OBJECTIVES = {"binary": ("binary:logistic", {}), "multi": ("multi:softprob", {"num_class": 3}),
              "reg": ("reg:squarederror", {})}


def data(rows, features, seed, objective):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(rows, features))
    z = X[:, 0] * X[:, 1] + np.sin(X[:, 2]) + (X[:, 3] > 0) * X[:, 4] + 0.3 * X[:, 5:].sum(axis=1)
    z = z + rng.normal(scale=0.5, size=rows)
    if objective == "multi":
        y = np.digitize(z, np.quantile(z, [1 / 3, 2 / 3])).astype(np.float64)
    elif objective == "binary":
        y = (z > 0).astype(np.float64)
    else:
        y = z
    X[rng.rand(rows, features) < 0.05] = np.nan
    return X.astype(np.float32).astype(np.float64), y


def few_feature_data(rows, seed):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(rows, 30))
    y = (X[:, 0] * X[:, 1] + X[:, 2] > 0).astype(np.float64)
    return X.astype(np.float32).astype(np.float64), y


def median_time(fn, repeat, limit=60.0):
    """The median of `repeat` runs' times (fewer runs when one takes over `limit` seconds) and
    the last result."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if times[-1] > limit:
            break
    return statistics.median(times), out


def worker(a):
    """In a peer's process: train (--train) or time pred_contribs / pred_interactions."""
    import xgboost as xgb
    if a.train:
        X, y = np.load(a.train[0]), np.load(a.train[1])
        params = json.loads(a.train[2])
        rounds = params.pop("rounds")
        booster = xgb.train(params, xgb.DMatrix(X, label=y, missing=np.nan), num_boost_round=rounds)
        booster.save_model(a.train[3])
        return 0
    booster = xgb.Booster(model_file=a.model)
    X = np.load(a.rows_file)
    XI = np.load(a.interaction_rows_file) if a.interaction_rows_file else X[:0]
    dm, dmi = xgb.DMatrix(X, missing=np.nan), xgb.DMatrix(XI, missing=np.nan)
    timings = {}
    for t in (int(v) for v in a.threads.split(",")):
        booster.set_param({"nthread": t})
        c_s, contribs = median_time(lambda: booster.predict(dm, pred_contribs=True), a.repeat)
        i_s, inter = (median_time(lambda: booster.predict(dmi, pred_interactions=True), a.repeat)
                      if len(XI) else (float("nan"), None))
        timings[t] = {"contribs_s": c_s, "interactions_s": i_s}
    np.save(a.out + ".contribs.npy", contribs)
    if inter is not None:
        np.save(a.out + ".interactions.npy", inter)
    print(json.dumps({"version": xgb.__version__, "timings": timings}))
    return 0


def peer_env(path):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if path != "system":
        env["PYTHONPATH"] = path
    return env


def run_peer(path, args, what):
    proc = subprocess.run([sys.executable, __file__, "--worker", *args], env=peer_env(path),
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"treeshap_vs_xgboost: the peer at {path} failed to {what}:\n{proc.stderr[-2000:]}")
    return proc.stdout


def max_diff(ours, theirs):
    ours = np.asarray(ours)
    if ours.ndim == theirs.ndim + 1:
        ours = ours[:, 0]
    return float(np.abs(ours - theirs).max())


def cells(a):
    models = [(o, int(d), int(t)) for o in a.objectives.split(",") for d, t in
              (spec.split(":") for spec in a.models.split(","))]
    if a.few_feature:
        models.append(("few", 8, 200))
    return models


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--peer", action="append", default=[], help="NAME=PYTHONPATH of an XGBoost (or =system)")
    p.add_argument("--objectives", default="binary,multi,reg")
    p.add_argument("--models", default="4:500,6:300,8:200,10:100", help="depth:trees,...")
    p.add_argument("--few-feature", action="store_true", help="also the depth-8, 200-tree few-feature model")
    p.add_argument("--train-rows", type=int, default=10000)
    p.add_argument("--rows", type=int, default=2000)
    p.add_argument("--interaction-rows", type=int, default=200)
    p.add_argument("--features", type=int, default=40)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json")
    # A peer's process (internal).
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--train", nargs=4, help=argparse.SUPPRESS)
    p.add_argument("--model", help=argparse.SUPPRESS)
    p.add_argument("--rows-file", help=argparse.SUPPRESS)
    p.add_argument("--interaction-rows-file", help=argparse.SUPPRESS)
    p.add_argument("--out", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.worker:
        return worker(a)
    import perfshap
    peers = [spec.split("=", 1) for spec in (a.peer or ["xgboost=system"])]
    contribs_only = {name for name, path in peers if path.endswith(":contribs")}
    peers = [(name, path.removesuffix(":contribs")) for name, path in peers]
    threads = [int(t) for t in a.threads.split(",")]
    results = []
    tmp = tempfile.mkdtemp(prefix="treeshap_vs_xgboost.")
    print(f"perfshap vs {', '.join(n for n, _ in peers)}: trained on {a.train_rows} rows by {peers[0][0]}, "
          f"explained on {a.rows} rows (interactions {a.interaction_rows}), median of {a.repeat}")
    for objective, depth, trees in cells(a):
        if objective == "few":
            X, y = few_feature_data(a.train_rows + a.rows, 1)
            kind, extra = OBJECTIVES["binary"]
        else:
            X, y = data(a.train_rows + a.rows, a.features, 0, objective)
            kind, extra = OBJECTIVES[objective]
        base = f"{tmp}/{objective}_d{depth}_t{trees}"
        np.save(base + ".Xtrain.npy", X[: a.train_rows])
        np.save(base + ".y.npy", y[: a.train_rows])
        np.save(base + ".X.npy", X[a.train_rows:])
        np.save(base + ".XI.npy", X[a.train_rows: a.train_rows + a.interaction_rows])
        params = {"objective": kind, "max_depth": depth, "eta": 0.1, "nthread": 2, "tree_method": "hist",
                  "seed": 0, "max_bin": 256, "rounds": trees, **extra}
        run_peer(peers[0][1], ["--train", base + ".Xtrain.npy", base + ".y.npy", json.dumps(params),
                               base + ".json"], "train")
        model = perfshap.load_model(base + ".json")
        Xe, XI = X[a.train_rows:], X[a.train_rows: a.train_rows + a.interaction_rows]
        ours = {}
        for t in threads:
            c_s, contribs = median_time(lambda: model.treeshap(Xe, t), a.repeat)
            i_s, inter = median_time(lambda: model.treeshap_interactions(XI, t), a.repeat)
            ours[t] = {"contribs_s": c_s, "interactions_s": i_s}
        for name, path in peers:
            files = ["--rows-file", base + ".X.npy"]
            if name not in contribs_only:
                files += ["--interaction-rows-file", base + ".XI.npy"]
            out = json.loads(run_peer(path, ["--model", base + ".json", *files, "--threads", a.threads,
                                             "--repeat", str(a.repeat), "--out", f"{base}.{name}"], "explain"))
            diff_c = max_diff(contribs, np.load(f"{base}.{name}.contribs.npy"))
            diff_i = (float("nan") if name in contribs_only
                      else max_diff(inter, np.load(f"{base}.{name}.interactions.npy")))
            for t in threads:
                theirs = out["timings"][str(t)]
                row = {"peer": name, "xgboost": out["version"], "objective": objective, "depth": depth,
                       "trees": trees, "threads": t, "perfshap_contribs_s": ours[t]["contribs_s"],
                       "xgboost_contribs_s": theirs["contribs_s"],
                       "perfshap_interactions_s": ours[t]["interactions_s"],
                       "xgboost_interactions_s": theirs["interactions_s"],
                       "contribs_ratio": theirs["contribs_s"] / ours[t]["contribs_s"],
                       "interactions_ratio": theirs["interactions_s"] / ours[t]["interactions_s"],
                       "max_abs_diff_contribs": diff_c, "max_abs_diff_interactions": diff_i}
                results.append(row)
                print(f"{name:>6} {objective:>6} {depth:>2}x{trees:<4} {t} thr | contribs {row['xgboost_contribs_s']:7.3f}s"
                      f" / {row['perfshap_contribs_s']:7.3f}s = {row['contribs_ratio']:5.2f}x | interactions "
                      f"{row['xgboost_interactions_s']:7.3f}s / {row['perfshap_interactions_s']:7.3f}s = "
                      f"{row['interactions_ratio']:5.2f}x | max|diff| {diff_c:.1e} {diff_i:.1e}", flush=True)
    for name, _ in peers:
        mine = [r for r in results if r["peer"] == name and r["objective"] != "few"]
        if mine and name in contribs_only:
            print(f"{name}: median ratio contribs {statistics.median(r['contribs_ratio'] for r in mine):.2f}x "
                  f"(min {min(r['contribs_ratio'] for r in mine):.2f}x) over {len(mine)} cells")
        elif mine:
            print(f"{name}: median ratio contribs {statistics.median(r['contribs_ratio'] for r in mine):.2f}x "
                  f"(min {min(r['contribs_ratio'] for r in mine):.2f}x), interactions "
                  f"{statistics.median(r['interactions_ratio'] for r in mine):.2f}x "
                  f"(min {min(r['interactions_ratio'] for r in mine):.2f}x) over {len(mine)} cells")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
