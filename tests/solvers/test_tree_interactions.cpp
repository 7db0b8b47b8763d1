// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "perfshap/blocks/interactions.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/error.hpp"
#include "perfshap/treeshap.hpp"
#include "solvers/path_interactions.hpp"
#include "solvers/tree_paths.hpp"
#include "support/expect_error.hpp"
#include "support/tree_reference.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::InterventionalGame;
using testing::PathDependentGame;
using testing::RandomEnsemble;
using testing::RandomRows;
using testing::RandomTreeSpec;
using testing::RowOf;

TEST(GaussLegendre, IntegratesPolynomialsUpToDegreeTwiceTheNodesMinusOne) {
  for (int n = 1; n <= detail::kMaxQuadratureNodes; ++n) {
    const detail::QuadratureRule rule = detail::GaussLegendre01(n);
    for (int degree = 0; degree <= 2 * n - 1; ++degree) {
      double sum = 0.0;
      for (int k = 0; k < n; ++k) sum += rule.w[k] * std::pow(rule.t[k], degree);
      EXPECT_NEAR(sum, 1.0 / (degree + 1), 1e-14) << n << " nodes, t^" << degree;
    }
    for (int k = 0; k < n; ++k) {
      EXPECT_GT(rule.t[k], 0.0);
      EXPECT_LT(rule.t[k], 1.0);
      if (k > 0) {
        EXPECT_GT(rule.t[k], rule.t[k - 1]);
      }
    }
  }
}

TEST(PathInteractions, QuadratureEqualsConditioningAndTheShapleyWeights) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  detail::PathInteractionScratch scratch;
  for (int d : {1, 2, 3, 4, 5, 7, 8, 10, 13, 16, 20, 31, 40, 63}) {
    for (int trial = 0; trial < 30; ++trial) {
      std::vector<double> z(static_cast<std::size_t>(d));
      for (double& v : z) {
        const double u = unit(rng);
        // Zero fractions of every kind: none (a branch without cover), tiny, near 1, 1.
        v = u < 0.1 ? 0.0 : u < 0.2 ? 1e-9 * unit(rng) : u < 0.3 ? 1.0 : unit(rng);
      }
      const std::uint64_t bits = d == 64 ? rng() : rng() & ((std::uint64_t{1} << d) - 1);
      std::vector<double> w(static_cast<std::size_t>(d));
      std::vector<double> reference_w(static_cast<std::size_t>(d));
      std::vector<double> q(static_cast<std::size_t>(d) + 1);
      std::vector<double> inter(static_cast<std::size_t>(d * d), -1.0);
      std::vector<double> reference(static_cast<std::size_t>(d * d), -1.0);
      detail::PathInteractions(d, z.data(), bits, scratch, w.data(), inter.data());
      detail::PathInteractionsByConditioning(d, z.data(), bits, reference.data());
      detail::PathWeights(d, z.data(), bits, q.data(), reference_w.data());
      for (int i = 0; i < d; ++i) {
        EXPECT_NEAR(w[i], reference_w[i], 1e-13) << "d " << d << " element " << i;
        EXPECT_EQ(inter[i * d + i], 0.0);
        for (int j = 0; j < d; ++j) {
          EXPECT_NEAR(inter[i * d + j], reference[i * d + j], 1e-13) << "d " << d << " pair " << i << ", " << j;
          EXPECT_EQ(inter[i * d + j], inter[j * d + i]) << "symmetric";
        }
      }
    }
  }
}

struct Case {
  const char* name;
  RandomTreeSpec spec;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (std::uint64_t seed = 11; seed <= 13; ++seed) {
    RandomTreeSpec s;
    s.seed = seed;
    s.n_features = 3 + seed % 4;
    s.max_depth = 3 + static_cast<int>(seed % 3);
    s.n_trees = 4;
    cases.push_back({"regression, x <= t", s});
    RandomTreeSpec f = s;
    f.rule = SplitRule::kLessFloat;
    f.zero_covers = true;
    cases.push_back({"float(x) < t, branches without cover", f});
    RandomTreeSpec m = s;
    m.n_outputs = 3;
    m.n_trees = 6;
    cases.push_back({"multi-class, a tree per class", m});
    RandomTreeSpec v = s;
    v.n_outputs = 2;
    v.vector_leaves = true;
    v.tree_scale = 0.25;
    cases.push_back({"forest, vector leaves", v});
  }
  return cases;
}

/** Every entry of `got` against the exact interactions of each row's game (brute force on the
 *  definition); each matrix row against the SHAP values, each matrix against the margin. */
void ExpectBruteForce(const TreeShapInteractionValues& got, const std::vector<InteractionValues>& brute,
                      const std::vector<double>& phi, const std::vector<double>& margin) {
  const std::size_t F = got.n_features;
  const std::size_t K = got.n_outputs;
  const std::size_t n = got.n_rows;
  ASSERT_EQ(got.matrix_rows.size(), F + 1);
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t o = 0; o < K; ++o) {
      double total = 0.0;
      for (std::size_t i = 0; i <= F; ++i) {
        double row_sum = 0.0;
        for (std::size_t j = 0; j <= F; ++j) {
          const double v = got(r, o, i, j);
          row_sum += v;
          if (i == F || j == F) {
            EXPECT_EQ(v, i == j ? got.base[o] : 0.0) << "base row and column";
            continue;
          }
          EXPECT_NEAR(v, brute[r](static_cast<int>(i), static_cast<int>(j), o), 1e-12)
              << "row " << r << " output " << o << " entry " << i << ", " << j;
        }
        if (i < F) {
          EXPECT_NEAR(row_sum, phi[(r * K + o) * (F + 1) + i], 1e-12) << "row " << i << " adds up to phi";
        }
        total += row_sum;
      }
      EXPECT_NEAR(total, margin[o * n + r], 1e-9) << "the matrix adds up to the margin";
    }
  }
}

TEST(TreeShapInteractions, PathDependentEqualsBruteForceOnTheDefinition) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(std::string(c.name) + ", seed " + std::to_string(c.spec.seed));
    const auto model = RandomEnsemble(c.spec);
    const std::size_t F = model->n_features();
    const std::size_t n = 10;
    const auto x = RandomRows(F, n, 0.15, c.spec.seed);
    const auto got = TreeShapInteractions(*model, FeatureColumns::ColumnMajor(x, n, F));
    std::vector<InteractionValues> brute;
    for (std::size_t r = 0; r < n; ++r)
      brute.push_back(ExactInteractions(PathDependentGame(model, RowOf(x, F, n, r)), InteractionIndex::kShapley));
    std::vector<double> margin(model->n_outputs() * n);
    model->PredictMargin(x, n, margin);
    ExpectBruteForce(got, brute, TreeShap(*model, x, n), margin);
    for (std::size_t o = 0; o < model->n_outputs(); ++o) EXPECT_NEAR(got.base[o], brute[0].base[o], 1e-12);
  }
}

TEST(TreeShapInteractions, InterventionalEqualsBruteForceOnTheDefinition) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(std::string(c.name) + ", seed " + std::to_string(c.spec.seed));
    const auto model = RandomEnsemble(c.spec);
    const std::size_t F = model->n_features();
    const std::size_t n = 6;
    const std::size_t nb = 7;
    const auto x = RandomRows(F, n, 0.15, c.spec.seed);
    auto bg = RandomRows(F, nb, 0.15, c.spec.seed + 50);
    for (std::size_t j = 0; j < F; ++j) bg[j * nb + 2] = bg[j * nb];  // a repeated pattern
    std::vector<std::vector<double>> bg_rows;
    for (std::size_t b = 0; b < nb; ++b) bg_rows.push_back(RowOf(bg, F, nb, b));
    const auto got = InterventionalTreeShapInteractions(*model, FeatureColumns::ColumnMajor(x, n, F), bg, nb);
    std::vector<InteractionValues> brute;
    for (std::size_t r = 0; r < n; ++r)
      brute.push_back(
          ExactInteractions(InterventionalGame(model, RowOf(x, F, n, r), bg_rows), InteractionIndex::kShapley));
    std::vector<double> margin(model->n_outputs() * n);
    model->PredictMargin(x, n, margin);
    ExpectBruteForce(got, brute, InterventionalTreeShap(*model, x, n, bg, nb), margin);
  }
}

TEST(TreeShapInteractions, NamedFeaturesGiveTheirRowsOfTheWholeMatrixBitForBit) {
  RandomTreeSpec s;
  s.n_features = 7;
  s.n_trees = 5;
  s.max_depth = 5;
  s.n_outputs = 2;
  const auto model = RandomEnsemble(s);
  const std::size_t n = 40;
  const auto x = RandomRows(7, n, 0.1, 8);
  const auto bg = RandomRows(7, 20, 0.1, 9);
  const auto cols = FeatureColumns::ColumnMajor(x, n, 7);
  TreeInteractionOptions some;
  some.features = {5, 0, 3};
  for (const bool interventional : {false, true}) {
    const auto all = interventional ? InterventionalTreeShapInteractions(*model, cols, bg, 20)
                                    : TreeShapInteractions(*model, cols);
    const auto part = interventional ? InterventionalTreeShapInteractions(*model, cols, bg, 20, some)
                                     : TreeShapInteractions(*model, cols, some);
    ASSERT_EQ(part.matrix_rows, some.features);
    ASSERT_EQ(part.values.size(), n * 2 * 3 * 8);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t o = 0; o < 2; ++o)
        for (std::size_t a = 0; a < 3; ++a)
          for (std::size_t j = 0; j <= 7; ++j)
            EXPECT_EQ(part(r, o, a, j), all(r, o, some.features[a], j)) << r << " " << o << " " << a << " " << j;
  }
}

TEST(TreeShapInteractions, BitwiseIdenticalAtAnyThreadCount) {
  RandomTreeSpec s;
  s.n_features = 9;
  s.n_trees = 12;
  s.max_depth = 6;
  s.n_outputs = 2;
  const auto model = RandomEnsemble(s);
  const std::size_t n = 700;  // several blocks of rows
  const auto x = RandomRows(9, n, 0.1, 3);
  const auto bg = RandomRows(9, 30, 0.1, 4);
  const auto cols = FeatureColumns::ColumnMajor(x, n, 9);
  ExecutionOptions one;
  one.threads = 1;
  const auto ref = TreeShapInteractions(*model, cols, {}, one);
  const auto ref_i = InterventionalTreeShapInteractions(*model, cols, bg, 30, {}, one);
  for (int threads : {2, 3}) {
    ExecutionOptions e;
    e.threads = threads;
    const auto got = TreeShapInteractions(*model, cols, {}, e);
    const auto got_i = InterventionalTreeShapInteractions(*model, cols, bg, 30, {}, e);
    ASSERT_EQ(got.values.size(), ref.values.size());
    EXPECT_EQ(0, std::memcmp(ref.values.data(), got.values.data(), ref.values.size() * sizeof(double))) << threads;
    EXPECT_EQ(0, std::memcmp(ref_i.values.data(), got_i.values.data(), ref_i.values.size() * sizeof(double)))
        << threads;
  }
}

TEST(TreeShapInteractions, RefusesFeaturesNotTheModelsOrNamedTwice) {
  RandomTreeSpec s;
  s.n_features = 4;
  const auto model = RandomEnsemble(s);
  const auto x = RandomRows(4, 3, 0.0, 1);
  const auto cols = FeatureColumns::ColumnMajor(x, 3, 4);
  TreeInteractionOptions beyond;
  beyond.features = {1, 4};
  testing::ExpectError<InvalidArgument>([&] { TreeShapInteractions(*model, cols, beyond); },
                                        {"feature 4", "4 features"});
  TreeInteractionOptions twice;
  twice.features = {2, 2};
  testing::ExpectError<InvalidArgument>([&] { TreeShapInteractions(*model, cols, twice); }, {"feature 2", "twice"});
  testing::ExpectError<InvalidArgument>([&] { InterventionalTreeShapInteractions(*model, cols, x, 0); },
                                        {"background"});
}

}  // namespace
}}  // namespace perfshap
