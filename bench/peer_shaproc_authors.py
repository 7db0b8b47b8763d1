#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The ShapROC / ShapPRC authors' 101-threshold procedure, re-implemented from its description.

Peer of perfshap's `--curve-points thresholds:101` (engine/src/metrics/curves.cpp), written from
the procedure as ../shared/ARCHITECTURE.md and the seed paper (section 3.2.2) describe the
authors' published scripts, not from their code:

  * thresholds t_j = j * 0.01 (numpy arange(0, 1 + 0.01, 0.01): the double j * 0.01, not j / 100);
    a row is predicted positive iff p > t_j;
  * TPR = tp / (tp + fn), FPR = fp / (fp + tn), recall = TPR, precision = tp / (tp + fp) and
    precision := 1 when no row is predicted positive;
  * the T points (x, y) sorted by x, equal x merged keeping the largest y;
  * the grid is the same j * 0.01 values; a grid point g hit exactly (raw x == g) takes the
    largest y there under every strategy; otherwise L / R = the nearest merged points left /
    right of g: optimistic y_R, pessimistic y_L, interpolation y_L + (y_R - y_L)(g - x_L)/(x_R - x_L);
  * two different areas, as the published scripts (GitHub GuilhermePelegrina/Test) compute them:
    - their ShapAUC / ShapAUPRC scripts (main_ShapAUC.py / main_ShapAUPRC.py) explain each
      coalition's own area, numpy trapz(TPR - FPR, x=FPR) over its merged ROC knots and
      trapz(precision - b, x=recall) over its merged PR knots from recall 0 to 1 (b = 0.5 in the
      paper): perfshap's thresholds-mode `phi` and `phi_auprc`, the same for every strategy;
    - their ShapROC / ShapPRC scripts (main_ShapROC.py / main_ShapPRC.py) print numpy
      trapz(dx=0.01) of each feature's ShapROC / ShapPRC curve, which depends on the strategy
      (the paper's Fig. 7): perfshap's `shap_roc_integrated` and `shap_prc_integrated`.

One extension, which the scripts lack (they fail with an IndexError there): when rows with
p = 0 exactly keep the largest x below 1, the curve is closed by the all-positive point (1, 1)
for ROC and (1, prevalence) for PR, for the grid readings and the own areas alike. perfshap does
the same.

Usage:
  /usr/bin/python3 bench/peer_shaproc_authors.py vectors
      prints, with '%.17g', the golden numbers of tests/metrics/test_curves.cpp (the vectors are
      built here by the same integer formulas as in the test).
  /usr/bin/python3 bench/peer_shaproc_authors.py banknote [--split ../shared/refs/shapauc/banknote_gnb_seed0.json]
      [--data ../shared/data/banknote.csv] [--baseline 0.5] [--json OUT.json]
      every coalition of a GaussianNB on the reference split and the Shapley values (exact
      formula) of the own areas (ShapAUC, ShapAUPRC), and for the three strategies of ShapROC
      and ShapPRC and their grid integrals, timed. tests/fixtures/shaproc_banknote_peer.json is
        /usr/bin/python3 bench/peer_shaproc_authors.py banknote --json tests/fixtures/shaproc_banknote_peer.json
      (numpy 1.24.2, scikit-learn 1.2.1).
"""
import argparse
import itertools
import json
import math
import os
import sys
import time

import numpy as np

STRATEGIES = ("optimistic", "pessimistic", "interpolation")


def thresholds(t_count=101):
    """t_j as the scripts build them: numpy arange(0, 1 + step, step) = j * step."""
    if t_count == 101:
        t = np.arange(0, 1 + 0.01, 0.01)
        assert len(t) == 101 and t[-1] == 1.0
        return t
    step = 1.0 / (t_count - 1)
    t = np.array([j * step for j in range(t_count)])
    t[-1] = 1.0  # perfshap's generalisation: the last threshold is exactly 1
    return t


def threshold_curves(y, p, thr):
    """Raw (unmerged) ROC and PR points at every threshold, in threshold order."""
    y = np.asarray(y, dtype=float)
    p = np.asarray(p, dtype=float)
    fpr, tpr, rec, pre = [], [], [], []
    for t in thr:
        pred = p > t
        tp = int(np.sum(pred & (y == 1)))
        fp = int(np.sum(pred & (y == 0)))
        fn = int(np.sum(~pred & (y == 1)))
        tn = int(np.sum(~pred & (y == 0)))
        tpr.append(tp / (tp + fn))
        fpr.append(fp / (fp + tn))
        rec.append(tp / (tp + fn))
        pre.append(tp / (tp + fp) if tp + fp > 0 else 1.0)
    return (np.array(fpr), np.array(tpr)), (np.array(rec), np.array(pre))


def merge(x, y, closing_y):
    """Sort by x, merge equal x keeping the largest y; close at x = 1 (see module doc)."""
    best = {}
    for xi, yi in zip(x.tolist(), y.tolist()):
        best[xi] = max(best.get(xi, -math.inf), yi)
    xs = sorted(best)
    ys = [best[v] for v in xs]
    if xs[-1] < 1.0:
        xs.append(1.0)
        ys.append(closing_y)
    return xs, ys


def read_grid(raw_x, raw_y, xs, ys, grid, strategy):
    out = []
    for g in grid.tolist():
        hits = [yy for xx, yy in zip(raw_x.tolist(), raw_y.tolist()) if xx == g]
        if g == 1.0 and not hits and xs[-1] == 1.0:
            hits = [ys[-1]]  # the closing point
        if hits:
            out.append(max(hits))
            continue
        left = max(k for k in range(len(xs)) if xs[k] < g)
        right = min(k for k in range(len(xs)) if xs[k] > g)
        x_l, y_l, x_r, y_r = xs[left], ys[left], xs[right], ys[right]
        if strategy == "optimistic":
            out.append(y_r)
        elif strategy == "pessimistic":
            out.append(y_l)
        else:
            out.append(y_l + (y_r - y_l) * (g - x_l) / (x_r - x_l))
    return np.array(out)


def coalition_values(y, p, strategy, t_count=101, baseline=0.5):
    """One coalition: TPR at the FPR grid, precision at the recall grid, and the gains."""
    thr = thresholds(t_count)
    grid = thr
    (fpr, tpr), (rec, pre) = threshold_curves(y, p, thr)
    prevalence = float(np.mean(np.asarray(y, dtype=float)))
    roc_x, roc_y = merge(fpr, tpr, 1.0)
    pr_x, pr_y = merge(rec, pre, prevalence)
    tpr_g = read_grid(fpr, tpr, roc_x, roc_y, grid, strategy)
    pre_g = read_grid(rec, pre, pr_x, pr_y, grid, strategy)
    dx = 0.01 if t_count == 101 else 1.0 / (t_count - 1)
    knots_fpr, knots_tpr = np.array(roc_x), np.array(roc_y)
    knots_rec, knots_pre = np.array(pr_x), np.array(pr_y)
    return {
        "tpr": tpr_g,
        "precision": pre_g,
        # The own areas (ShapAUC / ShapAUPRC scripts): over the merged knots, not the grid.
        "area_auc_gain": float(np.trapz(knots_tpr - knots_fpr, knots_fpr)),
        "area_auprc_gain": float(np.trapz(knots_pre - baseline, knots_rec)),
        # The grid integrals of the readings (by linearity, those of the ShapROC / ShapPRC curves).
        "grid_auc_gain": float(np.trapz(tpr_g - grid, dx=dx)),
        "grid_auprc_gain": float(np.trapz(pre_g - baseline, dx=dx)),
    }


# ---- the vectors of tests/metrics/test_curves.cpp (integer formulas, identical in C++) ------
def case_small():
    # m = 24: probabilities on and between thresholds (0.35 vs 35 * 0.01), ties across classes.
    y = [1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0]
    p = [0.95, 0.9, 0.35, 0.35, 0.8, 0.62, 0.62, 0.5, 0.71, 0.35000000000000003, 0.1, 0.2, 0.57,
         0.57, 0.05, 0.41, 0.99, 0.3, 0.46, 0.12, 0.7, 0.83, 0.015, 0.28]
    return [float(v) for v in y], p


def case_large():
    # m = 500: 131 probability levels k / 130 (many ties), p = 0 for some negatives (closing
    # point), p = 1 for some positives.
    m = 500
    y = [1.0 if (i * 7) % 5 < 2 else 0.0 for i in range(m)]
    p = [((i * 7919) % 101 + 30 * int(y[i])) / 130.0 for i in range(m)]
    return y, p


def case_imbalanced():
    # m = 300, 10% positives, probabilities i / 997-like, distinct mostly.
    m = 300
    y = [1.0 if i % 10 == 3 else 0.0 for i in range(m)]
    p = [((i * 613) % 997) / 996.0 * (0.6 if y[i] == 0 else 1.0) for i in range(m)]
    return y, p


CHECK_POINTS = (0, 1, 7, 20, 35, 50, 57, 80, 99, 100)


def print_vectors():
    for name, case in (("small", case_small), ("large", case_large), ("imbalanced", case_imbalanced)):
        y, p = case()
        for strategy in STRATEGIES:
            v = coalition_values(y, p, strategy)
            print(f"# {name} {strategy}")
            print(f"area_auc_gain {v['area_auc_gain']:.17g}")
            print(f"area_auprc_gain {v['area_auprc_gain']:.17g}")
            print(f"grid_auc_gain {v['grid_auc_gain']:.17g}")
            print(f"grid_auprc_gain {v['grid_auprc_gain']:.17g}")
            print(f"sum_tpr {math.fsum(v['tpr'].tolist()):.17g}")
            print(f"sum_precision {math.fsum(v['precision'].tolist()):.17g}")
            print("tpr_at " + ", ".join(f"{v['tpr'][j]:.17g}" for j in CHECK_POINTS))
            print("precision_at " + ", ".join(f"{v['precision'][j]:.17g}" for j in CHECK_POINTS))


# ---- the whole ShapROC computation on the reference banknote split ----------------------------
def shapley(values, n):
    """phi_i = sum_{A not containing i} |A|!(n-|A|-1)!/n! (v(A+i) - v(A)); values[mask] rows."""
    values = np.asarray(values, dtype=float)
    phi = np.zeros((n,) + values.shape[1:])
    for i in range(n):
        bit = 1 << i
        for mask in range(1 << n):
            if mask & bit:
                continue
            s = bin(mask).count("1")
            w = math.factorial(s) * math.factorial(n - s - 1) / math.factorial(n)
            phi[i] += w * (values[mask | bit] - values[mask])
    return phi


def run_banknote(args):
    import csv
    from sklearn.naive_bayes import GaussianNB

    with open(args.data) as f:
        rows = list(csv.reader(f))
    names = rows[0][:-1]
    data = np.array(rows[1:], dtype=float)
    x_all, y_all = data[:, :-1], data[:, -1]
    split = json.load(open(args.split))
    train, test = np.array(split["train_rows"]), np.array(split["test_rows"])
    n = x_all.shape[1]
    t0 = time.perf_counter()
    # The own areas do not depend on the strategy: one list for all three.
    area_auc, area_auprc = [], []
    payoffs = {s: {"tpr": [], "precision": []} for s in STRATEGIES}
    grid = thresholds(101)
    for mask in range(1 << n):
        cols = [i for i in range(n) if mask >> i & 1]
        if not cols:  # the random classifier: every payoff 0
            area_auc.append(0.0)
            area_auprc.append(0.0)
            for s in STRATEGIES:
                payoffs[s]["tpr"].append(np.zeros(len(grid)))
                payoffs[s]["precision"].append(np.zeros(len(grid)))
            continue
        model = GaussianNB().fit(x_all[np.ix_(train, cols)], y_all[train])
        p = model.predict_proba(x_all[np.ix_(test, cols)])[:, 1]
        for s in STRATEGIES:
            v = coalition_values(y_all[test], p, s, baseline=args.baseline)
            if s == STRATEGIES[0]:
                area_auc.append(v["area_auc_gain"])
                area_auprc.append(v["area_auprc_gain"])
            assert (v["area_auc_gain"], v["area_auprc_gain"]) == (area_auc[-1], area_auprc[-1])
            payoffs[s]["tpr"].append(v["tpr"] - grid)
            payoffs[s]["precision"].append(v["precision"] - args.baseline)
    import sklearn
    out = {"generated_by": f"/usr/bin/python3 bench/peer_shaproc_authors.py {' '.join(sys.argv[1:])} "
                           f"(numpy {np.__version__}, scikit-learn {sklearn.__version__})",
           "features": names, "grid": grid.tolist(), "baseline": args.baseline,
           # ShapAUC / ShapAUPRC scripts: each coalition's own area and its Shapley values.
           "coalition_auc_gain": area_auc, "coalition_auprc_gain": area_auprc,
           "phi_auc": shapley(area_auc, n).tolist(), "phi_auprc": shapley(area_auprc, n).tolist()}
    for s in STRATEGIES:
        shap_roc = shapley(np.array(payoffs[s]["tpr"]), n)
        shap_prc = shapley(np.array(payoffs[s]["precision"]), n)
        out[s] = {
            "shap_roc": shap_roc.tolist(),
            "shap_prc": shap_prc.tolist(),
            # ShapROC / ShapPRC scripts: trapz(dx=step) of each feature's curve.
            "shap_roc_integrated": [float(np.trapz(shap_roc[i], dx=0.01)) for i in range(n)],
            "shap_prc_integrated": [float(np.trapz(shap_prc[i], dx=0.01)) for i in range(n)],
        }
    elapsed = time.perf_counter() - t0
    out["loop_seconds"] = elapsed
    print("areas", "phi_auc", " ".join(f"{v:.12f}" for v in out["phi_auc"]),
          "phi_auprc", " ".join(f"{v:.12f}" for v in out["phi_auprc"]))
    for s in STRATEGIES:
        print(s, "shap_roc_integrated", " ".join(f"{v:.12f}" for v in out[s]["shap_roc_integrated"]),
              "shap_prc_integrated", " ".join(f"{v:.12f}" for v in out[s]["shap_prc_integrated"]))
    print(f"loop {elapsed:.3f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    shared = os.path.join(here, "..", "..", "shared")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("vectors")
    b = sub.add_parser("banknote")
    b.add_argument("--split", default=os.path.join(shared, "refs/shapauc/banknote_gnb_seed0.json"))
    b.add_argument("--data", default=os.path.join(shared, "data/banknote.csv"))
    b.add_argument("--baseline", type=float, default=0.5)
    b.add_argument("--json")
    args = ap.parse_args()
    if args.cmd == "vectors":
        print_vectors()
    else:
        run_banknote(args)


if __name__ == "__main__":
    sys.exit(main())
