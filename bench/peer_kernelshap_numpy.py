#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""A plain paired KernelSHAP in numpy: shap's KernelExplainer algorithm, the peer of perfshap's
sampled solvers at equal budgets on the same stored games (bench/run_sampled_bench.sh).

The algorithm (shap.KernelExplainer, Lundberg & Lee 2017, as its documentation and source
describe it; written here from that description):
  1. the Shapley kernel's mass per coalition size s = 1..n-1 is (n-1) / (s (n-s)); sizes s and
     n-s are paired (a coalition and its complement);
  2. size layers are enumerated completely, smallest (and largest) first, while the samples
     left times the layer pair's share of the remaining mass covers the whole layer pair;
  3. the rest of the budget goes to random paired samples: a size drawn in proportion to the
     remaining mass, a coalition of that size uniformly, and its complement; a coalition drawn
     again adds weight to its first copy instead of using budget; the samples' weights are
     scaled to the remaining mass;
  4. phi solves the kernel-weighted least squares with efficiency as an exact constraint
     (the last player's value eliminated).
The budget counts coalition evaluations with v(empty) and v(N) included, as perfshap's does.

usage: peer_kernelshap_numpy.py DIR SEEDS BUDGET...   (DIR from perfshap_sampled_accuracy tables)
prints one JSON line per game and budget: the mean squared error over the seeds.
"""
import json
import math
import sys

import numpy as np


def kernel_shap(v, n, budget, rng):
    """phi of the game table v (v[mask]) from `budget` evaluations, shap's way."""
    full = (1 << n) - 1
    fnull, fx = v[0], v[full]
    samples_left = budget - 2
    masks, weights = [], []
    n_sizes = (n - 1 + 1) // 2          # sizes 1..ceil((n-1)/2), each with its complement
    n_paired = (n - 1) // 2             # sizes whose complement is another size
    mass = np.array([(n - 1) / (s * (n - s)) for s in range(1, n_sizes + 1)])
    mass[:n_paired] *= 2.0
    mass /= mass.sum()
    remaining = mass.copy()
    complete = 0
    for s in range(1, n_sizes + 1):
        count = math.comb(n, s) * (2 if s <= n_paired else 1)
        if samples_left * remaining[s - 1] / count < 1.0 - 1e-8:
            break
        complete += 1
        samples_left -= count
        if remaining[s - 1] < 1.0:
            remaining /= 1.0 - remaining[s - 1]
        w = mass[s - 1] / count
        for idx in _combinations(n, s):
            m = sum(1 << i for i in idx)
            masks.append(m)
            weights.append(w)
            if s <= n_paired:
                masks.append(full ^ m)
                weights.append(w)
    fixed = len(masks)
    if complete < n_sizes and samples_left > 0:
        rest = mass[complete:] / mass[complete:].sum()
        used = {}
        draws = rng.choice(len(rest), size=4 * samples_left, p=rest)
        t = 0
        while samples_left > 0 and t < len(draws):
            s = int(draws[t]) + complete + 1
            t += 1
            members = rng.permutation(n)[:s]
            m = int(sum(1 << int(i) for i in members))
            pair = s <= n_paired
            if m in used:
                weights[used[m]] += 1.0
                if pair:
                    weights[used[m] + 1] += 1.0
                continue
            used[m] = len(masks)
            masks.append(m)
            weights.append(1.0)
            samples_left -= 1
            if pair and samples_left > 0:
                masks.append(full ^ m)
                weights.append(1.0)
                samples_left -= 1
        w = np.array(weights[fixed:])
        weights[fixed:] = list(w * mass[complete:].sum() / w.sum())
    z = np.array([[(m >> i) & 1 for i in range(n)] for m in masks], dtype=float)
    w = np.array(weights)
    y = np.array([v[m] for m in masks]) - fnull
    delta = fx - fnull
    # Efficiency exactly: phi_last = delta - sum(others).
    a = z[:, :-1] - z[:, -1:]
    b = y - z[:, -1] * delta
    aw = a * w[:, None]
    head = np.linalg.solve(a.T @ aw, aw.T @ b)
    return np.append(head, delta - head.sum())


def _combinations(n, s):
    idx = list(range(s))
    while True:
        yield idx
        t = s - 1
        while t >= 0 and idx[t] == n - s + t:
            t -= 1
        if t < 0:
            return
        idx[t] += 1
        for u in range(t + 1, s):
            idx[u] = idx[u - 1] + 1


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    folder, seeds, budgets = sys.argv[1], int(sys.argv[2]), [int(b) for b in sys.argv[3:]]
    with open(folder + "/tables.json") as f:
        meta = json.load(f)
    for name in ("robustness16", "xper12"):
        n = meta[name]["n"]
        exact = np.array(meta[name]["phi"])
        v = np.fromfile(folder + "/" + name + ".f64", dtype="<f8")
        for budget in budgets:
            sq = []
            for seed in range(seeds):
                phi = kernel_shap(v, n, budget, np.random.default_rng(seed))
                sq.append(np.mean((phi - exact) ** 2))
            print(json.dumps({"game": name, "solver": "numpy_kernelshap", "budget": budget, "seeds": seeds,
                              "mse": float(np.mean(sq))}))


if __name__ == "__main__":
    main()
