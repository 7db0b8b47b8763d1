// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The XPER Monte Carlo experiment: bitwise the same for 1 and 2 threads, each sample equal to
// a hand-made run of its seed, efficiency in every sample, and the summary statistics
// against numpy.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "perfshap/error.hpp"
#include "xper_montecarlo/xper_montecarlo.hpp"

namespace perfshap { inline namespace v0 {
namespace {

XperMonteCarloOptions Small(int threads, XperComparator comparator = XperComparator::kFull) {
  XperMonteCarloOptions o;
  o.samples = 9;
  o.rows = 200;
  o.train_rows = 140;
  o.seed = 5;
  o.comparator = comparator;
  o.execution.threads = threads;
  return o;
}

TEST(XperMonteCarlo, BitwiseIdenticalForOneAndTwoThreads) {
  for (auto comparator : {XperComparator::kFull, XperComparator::kPermuted}) {
    const auto a = RunXperMonteCarlo(Small(1, comparator));
    const auto b = RunXperMonteCarlo(Small(2, comparator));
    EXPECT_EQ(a.sample_seeds, b.sample_seeds);
    EXPECT_EQ(a.coefficients, b.coefficients);
    EXPECT_EQ(a.auc, b.auc);
    EXPECT_EQ(a.base, b.base);
    EXPECT_EQ(a.phi, b.phi);
  }
}

TEST(XperMonteCarlo, EachSampleIsItsSeedsProbitAndDecomposition) {
  const auto r = RunXperMonteCarlo(Small(2));
  ASSERT_EQ(r.features, (std::vector<std::string>{"x1", "x2", "x3"}));
  for (std::size_t k : {0u, 4u, 8u}) {
    ASSERT_EQ(r.sample_seeds[k], XperMonteCarloSampleSeed(5, k));
    ProbitDesign design;
    design.n_rows = 200;
    design.seed = r.sample_seeds[k];
    const Dataset all = GenerateProbitDesign(design);
    std::vector<std::size_t> rows(140), cols{0, 1, 2};
    std::iota(rows.begin(), rows.end(), std::size_t{0});
    const auto model = Train("probit", all, rows, cols);
    std::vector<std::vector<double>> test_cols;
    for (std::size_t j = 0; j < 3; ++j) test_cols.emplace_back(all.column(j).begin() + 140, all.column(j).end());
    const Dataset test(all.feature_names(), test_cols, std::vector<double>(all.label().begin() + 140, all.label().end()));
    XperOptions o;
    o.comparator = XperComparator::kFull;
    o.execution.threads = 1;
    const XperResult x = ExplainXper(*model, test, o);
    EXPECT_EQ(r.auc[k], x.value);
    EXPECT_EQ(r.base[k], x.base);
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(r.phi[k * 3 + j], x.phi[j]);
    // Coefficients: the probit's prediction at x = 0 is Phi(const).
    const std::vector<double> zero(3, 0.0);
    double p0 = 0;
    model->Predict(zero, 1, std::span<double>(&p0, 1));
    EXPECT_NEAR(ApplyLink(Link::kProbit, r.coefficients[k * 4]), p0, 1e-15);
  }
  // Efficiency in every sample: AUC = phi_0 + sum phi.
  for (std::size_t k = 0; k < r.samples; ++k)
    EXPECT_NEAR(r.base[k] + r.phi[3 * k] + r.phi[3 * k + 1] + r.phi[3 * k + 2], r.auc[k], 1e-12);
  // Different samples differ.
  EXPECT_NE(r.auc[0], r.auc[1]);
}

TEST(XperMonteCarlo, SummaryMatchesNumpy) {
  // /usr/bin/python3: v = [3,1,4,1,5,9,2,6,5,3,5]
  //   np.quantile(v, [.05,.25,.5,.75,.95]) -> [1.0, 2.5, 4.0, 5.0, 7.5]
  //   np.std(v, ddof=1) -> 2.3664319132398464, np.mean(v) -> 4.0
  const std::vector<double> v{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
  const DistributionSummary s = Summarize(v);
  EXPECT_DOUBLE_EQ(s.mean, 4.0);
  EXPECT_NEAR(s.std, 2.3664319132398464, 1e-15);
  EXPECT_DOUBLE_EQ(s.q05, 1.0);
  EXPECT_DOUBLE_EQ(s.q25, 2.5);
  EXPECT_DOUBLE_EQ(s.q50, 4.0);
  EXPECT_DOUBLE_EQ(s.q75, 5.0);
  EXPECT_DOUBLE_EQ(s.q95, 7.5);
  EXPECT_EQ(s.min, 1.0);
  EXPECT_EQ(s.max, 9.0);
  EXPECT_THROW(Summarize(std::vector<double>{}), InvalidArgument);
}

TEST(XperMonteCarlo, BadSizesAreClearErrors) {
  auto o = Small(1);
  o.train_rows = 199;
  EXPECT_THROW(RunXperMonteCarlo(o), InvalidArgument);
  o = Small(1);
  o.samples = 0;
  EXPECT_THROW(RunXperMonteCarlo(o), InvalidArgument);
}

}  // namespace
}}  // namespace perfshap
