// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The two-sample tests (perfshap/blocks/stats.hpp) against scipy 1.10.1: tests/fixtures/stats_scipy.json,
// written by tests/metrics/make_stats_golden.py (the scipy call of each case is in the file).
// The exact null distributions are also checked against a brute-force enumeration, and every
// degenerate case and error against the header's promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/stats.hpp"
#include "support/expect_error.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using StatTest = std::function<TestResult(std::span<const double>, std::span<const double>)>;

const std::map<std::string, StatTest>& Tests() {
  static const std::map<std::string, StatTest> tests = {
      {"PairedTTest", PairedTTest},   {"StudentTTest", StudentTTest},
      {"WelchTTest", WelchTTest},     {"WilcoxonSignedRank", WilcoxonSignedRank},
      {"MannWhitneyU", MannWhitneyU},
  };
  return tests;
}

TEST(StatsGolden, AgreesWithScipy) {
  std::ifstream in(testing::FixturePath("stats_scipy.json"));
  const nlohmann::json golden = nlohmann::json::parse(in);
  EXPECT_EQ(golden.at("scipy").get<std::string>(), "1.10.1");
  const nlohmann::json& cases = golden.at("cases");
  ASSERT_GE(cases.size(), 12u);
  std::map<std::string, int> per_test;
  for (const nlohmann::json& c : cases) {
    const std::string name = c.at("name");
    SCOPED_TRACE(name + ": scipy.stats." + c.at("scipy").get<std::string>());
    const auto a = c.at("a").get<std::vector<double>>();
    const auto b = c.at("b").get<std::vector<double>>();
    const std::string test = c.at("test");
    ASSERT_EQ(Tests().count(test), 1u) << test;
    ++per_test[test];
    const TestResult r = Tests().at(test)(a, b);
    const double statistic = c.at("statistic");
    const double p = c.at("p_value");
    EXPECT_EQ(r.method, c.at("method").get<std::string>());
    EXPECT_NEAR(r.statistic, statistic, 1e-10 * std::fabs(statistic));
    if (r.method == "exact") {
      EXPECT_NEAR(r.p_value, p, 1e-12);
    } else {
      EXPECT_NEAR(r.p_value, p, 1e-10 * p);
    }
    if (c.contains("df")) {
      EXPECT_NEAR(r.df, c.at("df").get<double>(), 1e-10 * c.at("df").get<double>());
    } else {
      EXPECT_TRUE(std::isnan(r.df));
    }
  }
  for (const auto& [test, fn] : Tests()) EXPECT_GE(per_test[test], 2) << test;
}

// ---- exact distributions against enumeration ------------------------------------------------

/// 2 min(P(R+ <= r), P(R+ >= r)) capped at 1, over all 2^n sign patterns of ranks 1..n.
double WilcoxonBruteForce(int n, int r) {
  std::int64_t below = 0;
  std::int64_t above = 0;
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    int sum = 0;
    for (int k = 0; k < n; ++k) sum += (mask >> k & 1u) != 0 ? k + 1 : 0;
    below += sum <= r;
    above += sum >= r;
  }
  return std::min(1.0, 2.0 * static_cast<double>(std::min(below, above)) / std::ldexp(1.0, n));
}

TEST(StatsWilcoxon, ExactDistributionIsTheEnumeration) {
  const int n = 11;
  // Differences +-k for k = 1..n: the ranks are k, R+ the sum of the positive ones.
  for (std::uint32_t mask = 0; mask < (1u << n); mask += 37) {
    std::vector<double> a(n);
    const std::vector<double> b(n, 0.0);
    int r_plus = 0;
    int r_minus = 0;
    for (int k = 0; k < n; ++k) {
      const bool positive = (mask >> k & 1u) != 0;
      a[k] = positive ? 0.1 * (k + 1) : -0.1 * (k + 1);
      (positive ? r_plus : r_minus) += k + 1;
    }
    const TestResult r = WilcoxonSignedRank(a, b);
    ASSERT_EQ(r.method, "exact");
    EXPECT_EQ(r.n, static_cast<std::size_t>(n));
    EXPECT_EQ(r.statistic, std::min(r_plus, r_minus));
    EXPECT_NEAR(r.p_value, WilcoxonBruteForce(n, r_plus), 1e-15) << "mask " << mask;
  }
}

TEST(StatsWilcoxon, ExactUpTo50PairsThenApproximation) {
  std::vector<double> a;
  for (int k = 1; k <= 51; ++k) a.push_back((k % 3 == 0 ? -1.0 : 1.0) * (k + 0.5));
  const std::vector<double> b(51, 0.0);
  const std::span<const double> a50(a.data(), 50);
  const std::span<const double> b50(b.data(), 50);
  EXPECT_EQ(WilcoxonSignedRank(a50, b50).method, "exact");
  EXPECT_EQ(WilcoxonSignedRank(a, b).method, "normal approximation with tie correction");
  const double exact = WilcoxonSignedRank(a50, b50).p_value;
  EXPECT_GT(exact, 0.0);
  EXPECT_LE(exact, 1.0);
  // Every difference positive: the smallest p-value, 2 / 2^50.
  std::vector<double> up(50);
  std::iota(up.begin(), up.end(), 1.0);
  const TestResult extreme = WilcoxonSignedRank(up, std::vector<double>(50, 0.0));
  EXPECT_EQ(extreme.method, "exact");
  EXPECT_EQ(extreme.statistic, 0.0);
  EXPECT_EQ(extreme.p_value, std::ldexp(1.0, -49));
}

/// min(1, 2 P(U' <= k)) for samples of sizes m and n: U' over all C(m + n, m) rank subsets.
double MannWhitneyBruteForce(int m, int n, int k) {
  std::int64_t below = 0;
  std::int64_t total = 0;
  for (std::uint32_t mask = 0; mask < (1u << (m + n)); ++mask) {
    if (std::popcount(mask) != m) continue;
    int rank_sum = 0;
    for (int i = 0; i < m + n; ++i) rank_sum += (mask >> i & 1u) != 0 ? i + 1 : 0;
    below += rank_sum - m * (m + 1) / 2 <= k;
    ++total;
  }
  return std::min(1.0, 2.0 * static_cast<double>(below) / static_cast<double>(total));
}

TEST(StatsMannWhitney, ExactDistributionIsTheEnumeration) {
  for (const auto& [m, n] : {std::pair{4, 9}, std::pair{8, 6}, std::pair{2, 13}, std::pair{7, 8}}) {
    // Sample a takes the ranks whose bit is set in mask.
    for (std::uint32_t mask = 0; mask < (1u << (m + n)); mask += 97) {
      if (std::popcount(mask) != m) continue;
      std::vector<double> a;
      std::vector<double> b;
      for (int i = 0; i < m + n; ++i) ((mask >> i & 1u) != 0 ? a : b).push_back(0.25 * i - 1.0);
      const TestResult r = MannWhitneyU(a, b);
      ASSERT_EQ(r.method, "exact") << m << " " << n;
      const double u1 = r.statistic;
      const auto k = static_cast<int>(std::min(u1, m * n - u1));
      EXPECT_NEAR(r.p_value, MannWhitneyBruteForce(m, n, k), 1e-15) << m << " " << n << " mask " << mask;
      // The other way round: U of b, the same p-value.
      const TestResult swapped = MannWhitneyU(b, a);
      EXPECT_EQ(swapped.statistic, m * n - u1);
      EXPECT_EQ(swapped.p_value, r.p_value);
    }
  }
}

TEST(StatsMannWhitney, ExactWithOneLargeSampleAgreesWithTheApproximation) {
  // 8 values beside 100000 (the largest exact size), then 100001: the approximation.
  std::vector<double> a;
  std::vector<double> b;
  for (int i = 0; i < 8; ++i) a.push_back(1000.0 * i + 0.5 + 40000.0);
  for (int i = 0; i < 100001; ++i) b.push_back(static_cast<double>(i));
  const std::span<const double> b_exact(b.data(), 100000);
  const TestResult exact = MannWhitneyU(a, b_exact);
  const TestResult approx = MannWhitneyU(a, b);
  EXPECT_EQ(exact.method, "exact");
  EXPECT_EQ(approx.method, "normal approximation with tie and continuity corrections");
  EXPECT_GT(exact.p_value, 0.0);
  EXPECT_NEAR(exact.p_value, approx.p_value, 0.01);
}

// ---- degenerate input -----------------------------------------------------------------------

TEST(StatsDegenerate, TTestsWithoutVariance) {
  const std::vector<double> a = {1, 2, 3, 4, 5};
  const std::vector<double> shifted = {-1, 0, 1, 2, 3};  // a - 2, exactly
  TestResult r = PairedTTest(a, a);
  EXPECT_EQ(r.statistic, 0.0);
  EXPECT_EQ(r.p_value, 1.0);
  EXPECT_EQ(r.df, 4.0);
  EXPECT_EQ(r.n, 5u);
  EXPECT_EQ(r.method, "no variance: all differences are zero");
  r = PairedTTest(a, shifted);
  EXPECT_EQ(r.statistic, std::numeric_limits<double>::infinity());
  EXPECT_EQ(r.p_value, 0.0);
  EXPECT_EQ(r.method, "no variance: all differences are equal and nonzero");
  r = PairedTTest(shifted, a);
  EXPECT_EQ(r.statistic, -std::numeric_limits<double>::infinity());

  const std::vector<double> ones = {1, 1, 1};
  const std::vector<double> twos = {2, 2, 2, 2};
  for (const StatTest& test : {StatTest(StudentTTest), StatTest(WelchTTest)}) {
    r = test(ones, std::vector<double>{1, 1});
    EXPECT_EQ(r.statistic, 0.0);
    EXPECT_EQ(r.p_value, 1.0);
    EXPECT_EQ(r.n, 5u);
    EXPECT_EQ(r.method, "no variance: both samples are constant and equal");
    r = test(ones, twos);
    EXPECT_EQ(r.statistic, -std::numeric_limits<double>::infinity());
    EXPECT_EQ(r.p_value, 0.0);
    EXPECT_EQ(r.method, "no variance: both samples are constant and differ");
    // Identical samples with a variance: the ordinary formula, t = 0 and p = 1.
    r = test(a, a);
    EXPECT_EQ(r.statistic, 0.0);
    EXPECT_EQ(r.p_value, 1.0);
    EXPECT_EQ(r.method.rfind("t distribution", 0), 0u) << r.method;
  }
  EXPECT_EQ(StudentTTest(ones, twos).df, 5.0);
  EXPECT_TRUE(std::isnan(WelchTTest(ones, twos).df));
}

TEST(StatsDegenerate, RankTestsOnEqualValues) {
  const std::vector<double> a = {0.3, 0.1, 0.7, 0.2};
  TestResult r = WilcoxonSignedRank(a, a);
  EXPECT_EQ(r.statistic, 0.0);
  EXPECT_EQ(r.p_value, 1.0);
  EXPECT_EQ(r.n, 0u);
  EXPECT_EQ(r.method, "all differences are zero");
  EXPECT_TRUE(std::isnan(r.df));
  r = MannWhitneyU(std::vector<double>{2, 2, 2}, std::vector<double>{2, 2});
  EXPECT_EQ(r.statistic, 3.0);
  EXPECT_EQ(r.p_value, 1.0);
  EXPECT_EQ(r.n, 5u);
  EXPECT_EQ(r.method, "all values are equal");
  // Identical samples (each value twice): ties, U = n^2 / 2, p = 1.
  r = MannWhitneyU(a, a);
  EXPECT_EQ(r.statistic, 8.0);
  EXPECT_EQ(r.p_value, 1.0);
  EXPECT_EQ(r.method, "normal approximation with tie and continuity corrections");
}

TEST(StatsDegenerate, PValuesStayInTheUnitInterval) {
  // The centre of the exact distributions: 2 P(...) above 1, capped.
  EXPECT_EQ(WilcoxonSignedRank(std::vector<double>{1, -2, -3, 4}, std::vector<double>(4, 0.0)).p_value, 1.0);
  EXPECT_EQ(MannWhitneyU(std::vector<double>{1, 4}, std::vector<double>{2, 3}).p_value, 1.0);
  const TestResult far = PairedTTest(std::vector<double>{100, 101, 102, 103}, std::vector<double>{0, 0.5, 1, 1});
  EXPECT_GE(far.p_value, 0.0);
  EXPECT_LT(far.p_value, 1e-4);
}

// ---- errors ---------------------------------------------------------------------------------

TEST(StatsErrors, RejectShortSamplesMismatchedPairsAndNonFiniteValues) {
  using testing::ExpectError;
  const std::vector<double> one = {1.0};
  const std::vector<double> three = {1.0, 2.0, 3.0};
  const std::vector<double> four = {1.0, 2.0, 3.0, 5.0};
  for (const auto& [name, test] : Tests()) {
    ExpectError<InvalidArgument>([&] { test(one, three); }, {name, "sample a has 1 value", "at least 2"});
    ExpectError<InvalidArgument>([&] { test(three, std::vector<double>{}); }, {name, "sample b has 0 values"});
    std::vector<double> bad = four;
    bad[2] = std::nan("");
    ExpectError<InvalidArgument>([&] { test(four, bad); }, {name, "b[2] is not finite"});
    bad[2] = -std::numeric_limits<double>::infinity();
    ExpectError<InvalidArgument>([&] { test(bad, four); }, {name, "a[2] is not finite"});
  }
  for (const char* name : {"PairedTTest", "WilcoxonSignedRank"}) {
    ExpectError<InvalidArgument>([&] { Tests().at(name)(three, four); },
                                 {name, "a has 3 values and b has 4", "paired"});
    const std::vector<double> big = {1e308, -1e308, 0.0};
    const std::vector<double> neg = {-1e308, 1e308, 0.0};
    ExpectError<InvalidArgument>([&] { Tests().at(name)(big, neg); }, {name, "a[0] - b[0] overflows"});
  }
  // The two-sample tests take samples of different sizes.
  EXPECT_NO_THROW(StudentTTest(three, four));
  EXPECT_NO_THROW(WelchTTest(three, four));
  EXPECT_NO_THROW(MannWhitneyU(three, four));
}

TEST(StatsSymmetry, SwappingTheSamplesFlipsTheStatisticOnly) {
  const std::vector<double> a = {0.61, 0.52, 0.70, 0.44, 0.58, 0.66, 0.49};
  const std::vector<double> b = {0.55, 0.50, 0.61, 0.47, 0.52, 0.57, 0.41};
  for (const StatTest& test : {StatTest(PairedTTest), StatTest(StudentTTest), StatTest(WelchTTest)}) {
    const TestResult ab = test(a, b);
    const TestResult ba = test(b, a);
    EXPECT_EQ(ab.statistic, -ba.statistic);
    EXPECT_EQ(ab.p_value, ba.p_value);
    EXPECT_EQ(ab.df, ba.df);
  }
  EXPECT_EQ(WilcoxonSignedRank(a, b).statistic, WilcoxonSignedRank(b, a).statistic);
  EXPECT_EQ(WilcoxonSignedRank(a, b).p_value, WilcoxonSignedRank(b, a).p_value);
}

}  // namespace
}}  // namespace perfshap
