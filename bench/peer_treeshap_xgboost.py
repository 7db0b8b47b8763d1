#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The peer of BM_TreeShap_Xgboost100x6: XGBoost's own TreeSHAP (Booster.predict(pred_contribs=True),
Debian's python3-xgboost 1.7) on the same model and rows (breast_cancer repeated 20 times), at each
thread count, best of REPEAT runs. Prints one JSON object: {"rows": n, "seconds": {threads: s}}.
With --contribs FILE it also saves the contributions (numpy .npy) for a comparison.
Usage: /usr/bin/python3 bench/peer_treeshap_xgboost.py MODEL DATA_CSV [--threads 1,2] [--repeat 5]
"""
import argparse
import csv
import json
import time

import numpy as np
import xgboost as xgb

p = argparse.ArgumentParser()
p.add_argument("model")
p.add_argument("data")
p.add_argument("--times", type=int, default=20)
p.add_argument("--threads", default="1,2")
p.add_argument("--repeat", type=int, default=5)
p.add_argument("--contribs")
a = p.parse_args()

rows = list(csv.reader(open(a.data)))
header = rows[0]
keep = [k for k, name in enumerate(header) if name != "label"]
X = np.array([[float(r[k]) for k in keep] for r in rows[1:]], dtype=np.float32)
X = np.tile(X, (a.times, 1))
booster = xgb.Booster()
booster.load_model(a.model)
dm = xgb.DMatrix(X, feature_names=[header[k] for k in keep])
seconds = {}
for t in [int(v) for v in a.threads.split(",")]:
    booster.set_param({"nthread": t})
    best = float("inf")
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        contribs = booster.predict(dm, pred_contribs=True)
        best = min(best, time.perf_counter() - t0)
    seconds[t] = best
if a.contribs:
    np.save(a.contribs, contribs)
print(json.dumps({"rows": int(X.shape[0]), "xgboost": xgb.__version__, "seconds": seconds}))
