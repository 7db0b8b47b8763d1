// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "perfshap/chains.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "support/expect_error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

TEST(ShapleyChains, IndirectContributionsFollowEquations4To6ByHand) {
  // Two features, three links: link 1 over (x1, x2), link 2 over (x1, x2, y1), link 3 over
  // (x1, x2, y1, y2).
  const std::vector<std::vector<double>> direct = {{0.3, -0.1}, {0.2, 0.1, -0.4}, {-0.05, 0.05, 0.3, -0.2}};
  for (const bool signed_w : {false, true}) {
    SCOPED_TRACE(signed_w ? "signed" : "absolute");
    auto num = [&](double v) { return signed_w ? v : std::fabs(v); };
    // eq. 6: W(y_k, .) = (|)Phi(|) / sum |Phi| over the link's inputs.
    const double d1 = 0.3 + 0.1;
    const double d2 = 0.2 + 0.1 + 0.4;
    const double w1_x1 = num(0.3) / d1, w1_x2 = num(-0.1) / d1;
    const double w2_x1 = num(0.2) / d2, w2_x2 = num(0.1) / d2, w2_y1 = num(-0.4) / d2;
    // eq. 5: Z_1 = W(y_1, x); Z_2 = W(y_2, y_1) Z_1 + W(y_2, x).
    const double z1_x1 = w1_x1, z1_x2 = w1_x2;
    const double z2_x1 = w2_y1 * z1_x1 + w2_x1, z2_x2 = w2_y1 * z1_x2 + w2_x2;
    // eq. 4: indirect y_2 = Phi y_2(y_1) Z_1; indirect y_3 = Phi y_3(y_1) Z_1 + Phi y_3(y_2) Z_2.
    const std::vector<std::vector<double>> want = {
        {0.0, 0.0}, {-0.4 * z1_x1, -0.4 * z1_x2}, {0.3 * z1_x1 - 0.2 * z2_x1, 0.3 * z1_x2 - 0.2 * z2_x2}};
    const auto got = IndirectContributions(direct, 2, signed_w);
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t i = 0; i < 2; ++i) EXPECT_NEAR(got[j][i], want[j][i], 1e-15) << j << " " << i;
  }
}

MultiOutputData Logic(std::size_t n) {
  const LogicChainData d = GenerateLogicChainData(n, 3);
  MultiOutputData m;
  m.features = d.data;
  m.output_names = d.output_names;
  m.outputs = d.outputs;
  return m;
}

std::size_t Index(const MultiOutputData& m, const std::string& name) {
  return static_cast<std::size_t>(std::find(m.output_names.begin(), m.output_names.end(), name) - m.output_names.begin());
}

double MeanAbs(const std::vector<double>& v, std::size_t stride, std::size_t i) {
  double s = 0.0;
  for (std::size_t r = 0; r * stride < v.size(); ++r) s += std::fabs(v[r * stride + i]);
  return s / static_cast<double>(v.size() / stride);
}

TEST(ShapleyChains, XorRunsThroughAndAndOr) {
  const MultiOutputData m = Logic(400);
  std::vector<std::size_t> rows(300);
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::vector<std::size_t> test(100);
  std::iota(test.begin(), test.end(), std::size_t{300});
  const auto logistic = MakeLearner("logistic");
  ChainOptions o;
  o.background = 100;
  const std::size_t a = Index(m, "and"), b = Index(m, "or"), x = Index(m, "xor");
  // Order [and, or, xor]: xor's direct contributions of x1, x2 are small next to their indirect ones.
  const ChainOrderExplanation e = ExplainChain(*logistic, m, {a, b, x}, rows, test, o);
  ASSERT_EQ(e.outputs.back(), "xor");
  for (std::size_t i = 0; i < 2; ++i) {
    const double direct = MeanAbs(e.direct[2], 4, i);
    const double indirect = MeanAbs(e.indirect[2], 2, i);
    EXPECT_LT(direct, 0.25 * indirect) << "feature " << i << ": direct " << direct << " indirect " << indirect;
  }
  EXPECT_GT(e.accuracy[2], 0.95);
  // Orders with xor first: no feature explains xor beyond noise (a linear link cannot).
  for (const auto& order : AllChainOrders(3)) {
    if (order.front() != x) continue;
    const ChainOrderExplanation f = ExplainChain(*logistic, m, order, rows, test, o);
    for (std::size_t i = 0; i < 2; ++i) EXPECT_LT(MeanAbs(f.direct[0], 2, i), 0.05);
  }
}

TEST(ShapleyChains, DirectContributionsAddUpToEachLinksOutput) {
  const MultiOutputData m = Logic(200);
  std::vector<std::size_t> rows(150);
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::vector<std::size_t> test = {150, 151, 170, 199};
  const auto logistic = MakeLearner("logistic");
  const std::vector<std::size_t> order = {1, 0, 2};
  const ChainOrderExplanation e = ExplainChain(*logistic, m, order, rows, test, {});
  const ClassifierChain chain = ClassifierChain::Fit(*logistic, m, order, rows);
  std::vector<double> x(2 * test.size());
  for (std::size_t j = 0; j < 2; ++j)
    for (std::size_t r = 0; r < test.size(); ++r) x[j * test.size() + r] = m.features.column(j)[test[r]];
  std::vector<std::vector<double>> p, l;
  chain.Predict({x, test.size()}, p, l);
  for (std::size_t j = 0; j < 3; ++j)
    for (std::size_t r = 0; r < test.size(); ++r) {
      double sum = e.base[j];
      for (std::size_t i = 0; i < 2 + j; ++i) sum += e.direct[j][r * (2 + j) + i];
      EXPECT_NEAR(sum, p[j][r], 1e-9) << "link " << j << " row " << r;
    }
}

TEST(ShapleyChains, RefusesBadOutputsAndOrders) {
  MultiOutputData m = Logic(50);
  std::vector<std::size_t> rows(50);
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  const auto logistic = MakeLearner("logistic");
  testing::ExpectError<InvalidArgument>([&] { ClassifierChain::Fit(*logistic, m, {0, 0, 1}, rows); }, {"order"}, "order");
  testing::ExpectError<InvalidArgument>([&] { AllChainOrders(8); }, {"8 outputs"}, "orders");
  m.outputs[1][3] = 0.5;
  testing::ExpectError<DataError>([&] { ClassifierChain::Fit(*logistic, m, {0, 1, 2}, rows); }, {"not binary"}, "outputs");
}

}  // namespace
}}  // namespace perfshap
