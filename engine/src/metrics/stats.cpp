// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Two-sided tests of two samples (perfshap/blocks/stats.hpp), numbered as scipy 1.10.1 does: the same
// formulas in the same order, the t and normal tails from Boost.Math, the exact null
// distributions of the rank tests counted in integers.
#include "perfshap/blocks/stats.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "common/compensated_sum.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using detail::CompensatedSum;

__extension__ using Uint128 = unsigned __int128;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

constexpr const char* kExact = "exact";
constexpr const char* kWilcoxonApprox = "normal approximation with tie correction";
constexpr const char* kMannWhitneyApprox = "normal approximation with tie and continuity corrections";

// The exact distributions are used up to these sizes (scipy's rules, bounded so the counts fit
// their integers and the tables stay small).
constexpr std::size_t kWilcoxonExactMax = 50;         // pairs; 2^50 sign patterns fit 64 bits
constexpr std::size_t kMannWhitneySmallMax = 8;       // the smaller sample
constexpr std::size_t kMannWhitneyLargeMax = 100000;  // the larger one: C(N, 8) < 2^128

void CheckSample(const char* test, const char* name, std::span<const double> x) {
  if (x.size() < 2) {
    throw InvalidArgument(std::string(test) + ": sample " + name + " has " + std::to_string(x.size()) +
                          (x.size() == 1 ? " value" : " values") + "; the test needs at least 2");
  }
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i])) {
      throw InvalidArgument(std::string(test) + ": " + name + "[" + std::to_string(i) +
                            "] is not finite; the test needs finite values");
    }
  }
}

void CheckPaired(const char* test, std::span<const double> a, std::span<const double> b) {
  CheckSample(test, "a", a);
  CheckSample(test, "b", b);
  if (a.size() != b.size()) {
    throw InvalidArgument(std::string(test) + ": a has " + std::to_string(a.size()) + " values and b has " +
                          std::to_string(b.size()) + "; a paired test needs one b value per a value");
  }
}

/// d[i] = a[i] - b[i], each finite (two huge values of opposite signs could overflow).
std::vector<double> Differences(const char* test, std::span<const double> a, std::span<const double> b) {
  std::vector<double> d(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    d[i] = a[i] - b[i];
    if (!std::isfinite(d[i])) {
      throw InvalidArgument(std::string(test) + ": the difference a[" + std::to_string(i) + "] - b[" +
                            std::to_string(i) + "] overflows");
    }
  }
  return d;
}

bool Constant(std::span<const double> x) {
  return std::all_of(x.begin(), x.end(), [&](double v) { return v == x[0]; });
}

double Mean(std::span<const double> x) {
  CompensatedSum s;
  for (const double v : x) s.Add(v);
  return s.Value() / static_cast<double>(x.size());
}

/// Sample variance (ddof 1) about `mean`, two-pass.
double Variance(std::span<const double> x, double mean) {
  CompensatedSum s;
  for (const double v : x) s.Add((v - mean) * (v - mean));
  return s.Value() / static_cast<double>(x.size() - 1);
}

/// 2 P(T > |t|), T of Student's t distribution with df degrees of freedom.
double TwoSidedT(double t, double df) {
  const boost::math::students_t_distribution<double> dist(df);
  return std::min(1.0, 2.0 * boost::math::cdf(boost::math::complement(dist, std::fabs(t))));
}

/// P(Z > z), Z standard normal.
double NormalSf(double z) {
  if (z == kInf) return 0.0;
  if (z == -kInf) return 1.0;
  return boost::math::cdf(boost::math::complement(boost::math::normal_distribution<double>(), z));
}

/// A t test without any variance: `diff` is the difference of the means (or the constant
/// difference). No difference: t 0, p 1; else the limit t = +-inf, p = 0.
TestResult NoVariance(double diff, double df, std::size_t n, const char* same, const char* differ) {
  TestResult r;
  r.df = df;
  r.n = n;
  if (diff == 0.0) {
    r.statistic = 0.0;
    r.p_value = 1.0;
    r.method = same;
  } else {
    r.statistic = std::copysign(kInf, diff);
    r.p_value = 0.0;
    r.method = differ;
  }
  return r;
}

TestResult TResult(double t, double df, std::size_t n, const char* method) {
  TestResult r;
  r.statistic = t;
  r.df = df;
  r.p_value = TwoSidedT(t, df);
  r.n = n;
  r.method = method;
  return r;
}

/// Ranks 1..n of x, ties sharing their mean rank (scipy.stats.rankdata "average"); `tie_sizes`
/// receives the size of every group of two or more equal values.
std::vector<double> AverageRanks(std::span<const double> x, std::vector<std::size_t>& tie_sizes) {
  std::vector<std::size_t> order(x.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return x[i] < x[j]; });
  std::vector<double> ranks(x.size());
  tie_sizes.clear();
  for (std::size_t begin = 0; begin < order.size();) {
    std::size_t end = begin + 1;
    while (end < order.size() && x[order[end]] == x[order[begin]]) ++end;
    // Ranks begin + 1 .. end share their mean (begin + 1 + end) / 2, a multiple of 1/2.
    const double rank = 0.5 * static_cast<double>(begin + 1 + end);
    for (std::size_t k = begin; k < end; ++k) ranks[order[k]] = rank;
    if (end - begin > 1) tie_sizes.push_back(end - begin);
    begin = end;
  }
  return ranks;
}

/// 2 min(P(R+ <= r), P(R+ >= r)), capped at 1, R+ the sum of a random subset of {1..n} (every
/// subset equally likely): counts of the subsets of each sum s by dynamic programming, exact in
/// 64 bits for n <= 50 (2^50 subsets), and the ratio to 2^n exact in a double.
double WilcoxonExactP(std::size_t n, std::size_t r) {
  const std::size_t top = n * (n + 1) / 2;
  std::vector<std::uint64_t> count(top + 1, 0);
  count[0] = 1;
  for (std::size_t k = 1; k <= n; ++k) {
    // Subsets of {1..k}: those of {1..k-1}, and those with k added (sums from the top down so
    // each subset takes k once).
    for (std::size_t s = k * (k + 1) / 2; s >= k; --s) count[s] += count[s - k];
  }
  std::uint64_t below = 0;  // P(R+ <= r) 2^n
  std::uint64_t above = 0;  // P(R+ >= r) 2^n
  for (std::size_t s = 0; s <= top; ++s) {
    if (s <= r) below += count[s];
    if (s >= r) above += count[s];
  }
  const std::uint64_t tail = 2 * std::min(below, above);
  return std::min(1.0, std::ldexp(static_cast<double>(tail), -static_cast<int>(n)));
}

/// C(n_total, m) when it and every partial product of its computation fit 128 bits, else 0.
Uint128 Binomial128(std::size_t n_total, std::size_t m) {
  Uint128 c = 1;
  const Uint128 max = ~Uint128{0};
  for (std::size_t i = 1; i <= m; ++i) {
    const auto factor = static_cast<Uint128>(n_total - m + i);
    if (c > max / factor) return 0;
    c = c * factor / i;  // C(n_total - m + i, i), exact
  }
  return c;
}

/// min(1, 2 P(U' <= k)), U' the Mann-Whitney statistic of samples of sizes m and n under the
/// null (every arrangement of the pooled ranks equally likely), `total` = C(m + n, m). The
/// counts of U' = j are the coefficients of the q-binomial coefficient prod_{i=1..m} (1 -
/// q^(n+i)) / (1 - q^i), formed in arithmetic modulo 2^128: every coefficient and their sum
/// lie below C(m + n, m) < 2^128, so the modular results are the exact counts.
double MannWhitneyExactP(std::size_t m, std::size_t n, std::size_t k, Uint128 total) {
  std::vector<Uint128> c(k + 1, 0);
  c[0] = 1;
  for (std::size_t i = 1; i <= m; ++i) {
    // Times (1 - q^(n+i)), high degrees first; then divided by (1 - q^i), low degrees first.
    for (std::size_t j = k; j >= n + i; --j) c[j] -= c[j - (n + i)];
    for (std::size_t j = i; j <= k; ++j) c[j] += c[j - i];
  }
  Uint128 below = 0;
  for (const Uint128 v : c) below += v;
  const double cdf = static_cast<double>(below) / static_cast<double>(total);
  return std::min(1.0, 2.0 * cdf);
}

}  // namespace

TestResult PairedTTest(std::span<const double> a, std::span<const double> b) {
  constexpr const char* kTest = "PairedTTest";
  CheckPaired(kTest, a, b);
  const std::vector<double> d = Differences(kTest, a, b);
  const std::size_t n = d.size();
  const double df = static_cast<double>(n - 1);
  if (Constant(d)) {
    return NoVariance(d[0], df, n, "no variance: all differences are zero",
                      "no variance: all differences are equal and nonzero");
  }
  const double mean = Mean(d);
  const double denom = std::sqrt(Variance(d, mean) / static_cast<double>(n));
  if (!(denom > 0)) {  // deviations below the square root of the smallest double
    return NoVariance(mean, df, n, "no variance: all differences are zero",
                      "no variance: all differences are equal and nonzero");
  }
  return TResult(mean / denom, df, n, "t distribution");
}

TestResult StudentTTest(std::span<const double> a, std::span<const double> b) {
  constexpr const char* kTest = "StudentTTest";
  CheckSample(kTest, "a", a);
  CheckSample(kTest, "b", b);
  const auto n1 = static_cast<double>(a.size());
  const auto n2 = static_cast<double>(b.size());
  const double df = n1 + n2 - 2.0;
  const std::size_t n = a.size() + b.size();
  constexpr const char* kSame = "no variance: both samples are constant and equal";
  constexpr const char* kDiffer = "no variance: both samples are constant and differ";
  if (Constant(a) && Constant(b)) return NoVariance(a[0] - b[0], df, n, kSame, kDiffer);
  const double m1 = Mean(a);
  const double m2 = Mean(b);
  const double svar = ((n1 - 1) * Variance(a, m1) + (n2 - 1) * Variance(b, m2)) / df;
  const double denom = std::sqrt(svar * (1.0 / n1 + 1.0 / n2));
  if (!(denom > 0)) return NoVariance(m1 - m2, df, n, kSame, kDiffer);
  return TResult((m1 - m2) / denom, df, n, "t distribution, pooled variance");
}

TestResult WelchTTest(std::span<const double> a, std::span<const double> b) {
  constexpr const char* kTest = "WelchTTest";
  CheckSample(kTest, "a", a);
  CheckSample(kTest, "b", b);
  const auto n1 = static_cast<double>(a.size());
  const auto n2 = static_cast<double>(b.size());
  const std::size_t n = a.size() + b.size();
  constexpr const char* kSame = "no variance: both samples are constant and equal";
  constexpr const char* kDiffer = "no variance: both samples are constant and differ";
  if (Constant(a) && Constant(b)) return NoVariance(a[0] - b[0], kNaN, n, kSame, kDiffer);
  const double m1 = Mean(a);
  const double m2 = Mean(b);
  const double vn1 = Variance(a, m1) / n1;
  const double vn2 = Variance(b, m2) / n2;
  const double s = vn1 + vn2;
  if (!(s > 0)) return NoVariance(m1 - m2, kNaN, n, kSame, kDiffer);
  // Welch-Satterthwaite, (vn1 + vn2)^2 / (vn1^2 / (n1 - 1) + vn2^2 / (n2 - 1)), with the shares
  // of s so that no square under- or overflows.
  const double r1 = vn1 / s;
  const double r2 = vn2 / s;
  const double df = 1.0 / (r1 * r1 / (n1 - 1) + r2 * r2 / (n2 - 1));
  return TResult((m1 - m2) / std::sqrt(s), df, n, "t distribution, Welch-Satterthwaite degrees of freedom");
}

TestResult WilcoxonSignedRank(std::span<const double> a, std::span<const double> b) {
  constexpr const char* kTest = "WilcoxonSignedRank";
  CheckPaired(kTest, a, b);
  const std::vector<double> d_all = Differences(kTest, a, b);
  std::vector<double> d;
  for (const double v : d_all) {
    if (v != 0.0) d.push_back(v);
  }
  TestResult r;
  r.n = d.size();
  if (d.empty()) {
    r.statistic = 0.0;
    r.p_value = 1.0;
    r.method = "all differences are zero";
    return r;
  }
  std::vector<double> magnitude(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) magnitude[i] = std::fabs(d[i]);
  std::vector<std::size_t> ties;
  const std::vector<double> rank = AverageRanks(magnitude, ties);
  double r_plus = 0;  // sums of multiples of 1/2 below 2^52: exact
  double r_minus = 0;
  for (std::size_t i = 0; i < d.size(); ++i) (d[i] > 0 ? r_plus : r_minus) += rank[i];
  r.statistic = std::min(r_plus, r_minus);
  const std::size_t n = d.size();
  const bool no_zero = d.size() == d_all.size();
  if (d_all.size() <= kWilcoxonExactMax && no_zero && ties.empty()) {
    r.p_value = WilcoxonExactP(n, static_cast<std::size_t>(r_plus));
    r.method = kExact;
    return r;
  }
  const auto nd = static_cast<double>(n);
  const double mean = nd * (nd + 1.0) * 0.25;
  double var24 = nd * (nd + 1.0) * (2.0 * nd + 1.0);
  double tie_term = 0;
  for (const std::size_t t : ties) {
    const auto td = static_cast<double>(t);
    tie_term += td * (td * td - 1.0);
  }
  var24 -= 0.5 * tie_term;
  const double z = (r.statistic - mean) / std::sqrt(var24 / 24.0);
  r.p_value = std::min(1.0, 2.0 * NormalSf(std::fabs(z)));
  r.method = kWilcoxonApprox;
  return r;
}

TestResult MannWhitneyU(std::span<const double> a, std::span<const double> b) {
  constexpr const char* kTest = "MannWhitneyU";
  CheckSample(kTest, "a", a);
  CheckSample(kTest, "b", b);
  const std::size_t n1 = a.size();
  const std::size_t n2 = b.size();
  const std::size_t total = n1 + n2;
  std::vector<double> pooled(a.begin(), a.end());
  pooled.insert(pooled.end(), b.begin(), b.end());
  std::vector<std::size_t> ties;
  const std::vector<double> rank = AverageRanks(pooled, ties);
  double r1 = 0;  // multiples of 1/2 below 2^52: exact
  for (std::size_t i = 0; i < n1; ++i) r1 += rank[i];
  const auto n1d = static_cast<double>(n1);
  const auto n2d = static_cast<double>(n2);
  const double u1 = r1 - n1d * (n1d + 1.0) / 2.0;
  const double u = std::max(u1, n1d * n2d - u1);

  TestResult r;
  r.statistic = u1;
  r.n = total;
  if (ties.size() == 1 && ties[0] == total) {
    r.p_value = 1.0;
    r.method = "all values are equal";
    return r;
  }
  const std::size_t small = std::min(n1, n2);
  const std::size_t large = std::max(n1, n2);
  if (small <= kMannWhitneySmallMax && large <= kMannWhitneyLargeMax && ties.empty()) {
    const Uint128 count = Binomial128(total, small);
    PERFSHAP_DCHECK(count != 0);
    // P(U' >= u) = P(U' <= n1 n2 - u) by symmetry; u >= n1 n2 / 2, so the lower tail is short.
    const auto k = static_cast<std::size_t>(n1d * n2d - u);
    r.p_value = MannWhitneyExactP(small, large, k, count);
    r.method = kExact;
    return r;
  }
  const auto nd = static_cast<double>(total);
  double tie_term = 0;
  for (const std::size_t t : ties) {
    const auto td = static_cast<double>(t);
    tie_term += td * td * td - td;
  }
  const double sigma = std::sqrt(n1d * n2d / 12.0 * ((nd + 1.0) - tie_term / (nd * (nd - 1.0))));
  const double z = (u - n1d * n2d / 2.0 - 0.5) / sigma;
  r.p_value = std::clamp(2.0 * NormalSf(z), 0.0, 1.0);
  r.method = kMannWhitneyApprox;
  return r;
}

}}  // namespace perfshap
