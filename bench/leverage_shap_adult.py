#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The Leverage SHAP protocol (Musco & Witter, ICLR 2025) on Adult: the sampled solvers' median
relative error ||phi_hat - phi||^2 / ||phi||^2 at m = 8n, 32n and 128n evaluations, against the
paper's published figures for Leverage SHAP, shap's KernelExplainer and permutation sampling.

The protocol as the paper states it: Adult's 12 features (shap.datasets.adult's columns: fnlwgt
and education dropped, education_num kept; the text columns label-encoded, categories in sorted
order, '?' a category of its own, as shap's copy encodes them), an XGBoost regressor on the label
(100 trees of depth 4), one baseline row, exact TreeSHAP against that baseline as the truth, 100
runs. A run draws an explained row and a baseline row (with a different prediction, so that
||phi|| > 0) and a seed; each solver gets a budget of m evaluations of the game v(S) =
f(x_S, b_notS), the two ends v(empty) and v(N) included (perfshap counts them; the paper's m
does not, so perfshap spends 2 fewer on the estimate).

The truth is perfshap's interventional TreeSHAP against the baseline row (approach="tree"); the
first run also checks it against the exact enumeration of the game's 4,096 coalitions
(solver="exact") and prints the difference. The solvers run to their budget (tolerance 1e-9:
the convergence rule never stops them early).

Usage: PYTHONPATH=build/release/python /usr/bin/python3 bench/leverage_shap_adult.py \
    [--data ../shared/data/adult.csv] [--runs 100] [--json out.json]
"""
import argparse
import json
import os
import statistics
import sys

import numpy as np
import pandas as pd
import xgboost

import perfshap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from peer_kernelshap_numpy import kernel_shap  # noqa: E402
from peer_leverage_shap_numpy import leverage_shap  # noqa: E402

PEERS = ["leverage_shap (numpy)", "kernel_shap (numpy)"]

# Median relative errors published in Leverage SHAP's Table (Adult, 100 runs), m = 8n, 32n, 128n.
PUBLISHED = {
    "leverage_shap": [1.1e-3, 1.7e-4, 2.1e-5],
    "kernel_shap (shap)": [7.1e-3, 8.7e-4, 1.7e-4],
    "permutation": [3.1e-3, 6.3e-4, 1.8e-4],
}
MULTIPLES = [8, 32, 128]
FEATURES = ["age", "workclass", "education_num", "marital_status", "occupation", "relationship", "race", "sex",
            "capital_gain", "capital_loss", "hours_per_week", "native_country"]


def adult(path):
    frame = pd.read_csv(path)
    X = frame[FEATURES].copy()
    for column in FEATURES:
        if X[column].dtype == object:
            X[column] = pd.Categorical(X[column], categories=sorted(X[column].unique())).codes
    return X.to_numpy(dtype=np.float64), frame["label"].to_numpy(dtype=np.float64)


def game_table(model, x, b):
    """v[mask] = f(x on the mask's features, b elsewhere) for every mask of the 12 features."""
    n = len(x)
    masks = np.arange(1 << n)
    inside = ((masks[:, None] >> np.arange(n)) & 1).astype(bool)
    return model.predict(np.where(inside, x, b)).astype(np.float64)


def solve(booster, x, b, **options):
    r = perfshap.shap(booster, x[None, :], background=b[None, :], feature_names=FEATURES, threads=1, **options)
    return np.asarray(r.values)[0], r


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data", "adult.csv"))
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--solvers", default="kernel,permutation")
    parser.add_argument("--multiples", default="8,32,128", help="budgets m as multiples of n")
    parser.add_argument("--json")
    args = parser.parse_args()

    X, y = adult(args.data)
    n = X.shape[1]
    model = xgboost.XGBRegressor(n_estimators=100, max_depth=4, random_state=0, n_jobs=2).fit(X, y)
    booster = model.get_booster()
    predictions = model.predict(X)
    multiples = [int(m) for m in args.multiples.split(",")]
    rng = np.random.default_rng(2025)
    peer_rng = np.random.default_rng(7)  # the peers' own draws: the runs do not depend on them
    solvers = args.solvers.split(",")
    errors = {s: {m: [] for m in multiples} for s in solvers + PEERS}
    evaluations = {s: {m: [] for m in multiples} for s in solvers}
    for run in range(args.runs):
        while True:
            i, j = rng.integers(0, len(X), size=2)
            if predictions[i] != predictions[j]:
                break
        x, b = X[i], X[j]
        truth, _ = solve(booster, x, b, approach="tree")
        if run == 0:
            enumerated, _ = solve(booster, x, b, solver="exact")
            print(f"run 0: interventional TreeSHAP vs exact enumeration: max |diff| = "
                  f"{np.max(np.abs(truth - enumerated)):.1e}")
        norm = float(truth @ truth)
        seed = int(rng.integers(0, 2**31))
        v = game_table(model, x, b)
        for m in multiples:
            # The same evaluations as perfshap's budget: m - 2 samples besides v(empty) and v(N).
            for name, phi in ((PEERS[0], leverage_shap(v, n, m * n - 2, peer_rng)),
                              (PEERS[1], kernel_shap(v, n, m * n, peer_rng))):
                errors[name][m].append(float((phi - truth) @ (phi - truth)) / norm)
        for s in solvers:
            for m in multiples:
                phi, r = solve(booster, x, b, solver=s, budget=m * n, tolerance=1e-9, seed=seed)
                errors[s][m].append(float((phi - truth) @ (phi - truth)) / norm)
                evaluations[s][m].append(int(r["solver"]["evaluations"]))

    print(f"Adult, {n} features, XGBRegressor 100 x depth 4, {args.runs} runs: median ||phi_hat - phi||^2 / ||phi||^2")
    header = ("| m | " + " | ".join(f"perfshap {s}" for s in solvers) + " | " + " | ".join(PEERS) + " | " +
              " | ".join(f"published {p}" for p in PUBLISHED) + " |")
    print(header)
    print("|" + "---:|" * (1 + len(solvers) + len(PEERS) + len(PUBLISHED)))
    out = {"runs": args.runs, "features": n, "rows": []}
    for m in multiples:
        k = MULTIPLES.index(m) if m in MULTIPLES else None
        medians = {s: statistics.median(errors[s][m]) for s in solvers + PEERS}
        cells = [f"{medians[s]:.2g}" for s in solvers + PEERS] + [f"{PUBLISHED[p][k]:.2g}" if k is not None else "-"
                                                          for p in PUBLISHED]
        print(f"| {m}n = {m * n} | " + " | ".join(cells) + " |")
        out["rows"].append({"m": m * n, "median": medians,
                            "evaluations": {s: statistics.median(evaluations[s][m]) for s in solvers},
                            "published": {p: PUBLISHED[p][k] for p in PUBLISHED} if k is not None else {}})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
