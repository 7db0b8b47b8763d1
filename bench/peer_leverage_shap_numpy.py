#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Leverage SHAP in numpy (Musco & Witter, "Provably Accurate Shapley Value Estimation via
Leverage Score Sampling", ICLR 2025), written here from the paper's description: the peer of
perfshap's kernel solver on the very same games (bench/leverage_shap_adult.py).

The algorithm:
  1. the leverage scores of KernelSHAP's regression are equal across coalition sizes, so every
     size s = 1..n-1 gets the same expected number of samples c: a coalition of size s is kept
     with probability p_s = min(1, c / C(n, s)), c set so that the expected count is the budget;
  2. paired and without replacement: for s < n/2 the number of coalitions of size s is drawn
     Binomial(C(n, s), p_s), those coalitions uniformly without replacement, each with its
     complement (p_{n-s} = p_s); for s = n/2 the complement pairs are drawn so;
  3. phi solves the least squares of the sampled coalitions weighted by the Shapley kernel over
     their probability, w(S) / p_|S| with w(S) = (n - 1) / (C(n, s) s (n - s)), with efficiency
     sum phi = v(N) - v(empty) as an exact constraint.
`m` counts the sampled coalitions; v(empty) and v(N) come on top (the paper's convention).
"""
import itertools
import math

import numpy as np


def _probabilities(n, m):
    """p_s for s = 1..n-1 with sum_s C(n, s) p_s = m (capped at 1 a coalition)."""
    counts = np.array([math.comb(n, s) for s in range(1, n)], dtype=float)
    lo, hi = 0.0, float(counts.max())
    for _ in range(200):
        c = 0.5 * (lo + hi)
        if np.minimum(counts, c).sum() < m:
            lo = c
        else:
            hi = c
    return np.minimum(1.0, hi / counts)


def leverage_shap(v, n, m, rng):
    """phi of the game table v (v[mask], masks of n bits) from about m sampled coalitions."""
    full = (1 << n) - 1
    p = _probabilities(n, min(m, (1 << n) - 2))
    masks, weights = [], []
    for s in range(1, n // 2 + 1):
        ps = p[s - 1]
        subsets = [sum(1 << i for i in idx) for idx in itertools.combinations(range(n), s)]
        if 2 * s == n:  # the middle layer: complement pairs, each pair once
            subsets = [a for a in subsets if a < full ^ a]
        k = rng.binomial(len(subsets), ps)
        kernel = (n - 1) / (math.comb(n, s) * s * (n - s))
        for a in rng.choice(len(subsets), size=k, replace=False):
            for mask in (subsets[a], full ^ subsets[a]):
                masks.append(mask)
                weights.append(kernel / ps)
    z = np.array([[(mask >> i) & 1 for i in range(n)] for mask in masks], dtype=float).reshape(-1, n)
    w = np.array(weights)
    y = np.array([v[mask] for mask in masks]) - v[0]
    delta = v[full] - v[0]
    # Efficiency exactly: phi_last = delta - sum(others); least squares (lstsq: few samples may
    # leave the normal matrix singular).
    a = (z[:, :-1] - z[:, -1:]) * np.sqrt(w)[:, None]
    b = (y - z[:, -1] * delta) * np.sqrt(w)
    head = np.linalg.lstsq(a, b, rcond=None)[0]
    return np.append(head, delta - head.sum())
