#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""The sampled solvers with a user's Python model: model calls, evaluations and error against
the exact values, and 1 thread against 2, on a 30-feature callable with 100 background rows.

The model is a sum of products over disjoint groups of features (pairs and triples) plus a
linear term, so its interventional SHAP values are exact in closed form: each product term's
values by enumerating its group's coalitions against the background rows, the linear term's
beta_j (x_j - mean b_j). For each solver and budget (evaluations a row): the model calls, the
evaluations, coalitions per call, the mean squared error over SEEDS seeds and the rows, and the
wall time at 1 and 2 threads (median of --repeat). Before the batched evaluation the solvers
called the model once per coalition.

Usage: PYTHONPATH=build/release/python /usr/bin/python3 bench/batched_model_calls.py \
    [--budgets 500,1000,4000,16000] [--seeds 10] [--rows 4] [--repeat 3] [--json out.json]
"""
import argparse
import itertools
import json
import math
import statistics
import sys
import time

import numpy as np

import perfshap

FEATURES = 30
GROUPS = [(0, 1), (2, 3, 4), (5, 6), (7, 8, 9), (10, 11), (12, 13), (14, 15, 16), (17, 18)]


def model(beta):
    calls = []

    def f(Z):
        calls.append(len(Z))
        y = Z @ beta
        for g in GROUPS:
            y = y + np.prod(Z[:, list(g)], axis=1)
        return y

    return f, calls


def exact(rows, background, beta):
    """phi: rows x features, the closed form."""
    phi = np.zeros(rows.shape)
    phi += beta * (rows - background.mean(axis=0))
    for r, x in enumerate(rows):
        for g in GROUPS:
            m = len(g)

            def v(S):
                cols = background[:, list(g)].copy()
                for q in S:
                    cols[:, q] = x[g[q]]
                return np.prod(cols, axis=1).mean()

            for q in range(m):
                others = [u for u in range(m) if u != q]
                for size in range(m):
                    w = math.factorial(size) * math.factorial(m - size - 1) / math.factorial(m)
                    for S in itertools.combinations(others, size):
                        phi[r, g[q]] += w * (v(S + (q,)) - v(S))
    return phi


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budgets", default="500,1000,4000,16000")
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--rows", type=int, default=4)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json")
    a = p.parse_args()
    rng = np.random.RandomState(0)
    rows, background = rng.randn(a.rows, FEATURES), rng.randn(100, FEATURES)
    beta = np.linspace(-1.0, 1.0, FEATURES)
    truth = exact(rows, background, beta)
    f, calls = model(beta)
    assert abs(f(rows[:1])[0] - f(background).mean() - truth[0].sum()) < 1e-9  # efficiency of the truth
    results = []
    print(f"{FEATURES} features, 100 background rows, {a.rows} rows, {a.seeds} seeds")
    print(f"{'solver':>11} {'budget':>6} | {'calls':>6} {'evals':>7} {'coal/call':>9} | {'MSE':>9} | "
          f"{'1 thread':>8} {'2 threads':>9} {'2/1':>5}")
    for budget in (int(b) for b in a.budgets.split(",")):
        for solver in ("permutation", "kernel"):
            errors = []
            for seed in range(a.seeds):
                calls.clear()
                e = perfshap.shap(f, rows, background=background, solver=solver, budget=budget, seed=seed, threads=1)
                errors.append(float(((e.values - truth) ** 2).mean()))
            n_calls = len(calls) - 1  # less the first-row probe
            evaluations = (sum(calls) - 1) // (100 * a.rows)
            times = {}
            for t in (1, 2):
                runs = []
                for _ in range(a.repeat):
                    t0 = time.perf_counter()
                    perfshap.shap(f, rows, background=background, solver=solver, budget=budget, seed=0, threads=t)
                    runs.append(time.perf_counter() - t0)
                times[t] = statistics.median(runs)
            row = {"solver": solver, "budget": budget, "calls": n_calls, "evaluations": evaluations,
                   "coalitions_per_call": evaluations / max(1, n_calls), "mse": statistics.mean(errors),
                   "seconds_1_thread": times[1], "seconds_2_threads": times[2]}
            results.append(row)
            print(f"{solver:>11} {budget:>6} | {n_calls:>6} {evaluations:>7} {row['coalitions_per_call']:>9.1f} | "
                  f"{row['mse']:>9.2e} | {times[1]:>7.3f}s {times[2]:>8.3f}s {times[2] / times[1]:>5.2f}", flush=True)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as out:
            json.dump({"results": results}, out, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
