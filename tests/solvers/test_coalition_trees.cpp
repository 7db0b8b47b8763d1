// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The kernel solver's control-variate surrogate: boosted trees over the players' indicators.
// Their Shapley values from the leaves' closed form equal those of the game S -> Predict(S)
// by brute force over all 8! orders; a single interaction of two of 100 players is recovered
// exactly; fitted() is Predict at the samples; efficiency holds at any n.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "perfshap/blocks/coalition.hpp"
#include "solvers/coalition_trees.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using detail::CoalitionTreeOptions;
using detail::CoalitionTrees;

// m random coalitions of n players (each player in with probability 1/2), row-major words.
std::vector<std::uint64_t> RandomCoalitions(int n, std::size_t m, unsigned seed) {
  std::mt19937_64 rng(seed);
  const std::size_t words = CoalitionWords(n);
  std::vector<std::uint64_t> c(m * words, 0);
  for (std::size_t s = 0; s < m; ++s)
    for (int i = 0; i < n; ++i)
      if (rng() & 1u) c[s * words + static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64);
  return c;
}

bool In(const std::uint64_t* words, int i) { return (words[i / 64] >> (i % 64)) & 1u; }

TEST(CoalitionTrees, ShapleyFromTheLeavesEqualsBruteForceOnThePredictions) {
  const int n = 8;
  // Every coalition once, a saturating target with an interaction, uneven weights.
  std::vector<std::uint64_t> coalitions(256);
  std::vector<double> y(256), w(256);
  for (std::uint64_t s = 0; s < 256; ++s) {
    coalitions[s] = s;
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += (i + 1) * static_cast<double>((s >> i) & 1u);
    y[s] = std::sqrt(sum) + ((s & 3u) == 3u ? 0.7 : 0.0);
    w[s] = 1.0 + static_cast<double>(s % 5);
  }
  CoalitionTreeOptions options;
  options.trees = 30;
  options.depth = 4;
  options.min_leaf = 2;
  CoalitionTrees trees;
  trees.Fit(n, coalitions, y, w, options);
  const testing::FunctionGame game(n, 1, [&](Coalition s, std::span<double> out) {
    const std::uint64_t word = s;
    out[0] = trees.Predict({&word, 1});
  });
  const std::vector<double> brute = testing::BruteForcePermutationShapley(game);
  const std::vector<double> leaves = trees.Shapley();
  ASSERT_EQ(leaves.size(), 8u);
  double spread = 0.0;
  for (int i = 0; i < n; ++i) {
    EXPECT_NEAR(leaves[static_cast<std::size_t>(i)], brute[static_cast<std::size_t>(i)], 1e-12) << "player " << i;
    spread += std::abs(leaves[static_cast<std::size_t>(i)]);
  }
  EXPECT_GT(spread, 1.0);  // the trees did fit something
  for (std::size_t s = 0; s < 256; ++s) EXPECT_EQ(trees.fitted()[s], trees.Predict({&coalitions[s], 1})) << s;
}

TEST(CoalitionTrees, RecoversOneInteractionOfTwoInAHundredPlayers) {
  const int n = 100;
  const std::size_t m = 400;
  const std::vector<std::uint64_t> coalitions = RandomCoalitions(n, m, 7);
  std::vector<double> y(m), w(m, 1.0);
  // v(S) = 3 when player 0 is in and player 1 is out: phi_0 = 3/2, phi_1 = -3/2, others 0.
  for (std::size_t s = 0; s < m; ++s) y[s] = In(&coalitions[2 * s], 0) && !In(&coalitions[2 * s], 1) ? 3.0 : 0.0;
  CoalitionTreeOptions options;
  options.trees = 1;
  options.depth = 2;
  options.learning_rate = 1.0;
  CoalitionTrees trees;
  trees.Fit(n, coalitions, y, w, options);
  for (std::size_t s = 0; s < m; ++s) EXPECT_NEAR(trees.fitted()[s], y[s], 1e-12) << s;
  const std::vector<double> phi = trees.Shapley();
  ASSERT_EQ(phi.size(), 100u);
  EXPECT_NEAR(phi[0], 1.5, 1e-12);
  EXPECT_NEAR(phi[1], -1.5, 1e-12);
  for (int i = 2; i < n; ++i) EXPECT_NEAR(phi[static_cast<std::size_t>(i)], 0.0, 1e-12) << "player " << i;
}

TEST(CoalitionTrees, EfficiencyAtAThousandPlayers) {
  const int n = 1000;
  const std::size_t m = 600;
  const std::size_t words = CoalitionWords(n);
  const std::vector<std::uint64_t> coalitions = RandomCoalitions(n, m, 3);
  std::vector<double> y(m), w(m);
  for (std::size_t s = 0; s < m; ++s) {
    double v = 0.0;
    for (int i = 0; i < 40; ++i) v += In(&coalitions[s * words], i) ? 1.0 / (1 + i) : 0.0;
    y[s] = v * v;
    w[s] = 1.0 + static_cast<double>(s % 3);
  }
  CoalitionTrees trees;
  trees.Fit(n, coalitions, y, w, CoalitionTreeOptions{});
  const std::vector<double> phi = trees.Shapley();
  double sum = 0.0;
  for (double v : phi) sum += v;
  const std::vector<std::uint64_t> empty(words, 0), full(words, ~std::uint64_t{0});
  std::vector<std::uint64_t> all = full;
  all[words - 1] = (std::uint64_t{1} << (n % 64)) - 1;  // 1000 = 15 * 64 + 40
  EXPECT_NEAR(sum, trees.Predict(all) - trees.Predict(empty), 1e-9);
  for (std::size_t s = 0; s < m; ++s)
    ASSERT_EQ(trees.fitted()[s], trees.Predict({coalitions.data() + s * words, words})) << s;
}

}  // namespace
}}  // namespace perfshap
