// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Pairwise interaction indices of any game, by exact enumeration of its 2^n coalitions: how much
// two players together add beyond what each adds alone, averaged over the coalitions of the
// others. The discrete second derivative of v at S for players i and j is
//   D_ij(S) = v(S + i + j) - v(S + i) - v(S + j) + v(S),  S a coalition without i and j.
// - Shapley interaction index (Grabisch and Roubens 1999), as shap's and XGBoost's interaction
//   values of trees: SII(i, j) = sum_S |S|! (n - |S| - 2)! / (n - 1)! D_ij(S).
// - Shapley-Taylor index of order 2 (Sundararajan, Dhamdhere, Agarwal 2020): the pairs
//   STII(i, j) = 2/n sum_S D_ij(S) / C(n - 1, |S|), the singletons v({i}) - v({}); together they
//   add up to v(N) - v({}).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/** @brief The most players whose interactions are enumerated exactly (2^20 coalitions). */
inline constexpr int kExactInteractionLimit = 20;

/** @brief Which pairwise interaction index. */
enum class InteractionIndex {
  /** The Shapley interaction index (SII). */
  kShapley,
  /** The Shapley-Taylor interaction index of order 2 (STII). */
  kShapleyTaylor,
};

/** @brief A game's pairwise interactions, as an n x n matrix per output. */
struct InteractionValues {
  InteractionIndex index = InteractionIndex::kShapley;
  int n_players = 0;
  std::size_t n_outputs = 0;
  std::vector<std::string> players;
  /**
   * n x n x n_outputs, (i * n + j) * n_outputs + o, symmetric. Off the diagonal, half the
   * pair's index (the pair's interaction is split between (i, j) and (j, i)). On the diagonal:
   * kShapley, phi_i minus the row's other entries, so each row adds up to the Shapley value
   * phi_i (the convention of shap_interaction_values and XGBoost's pred_interactions);
   * kShapleyTaylor, the singleton v({i}) - v({}), so the whole matrix adds up to v(N) - v({}).
   */
  std::vector<double> values;
  std::vector<double> base;  ///< v({}) per output
  std::vector<double> full;  ///< v(N) per output
  /** Standard errors of `values` (same layout) when sampled (SampledInteractions); empty when
   *  exact. */
  std::vector<double> se;
  /** Game evaluations spent (sampled), and whether the tolerance was met before the budget. */
  std::uint64_t n_evaluations = 0;
  bool converged = true;
  /** @brief Entry (i, j) of output o. */
  double operator()(int i, int j, std::size_t o) const {
    return values[(static_cast<std::size_t>(i) * static_cast<std::size_t>(n_players) + static_cast<std::size_t>(j)) *
                      n_outputs +
                  o];
  }
  /** @brief The index of the pair {i, j} (i != j) for output o: twice the entry. */
  double pair(int i, int j, std::size_t o) const { return 2.0 * (*this)(i, j, o); }
};

/**
 * @brief Every pairwise interaction of `game` (up to kExactInteractionLimit players) by
 * enumeration: the game is evaluated once per coalition (ExactSolver, with `options`' threads,
 * progress and cancellation), then the pairs are summed in a fixed order over blocks of pairs,
 * so the result is bitwise identical at any thread count.
 * @throws InvalidArgument for more than kExactInteractionLimit players.
 */
PERFSHAP_EXPORT InteractionValues ExactInteractions(const Game& game, InteractionIndex index,
                                                    const SolverOptions& options = {});

/**
 * @brief The same from an exact solve that kept every coalition's value
 * (SolverOptions::store_values): a method that solves its games exactly anyway gets their
 * interactions without evaluating a coalition again.
 * @throws InvalidArgument when `exact` holds no coalition values or has more than
 *   kExactInteractionLimit players.
 */
PERFSHAP_EXPORT InteractionValues InteractionsOfValues(const ShapleyValues& exact, InteractionIndex index,
                                                       const ExecutionOptions& execution = {});

/** @brief Draws per pair and round of SampledInteractions (the tolerance is checked between). */
inline constexpr std::uint64_t kInteractionDrawsPerRound = 32;

/**
 * @brief Every pairwise interaction of a game of up to 64 players, sampled: each pair's index is
 * the mean of its second differences D_ij(S) over coalitions S of the others drawn from the
 * index's own weights (SII: |S| uniform on 0..n - 2, then S uniform among the coalitions of that
 * size; STII: P(|S| = s) proportional to n - 1 - s), an unbiased estimate with its standard
 * error, each pair from its own random stream (seed, pair) so that results do not depend on the
 * threads. As the value solvers, rounds of kInteractionDrawsPerRound draws per pair (4
 * evaluations each) until max se / (max - min) of the pairs' indices on output 0 is below the
 * tolerance, or the budget (evaluations; 0: 200 draws per pair) is spent. The diagonal: SII,
 * phi_i by the permutation solver with the same options minus the rest of the row (its se
 * combining both); STII, v({i}) - v({}) exactly.
 * @throws InvalidArgument for fewer than 2 or more than 64 players, or a budget below two
 *   rounds of draws.
 */
PERFSHAP_EXPORT InteractionValues SampledInteractions(const Game& game, InteractionIndex index,
                                                      const SolverOptions& options = {});

}}  // namespace perfshap
