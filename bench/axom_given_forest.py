# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""AXOM of a forest the user fitted (perfshap.axom(X, model=forest)) against the plain way to
compute the same numbers: draw every point's neighbours in the box of eps x each feature's range,
ask every tree for its label and TreeSHAP values at every neighbour (one vectorised call per tree,
perfshap's own TreeSHAP), and average. The plain path draws its own neighbours (numpy's), so the
two mean L_bar agree in distribution, not bit for bit (the tests compare the engine with its plain
reference on the same draws); the values at the rows agree to 1e-12. One run, ratios on this
machine.

    PYTHONPATH=build/release/python /usr/bin/python3 bench/axom_given_forest.py
"""
import os
import time

import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier

import perfshap

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "fixtures", "data", "banknote.csv")
frame = pd.read_csv(DATA, float_precision="round_trip")
X, y = frame.drop(columns=["label"]).to_numpy(), frame["label"].to_numpy()
forest = RandomForestClassifier(n_estimators=100, random_state=0).fit(X, y)
points = X[::10][:100]  # 100 rows
NEIGHBOURS, EPS = 1000, 0.01
trees = [perfshap.load_model(t) for t in forest.estimators_]


def plain():
    """Every neighbour explained from scratch: labels and TreeSHAP of every tree, numpy."""
    rng = np.random.default_rng(0)
    width = points.max(axis=0) - points.min(axis=0)
    l_bar_rf, l_bar_axom = [], []

    def explain(Z):
        votes = np.array([np.argmax(t.predict(Z), axis=1) if t.n_outputs > 1 else (t.predict(Z)[:, 0] > 0.5)
                          for t in trees]).astype(int)  # trees x rows
        proba = forest.predict_proba(Z)
        label = np.argmax(proba, axis=1)
        phi = np.array([t.treeshap(Z)[:, 0, :-1] for t in trees])  # trees x rows x F (P(class 1))
        phi = np.where((label == 1)[None, :, None], phi, -phi)
        keep = (votes == label[None, :])
        return label, phi.mean(axis=0), (phi * keep[:, :, None]).sum(axis=0) / keep.sum(axis=0)[:, None]

    label0, rf0, ax0 = explain(points)
    for i, x in enumerate(points):
        Z = x + EPS * width * rng.uniform(-1, 1, size=(NEIGHBOURS, len(x)))
        label, rf, ax = explain(Z)
        same = label == label0[i]
        d = np.sqrt((((Z - x) / width) ** 2).sum(axis=1))[same]
        l_bar_rf.append(np.mean(np.linalg.norm(rf[same] - rf0[i], axis=1) / d) if same.any() else np.nan)
        l_bar_axom.append(np.mean(np.linalg.norm(ax[same] - ax0[i], axis=1) / d) if same.any() else np.nan)
    return np.array(l_bar_rf), np.array(l_bar_axom), rf0, ax0


perfshap.axom(points[:5], model=forest, neighbours=10)  # warm
t0 = time.perf_counter()
r = perfshap.axom(points, model=forest, neighbours=NEIGHBOURS, eps=EPS)
ours = time.perf_counter() - t0
t0 = time.perf_counter()
rf, ax, rf0, ax0 = plain()
theirs = time.perf_counter() - t0
print(f"banknote, a 100-tree scikit-learn forest, {len(points)} rows x {NEIGHBOURS} neighbours (eps {EPS} x each "
      f"feature's range):")
print(f"  perfshap.axom(model=forest) {ours:.2f} s (of it the engine's elapsed_seconds {r.elapsed_seconds:.2f} s); "
      f"the plain numpy loop over perfshap's per-tree TreeSHAP {theirs:.2f} s: {theirs / ours:.1f}x")
print(f"  values at the rows: AXOM max |diff| {np.max(np.abs(r.values - ax0)):.1e}, forest "
      f"{np.max(np.abs(r.forest_values - rf0)):.1e}")
print(f"  mean L_bar (different draws of the same box): RF {np.nanmean(r.l_bar_rf):.3f} vs {np.nanmean(rf):.3f}, "
      f"AXOM {np.nanmean(r.l_bar_axom):.3f} vs {np.nanmean(ax):.3f}")
