#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""ShapAUC by coalition retraining as people do it today: a plain sequential scikit-learn loop.

Side-by-side peer of `perfshap robustness` (bench/compare_robustness.sh runs both). For every
split and every non-empty coalition A of features it trains a fresh scikit-learn model on the
training rows of A's columns, scores the test rows with predict_proba[:, 1] and computes
roc_auc_score; the empty coalition is the random classifier (AUC 0.5). The Shapley values of
v(A) = AUC_A - 0.5 (seed paper eq. 6) are then computed per split with the exact formula, and the
mean and standard deviation (ddof 0) of phi over the splits give the uncertainty bands (section
4.2). This is the loop of the paper's authors (one model per coalition and split, nothing shared).

Cases:
  banknote   GaussianNB() on ../shared/data/banknote.csv, --reps Monte-Carlo CV repetitions:
             split r = train_test_split(arange(n), test_size, random_state=seed + r, shuffle=True).
  wine       ../shared/data/wine.csv, class 1 vs rest, make_pipeline(StandardScaler(),
             LogisticRegression(C=1.0)) on all 2^13 - 1 = 8191 coalitions of one holdout split
             train_test_split(arange(n), test_size, random_state=seed, shuffle=True). With the
             default lbfgs solver (tol 1e-4) as people run it; --solver newton-cholesky
             --tol 1e-12 fits to the optimum (the numbers perfshap reproduces).

Timing: `loop_seconds` covers the loop only (row indexing, fits, predictions, AUCs and the Shapley
sums), not the imports nor reading the CSV, as the issue asks. --curves adds, per coalition,
sklearn roc_curve / precision_recall_curve / average_precision_score and a numpy reading of the
curves at 101 grid points: about the work perfshap does for its ShapROC / ShapPRC outputs, for a
like-for-like time (the numbers of that reading are not a reference).

--splits-out F writes the splits as {"splits": [{"train": [...], "test": [...]}, ...]} so that
`perfshap robustness --split F` uses exactly the same rows; --json F writes phi (mean, std, and per
split), the coalition AUCs of split 0 and the timings.

Usage:
  /usr/bin/python3 bench/peer_shapauc_sklearn.py banknote --reps 100 --splits-out s.json --json p.json
  /usr/bin/python3 bench/peer_shapauc_sklearn.py wine --splits-out w.json --json pw.json
"""
import argparse
import csv
import json
import math
import os
import sys
import time

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (average_precision_score, precision_recall_curve, roc_auc_score,
                             roc_curve)
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler


def read_csv(path, positive=None):
    with open(path) as f:
        rows = list(csv.reader(f))
    header = rows[0]
    label_col = header.index("label")
    names = [h for k, h in enumerate(header) if k != label_col]
    data = np.array(rows[1:], dtype=float)
    x = np.delete(data, label_col, axis=1)
    y = data[:, label_col]
    if positive is not None:
        y = (y == positive).astype(float)
    return names, x, y


def shapley_weights(n):
    """w(s) = s!(n-s-1)!/n! for s = 0..n-1."""
    return [math.factorial(s) * math.factorial(n - s - 1) / math.factorial(n) for s in range(n)]


def shapley(values, n, weights):
    """phi_i = sum over A not containing i of w(|A|) (v(A + i) - v(A)); values[mask]."""
    phi = [0.0] * n
    for i in range(n):
        bit = 1 << i
        for mask in range(1 << n):
            if mask & bit:
                continue
            phi[i] += weights[bin(mask).count("1")] * (values[mask | bit] - values[mask])
    return phi


def make_model(case, args):
    if case == "banknote":
        return GaussianNB()
    return make_pipeline(StandardScaler(), LogisticRegression(C=args.C, solver=args.solver, tol=args.tol,
                                                              max_iter=args.max_iter))


def curve_work(y_test, p, grid):
    """The curve outputs per coalition (like-for-like timing only)."""
    fpr, tpr, _ = roc_curve(y_test, p, drop_intermediate=False)
    precision, recall, _ = precision_recall_curve(y_test, p)
    ap = average_precision_score(y_test, p)
    tpr_g = np.interp(grid, fpr, tpr)
    prec_g = np.interp(grid, recall[::-1], precision[::-1])
    return tpr_g, prec_g, ap


def run(case, args):
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.path.join(here, "..", "..", "shared", "data")
    if case == "banknote":
        names, x, y = read_csv(args.data or os.path.join(shared, "banknote.csv"))
        reps = args.reps
    else:
        names, x, y = read_csv(args.data or os.path.join(shared, "wine.csv"), positive=1.0)
        reps = args.reps if args.reps_given else 1
    n_rows, n = x.shape
    splits = []
    for r in range(reps):
        train, test = train_test_split(np.arange(n_rows), test_size=args.test_size,
                                       random_state=args.seed + r, shuffle=True)
        splits.append((train, test))
    if args.splits_out:
        with open(args.splits_out, "w") as f:
            json.dump({"splits": [{"train": tr.tolist(), "test": te.tolist()} for tr, te in splits]}, f)
    grid = np.linspace(0.0, 1.0, 101)
    weights = shapley_weights(n)
    masks = [[i for i in range(n) if m >> i & 1] for m in range(1 << n)]

    # ---- the timed loop -------------------------------------------------------------------------
    t0 = time.perf_counter()
    phis, aucs0 = [], None
    for r, (train, test) in enumerate(splits):
        x_train, y_train, x_test, y_test = x[train], y[train], x[test], y[test]
        values = [0.0] * (1 << n)  # v(empty) = AUC of the random classifier - 0.5 = 0
        for mask in range(1, 1 << n):
            cols = masks[mask]
            model = make_model(case, args).fit(x_train[:, cols], y_train)
            p = model.predict_proba(x_test[:, cols])[:, 1]
            values[mask] = roc_auc_score(y_test, p) - 0.5
            if args.curves:
                curve_work(y_test, p, grid)
        phis.append(shapley(values, n, weights))
        if r == 0:
            aucs0 = [v + 0.5 for v in values]
    loop_seconds = time.perf_counter() - t0
    # ---------------------------------------------------------------------------------------------

    phis = np.array(phis)
    mean, std = phis.mean(axis=0), phis.std(axis=0)  # ddof 0, as perfshap's bands
    trainings = reps * ((1 << n) - 1)
    print(f"peer {case}: {reps} split(s) x {(1 << n) - 1} coalitions = {trainings} sklearn trainings"
          f"{' (+ curves)' if args.curves else ''}")
    for name, m, s in zip(names, mean, std):
        print(f"  phi {name:32s} {m:+.10f} +- {s:.10f}")
    print(f"  AUC (split 0, all features) {aucs0[-1]:.12f}")
    print(f"loop_seconds {loop_seconds:.6f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": case, "features": names, "reps": reps, "trainings": trainings,
                       "curves": bool(args.curves), "loop_seconds": loop_seconds,
                       "phi_mean": mean.tolist(), "phi_std": std.tolist(), "phi_by_split": phis.tolist(),
                       "coalition_auc_split0": aucs0,
                       "model": "GaussianNB()" if case == "banknote" else
                       f"make_pipeline(StandardScaler(), LogisticRegression(C={args.C}, solver='{args.solver}', "
                       f"tol={args.tol}, max_iter={args.max_iter}))"}, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case", choices=["banknote", "wine"])
    ap.add_argument("--data", help="CSV file (default ../shared/data/<case>.csv)")
    ap.add_argument("--reps", type=int, default=None, help="splits (banknote default 100, wine 1)")
    ap.add_argument("--test-size", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curves", action="store_true", help="also compute the ROC/PR curve outputs")
    ap.add_argument("--C", type=float, default=1.0)
    ap.add_argument("--solver", default="lbfgs")
    ap.add_argument("--tol", type=float, default=1e-4)
    ap.add_argument("--max-iter", type=int, default=100)
    ap.add_argument("--splits-out")
    ap.add_argument("--json")
    args = ap.parse_args()
    args.reps_given = args.reps is not None
    if args.reps is None:
        args.reps = 100
    run(args.case, args)


if __name__ == "__main__":
    sys.exit(main())
