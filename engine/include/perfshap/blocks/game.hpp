// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/coalition.hpp"
#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/**
 * @brief Evaluates a game's coalitions on one thread, with its own scratch memory.
 *
 * A solver makes one worker per task and calls Reset() at the start of every block of
 * coalitions, then Evaluate() for the block's coalitions in order (Gray-code order when the
 * solver uses it, so consecutive coalitions differ by one player). A worker may cache work
 * from the previous coalition of the same block, but its results must not depend on what it
 * computed before the last Reset(): that is what makes results independent of thread count.
 */
class PERFSHAP_EXPORT GameWorker {
 public:
  virtual ~GameWorker();
  /** @brief Forget any state cached from earlier coalitions. */
  virtual void Reset() {}
  /**
   * @brief Writes v(s) into out.
   * @param s the coalition (bit i = player i).
   * @param out n_outputs() values; must not allocate in the steady state.
   */
  virtual void Evaluate(Coalition s, std::span<double> out) = 0;
  /**
   * @brief Writes v(s) for a coalition of a game of any size (sampled solvers beyond 64
   * players). The default passes a coalition of players below 64 to Evaluate() and throws
   * InvalidArgument for any other: games that support more players override it.
   */
  virtual void EvaluateWide(WideCoalition s, std::span<double> out);
  /**
   * @brief Writes v(s) for several coalitions in one call: coalition c's words are
   * words[c * nw, (c + 1) * nw) (nw = CoalitionWords(n): one word for n <= 64), its values go to
   * out[c * k, (c + 1) * k), k = n_outputs(). The default evaluates them one after the other as
   * Evaluate() / EvaluateWide() would; a worker whose every evaluation is one call of a model
   * (a user's model: Python's, a fitted estimator) overrides it to predict them all in as few
   * calls as its memory allows (the game's BlockHint::batch_coalitions says how many it takes),
   * each coalition's values exactly those of its own Evaluate(). Solvers call it only for games
   * whose hint asks for batches.
   */
  virtual void EvaluateMany(std::span<const std::uint64_t> words, std::size_t nw, std::span<double> out);
};

/**
 * @brief What a game tells a solver about cutting its coalitions into blocks of work (the
 * solver's block policy reads it; results depend only on the game and the policy, never on
 * the thread count).
 */
struct BlockHint {
  /** Coalitions one worker should evaluate in a row (e.g. warm starts along Gray-code steps):
   *  blocks hold at least this many (or all of them). */
  std::uint64_t min_coalitions = 1;
  /** At most this many blocks per game (parallelism enough; fewer partial sums). */
  std::uint64_t max_blocks = 1024;
  /** Memory one game's per-block partial sums may take. */
  std::uint64_t partial_bytes = std::uint64_t{256} << 20;
  /** Coalitions GameWorker::EvaluateMany takes at once to advantage (a model call each
   *  otherwise); 1: the game gains nothing from batches, and solvers evaluate one at a time. */
  std::uint64_t batch_coalitions = 1;
};

/**
 * @brief A cooperative game with vector values, v: coalition -> R^k.
 *
 * Vector-valued on purpose: one coalition's work (one model training, one marginalisation)
 * yields every output (AUC, every ROC grid point, every individual XPER value...), and
 * Shapley values are linear in v, so all k outputs share one pass of a solver.
 * A Game is immutable and shared by all workers.
 */
class PERFSHAP_EXPORT Game {
 public:
  virtual ~Game();
  /** @brief Number of players n (features). */
  virtual int n_players() const = 0;
  /** @brief Number of outputs k of v. */
  virtual std::size_t n_outputs() const = 0;
  /** @brief A new worker with its own scratch memory. */
  virtual std::unique_ptr<GameWorker> MakeWorker() const = 0;
  /**
   * @brief A worker for this game that may take over the memory of `previous`, an idle worker
   * of another game (a solver moving a thread from one game of a batch to the next): games of
   * the same kind rebind it instead of allocating, and touch no fresh memory. The default
   * ignores `previous` and calls MakeWorker(). Results do not depend on which is used.
   */
  virtual std::unique_ptr<GameWorker> MakeWorkerFrom(std::unique_ptr<GameWorker> previous) const;
  /** @brief Player names (default "x0", "x1", ...). */
  virtual std::vector<std::string> player_names() const;
  /**
   * @brief Makes the game ready to evaluate: expensive state its workers share (a split's
   * statistics, say). A solver calls it once before the game's first worker, possibly while
   * other games of a batch are being evaluated; a game prepared lazily by MakeWorker need not
   * override it. Default: nothing.
   */
  virtual void Prepare() const {}
  /** @brief How the solver should block this game's coalitions (default: BlockHint{}). */
  virtual BlockHint block_hint() const { return {}; }
};

/** @brief Evaluates v(s) once with a fresh worker (convenience for tests and small games). */
PERFSHAP_EXPORT std::vector<double> EvaluateCoalition(const Game& game, Coalition s);

}}  // namespace perfshap
