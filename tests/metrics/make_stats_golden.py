#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""Writes tests/fixtures/stats_scipy.json, the reference numbers of tests/metrics/test_stats.cpp.

Run with Debian's python (scipy 1.10.1, numpy 1.24.2):
    /usr/bin/python3 tests/metrics/make_stats_golden.py tests/fixtures/stats_scipy.json
Every statistic and p-value is the output of the scipy call written out below; the samples are
drawn from fixed seeds and stored, so the C++ test reads the very same doubles.

Each case names the perfshap function ("test"), the scipy call ("scipy"), the samples, scipy's
statistic and p-value, and the method perfshap reports. That method follows scipy's own rules
(scipy 1.10 _morestats.wilcoxon and _mannwhitneyu._mwu_choose_method):
  wilcoxon: exact when len(d) <= 50 and no difference is zero, else the normal approximation
    (zeros dropped first). perfshap also takes the approximation when |d| has ties, where
    scipy 1.10 would run the exact distribution on a truncated rank sum; the tied cases below
    therefore call scipy with method="approx" (the call is in "scipy").
  mannwhitneyu: exact when min(n1, n2) <= 8 and the pooled sample has no ties, else the normal
    approximation with tie and continuity corrections.
"""
import json
import sys
import warnings

import numpy as np
import scipy
from scipy import stats

EXACT = "exact"
WILCOXON_APPROX = "normal approximation with tie correction"
MWU_APPROX = "normal approximation with tie and continuity corrections"
T_PAIRED = "t distribution"
T_POOLED = "t distribution, pooled variance"
T_WELCH = "t distribution, Welch-Satterthwaite degrees of freedom"

cases = []


def add(name, test, a, b, scipy_call, result, method, df=None):
    a = [float(v) for v in a]
    b = [float(v) for v in b]
    case = {"name": name, "test": test, "scipy": scipy_call, "a": a, "b": b,
            "statistic": float(result[0]), "p_value": float(result[1]), "method": method}
    if df is not None:
        case["df"] = float(df)
    cases.append(case)


def welch_df(a, b):
    vn1 = np.var(a, ddof=1) / len(a)
    vn2 = np.var(b, ddof=1) / len(b)
    return (vn1 + vn2) ** 2 / (vn1 ** 2 / (len(a) - 1) + vn2 ** 2 / (len(b) - 1))


# ---- t tests -----------------------------------------------------------------------------
rng = np.random.RandomState(20260101)
for name, n, shift in [("paired_t_small", 8, 0.02), ("paired_t_large", 200, 0.004),
                       ("paired_t_tiny_p", 40, 0.2)]:
    a = rng.normal(0.5, 0.1, n)
    b = a + rng.normal(shift, 0.05, n)
    add(name, "PairedTTest", a, b, "ttest_rel(a, b)", stats.ttest_rel(a, b), T_PAIRED, n - 1)

for name, n1, n2, s1, s2, shift in [("student_t_small", 6, 9, 0.1, 0.12, 0.08),
                                    ("student_t_large", 150, 130, 1.0, 1.1, 0.3)]:
    a = rng.normal(0.0, s1, n1)
    b = rng.normal(shift, s2, n2)
    add(name, "StudentTTest", a, b, "ttest_ind(a, b, equal_var=True)", stats.ttest_ind(a, b, equal_var=True),
        T_POOLED, n1 + n2 - 2)

for name, n1, n2, s1, s2, shift in [("welch_t_small", 7, 11, 0.05, 0.4, 0.3),
                                    ("welch_t_large", 160, 90, 1.0, 3.0, -0.5)]:
    a = rng.normal(0.0, s1, n1)
    b = rng.normal(shift, s2, n2)
    add(name, "WelchTTest", a, b, "ttest_ind(a, b, equal_var=False)", stats.ttest_ind(a, b, equal_var=False),
        T_WELCH, welch_df(a, b))

# One constant sample: the other one's variance alone (Welch df = n2 - 1). scipy warns of
# "catastrophic cancellation" for the constant sample, whose variance is nevertheless exactly 0.
a = np.full(5, 0.5)
b = rng.normal(0.6, 0.1, 6)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", RuntimeWarning)
    add("welch_t_one_constant", "WelchTTest", a, b, "ttest_ind(a, b, equal_var=False)",
        stats.ttest_ind(a, b, equal_var=False), T_WELCH, welch_df(a, b))
    add("student_t_one_constant", "StudentTTest", a, b, "ttest_ind(a, b, equal_var=True)",
        stats.ttest_ind(a, b, equal_var=True), T_POOLED, len(a) + len(b) - 2)

# ---- Wilcoxon signed-rank -----------------------------------------------------------------
for name, n, shift in [("wilcoxon_exact_small", 9, 0.03), ("wilcoxon_exact_50", 50, 0.01),
                       ("wilcoxon_approx_51", 51, 0.01)]:
    a = rng.normal(0.5, 0.1, n)
    b = a - rng.normal(shift, 0.05, n)
    add(name, "WilcoxonSignedRank", a, b, "wilcoxon(a, b)", stats.wilcoxon(a, b),
        EXACT if n <= 50 else WILCOXON_APPROX)

# Every difference positive: the smallest exact p-value, 2 / 2^12.
a = np.arange(1.0, 13.0) + 0.5
b = np.arange(1.0, 13.0) - 0.25 * np.arange(1.0, 13.0) / 12.0
add("wilcoxon_exact_all_positive", "WilcoxonSignedRank", a, b, "wilcoxon(a, b)", stats.wilcoxon(a, b), EXACT)

# Large, with ties and zeros (values on a 0.01 grid, differences in integer hundredths).
a_int = rng.randint(0, 40, 120)
b_int = a_int - rng.randint(-6, 9, 120)
add("wilcoxon_approx_ties_zeros", "WilcoxonSignedRank", a_int / 4.0, b_int / 4.0, "wilcoxon(a, b)",
    stats.wilcoxon(a_int / 4.0, b_int / 4.0), WILCOXON_APPROX)

# n = 20 with three zero differences, no ties otherwise: scipy switches to the approximation.
a = rng.normal(0.5, 0.1, 20)
b = a - rng.normal(0.02, 0.05, 20)
b[[3, 8, 15]] = a[[3, 8, 15]]
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    add("wilcoxon_small_with_zeros", "WilcoxonSignedRank", a, b, "wilcoxon(a, b)", stats.wilcoxon(a, b),
        WILCOXON_APPROX)

# n = 15, ties among |d| and no zero: the approximation with tie correction.
a_int = np.array([10, 12, 9, 15, 11, 14, 13, 10, 16, 12, 11, 18, 9, 14, 13], dtype=float)
b_int = a_int - np.array([2, -1, 3, 2, 4, -2, 1, 3, 2, 5, 1, -3, 2, 6, 4], dtype=float)
add("wilcoxon_small_with_ties", "WilcoxonSignedRank", a_int / 8.0, b_int / 8.0,
    "wilcoxon(a, b, method='approx')", stats.wilcoxon(a_int / 8.0, b_int / 8.0, method="approx"),
    WILCOXON_APPROX)

# One nonzero difference left after dropping two zeros: the approximation with n = 1.
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    add("wilcoxon_one_nonzero", "WilcoxonSignedRank", [1.0, 2.0, 3.0], [1.0, 2.0, 2.5], "wilcoxon(a, b)",
        stats.wilcoxon([1.0, 2.0, 3.0], [1.0, 2.0, 2.5]), WILCOXON_APPROX)

# ---- Mann-Whitney U -----------------------------------------------------------------------
for name, n1, n2, shift in [("mwu_exact_5_7", 5, 7, 0.6), ("mwu_exact_8_8", 8, 8, 0.5),
                            ("mwu_exact_3_30", 3, 30, 0.9), ("mwu_asymptotic_9_12", 9, 12, 0.7),
                            ("mwu_asymptotic_large", 120, 100, 0.15), ("mwu_exact_4_600", 4, 600, 0.1)]:
    a = rng.normal(0.0, 1.0, n1)
    b = rng.normal(shift, 1.0, n2)
    exact = min(n1, n2) <= 8
    add(name, "MannWhitneyU", a, b, "mannwhitneyu(a, b)", stats.mannwhitneyu(a, b), EXACT if exact else MWU_APPROX)

# Complete separation: the smallest exact p-value, 2 / C(13, 6).
a = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
b = np.array([1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7])
add("mwu_exact_separated", "MannWhitneyU", a, b, "mannwhitneyu(a, b)", stats.mannwhitneyu(a, b), EXACT)

# Small samples with a tie: the approximation even though both sizes are <= 8.
a = np.array([0.3, 0.5, 0.5, 0.9, 1.1])
b = np.array([0.5, 1.0, 1.2, 1.4, 1.5, 1.7])
add("mwu_small_with_ties", "MannWhitneyU", a, b, "mannwhitneyu(a, b)", stats.mannwhitneyu(a, b), MWU_APPROX)

# Many ties (values on a 0.25 grid).
a = rng.randint(0, 12, 40) / 4.0
b = rng.randint(2, 14, 35) / 4.0
add("mwu_asymptotic_ties", "MannWhitneyU", a, b, "mannwhitneyu(a, b)", stats.mannwhitneyu(a, b), MWU_APPROX)

# Identical samples: U = n1 n2 / 2, p = 1 (clipped from above 1, as scipy).
a = rng.normal(0.0, 1.0, 10)
add("mwu_identical_samples", "MannWhitneyU", a, a, "mannwhitneyu(a, a)", stats.mannwhitneyu(a, a), MWU_APPROX)

# Every value equal: zero variance under the tie correction; scipy gives U = n1 n2 / 2, p = 1.
a = np.full(4, 2.0)
b = np.full(5, 2.0)
add("mwu_all_values_equal", "MannWhitneyU", a, b, "mannwhitneyu(a, b)", stats.mannwhitneyu(a, b),
    "all values are equal")

out = {
    "generator": "tests/metrics/make_stats_golden.py",
    "scipy": scipy.__version__,
    "numpy": np.__version__,
    "cases": cases,
}
path = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/stats_scipy.json"
# One case a line; json.dumps writes the shortest repr of each double, which reads back exactly.
with open(path, "w", encoding="utf-8") as f:
    head = json.dumps({k: v for k, v in out.items() if k != "cases"}, allow_nan=False)
    f.write(head[:-1] + ', "cases": [\n')
    f.write(",\n".join(json.dumps(c, allow_nan=False) for c in cases))
    f.write("\n]}\n")
print(f"wrote {len(cases)} cases to {path}")
