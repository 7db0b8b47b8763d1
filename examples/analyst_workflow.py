# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""A notebook-style walk through perfshap from Python: pandas data, an XGBoost model, TreeSHAP,
XPER and robustness, with the figures and one HTML report per method.

    PYTHONPATH=build/release/python /usr/bin/python3 examples/analyst_workflow.py [OUT_DIR]

Each step's figures are SVG text (in Jupyter, a Result shows its first figure inline); the
script writes them, and each method's report.html, under OUT_DIR (default examples_out/).
"""
import os
import sys

import numpy as np
import pandas as pd
import xgboost as xgb

import perfshap

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "tests", "fixtures", "data", "breast_cancer.csv")
OUT = sys.argv[1] if len(sys.argv) > 1 else "examples_out"

# 1. The data: 569 tumours, 30 measurements, label 1 = malignant.
frame = pd.read_csv(DATA)
X, y = frame.drop(columns=["label"]), frame["label"]
rng = np.random.default_rng(0)
test = rng.permutation(len(frame))[:170]
train = np.setdiff1d(np.arange(len(frame)), test)
X_train, y_train, X_test, y_test = X.iloc[train], y.iloc[train], X.iloc[test], y.iloc[test]
print(f"data: {len(frame)} rows, {X.shape[1]} features; train {len(train)}, test {len(test)}")

# 2. An XGBoost model.
model = xgb.XGBClassifier(n_estimators=100, max_depth=4, learning_rate=0.1, random_state=0)
model.fit(X_train, y_train)

# 3. TreeSHAP of its margins (exact, threaded): the fast path, shap-style arrays.
ts = perfshap.treeshap(model, X_test)
top = np.argsort(-np.abs(ts.values).mean(axis=0))[:5]
print("TreeSHAP, mean |phi| (log-odds):", ", ".join(f"{ts.feature_names[j]} {np.abs(ts.values[:, j]).mean():.3f}"
                                                    for j in top))
# The same through `shap` (approach="tree") gives the figures and the report too.
explained = perfshap.shap(model, X_test, approach="tree")

# 4. XPER: the model's test AUC decomposed over its features.
xp = perfshap.xper(X_test, y_test, model=model, metric="auc", solver="kernel", budget=2000, seed=1)
order = np.argsort(-xp.phi)[:5]
print(f"XPER: AUC {xp.value:.4f} = base {xp.base:.4f} + sum of phi; top:",
      ", ".join(f"{xp.features[j]} {xp.phi[j]:+.4f}" for j in order))

# 5. Robustness: ShapAUC with bands over 20 Monte-Carlo splits, a logistic model retrained on
#    coalitions of the ten "mean" features (every one of the 2^10 coalitions, on each split).
means = [c for c in X.columns if c.startswith("mean")][:10]
rb = perfshap.robustness(X[means], y, model="logistic", cv="mc:20", stratify=True, seed=2, progress=True)
print(rb.to_frame("phi")[["feature", "phi_auc", "phi_auc_std"]].round(4).to_string(index=False))

# 6. Figures and reports.
os.makedirs(OUT, exist_ok=True)
for name, result in (("treeshap", explained), ("xper", xp), ("robustness", rb)):
    written = result.save(os.path.join(OUT, name), force=True)
    print(f"{name}: {len(result.figures)} figures, report {os.path.join(OUT, name, 'report.html')} "
          f"({len(written)} files)")
