// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The splits of a robustness run as games (hardening round 2, item 16). A plan held in memory
// (explicit splits, or a plan the caller drew) is one window: every split's game is made and
// checked before any training. A drawn plan (holdout, mc:R, kfold:K, SplitSequence::Drawn) is
// solved a window at a time: the window's splits drawn, checked and made games, solved, and
// dropped, so its memory is a window's row indices whatever the number of splits. Windows give
// bitwise the values of one batch: the solvers number their random streams by the batch's
// game numbers (SolveBatchAcross's `first`).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "data/split_sequence.hpp"
#include "games/retrain_game.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/robustness.hpp"
#include "schedule/distribute.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief ExplainRobustness over the splits `splits` gives (a drawn plan: a window at a time).
 *  @param window splits per window; 0: SplitWindow's (tests give others: the values do not
 *    depend on it).
 *  @throws as ExplainRobustness. */
RobustnessResult ExplainRobustness(const Dataset& data, const SplitSequence& splits, const RobustnessOptions& options,
                                   std::size_t window = 0);

/** @brief Splits per window: all of a plan in memory; of a drawn plan, as many as 64 MB of row
 *  indices hold, at least 16 and at most 4096 (a few windows' drains, against the run's
 *  thousands of splits). The same on every process of an MPI run, whatever its threads. */
std::size_t SplitWindow(bool drawn, std::size_t n_splits, std::size_t n_rows);

/** @brief What the games of a run share and what makes each split's game. */
struct SplitGameSetup {
  const Dataset& data;
  const SplitSequence& splits;
  std::span<const Player> players;
  const Learner& learner;
  const CurveGridEvaluator& evaluator;
  std::span<const MetricDefinition* const> metrics;
  const RobustnessOptions& options;
};

/** @brief How messages name split r, e.g. "split 3 of mc:100 (0-based, 100 splits)". */
std::string SplitLabel(std::size_t r, std::size_t n_splits, const std::string& plan);

/** @brief Split r's game over `rows` (which must outlive it): it prepares the split when its
 *  first worker is made. `coalition_auc`: as RetrainGameSettings (empty: none). */
std::unique_ptr<RetrainGame> MakeSplitGame(const SplitGameSetup& setup, std::size_t r, const Split& rows,
                                           double baseline, std::span<double> coalition_auc);

/**
 * @brief The games of the splits `window`, made in parallel after the checks that name the
 * culprit before any training (rows in range, both classes in the test part); the error
 * reported is the one of the lowest failing split, whatever the thread count. Sets
 * baselines[r] (the test prevalence, where the PRC baseline is the prevalence). A drawn
 * plan's splits are drawn into `drawn` (their games view it; its memory reused from one
 * window to the next).
 */
std::vector<std::unique_ptr<RetrainGame>> MakeSplitGames(const SplitGameSetup& setup, ItemRange window,
                                                         std::vector<Split>& drawn, std::vector<double>& baselines,
                                                         std::span<double> coalition_auc);

/** @brief One progress over a run's windows: each window's solver reports its own units; the
 *  run's total is the windows before, this one, and the splits after it at this window's
 *  units per split. */
class WindowedProgress {
 public:
  WindowedProgress(ProgressCallback outer, std::size_t n_splits);
  /** @brief The callback for the solvers of `window` (empty without an outer callback). */
  ProgressCallback For(ItemRange window, bool last);
  /** @brief The window's units are done: the next window's count on from them. */
  void EndWindow();

 private:
  ProgressCallback outer_;
  std::size_t n_splits_;
  std::chrono::steady_clock::time_point start_;
  std::uint64_t before_ = 0;     // units of the windows done
  std::uint64_t this_done_ = 0;  // units of the window in flight, as last reported
};

}}}  // namespace perfshap::detail
