// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "support/shapley_properties.hpp"

#include <cmath>
#include <sstream>
#include <vector>

#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 { namespace testing {
namespace {

// Two coalitions' values equal within tol (0: bitwise).
bool SameValues(const std::vector<double>& a, const std::vector<double>& b, double tol) {
  if (tol == 0.0) return a == b;
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (!(std::abs(a[k] - b[k]) <= tol)) return false;
  return true;
}

}  // namespace

::testing::AssertionResult CheckEfficiency(const Game& game, const ShapleyValues& values, double tol) {
  const int n = game.n_players();
  const auto full = EvaluateCoalition(game, FullCoalition(n));
  const auto empty = EvaluateCoalition(game, 0);
  for (std::size_t k = 0; k < game.n_outputs(); ++k) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += values(i, k);
    const double want = full[k] - empty[k];
    if (!(std::abs(sum - want) <= tol))
      return ::testing::AssertionFailure() << "efficiency fails for output " << k << ": sum phi = " << sum
                                           << ", v(N) - v(empty) = " << want << ", diff " << sum - want;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult CheckSymmetry(const Game& game, const ShapleyValues& values, int i, int j,
                                         double tol, double game_tol) {
  const int n = game.n_players();
  const Coalition bi = Coalition{1} << i, bj = Coalition{1} << j;
  for (Coalition s = 0; s < (Coalition{1} << n); ++s) {
    if ((s & bi) != 0 || (s & bj) != 0) continue;
    if (!SameValues(EvaluateCoalition(game, s | bi), EvaluateCoalition(game, s | bj), game_tol))
      return ::testing::AssertionFailure() << "players " << i << " and " << j << " are not symmetric in this game";
  }
  for (std::size_t k = 0; k < game.n_outputs(); ++k)
    if (!(std::abs(values(i, k) - values(j, k)) <= tol))
      return ::testing::AssertionFailure() << "symmetric players " << i << ", " << j << " differ at output " << k
                                           << ": " << values(i, k) << " vs " << values(j, k);
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult CheckNullPlayer(const Game& game, const ShapleyValues& values, int i, double tol,
                                           double game_tol) {
  const int n = game.n_players();
  const Coalition bi = Coalition{1} << i;
  for (Coalition s = 0; s < (Coalition{1} << n); ++s) {
    if ((s & bi) != 0) continue;
    if (!SameValues(EvaluateCoalition(game, s | bi), EvaluateCoalition(game, s), game_tol))
      return ::testing::AssertionFailure() << "player " << i << " is not a null player in this game";
  }
  for (std::size_t k = 0; k < game.n_outputs(); ++k)
    if (!(std::abs(values(i, k)) <= tol))
      return ::testing::AssertionFailure() << "null player " << i << " has value " << values(i, k) << " at output " << k;
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult CheckLinearity(const SolveFn& solve, const Game& g1, const Game& g2, double a, double b,
                                          double tol) {
  const auto combined = LinearCombination(g1, a, g2, b);
  const auto v = solve(combined);
  const auto v1 = solve(g1);
  const auto v2 = solve(g2);
  for (std::size_t t = 0; t < v.phi.size(); ++t) {
    const double want = a * v1.phi[t] + b * v2.phi[t];
    if (!(std::abs(v.phi[t] - want) <= tol))
      return ::testing::AssertionFailure() << "linearity fails at entry " << t << ": " << v.phi[t] << " vs " << want;
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult CheckMatches(const ShapleyValues& values, const std::vector<double>& reference, double tol) {
  if (values.phi.size() != reference.size())
    return ::testing::AssertionFailure() << "size " << values.phi.size() << " vs reference " << reference.size();
  for (std::size_t t = 0; t < reference.size(); ++t)
    if (!(std::abs(values.phi[t] - reference[t]) <= tol))
      return ::testing::AssertionFailure() << "entry " << t << " (player " << t / values.n_outputs << ", output "
                                           << t % values.n_outputs << "): " << values.phi[t] << " vs reference "
                                           << reference[t] << ", diff " << values.phi[t] - reference[t];
  return ::testing::AssertionSuccess();
}

}}}  // namespace perfshap::testing
