// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Exact pairwise interactions of any game (SII and the Shapley-Taylor index): equal to a brute
// force over subsets written from the definitions with factorials, the known values of
// unanimity games, the axioms (symmetry, null player, linearity), each index's sums (SII rows add
// up to the Shapley values; STII adds up to v(N) - v({})), and the same bits at any thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "perfshap/blocks/interactions.hpp"
#include "perfshap/error.hpp"
#include "support/expect_error.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::AdditiveGame;
using testing::FunctionGame;
using testing::LinearCombination;
using testing::MixedVectorGame;
using testing::UnanimityGame;

double Factorial(int m) { return std::tgamma(static_cast<double>(m) + 1.0); }

/** v(S) for every coalition, output o, straight from the game's worker. */
std::vector<double> AllValues(const Game& g) {
  const int n = g.n_players();
  const std::size_t k = g.n_outputs();
  std::vector<double> v((std::size_t{1} << n) * k);
  auto worker = g.MakeWorker();
  for (Coalition s = 0; s < (Coalition{1} << n); ++s) worker->Evaluate(s, std::span<double>(v.data() + s * k, k));
  return v;
}

/** The pair's index from its definition: a plain loop over every coalition without i and j. */
double BruteForcePair(const Game& g, InteractionIndex index, int i, int j, std::size_t o) {
  const int n = g.n_players();
  const std::size_t k = g.n_outputs();
  const std::vector<double> v = AllValues(g);
  double sum = 0.0;
  for (Coalition s = 0; s < (Coalition{1} << n); ++s) {
    if (Contains(s, i) || Contains(s, j)) continue;
    const int size = CoalitionSize(s);
    const double w = index == InteractionIndex::kShapley
                         ? Factorial(size) * Factorial(n - size - 2) / Factorial(n - 1)
                         : 2.0 / n * Factorial(size) * Factorial(n - 1 - size) / Factorial(n - 1);
    const Coalition bi = Coalition{1} << i;
    const Coalition bj = Coalition{1} << j;
    sum += w * (v[(s | bi | bj) * k + o] - v[(s | bi) * k + o] - v[(s | bj) * k + o] + v[s * k + o]);
  }
  return sum;
}

/** Shapley values from their definition. */
double BruteForceShapley(const Game& g, int i, std::size_t o) {
  const int n = g.n_players();
  const std::size_t k = g.n_outputs();
  const std::vector<double> v = AllValues(g);
  double phi = 0.0;
  for (Coalition s = 0; s < (Coalition{1} << n); ++s) {
    if (Contains(s, i)) continue;
    const int size = CoalitionSize(s);
    phi += Factorial(size) * Factorial(n - size - 1) / Factorial(n) * (v[(s | (Coalition{1} << i)) * k + o] - v[s * k + o]);
  }
  return phi;
}

TEST(ExactInteractions, EqualBruteForceFromTheDefinitions) {
  const FunctionGame g = MixedVectorGame(6, 2, 11);
  for (const InteractionIndex index : {InteractionIndex::kShapley, InteractionIndex::kShapleyTaylor}) {
    const InteractionValues iv = ExactInteractions(g, index);
    ASSERT_EQ(iv.values.size(), 6u * 6u * 2u);
    for (int i = 0; i < 6; ++i)
      for (int j = 0; j < 6; ++j)
        for (std::size_t o = 0; o < 2; ++o) {
          EXPECT_EQ(iv(i, j, o), iv(j, i, o));
          if (i != j) {
            EXPECT_NEAR(iv.pair(i, j, o), BruteForcePair(g, index, i, j, o), 1e-12) << i << "," << j;
          }
        }
  }
}

TEST(ExactInteractions, ShapleyRowsAddUpToShapleyValuesAndTaylorToTheWholeGain) {
  const FunctionGame g = MixedVectorGame(7, 3, 5);
  const InteractionValues sii = ExactInteractions(g, InteractionIndex::kShapley);
  const InteractionValues stii = ExactInteractions(g, InteractionIndex::kShapleyTaylor);
  for (std::size_t o = 0; o < 3; ++o) {
    double total = 0.0;
    for (int i = 0; i < 7; ++i) {
      double row = 0.0;
      for (int j = 0; j < 7; ++j) {
        row += sii(i, j, o);
        total += stii(i, j, o);
      }
      EXPECT_NEAR(row, BruteForceShapley(g, i, o), 1e-12) << i;
    }
    EXPECT_NEAR(total, stii.full[o] - stii.base[o], 1e-12);
  }
  // The Taylor diagonal is the singleton's own gain.
  const std::vector<double> v = AllValues(g);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(stii(i, i, 1), v[(Coalition{1} << i) * 3 + 1] - v[1]);
}

TEST(ExactInteractions, UnanimityAdditiveAndNullPlayers) {
  // u_{1,3} among 5 players: only the pair {1, 3} interacts, with index 1 under both.
  const FunctionGame u = UnanimityGame(5, 0b01010);
  for (const InteractionIndex index : {InteractionIndex::kShapley, InteractionIndex::kShapleyTaylor}) {
    const InteractionValues iv = ExactInteractions(u, index);
    for (int i = 0; i < 5; ++i)
      for (int j = i + 1; j < 5; ++j)
        EXPECT_NEAR(iv.pair(i, j, 0), (i == 1 && j == 3) ? 1.0 : 0.0, 1e-15) << i << "," << j;
    // Players 0, 2 and 4 are null: their rows are zero.
    for (int j = 0; j < 5; ++j) EXPECT_EQ(iv(0, j, 0), 0.0);
  }
  // An additive game has no interaction; the SII diagonal is then the Shapley value a_i.
  const FunctionGame a = AdditiveGame({0.5, -2.0, 3.25, 1.0});
  const InteractionValues iv = ExactInteractions(a, InteractionIndex::kShapley);
  const double want[] = {0.5, -2.0, 3.25, 1.0};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_NEAR(iv(i, j, 0), i == j ? want[i] : 0.0, 1e-15);
}

TEST(ExactInteractions, LinearInTheGameAndSymmetricInSwappedPlayers) {
  const FunctionGame g1 = MixedVectorGame(5, 1, 2);
  const FunctionGame g2 = MixedVectorGame(5, 1, 9);
  const FunctionGame mix = LinearCombination(g1, 2.0, g2, -0.5);
  const InteractionValues a = ExactInteractions(g1, InteractionIndex::kShapley);
  const InteractionValues b = ExactInteractions(g2, InteractionIndex::kShapley);
  const InteractionValues c = ExactInteractions(mix, InteractionIndex::kShapley);
  for (std::size_t e = 0; e < c.values.size(); ++e) EXPECT_NEAR(c.values[e], 2.0 * a.values[e] - 0.5 * b.values[e], 1e-12);
  // Players 0 and 1 swapped in the game: their rows and columns swap.
  const auto swap01 = [](Coalition s) {
    const Coalition b0 = s & 1U;
    const Coalition b1 = (s >> 1) & 1U;
    return (s & ~Coalition{3}) | (b0 << 1) | b1;
  };
  const FunctionGame swapped(5, 1, [&](Coalition s, std::span<double> out) {
    auto w = g1.MakeWorker();
    w->Evaluate(swap01(s), out);
  });
  const InteractionValues d = ExactInteractions(swapped, InteractionIndex::kShapley);
  const int p[] = {1, 0, 2, 3, 4};
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_NEAR(d(i, j, 0), a(p[i], p[j], 0), 1e-12);
}

TEST(ExactInteractions, BitwiseIdenticalAtAnyThreadCountAndRefusedPastTheLimit) {
  const FunctionGame g = MixedVectorGame(12, 2, 4);
  SolverOptions one;
  one.execution.threads = 1;
  const InteractionValues ref = ExactInteractions(g, InteractionIndex::kShapleyTaylor, one);
  for (int threads : {2, 4}) {
    SolverOptions o;
    o.execution.threads = threads;
    const InteractionValues got = ExactInteractions(g, InteractionIndex::kShapleyTaylor, o);
    EXPECT_EQ(0, std::memcmp(ref.values.data(), got.values.data(), ref.values.size() * sizeof(double))) << threads;
  }
  const FunctionGame wide(21, 1, [](Coalition, std::span<double> out) { out[0] = 0.0; });
  testing::ExpectError<InvalidArgument>([&] { ExactInteractions(wide, InteractionIndex::kShapley); },
                                        {"21 players", "limit of 20"}, "max_players");
}

}  // namespace
}}  // namespace perfshap
