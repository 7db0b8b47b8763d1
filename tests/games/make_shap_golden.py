#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Writes tests/fixtures/shap/pima_logistic.json: interventional SHAP of a logistic model on pima
computed directly with numpy, by the definition (every coalition S of the 8 features, the mean
over the background of the model's probability at (x_S, b_notS), Shapley weights
|S|! (n - |S| - 1)! / n!). The coefficients come from scikit-learn's LogisticRegression on the
standardised features, stated on the raw scale. Run: /usr/bin/python3 tests/games/make_shap_golden.py OUT_DIR
"""
import itertools
import json
import math
import sys

import numpy as np
import sklearn
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

out_dir = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/shap"
data = np.genfromtxt("tests/fixtures/data/pima.csv", delimiter=",", names=True)
names = [n for n in data.dtype.names if n != "label"]
X = np.column_stack([data[n] for n in names]).astype(float)
y = data["label"].astype(int)
scaler = StandardScaler().fit(X)
clf = LogisticRegression(C=1.0, max_iter=1000).fit(scaler.transform(X), y)
coef = clf.coef_[0] / scaler.scale_
intercept = clf.intercept_[0] - float(np.dot(coef, scaler.mean_))

rng = np.random.default_rng(0)
background_rows = sorted(rng.choice(len(X), size=100, replace=False).tolist())
explained_rows = list(range(0, 40))
B = X[background_rows]
n = X.shape[1]


def f(z):
    return 1.0 / (1.0 + np.exp(-(z @ coef + intercept)))


def weight(s):
    return math.factorial(s) * math.factorial(n - s - 1) / math.factorial(n)


phi = np.zeros((len(explained_rows), n))
base = float(np.mean(f(B)))
for r, i in enumerate(explained_rows):
    x = X[i]
    value = {}
    for mask in range(1 << n):
        inside = np.array([(mask >> j) & 1 for j in range(n)], dtype=bool)
        z = np.where(inside, x, B)
        value[mask] = float(np.mean(f(z)))
    for j in range(n):
        total = 0.0
        for mask in range(1 << n):
            if (mask >> j) & 1:
                continue
            total += weight(bin(mask).count("1")) * (value[mask | (1 << j)] - value[mask])
        phi[r, j] = total

json.dump({
    "made_by": "tests/games/make_shap_golden.py with numpy %s, scikit-learn %s" % (np.__version__, sklearn.__version__),
    "features": names,
    "coef": [intercept] + coef.tolist(),
    "background_rows": background_rows,
    "explained_rows": explained_rows,
    "base": base,
    "phi": phi.tolist(),
}, open(out_dir + "/pima_logistic.json", "w"), indent=1)
