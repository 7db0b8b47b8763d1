#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""SAGE's cost and error as the features grow (perfshap sage through the Python API).

Design: AR(1) normal features (correlation 0.7^|i-j|), a label drawn from a logistic model whose
coefficients fall with the index, a logistic regression fitted by perfshap on 2,000 rows, SAGE of
its log-loss on 500 rows against 100 background rows. For 4, 8, 12 and 16 features, with the
marginal and the gaussian value function (200 draws), on 1 and 2 threads: the wall time of the
exact solver and of the kernel solver (budget 1,000 coalitions: exact itself while 2^n fits), the
kernel's largest error against the exact values and its largest reported standard error (both
use the same draws, so for gaussian this compares the solvers alone). The exact gaussian run at
16 features (2^16 coalitions x 500 rows x 200 draws) is left out.

    PYTHONPATH=build/release/python python3 bench/sage_features.py [--features 4,8,12,16]
"""
import argparse
import time

import numpy as np

import perfshap


def design(n, F, seed):
    rng = np.random.default_rng(seed)
    X = np.empty((n, F))
    prev = np.zeros(n)
    for j in range(F):
        e = rng.normal(size=n)
        prev = e if j == 0 else 0.7 * prev + np.sqrt(1 - 0.49) * e
        X[:, j] = prev
    beta = 1.5 / (1.0 + np.arange(F))
    p = 1.0 / (1.0 + np.exp(-(X @ beta - 0.2)))
    y = (rng.uniform(size=n) < p).astype(float)
    return X, y


def run(F, conditional, solver, threads):
    X, y = design(2500, F, F)
    train, rows = (X[:2000], y[:2000]), (X[2000:], y[2000:])
    options = dict(metric="log_loss", background=100, conditional=conditional, solver=solver, threads=threads,
                   seed=1)
    if conditional != "marginal":
        options["conditional_samples"] = 200
    if solver == "kernel":
        options["budget"] = 1000
    t0 = time.perf_counter()
    r = perfshap.sage("logistic", rows[0], rows[1], train=train, **options)
    return time.perf_counter() - t0, r


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--features", default="4,8,12,16")
    args = parser.parse_args()
    print("| features | value function | threads | exact (s) | kernel, 1,000 (s) | kernel evaluations | "
          "kernel max abs error | kernel max se |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    for F in (int(f) for f in args.features.split(",")):
        for conditional in ("marginal", "gaussian"):
            for threads in (1, 2):
                tk, kernel = run(F, conditional, "kernel", threads)
                evaluations = kernel.json["solver"]["evaluations"]
                se = np.max(kernel["phi_se"])
                if conditional != "marginal" and F > 12:  # 2^16 coalitions x 500 rows x 200 draws
                    print(f"| {F} | {conditional} | {threads} | - | {tk:.2f} | {evaluations} | - | {se:.1e} |",
                          flush=True)
                    continue
                te, exact = run(F, conditional, "exact", threads)
                error = np.max(np.abs(kernel["phi"] - exact["phi"]))
                print(f"| {F} | {conditional} | {threads} | {te:.2f} | {tk:.2f} | {evaluations} | {error:.1e} | "
                      f"{se:.1e} |", flush=True)


if __name__ == "__main__":
    main()
