// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "perfshap/blocks/solver.hpp"
#include "perfshap/treeshap.hpp"
#include "solvers/quadrature_treeshap.hpp"
#include "support/tree_reference.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using detail::TreeShapAlgorithm;
using testing::PathDependentGame;
using testing::RandomEnsemble;
using testing::RandomRows;
using testing::RandomTreeSpec;
using testing::RowOf;

TEST(QuadratureTreeShap, EqualsTheLeafPathsAndBruteForce) {
  // Few features and deep trees: features split again on a path (merged elements); branches
  // without cover; both split rules; a tree per class and vector leaves.
  for (std::uint64_t seed = 21; seed <= 26; ++seed) {
    RandomTreeSpec s;
    s.seed = seed;
    s.n_features = 3 + seed % 4;
    s.max_depth = 4 + static_cast<int>(seed % 4);
    s.n_trees = 5;
    s.zero_covers = seed % 2 == 0;
    s.rule = seed % 3 == 0 ? SplitRule::kLessFloat : SplitRule::kLessEqual;
    if (seed % 3 == 1) {
      s.n_outputs = 3;
      s.n_trees = 6;
    }
    if (seed == 26) {
      s.n_outputs = 2;
      s.vector_leaves = true;
      s.tree_scale = 0.2;
    }
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto model = RandomEnsemble(s);
    const std::size_t F = model->n_features();
    const std::size_t K = model->n_outputs();
    const std::size_t n = 25;
    const auto x = RandomRows(F, n, 0.15, seed);
    const auto cols = FeatureColumns::ColumnMajor(x, n, F);
    const auto quadrature = detail::TreeShapUsing(*model, cols, TreeShapAlgorithm::kQuadrature, {});
    const auto paths = detail::TreeShapUsing(*model, cols, TreeShapAlgorithm::kLeafPaths, {});
    ASSERT_EQ(quadrature.size(), paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) EXPECT_NEAR(quadrature[i], paths[i], 1e-12) << "value " << i;
    for (std::size_t r = 0; r < 4; ++r) {
      const ShapleyValues brute = ExactSolver().Solve(PathDependentGame(model, RowOf(x, F, n, r)));
      for (std::size_t o = 0; o < K; ++o)
        for (std::size_t j = 0; j < F; ++j)
          EXPECT_NEAR(quadrature[(r * K + o) * (F + 1) + j], brute(static_cast<int>(j), o), 1e-12);
    }
  }
}

TEST(QuadratureTreeShap, TakesTreesUpToItsDepthAndTheDefaultIsTheSameValues) {
  RandomTreeSpec s;
  s.n_features = 12;
  s.max_depth = 12;
  s.n_trees = 4;
  const auto model = RandomEnsemble(s);
  for (const Tree& t : model->trees()) {
    const detail::QuadratureTree q = detail::PrepareQuadratureTree(t, 1.0);
    EXPECT_GT(q.n, 0);
    EXPECT_EQ(q.depth, t.depth());
  }
  // The default picks per tree; its values are the reference's to rounding.
  const std::size_t n = 300;
  const auto x = RandomRows(12, n, 0.1, 2);
  const auto cols = FeatureColumns::ColumnMajor(x, n, 12);
  const auto got = TreeShap(*model, cols);
  const auto ref = detail::TreeShapUsing(*model, cols, TreeShapAlgorithm::kLeafPaths, {});
  for (std::size_t i = 0; i < ref.size(); ++i) EXPECT_NEAR(got[i], ref[i], 1e-12);
  // Bitwise the same at any thread count.
  ExecutionOptions two;
  two.threads = 2;
  const auto again = detail::TreeShapUsing(*model, cols, TreeShapAlgorithm::kQuadrature, two);
  const auto one = detail::TreeShapUsing(*model, cols, TreeShapAlgorithm::kQuadrature, {});
  EXPECT_EQ(0, std::memcmp(again.data(), one.data(), one.size() * sizeof(double)));
}

}  // namespace
}}  // namespace perfshap
