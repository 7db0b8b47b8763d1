// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Exact pairwise interactions: the exact solver evaluates every coalition once (its values kept),
// then each pair's index is the weighted sum of its discrete second derivatives over the
// coalitions of the others, one pair per task of the schedule in a fixed order.
#include "perfshap/blocks/interactions.hpp"

#include <string>

#include "perfshap/error.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 {
namespace {

void CheckSize(int n) {
  PERFSHAP_CHECK(n >= 2, "interactions need at least two players; the game has " + std::to_string(n));
  if (n > kExactInteractionLimit)
    throw InvalidArgument("exact interactions of " + std::to_string(n) + " players need 2^" + std::to_string(n) +
                              " coalitions, above the limit of " + std::to_string(kExactInteractionLimit) +
                              " players; group the players or select fewer",
                          {"max_players"});
}

}  // namespace

InteractionValues ExactInteractions(const Game& game, InteractionIndex index, const SolverOptions& options) {
  CheckSize(game.n_players());
  ExactOptions exact;
  static_cast<SolverOptions&>(exact) = options;
  exact.max_players = game.n_players();
  exact.store_values = true;
  return InteractionsOfValues(ExactSolver(exact).Solve(game), index, options.execution);
}

InteractionValues InteractionsOfValues(const ShapleyValues& phi, InteractionIndex index,
                                       const ExecutionOptions& execution) {
  const int n = phi.n_players;
  const std::size_t k = phi.n_outputs;
  CheckSize(n);
  const std::vector<double>& v = phi.coalition_values;  // v(S) at S * k + o
  PERFSHAP_CHECK(v.size() == (std::size_t{1} << n) * k,
                 "interactions need every coalition's value: solve exactly with store_values");

  // Weights by |S| (0 .. n - 2) for the coalitions S of the other n - 2 players, the Shapley
  // weights of the exact solver: SII's |S|! (n - |S| - 2)! / (n - 1)! is w_{n-1}(|S|), STII's
  // 2 / (n C(n - 1, |S|)) is 2 w_n(|S|).
  std::vector<double> weight(static_cast<std::size_t>(n - 1));
  for (int s = 0; s <= n - 2; ++s)
    weight[static_cast<std::size_t>(s)] =
        index == InteractionIndex::kShapley ? ShapleyWeight(n - 1, s) : 2.0 * ShapleyWeight(n, s);

  const auto N = static_cast<std::size_t>(n);
  InteractionValues out;
  out.index = index;
  out.n_players = n;
  out.n_outputs = k;
  out.players = phi.players;
  out.base = phi.base;
  out.full = phi.full;
  out.values.assign(N * N * k, 0.0);
  // One task per pair (i < j): its sum over the 2^(n-2) coalitions of the others, in increasing
  // order of S, into its own entries.
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) pairs.emplace_back(i, j);
  const Coalition full = FullCoalition(n);
  detail::Schedule schedule(execution);
  schedule.ForEachBlock(pairs.size(), 1, [&](std::size_t b) {
    const auto [i, j] = pairs[b];
    const Coalition bi = Coalition{1} << i;
    const Coalition bj = Coalition{1} << j;
    const Coalition others = full & ~bi & ~bj;
    std::vector<double> sum(k, 0.0);
    // The subsets of `others`, in increasing order.
    Coalition s = 0;
    for (;;) {
      const double w = weight[static_cast<std::size_t>(CoalitionSize(s))];
      const double* v0 = v.data() + s * k;
      const double* vi = v.data() + (s | bi) * k;
      const double* vj = v.data() + (s | bj) * k;
      const double* vij = v.data() + (s | bi | bj) * k;
      for (std::size_t o = 0; o < k; ++o) sum[o] += w * (vij[o] - vi[o] - vj[o] + v0[o]);
      if (s == others) break;
      s = (s - others) & others;  // the next subset of `others`
    }
    for (std::size_t o = 0; o < k; ++o) {
      out.values[(static_cast<std::size_t>(i) * N + static_cast<std::size_t>(j)) * k + o] = 0.5 * sum[o];
      out.values[(static_cast<std::size_t>(j) * N + static_cast<std::size_t>(i)) * k + o] = 0.5 * sum[o];
    }
  });
  // The diagonal.
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t o = 0; o < k; ++o) {
      double& d = out.values[(i * N + i) * k + o];
      if (index == InteractionIndex::kShapleyTaylor) {
        d = v[(Coalition{1} << i) * k + o] - v[o];
        continue;
      }
      double rest = 0.0;
      for (std::size_t j = 0; j < N; ++j)
        if (j != i) rest += out.values[(i * N + j) * k + o];
      d = phi.phi[i * k + o] - rest;
    }
  return out;
}

}}  // namespace perfshap
