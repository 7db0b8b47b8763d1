#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The peer of perfshap's Shapley Chains: the authors' approach transcribed to numpy, timed.

What it transcribes (Ayad et al., "Shapley Chains"; shared/seeds/shapley-chains.txt). Their
package wraps scikit-learn's ClassifierChain(LogisticRegression()) and calls shap's
KernelExplainer once per link and per explained row. shap is not installed here, so its
KernelExplainer is written out below from its documentation and source as we know them (not
copied, not checked against shap's own output):
  * the explained function is link j's predict_proba[:, 1] over its inputs (the features, then
    the earlier outputs in chain order), link function identity;
  * the background is the given data matrix (here 100 rows), every row weight 1/N;
    fnull = mean prediction over it, fx = the prediction of the explained row;
  * only the "varying" inputs (those where the row differs from some background row) are
    players, M of them; M = 0 gives phi = 0, M = 1 gives that input fx - fnull;
  * nsamples = "auto" = 2 M + 2048, capped at 2^M - 2 (M <= 30);
  * the Shapley kernel's mass per coalition size s = 1..ceil((M-1)/2) is (M-1)/(s (M-s)),
    doubled for the sizes paired with their complement M - s; size layers are enumerated
    completely, smallest first, while the samples left times the layer's share of the remaining
    mass covers it; the rest of the budget is sampled (a size drawn by the remaining mass, a
    coalition of that size uniformly, with its complement; a repeat adds weight 1 to its first
    copy), the sampled weights scaled to the remaining mass;
  * each coalition z is evaluated as the mean over the background of f(x on z, background row
    off z): all coalitions' synthetic rows are built, then predicted in one call;
  * phi solves the kernel-weighted least squares with efficiency as an exact constraint
    (the last varying input eliminated: phi_last = fx - fnull - sum of the others).
With the Adult chain's 9, 10 and 11 inputs, 2^M - 2 < 2 M + 2048, so every link enumerates all
coalitions (exact interventional Shapley values against the background), as shap would.

The chain follows scikit-learn's ClassifierChain: link j is fitted (LogisticRegression(C=1.0),
lbfgs, max_iter=1000) on the training rows' features and the earlier outputs' true labels, and
predicts from the features and the chain's own earlier predicted labels (predict: 0/1 at
probability > 0.5). The background rows go through the chain too (their earlier-output inputs
are the chain's predictions), as for the explained rows; --background-labels true uses the
background rows' true labels instead.

Data: shared/data/adult.csv prepared as perfshap's PrepareAdultChains does (rows with '?'
dropped; outputs sex (Male = 1), income (label), occupation_white_collar; features age,
workclass, fnlwgt, education_num, marital_status, relationship, capital_gain, capital_loss,
hours_per_week, the categorical ones as codes of their sorted levels, all min-max normalised
over the kept rows), 80/20 split by numpy.random.default_rng(0).permutation; the background is
the first 100 training rows (in permutation order), the explained rows the first R test rows.

What it omits: shap's l1_reg feature selection ("auto" applies it only when under 20 % of the
coalitions are evaluated, never the case here: all are); shap's grouping of features, its
non-identity links, weighted backgrounds, and batch / keep_index options; progress bars. The
indirect contributions (eqs. 4-6, unsigned W) are computed for the first row only, as a sanity
output: they are post-processing of the direct ones and cost nothing next to the explainer.

Timing: wall time of the explainer per (row, link), averaged; extrapolated linearly to 1000
rows of one chain order (x 3 links) and of all 6 orders of the 3 outputs (x 6; fitting the
chains, under a second, is reported apart and not extrapolated).

usage: peer_shapley_chains_numpy.py [--data CSV] [--rows R] [--order sex,income,occupation_white_collar]
prints one JSON object.
"""
import argparse
import csv
import itertools
import json
import math
import os
import sys
import time

import numpy as np
from sklearn.linear_model import LogisticRegression

FEATURES = ["age", "workclass", "fnlwgt", "education_num", "marital_status", "relationship", "capital_gain",
            "capital_loss", "hours_per_week"]
CATEGORICAL = {"workclass", "marital_status", "relationship"}
OUTPUTS = ["sex", "income", "occupation_white_collar"]
WHITE_COLLAR = {"Exec-managerial", "Prof-specialty", "Adm-clerical", "Sales", "Tech-support"}


def prepare_adult(path):
    """-> X (n x 9, min-max normalised), Y (n x 3 in OUTPUTS order, 0/1)."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = [h.strip() for h in next(reader)]
        col = {name: k for k, name in enumerate(header)}
        rows = [[cell.strip() for cell in r] for r in reader if r]
    rows = [r for r in rows if "?" not in r]
    columns = []
    for name in FEATURES:
        raw = [r[col[name]] for r in rows]
        if name in CATEGORICAL:
            levels = {level: code for code, level in enumerate(sorted(set(raw)))}
            columns.append(np.array([levels[v] for v in raw], dtype=float))
        else:
            columns.append(np.array([float(v) for v in raw]))
    x = np.column_stack(columns)
    lo, hi = x.min(axis=0), x.max(axis=0)
    x = (x - lo) / np.where(hi > lo, hi - lo, 1.0)
    y = np.column_stack([
        np.array([r[col["sex"]] == "Male" for r in rows], dtype=float),
        np.array([float(r[col["label"]]) for r in rows]),
        np.array([r[col["occupation"]] in WHITE_COLLAR for r in rows], dtype=float),
    ])
    return x, y


class Chain:
    """scikit-learn's ClassifierChain semantics with LogisticRegression links."""

    def __init__(self, order):
        self.order = list(order)
        self.links = []

    def fit(self, x, y):
        for j, o in enumerate(self.order):
            inputs = np.hstack([x, y[:, self.order[:j]]])
            self.links.append(LogisticRegression(C=1.0, max_iter=1000).fit(inputs, y[:, o]))
        return self

    def link_inputs(self, x):
        """Per link j, its inputs at prediction time: features, then earlier predicted labels."""
        out, labels = [], []
        for link in self.links:
            inputs = np.hstack([x] + [l[:, None] for l in labels])
            out.append(inputs)
            labels.append(link.predict(inputs).astype(float))
        return out


def kernel_explain(f, background, x, rng):
    """shap.KernelExplainer(f, background).shap_values(x) for one row x, nsamples="auto"."""
    n_bg, p = background.shape
    fnull = float(np.mean(f(background)))
    fx = float(f(x[None, :])[0])
    phi = np.zeros(p)
    varying = np.array([np.any(~np.isclose(background[:, i], x[i], equal_nan=True)) for i in range(p)])
    inds = np.flatnonzero(varying)
    m = len(inds)
    if m == 0:
        return phi, fnull
    if m == 1:
        phi[inds[0]] = fx - fnull
        return phi, fnull
    nsamples = 2 * m + 2 ** 11
    if m <= 30:
        nsamples = min(nsamples, 2 ** m - 2)
    n_sizes = int(math.ceil((m - 1) / 2.0))
    n_paired = int(math.floor((m - 1) / 2.0))
    weight_vector = np.array([(m - 1.0) / (s * (m - s)) for s in range(1, n_sizes + 1)])
    weight_vector[:n_paired] *= 2
    weight_vector /= weight_vector.sum()
    masks, weights = [], []
    n_full = 0
    left = nsamples
    remaining = weight_vector.copy()
    for s in range(1, n_sizes + 1):
        nsubsets = math.comb(m, s) * (2 if s <= n_paired else 1)
        if left * remaining[s - 1] / nsubsets < 1.0 - 1e-8:
            break
        n_full += 1
        left -= nsubsets
        if remaining[s - 1] < 1.0:
            remaining /= 1 - remaining[s - 1]
        w = weight_vector[s - 1] / math.comb(m, s)
        if s <= n_paired:
            w /= 2.0
        for members in itertools.combinations(range(m), s):
            mask = np.zeros(m)
            mask[list(members)] = 1.0
            masks.append(mask)
            weights.append(w)
            if s <= n_paired:
                masks.append(1.0 - mask)
                weights.append(w)
    n_fixed = len(masks)
    left = nsamples - n_fixed
    if n_full != n_sizes and left > 0:
        rest = weight_vector.copy()
        rest[:n_paired] /= 2
        rest = rest[n_full:]
        rest /= rest.sum()
        draws = rng.choice(len(rest), 4 * left, p=rest)
        used = {}
        t = 0
        while left > 0 and t < len(draws):
            s = int(draws[t]) + n_full + 1
            t += 1
            mask = np.zeros(m)
            mask[rng.permutation(m)[:s]] = 1.0
            key = mask.tobytes()
            new = key not in used
            if new:
                used[key] = len(masks)
                left -= 1
                masks.append(mask)
                weights.append(1.0)
            else:
                weights[used[key]] += 1.0
            if left > 0 and s <= n_paired:
                if new:
                    left -= 1
                    masks.append(1.0 - mask)
                    weights.append(1.0)
                else:
                    weights[used[key] + 1] += 1.0
        w = np.array(weights[n_fixed:])
        weights[n_fixed:] = list(w * weight_vector[n_full:].sum() / w.sum())
    z = np.array(masks)
    kw = np.array(weights)
    # Synthetic rows: background tiled per coalition, the coalition's inputs set to x.
    synth = np.tile(background, (len(z), 1))
    on = np.repeat(z, n_bg, axis=0).astype(bool)
    sub = synth[:, inds]
    sub[on] = np.broadcast_to(x[inds], sub.shape)[on]
    synth[:, inds] = sub
    ey = f(synth).reshape(len(z), n_bg).mean(axis=1)
    delta = fx - fnull
    y_adj = ey - fnull - z[:, -1] * delta
    a = z[:, :-1] - z[:, -1:]
    aw = a * kw[:, None]
    try:
        head = np.linalg.solve(a.T @ aw, aw.T @ y_adj)
    except np.linalg.LinAlgError:
        sw = np.sqrt(kw)
        head = np.linalg.lstsq(sw[:, None] * a, sw * y_adj, rcond=None)[0]
    phi[inds[:-1]] = head
    phi[inds[-1]] = delta - head.sum()
    return phi, fnull


def indirect_contributions(direct, n_features):
    """Eqs. 4-6 with unsigned W: direct[j] (F + j values) -> indirect[j] (F values)."""
    w, z, out = [], [], []
    for j, d in enumerate(direct):
        a = np.abs(d)
        total = a.sum()
        w.append(a / total if total > 0 else np.zeros_like(a))
        zj = w[j][:n_features].copy()
        for l in range(j):
            zj += w[j][n_features + l] * z[l]
        z.append(zj)
        ind = np.zeros(n_features)
        for k in range(j):
            ind += d[n_features + k] * z[k]
        out.append(ind)
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data", "adult.csv"))
    parser.add_argument("--rows", type=int, default=5)
    parser.add_argument("--order", default=",".join(OUTPUTS))
    parser.add_argument("--background", type=int, default=100)
    parser.add_argument("--background-labels", choices=["predicted", "true"], default="predicted")
    args = parser.parse_args()
    if not os.path.exists(args.data) and os.path.exists("/work/shared/data/adult.csv"):
        args.data = "/work/shared/data/adult.csv"
    order = [OUTPUTS.index(name) for name in args.order.split(",")]
    if sorted(order) != list(range(len(OUTPUTS))):
        sys.exit("--order: a permutation of " + ",".join(OUTPUTS))

    x, y = prepare_adult(args.data)
    perm = np.random.default_rng(0).permutation(len(x))
    n_train = int(round(0.8 * len(x)))
    train, test = perm[:n_train], perm[n_train:]
    t0 = time.perf_counter()
    chain = Chain(order).fit(x[train], y[train])
    fit_seconds = time.perf_counter() - t0

    bg_rows = train[:args.background]
    if args.background_labels == "true":
        background = [np.hstack([x[bg_rows], y[bg_rows][:, order[:j]]]) for j in range(len(order))]
    else:
        background = chain.link_inputs(x[bg_rows])
    explained = chain.link_inputs(x[test[:args.rows]])
    rng = np.random.RandomState(0)  # shap samples with numpy's global RandomState; unused when enumerating
    links = chain.links
    times = np.zeros((args.rows, len(links)))
    first = []
    for r in range(args.rows):
        for j, link in enumerate(links):
            def f(inputs, link=link):
                return link.predict_proba(inputs)[:, 1]
            t0 = time.perf_counter()
            phi, base = kernel_explain(f, background[j], explained[j][r], rng)
            times[r, j] = time.perf_counter() - t0
            if r == 0:
                first.append((phi, base, float(f(explained[j][r][None, :])[0])))
    per = float(times.mean())
    names = [OUTPUTS[o] for o in order]
    direct = [p for p, _, _ in first]
    indirect = indirect_contributions(direct, len(FEATURES))
    first_row = []
    for j, (phi, base, fx) in enumerate(first):
        first_row.append({
            "link": j, "output": names[j], "inputs": FEATURES + names[:j], "base": base, "prediction": fx,
            "direct": [float(v) for v in phi], "indirect": [float(v) for v in indirect[j]],
            "efficiency_gap": float(fx - base - phi.sum()),
        })
    print(json.dumps({
        "peer": "numpy transcription of Shapley Chains (ClassifierChain(LogisticRegression) + KernelExplainer)",
        "rows": args.rows, "links": len(links), "order": names, "background": len(bg_rows),
        "train_rows": len(train), "test_rows": len(test), "fit_seconds": fit_seconds,
        "seconds_per_row_per_link": per,
        "seconds_per_link": [float(v) for v in times.mean(axis=0)],
        "extrapolated_seconds": {"1000_rows_one_order": per * len(links) * 1000,
                                 "1000_rows_all_6_orders": per * len(links) * 1000 * 6},
        "first_row": {"test_row": int(test[0]), "links": first_row},
    }, indent=1))


if __name__ == "__main__":
    main()
