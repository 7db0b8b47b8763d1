// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "perfshap/blocks/interactions.hpp"
#include "perfshap/error.hpp"
#include "support/expect_error.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::FunctionGame;

/** v(S) = sum_i a_i [i in S] + sum_{i<j} b_ij [i, j in S] + sum_t c_t [T_t subset of S], three
 *  players per T_t: SII(i, j) = b_ij + sum_{t: i, j in T_t} c_t / 2 (the third player is in S
 *  half the time), STII(i, j) = b_ij + sum_{t: i, j in T_t} c_t / 3 (a unanimity game of three
 *  splits over its three pairs). Output 1 is twice output 0. */
struct PolynomialGame {
  int n;
  std::vector<double> a;
  std::vector<double> b;  // n x n, upper triangle
  std::vector<std::array<int, 3>> triples;
  std::vector<double> c;

  explicit PolynomialGame(int players, unsigned seed) : n(players) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal;
    const auto N = static_cast<std::size_t>(n);
    a.resize(N);
    b.assign(N * N, 0.0);
    for (double& v : a) v = normal(rng);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t j = i + 1; j < N; ++j) b[i * N + j] = rng() % 3 == 0 ? normal(rng) : 0.0;
    std::uniform_int_distribution<int> player(0, n - 1);
    while (triples.size() < 3 * N) {
      std::array<int, 3> t{player(rng), player(rng), player(rng)};
      if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) continue;
      triples.push_back(t);
      c.push_back(2.0 * normal(rng));
    }
  }

  FunctionGame Game() const {
    return FunctionGame(n, 2, [this](Coalition s, std::span<double> out) {
      const auto N = static_cast<std::size_t>(n);
      double v = 0.0;
      for (std::size_t i = 0; i < N; ++i) {
        if (((s >> i) & 1U) == 0) continue;
        v += a[i];
        for (std::size_t j = i + 1; j < N; ++j)
          if (((s >> j) & 1U) != 0) v += b[i * N + j];
      }
      for (std::size_t t = 0; t < triples.size(); ++t) {
        const auto& T = triples[t];
        if (((s >> T[0]) & (s >> T[1]) & (s >> T[2]) & 1U) != 0) v += c[t];
      }
      out[0] = v;
      out[1] = 2.0 * v;
    });
  }

  /** The pair's index (twice the matrix entry). */
  double Pair(int i, int j, InteractionIndex index) const {
    const auto N = static_cast<std::size_t>(n);
    double v = b[static_cast<std::size_t>(std::min(i, j)) * N + static_cast<std::size_t>(std::max(i, j))];
    for (std::size_t t = 0; t < triples.size(); ++t) {
      const auto& T = triples[t];
      const bool has_i = T[0] == i || T[1] == i || T[2] == i;
      const bool has_j = T[0] == j || T[1] == j || T[2] == j;
      if (has_i && has_j) v += c[t] / (index == InteractionIndex::kShapley ? 2.0 : 3.0);
    }
    return v;
  }
  /** Whether the pair's second difference varies (it is in some triple). */
  bool Random(int i, int j) const {
    for (const auto& T : triples) {
      const bool has_i = T[0] == i || T[1] == i || T[2] == i;
      const bool has_j = T[0] == j || T[1] == j || T[2] == j;
      if (has_i && has_j) return true;
    }
    return false;
  }
};

TEST(SampledInteractions, NinetyFivePercentIntervalsCoverTheExactValues) {
  // 22 players (past exact enumeration's 20), 200 seeded runs of 48 draws per pair; the
  // intervals of the pairs whose second difference varies (the others are exact).
  const PolynomialGame poly(22, 7);
  const FunctionGame game = poly.Game();
  for (const InteractionIndex index : {InteractionIndex::kShapley, InteractionIndex::kShapleyTaylor}) {
    std::size_t covered = 0;
    std::size_t intervals = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
      SolverOptions o;
      o.seed = seed;
      o.tolerance = 1e-9;  // every draw the budget allows
      o.budget = 48 * 4 * (22 * 21 / 2);
      const InteractionValues got = SampledInteractions(game, index, o);
      ASSERT_FALSE(got.converged);
      for (int i = 0; i < 22; ++i)
        for (int j = i + 1; j < 22; ++j) {
          const double want = poly.Pair(i, j, index);
          const double est = got.pair(i, j, 0);
          const double se =
              2.0 * got.se[(static_cast<std::size_t>(i) * 22 + static_cast<std::size_t>(j)) * 2];
          EXPECT_NEAR(got.pair(i, j, 1), 2.0 * est, 1e-9 + 1e-12 * std::fabs(est));
          if (!poly.Random(i, j)) {
            EXPECT_NEAR(est, want, 1e-9);
            continue;
          }
          ++intervals;
          covered += std::fabs(est - want) <= 1.96 * se ? 1 : 0;
        }
    }
    const double rate = static_cast<double>(covered) / static_cast<double>(intervals);
    ::testing::Test::RecordProperty(index == InteractionIndex::kShapley ? "coverage_sii" : "coverage_stii",
                                    std::to_string(rate));
    EXPECT_GE(rate, 0.93) << intervals << " intervals";
    EXPECT_LE(rate, 0.97) << intervals << " intervals";
  }
}

TEST(SampledInteractions, AgreesWithExactEnumerationAndStopsAtTheTolerance) {
  const PolynomialGame poly(9, 3);
  const FunctionGame game = poly.Game();
  for (const InteractionIndex index : {InteractionIndex::kShapley, InteractionIndex::kShapleyTaylor}) {
    const InteractionValues exact = ExactInteractions(game, index);
    SolverOptions o;
    o.seed = 11;
    o.tolerance = 0.02;
    o.budget = 20000 * 4 * 36;
    const InteractionValues got = SampledInteractions(game, index, o);
    EXPECT_TRUE(got.converged);
    EXPECT_LT(got.n_evaluations, o.budget + 200000);
    for (int i = 0; i < 9; ++i)
      for (int j = 0; j < 9; ++j) {
        const std::size_t at = (static_cast<std::size_t>(i) * 9 + static_cast<std::size_t>(j)) * 2;
        EXPECT_LE(std::fabs(got(i, j, 0) - exact(i, j, 0)), 5.0 * got.se[at] + 1e-9) << i << ", " << j;
        if (i != j) {
          EXPECT_NEAR(exact.pair(i, j, 0), poly.Pair(i, j, index), 1e-9);
        }
      }
  }
}

TEST(SampledInteractions, BitwiseIdenticalAtAnyThreadCountAndRefusesATinyBudget) {
  const PolynomialGame poly(12, 5);
  const FunctionGame game = poly.Game();
  SolverOptions one;
  one.seed = 4;
  one.execution.threads = 1;
  SolverOptions two = one;
  two.execution.threads = 2;
  const InteractionValues a = SampledInteractions(game, InteractionIndex::kShapley, one);
  const InteractionValues b = SampledInteractions(game, InteractionIndex::kShapley, two);
  ASSERT_EQ(a.values.size(), b.values.size());
  EXPECT_EQ(0, std::memcmp(a.values.data(), b.values.data(), a.values.size() * sizeof(double)));
  EXPECT_EQ(0, std::memcmp(a.se.data(), b.se.data(), a.se.size() * sizeof(double)));
  SolverOptions tiny;
  tiny.budget = 100;
  testing::ExpectError<InvalidArgument>([&] { SampledInteractions(game, InteractionIndex::kShapley, tiny); },
                                        {"budget of 100", "fewer than 2 draws"}, "budget");
  // More than 64 players: the message says the ways out, and names their options.
  const PolynomialGame wide(65, 5);
  const FunctionGame wide_game = wide.Game();
  testing::ExpectError<InvalidArgument>(
      [&] { SampledInteractions(wide_game, InteractionIndex::kShapley, one); },
      {"games of 2 to 64 players; the game has 65", "explain fewer features, group them"}, "interaction_features");
}

}  // namespace
}}  // namespace perfshap
