// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

// Two-sided hypothesis tests of "no difference" between two samples, e.g. the per-point
// robustness values of two explanation methods. Reference: scipy 1.10.1 (scipy.stats
// ttest_rel, ttest_ind, wilcoxon, mannwhitneyu with their defaults); statistics and p-values
// agree to 1e-10 relative, exact p-values to 1e-12 absolute (tests/metrics/test_stats.cpp,
// numbers written by tests/metrics/make_stats_golden.py). The paired tests read pair i as
// (a[i], b[i]) and the difference d[i] = a[i] - b[i]; the two-sample tests take a and b as
// independent samples of sizes n1 = a.size() and n2 = b.size().
//
// Every function @throws InvalidArgument (one line, naming the test, the sample and the index)
// when a sample has fewer than 2 values or a value that is not finite, and the paired tests
// when a and b differ in length.
//
// Degenerate input gives a defined result instead of scipy's NaN or ValueError, and `method`
// says what happened:
//  - t tests without any variance (every difference equal, or both samples constant): no
//    variance, and no difference either, is no evidence: statistic 0, p = 1; a constant
//    nonzero difference (or two different constants) is the limit of an ever smaller
//    variance: statistic +-infinity, p = 0 (as scipy). Constancy is tested exactly, value by
//    value: nearly constant samples take the ordinary formula, as in scipy.
//  - WilcoxonSignedRank with every difference zero: statistic 0, p = 1, n = 0 (scipy raises).
//  - MannWhitneyU with every value of both samples equal: statistic n1 n2 / 2, p = 1 (as
//    scipy, whose p-value is clipped there).

/** @brief What a test found: its statistic, two-sided p-value and how the p-value was had. */
struct TestResult {
  /// t for the t tests; min(R+, R-) for WilcoxonSignedRank; U of sample a for MannWhitneyU.
  double statistic = std::numeric_limits<double>::quiet_NaN();
  /// Two-sided p-value in [0, 1].
  double p_value = std::numeric_limits<double>::quiet_NaN();
  /// Degrees of freedom of the t distribution (fractional for Welch); NaN for the rank tests
  /// and for Welch without any variance.
  double df = std::numeric_limits<double>::quiet_NaN();
  /// Observations used: pairs for PairedTTest, nonzero differences for WilcoxonSignedRank,
  /// n1 + n2 for the two-sample tests.
  std::size_t n = 0;
  /// "t distribution", "t distribution, pooled variance", "t distribution, Welch-Satterthwaite
  /// degrees of freedom", "exact", "normal approximation with tie correction", "normal
  /// approximation with tie and continuity corrections", or a degenerate case: "no variance:
  /// ..." (t tests), "all differences are zero", "all values are equal".
  std::string method;
};

/** @brief Paired t test of mean(d) = 0 (scipy.stats.ttest_rel): t = mean(d) / (s_d / sqrt(n)),
 *  s_d the sample standard deviation (ddof 1), t distribution with n - 1 degrees of freedom.
 *  @param a, b n >= 2 finite values each, pair i = (a[i], b[i]).
 *  @return method "t distribution"; every d[i] equal: "no variance: all differences are
 *  zero" (t 0, p 1) or "no variance: all differences are equal and nonzero" (t +-inf, p 0). */
PERFSHAP_EXPORT TestResult PairedTTest(std::span<const double> a, std::span<const double> b);

/** @brief Student's two-sample t test with a pooled variance (scipy.stats.ttest_ind,
 *  equal_var=True): t = (mean(a) - mean(b)) / sqrt(s_p^2 (1/n1 + 1/n2)), n1 + n2 - 2 degrees
 *  of freedom. @param a, b two independent samples of >= 2 finite values each.
 *  @return method "t distribution, pooled variance"; both samples constant: "no variance:
 *  both samples are constant and equal" (t 0, p 1) or "no variance: both samples are constant
 *  and differ" (t +-inf, p 0). One constant sample is no special case. */
PERFSHAP_EXPORT TestResult StudentTTest(std::span<const double> a, std::span<const double> b);

/** @brief Welch's two-sample t test (scipy.stats.ttest_ind, equal_var=False): t = (mean(a) -
 *  mean(b)) / sqrt(s_a^2/n1 + s_b^2/n2), Welch-Satterthwaite degrees of freedom (fractional).
 *  @param a, b two independent samples of >= 2 finite values each.
 *  @return method "t distribution, Welch-Satterthwaite degrees of freedom"; both samples
 *  constant as StudentTTest, with df NaN. */
PERFSHAP_EXPORT TestResult WelchTTest(std::span<const double> a, std::span<const double> b);

/**
 * @brief Wilcoxon signed-rank test of the differences d = a - b (scipy.stats.wilcoxon(a, b)
 * defaults: zero_method "wilcox", no continuity correction, two-sided).
 *
 * Zero differences are dropped; the n others are ranked by |d| (ties share their mean rank) and
 * the statistic is T = min(R+, R-), the smaller of the rank sums of the positive and negative
 * differences. The p-value is
 *  - "exact" when a has at most 50 pairs, no difference is zero and no two |d| are equal:
 *    p = min(1, 2 min(P(R+ <= r), P(R+ >= r))) under the null distribution of R+ (each sign
 *    +/- with probability 1/2), counted exactly by dynamic programming over rank sums;
 *  - else "normal approximation with tie correction": z = (T - n(n+1)/4) / sigma, sigma^2 =
 *    (n(n+1)(2n+1) - sum_ties t(t^2 - 1) / 2) / 24, p = 2 P(Z > |z|).
 * As scipy 1.10 but for ties among |d| with at most 50 pairs and no zero: scipy 1.10 reads the
 * exact distribution there at the truncated rank sum; this takes the approximation.
 * @param a, b n >= 2 finite values each, pair i = (a[i], b[i]).
 * @return every difference zero: statistic 0, p 1, n 0, method "all differences are zero".
 */
PERFSHAP_EXPORT TestResult WilcoxonSignedRank(std::span<const double> a, std::span<const double> b);

/**
 * @brief Mann-Whitney U test of two independent samples (scipy.stats.mannwhitneyu(a, b)
 * defaults: two-sided, use_continuity=True, method "auto").
 *
 * The pooled sample is ranked (ties share their mean rank); the statistic is U1 = R1 - n1(n1 +
 * 1)/2, R1 the rank sum of a, and U = max(U1, n1 n2 - U1) gives the p-value:
 *  - "exact" when min(n1, n2) <= 8 and no two pooled values are equal (scipy's rule), and
 *    max(n1, n2) <= 100000 (beyond, the approximation; scipy's tables would not fit in memory):
 *    p = min(1, 2 P(U' >= U)) under the null distribution of U', counted exactly (integer
 *    coefficients of the q-binomial coefficient);
 *  - else "normal approximation with tie and continuity corrections": z = (U - n1 n2 / 2 - 1/2)
 *    / sigma, sigma^2 = n1 n2 / 12 ((N + 1) - sum_ties (t^3 - t) / (N (N - 1))), N = n1 + n2,
 *    p = min(1, 2 P(Z > z)).
 * @param a, b two independent samples of >= 2 finite values each.
 * @return every value equal: statistic n1 n2 / 2, p 1, method "all values are equal".
 */
PERFSHAP_EXPORT TestResult MannWhitneyU(std::span<const double> a, std::span<const double> b);

}}  // namespace perfshap
