// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/game.hpp"

namespace perfshap {

/**
 * @brief Shapley values of a vector game, with the metadata to read them.
 *
 * phi is n_players x n_outputs, row-major: phi[i * n_outputs + k] is player i's value for
 * output k. Efficiency: sum_i phi(i, k) = full(k) - base(k).
 */
struct PERFSHAP_EXPORT ShapleyValues {
  std::vector<std::string> players;
  int n_players = 0;
  std::size_t n_outputs = 0;
  std::vector<double> phi;
  /** v(empty), k values. */
  std::vector<double> base;
  /** v(all players), k values. */
  std::vector<double> full;
  /** Number of coalitions evaluated. */
  std::uint64_t n_evaluations = 0;
  /** When requested: v(S) for every coalition, 2^n x k row-major, row = bit mask of S. */
  std::vector<double> coalition_values;
  /** Wall time of the solve in seconds. */
  double elapsed_seconds = 0.0;

  double operator()(int i, std::size_t k) const { return phi[static_cast<std::size_t>(i) * n_outputs + k]; }
  /** @brief Player i's values for all k outputs. */
  std::span<const double> player(int i) const {
    return {phi.data() + static_cast<std::size_t>(i) * n_outputs, n_outputs};
  }
};

/** @brief Options of ExactSolver. */
struct ExactOptions {
  /** Refuse games with more players than this (2^n coalitions); at most 63. */
  int max_players = 30;
  /** Visit coalitions in Gray-code order inside each block (one player changes per step). */
  bool gray_code = true;
  /** Return v(S) for every coalition in ShapleyValues::coalition_values. */
  bool store_values = false;
  /** Coalitions per block; 0 = chosen from n and k only (never from the thread count). */
  std::uint64_t block_size = 0;
  ExecutionOptions execution;
};

/**
 * @brief Exact Shapley values by streaming all 2^n coalitions.
 *
 * phi_i = sum_S v(S) c_i(S) with c_i(S) = w(|S|-1) if i in S and -w(|S|) otherwise,
 * w(s) = s!(n-s-1)!/n! = 1/(n C(n-1, s)), computed from an exact 128-bit binomial.
 * v(S) is never stored unless asked. Coalitions are cut into fixed blocks (fixed by n, k
 * and block_size only); each block accumulates its own partial sums, and partials are
 * added in block order, so the result is bitwise identical for any thread count.
 */
class PERFSHAP_EXPORT ExactSolver {
 public:
  explicit ExactSolver(ExactOptions options = {});
  /**
   * @brief Solves the game.
   * @throws InvalidArgument when n_players() > options.max_players (the message says how many
   *   coalitions that would be and what to do), or n_players() < 1.
   * @throws Cancelled when the cancellation flag is raised.
   */
  ShapleyValues Solve(const Game& game) const;
  /**
   * @brief Solves several games with the same players and outputs in one parallel pass (e.g.
   * one game per cross-validation repetition): the blocks of all games are scheduled together,
   * so repetitions and coalition blocks run concurrently. results[g] is bitwise what
   * Solve(*games[g]) returns (blocks depend on n, k and block_size only). Partial sums take
   * up to 256 MB per game.
   * @throws InvalidArgument when the games differ in n_players() or n_outputs().
   */
  std::vector<ShapleyValues> SolveBatch(std::span<const Game* const> games) const;

  /** @brief Receives one solved game: its index in the batch and its values. */
  using GameSink = std::function<void(std::size_t game, ShapleyValues&& values)>;
  /**
   * @brief SolveBatch that streams: each game's values (bitwise those of Solve(*games[g])) go to
   * sink(g, values) once solved, in game order (g = 0, 1, ...; a game solved early waits for the
   * ones before it), one call at a time, from whichever thread finished it. Only the games
   * waiting for an earlier one are held, so a long batch needs memory for a few games, not all.
   * values.elapsed_seconds is the time from the start of the batch to the hand-over. A sink
   * that throws stops the batch like a failing game.
   * @throws InvalidArgument as SolveBatch.
   */
  void SolveBatch(std::span<const Game* const> games, const GameSink& sink) const;
  const ExactOptions& options() const noexcept { return options_; }

 private:
  ExactOptions options_;
};

/** @brief The Shapley weight w(s) = s!(n-s-1)!/n! for a coalition of size s not containing
 *  the player, 0 <= s < n <= 63, correctly rounded from the exact rational. */
PERFSHAP_EXPORT double ShapleyWeight(int n, int s);

}  // namespace perfshap
