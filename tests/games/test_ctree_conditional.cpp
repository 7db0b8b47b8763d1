// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The ctree conditional value function (values/ctree_conditional.hpp): the independence test's
// statistic against the permutation distribution enumerated by brute force, every node's split
// of a fitted tree against the plain tests and cut search on the node's rows, the draws, and the
// explanation's efficiency, symmetry and null player, its closeness to the gaussian on normal
// data, and its thread identity.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "games/conditional_game.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/shap.hpp"
#include "support/correlated_rows.hpp"
#include "support/shapley_properties.hpp"
#include "values/ctree_conditional.hpp"

namespace perfshap {
inline namespace v0 {
namespace {

using detail::CtreeBestCut;
using detail::CtreeFeatures;
using detail::CtreeIndependenceTest;
using detail::CtreeSettings;
using detail::CtreeTest;
using detail::CtreeTree;

// n rows of F features, AR(1) normal with correlation rho^|i - j|, mean 0.
std::vector<double> Ar1Rows(std::size_t n, std::size_t F, double rho, std::uint64_t seed) {
  return testing::Ar1Rows(n, F, rho, seed, 9, 0.0);
}

// (T - E T)^T Cov(T)^+ (T - E T) with the mean and covariance of T = sum g_i h_pi(i) taken over
// all n! permutations pi, and the rank of Cov(T).
std::pair<double, Eigen::Index> BruteForceStatistic(const std::vector<double>& g, const Eigen::MatrixXd& h) {
  const std::size_t n = g.size();
  std::vector<std::size_t> pi(n);
  std::iota(pi.begin(), pi.end(), std::size_t{0});
  Eigen::VectorXd t = Eigen::VectorXd::Zero(h.cols());
  for (std::size_t i = 0; i < n; ++i) t += g[i] * h.row(static_cast<Eigen::Index>(i)).transpose();
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(h.cols());
  Eigen::MatrixXd second = Eigen::MatrixXd::Zero(h.cols(), h.cols());
  double count = 0.0;
  do {
    Eigen::VectorXd tp = Eigen::VectorXd::Zero(h.cols());
    for (std::size_t i = 0; i < n; ++i) tp += g[i] * h.row(static_cast<Eigen::Index>(pi[i])).transpose();
    mean += tp;
    second += tp * tp.transpose();
    count += 1.0;
  } while (std::next_permutation(pi.begin(), pi.end()));
  mean /= count;
  const Eigen::MatrixXd cov = second / count - mean * mean.transpose();
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod(cov);
  cod.setThreshold(1e-9);
  const Eigen::VectorXd d = t - mean;
  return {d.dot(cod.pseudoInverse() * d), cod.rank()};
}

Eigen::MatrixXd SmallResponses(bool collinear) {
  Eigen::MatrixXd h(7, 2);
  h << 0.3, 1.0, -1.2, 0.4, 2.0, -0.7, 0.1, 0.9, 1.4, 2.2, -0.5, -1.1, 0.8, 0.0;
  if (collinear) h.col(1) = 2.0 * h.col(0);
  return h;
}

TEST(CtreeConditional, TestStatisticEqualsTheEnumeratedPermutationDistribution) {
  const std::vector<double> x = {0.5, -1.0, 2.5, 0.5, 1.0, 3.0, -0.2};  // with a tie
  for (const bool collinear : {false, true}) {
    const Eigen::MatrixXd h = SmallResponses(collinear);
    const auto [c, rank] = BruteForceStatistic(x, h);
    const CtreeTest test = CtreeIndependenceTest(x, h);
    EXPECT_NEAR(test.statistic, c, 1e-9 * std::max(1.0, c)) << collinear;
    EXPECT_EQ(test.df, static_cast<std::size_t>(rank)) << collinear;
    EXPECT_EQ(test.df, collinear ? 1U : 2U);
    // log P(chi2_df <= c) by the closed forms for 1 and 2 degrees of freedom.
    const double confidence = collinear ? std::erf(std::sqrt(c / 2.0)) : 1.0 - std::exp(-c / 2.0);
    EXPECT_NEAR(test.log_confidence, std::log(confidence), 1e-9);
  }
  const std::vector<double> constant(7, 1.5);
  EXPECT_EQ(CtreeIndependenceTest(constant, SmallResponses(false)).df, 0U);
}

TEST(CtreeConditional, BestCutEqualsTheEnumeratedPermutationStatisticOfEveryCut) {
  const std::vector<double> x = {0.5, -1.0, 2.5, 0.5, 1.0, 3.0, -0.2};
  const Eigen::MatrixXd h = SmallResponses(false);
  for (const std::size_t bucket : {1U, 2U, 3U, 4U}) {
    std::vector<double> values = x;
    std::sort(values.begin(), values.end());
    double best = -1.0, best_cut = 0.0;
    for (const double v : values) {
      std::vector<double> g(x.size());
      std::size_t left = 0;
      for (std::size_t i = 0; i < x.size(); ++i) left += (g[i] = x[i] <= v ? 1.0 : 0.0) != 0.0 ? 1 : 0;
      if (left < bucket || x.size() - left < bucket) continue;
      const double c = BruteForceStatistic(g, h).first;
      if (c > best + 1e-12) {
        best = c;
        best_cut = v;
      }
    }
    const detail::CtreeCut cut = CtreeBestCut(x, h, bucket);
    ASSERT_EQ(cut.found, best >= 0.0) << bucket;
    if (!cut.found) continue;
    EXPECT_EQ(cut.cut, best_cut) << bucket;
    EXPECT_NEAR(cut.statistic, best, 1e-9 * best) << bucket;
  }
}

// Every node of the tree against the plain test and cut of its rows: a node splits exactly when
// one of its first splittry inputs by confidence (then statistic) passes the Sidak-adjusted
// criterion and has a cut, on that input and cut; returns the leaves' rows.
void CheckNode(const CtreeTree& tree, int id, const Eigen::MatrixXd& b, const std::vector<int>& in,
               const std::vector<int>& out, std::vector<Eigen::Index> rows, const CtreeSettings& s,
               std::vector<Eigen::Index>& leaves) {
  const CtreeTree::Node& node = tree.nodes[static_cast<std::size_t>(id)];
  int want = -1;
  double want_cut = 0.0;
  if (rows.size() >= s.minsplit) {
    const Eigen::MatrixXd h = b(rows, out);
    std::vector<CtreeTest> tests;
    for (const int j : in) {
      const Eigen::VectorXd x = b(rows, j);
      tests.push_back(CtreeIndependenceTest({x.data(), static_cast<std::size_t>(x.size())}, h));
    }
    std::vector<std::size_t> by(in.size());
    std::iota(by.begin(), by.end(), std::size_t{0});
    std::stable_sort(by.begin(), by.end(), [&](std::size_t p, std::size_t q) {
      if (tests[p].log_confidence != tests[q].log_confidence)
        return tests[p].log_confidence > tests[q].log_confidence;
      return tests[p].statistic > tests[q].statistic;
    });
    for (std::size_t t = 0; t < std::min(s.splittry, in.size()) && want < 0; ++t) {
      const std::size_t a = by[t];
      if (!(static_cast<double>(in.size()) * tests[a].log_confidence > std::log(s.mincriterion))) break;
      const Eigen::VectorXd x = b(rows, in[a]);
      const detail::CtreeCut cut =
          CtreeBestCut({x.data(), static_cast<std::size_t>(x.size())}, h, s.minbucket);
      if (cut.found) {
        want = in[a];
        want_cut = cut.cut;
      }
    }
  }
  ASSERT_EQ(node.input, want) << "node " << id << " of " << rows.size() << " rows";
  ASSERT_EQ(node.count, rows.size()) << "node " << id;
  if (want < 0) {
    leaves.insert(leaves.end(), rows.begin(), rows.end());
    return;
  }
  EXPECT_EQ(node.cut, want_cut) << "node " << id;
  std::vector<Eigen::Index> left, right;
  for (const Eigen::Index r : rows) (b(r, want) <= want_cut ? left : right).push_back(r);
  EXPECT_GE(left.size(), s.minbucket);
  EXPECT_GE(right.size(), s.minbucket);
  CheckNode(tree, node.left, b, in, out, left, s, leaves);
  CheckNode(tree, node.right, b, in, out, right, s, leaves);
}

TEST(CtreeConditional, EveryNodeSplitsAsThePlainTestsOfItsRowsSay) {
  const std::size_t n = 300, F = 4;
  const std::vector<double> values = Ar1Rows(n, F, 0.8, 21);
  const Eigen::Map<const Eigen::MatrixXd> b(values.data(), static_cast<Eigen::Index>(n),
                                            static_cast<Eigen::Index>(F));
  const CtreeSettings s;
  int splits = 0;
  for (unsigned mask = 1; mask + 1 < (1U << F); ++mask) {
    std::vector<std::uint8_t> inside(F);
    std::vector<int> in, out;
    for (std::size_t j = 0; j < F; ++j) {
      inside[j] = (mask >> j) & 1U;
      (inside[j] != 0 ? in : out).push_back(static_cast<int>(j));
    }
    const CtreeTree tree = detail::FitCtree(b, inside, s);
    std::vector<Eigen::Index> all(n), leaves;
    std::iota(all.begin(), all.end(), Eigen::Index{0});
    CheckNode(tree, 0, b, in, out, all, s, leaves);
    // The leaves hold every row once.
    std::sort(leaves.begin(), leaves.end());
    EXPECT_EQ(leaves, all) << mask;
    for (const CtreeTree::Node& node : tree.nodes) splits += node.input >= 0 ? 1 : 0;
  }
  EXPECT_GT(splits, 14);  // correlated features: every coalition's root splits at least
}

TEST(CtreeConditional, DrawsAreTheLeafsRowsStratified) {
  const std::size_t n = 200, F = 2;
  std::vector<double> values = Ar1Rows(n, F, 0.9, 5);
  const CtreeFeatures c(ColumnMatrix{values, n}, F);
  const std::vector<std::uint8_t> inside = {1, 0};
  const auto tree = c.Tree(inside);
  EXPECT_EQ(tree.get(), c.Tree(inside).get());  // cached
  ASSERT_GT(tree->nodes.size(), 1U);
  const std::size_t draws = 40;
  const std::vector<double> z(draws * F, 0.0);  // u_k = 1/2: draw k at (k + 1/2) / 40 of the leaf
  const auto given = c.Given(inside, z, draws);
  const std::vector<double> x = {1.3, -7.0};
  std::vector<double> out(F * draws);
  given->Draw(x, out);
  const CtreeTree::Node& leaf = tree->Leaf(x);
  for (std::size_t k = 0; k < draws; ++k) {
    EXPECT_EQ(out[k], 1.3);
    const auto i = static_cast<std::size_t>((static_cast<double>(k) + 0.5) / draws * leaf.count);
    EXPECT_EQ(out[draws + k], values[n + tree->rows[leaf.first + i]]) << k;
  }
  // The leaf's rows are those whose feature 0 takes x's path.
  for (std::uint32_t i = 0; i < leaf.count; ++i) {
    const std::vector<double> row = {values[tree->rows[leaf.first + i]], 0.0};
    EXPECT_EQ(&tree->Leaf(row), &leaf);
  }
}

// The conditional game's exact Shapley values with ctree draws.
struct CtreeGame {
  std::size_t F = 3, nb = 400, nx = 3, samples = 200;
  std::vector<double> bg, rows;
  std::unique_ptr<Model> model;
  std::unique_ptr<CtreeFeatures> features;
  std::unique_ptr<detail::ConditionalPredictionGame> game;

  CtreeGame(std::vector<double> background, std::vector<double> explained, std::vector<double> beta,
            CtreeSettings settings = {})
      : bg(std::move(background)), rows(std::move(explained)) {
    model = MakeGlm(Link::kIdentity, beta, false);
    features = std::make_unique<CtreeFeatures>(ColumnMatrix{bg, nb}, F, settings);
    std::vector<Player> players;
    for (std::size_t j = 0; j < F; ++j)
      players.push_back({std::string("x").append(std::to_string(j)), {j}, {}});
    game = std::make_unique<detail::ConditionalPredictionGame>(
        *model, ColumnMatrix{rows, nx}, *features, players, ShapOutputScale::kPrediction, samples, 10, 3);
  }
};

TEST(CtreeConditional, EfficiencySymmetryAndNullPlayerOnDesignedCases) {
  // Features 0 and 1 equal in every row and in the model: interchangeable players.
  std::vector<double> bg = Ar1Rows(400, 3, 0.6, 8), rows = Ar1Rows(3, 3, 0.6, 9);
  std::copy_n(bg.begin(), 400, bg.begin() + 400);
  std::copy_n(rows.begin(), 3, rows.begin() + 3);
  const CtreeGame twins(bg, rows, {0.2, 1.0, 1.0, -0.5});
  const ShapleyValues v = ExactSolver().Solve(*twins.game);
  EXPECT_TRUE(testing::CheckEfficiency(*twins.game, v, 1e-12));
  EXPECT_TRUE(testing::CheckSymmetry(*twins.game, v, 0, 1, 1e-12));
  // Feature 2 constant and unused: a null player when every admissible cut is taken (criterion
  // 0), as then the trees do not depend on a constant input.
  std::vector<double> flat = Ar1Rows(400, 3, 0.6, 10);
  std::fill_n(flat.begin() + 800, 400, 2.0);
  CtreeSettings always;
  always.mincriterion = 0.0;
  // (Exactly so but for the grand coalition's one prediction against the mean of equal draws:
  // checked to rounding.)
  const CtreeGame null(flat, rows, {0.2, 1.0, -1.0, 0.0}, always);
  const ShapleyValues w = ExactSolver().Solve(*null.game);
  EXPECT_TRUE(testing::CheckEfficiency(*null.game, w, 1e-12));
  EXPECT_TRUE(testing::CheckNullPlayer(*null.game, w, 2, 1e-12, 1e-12));
}

TEST(CtreeConditional, ExplainsNearTheGaussianOnNormalDataAtAnyThreadCount) {
  const testing::AgainstGaussian one = testing::ExplainAgainstGaussian(ShapConditional::kCtree, 1);
  EXPECT_EQ(one.other.conditional, ShapConditional::kCtree);
  EXPECT_STREQ(ShapConditionalName(one.other.conditional), "ctree");
  EXPECT_LT(one.relative_error, 0.25);
  EXPECT_LT(one.efficiency_gap, 1e-12);
  const testing::AgainstGaussian two = testing::ExplainAgainstGaussian(ShapConditional::kCtree, 2);
  EXPECT_EQ(two.other.phi, one.other.phi);
  EXPECT_EQ(two.other.phi_se, one.other.phi_se);
}

}  // namespace
}  // namespace v0
}  // namespace perfshap
