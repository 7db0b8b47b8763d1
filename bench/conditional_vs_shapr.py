#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Conditional (gaussian, copula, empirical, ctree, regression) Shapley values against shapr's timings (issue 38's table).

shapr 1.0.8 is not a Debian package, so its side is the issue's measurement (one thread): 20
explained rows, 1,000 Monte Carlo samples, Gaussian AR(1) features with correlation 0.7^|i-j|,
an `lm` model: gaussian 7.8 s at 8 features (all 256 coalitions), 189 s at 12 (all 4,096) and
18.4 s at 12 with 512 sampled coalitions; copula 11.2 s, 385 s and 30.7 s; empirical 11.9 s, 62 s
and 28.4 s; ctree 36.2 s, 773 s and 91.0 s (none for regression: its shapr column is empty). This runs perfshap on the same design (the linear
model as a Python function; the background, 1,000 training rows, is the distribution's sample)
at 1 and 2 threads and reports the seconds and the RMSE against the exact values (for a linear
model under a Gaussian, v(S) is in closed form, enumerated here over every coalition with the
background's mean and covariance; the copula's, the empirical function's and the trees' values
differ from it by their own approximation too: the margins' fit, the kernel's bandwidth, the
leaves' width).

Usage: PYTHONPATH=build/release/python /usr/bin/python3 bench/conditional_vs_shapr.py [--json out.json]
"""
import argparse
import itertools
import json
import math
import sys
import time

import numpy as np

import perfshap

SHAPR_SECONDS = {("gaussian", 8, "exact"): 7.8, ("gaussian", 12, "exact"): 189.0, ("gaussian", 12, "kernel"): 18.4,
                 ("copula", 8, "exact"): 11.2, ("copula", 12, "exact"): 385.0, ("copula", 12, "kernel"): 30.7,
                 ("empirical", 8, "exact"): 11.9, ("empirical", 12, "exact"): 62.0, ("empirical", 12, "kernel"): 28.4,
                 ("ctree", 8, "exact"): 36.2, ("ctree", 12, "exact"): 773.0, ("ctree", 12, "kernel"): 91.0}


def ar1(n, F, seed):
    cov = np.array([[0.7 ** abs(i - j) for j in range(F)] for i in range(F)])
    return np.random.default_rng(seed).multivariate_normal(np.zeros(F), cov, size=n)


def exact_linear(beta, x, background):
    F = len(beta)
    m, C = background.mean(axis=0), np.cov(background.T)
    values = {}
    for mask in range(1 << F):
        S = [j for j in range(F) if (mask >> j) & 1]
        O = [j for j in range(F) if not (mask >> j) & 1]
        z = x.copy()
        if O:
            z[O] = m[O] + (C[np.ix_(O, S)] @ np.linalg.solve(C[np.ix_(S, S)], x[S] - m[S]) if S else 0.0)
        values[mask] = z @ beta
    phi = np.zeros(F)
    for i in range(F):
        for mask in range(1 << F):
            if (mask >> i) & 1:
                continue
            s = bin(mask).count("1")
            phi[i] += math.factorial(s) * math.factorial(F - s - 1) / math.factorial(F) * (
                values[mask | (1 << i)] - values[mask])
    return phi


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json")
    parser.add_argument("--approaches", default="gaussian,copula,empirical,ctree,regression",
                        help="comma-separated value functions to run (default all five)")
    args = parser.parse_args()
    out = []
    print("| approach | features | coalitions | perfshap 1 thread (s) | 2 threads (s) | shapr, 1 thread (s) | ratio (1 thread) "
          "| RMSE / sd(phi) |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    cases = [(a, F, solver, budget) for a in args.approaches.split(",")
             for F, solver, budget in ((8, "exact", None), (12, "exact", None), (12, "kernel", 512))]
    for approach, F, solver, budget in cases:
        beta = np.linspace(1.0, -1.0, F) + 0.5
        background = ar1(1000, F, 1)
        X = ar1(20, F, 2)
        truth = np.array([exact_linear(beta, x, background) for x in X])
        seconds = {}
        for threads in (1, 2):
            options = dict(conditional=approach, conditional_samples=1000, solver=solver, threads=threads, seed=4)
            if budget:
                options["budget"] = budget
            t0 = time.perf_counter()
            r = perfshap.shap(lambda Z: Z @ beta, X, background=background, **options)
            seconds[threads] = time.perf_counter() - t0
        phi = np.asarray(r.values).reshape(truth.shape)
        rmse = float(np.sqrt(np.mean((phi - truth) ** 2)) / np.std(truth))
        shapr = SHAPR_SECONDS.get((approach, F, solver))
        label = f"all {1 << F}" if solver == "exact" else f"{budget} sampled (kernel)"
        ratio = f"{shapr / seconds[1]:.0f}x" if shapr else "n/a"
        print(f"| {approach} | {F} | {label} | {seconds[1]:.2f} | {seconds[2]:.2f} | {shapr or 'n/a'} | {ratio} | {rmse:.2%} |")
        out.append({"approach": approach, "features": F, "solver": solver, "budget": budget, "seconds": seconds, "shapr_seconds": shapr,
                    "rmse_over_sd": rmse})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
