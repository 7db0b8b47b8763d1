// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// RetrainGame (ARCHITECTURE.md "The games"; shapauc-shaproc-robustness sections 3.1-3.4): the
// value of a coalition A of features is what the learner trained on A's columns achieves on the
// split's test rows. One training yields every output:
//   [0]                 AUC_A - 0.5                                   (eq. 5)
//   [1, 1 + F)          tpr_A(f') - f'  at each FPR grid point f'      (eq. 7)
//   [1 + F, 1 + F + R)  precision_A(r') - b  at each recall grid point (eq. 15)
//   [1 + F + R]         AUPRC_A - b                                    (eq. 13)
//   then one output per extra scalar metric (its raw value).
// The empty coalition is the random classifier: every curve payoff 0 (AUC 0.5, tpr = fpr,
// precision = b); the extra metrics take the value of the prior-only model there.

#include <cstddef>
#include <memory>
#include <atomic>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/curves.hpp"
#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/metric_registry.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief What a RetrainGame computes besides its split. */
struct RetrainGameSettings {
  /** Reads each coalition's curves at the grids; shared, must outlive the game. */
  const CurveGridEvaluator* evaluator = nullptr;
  /** How messages name the split, e.g. "split 3 of mc:100"; empty = the PreparedSplit's name. */
  std::string split_label;
  /** b of the precision payoffs (0.5, or this split's test prevalence). */
  double prc_baseline = 0.5;
  /** Extra scalar metrics (registered, with a retrain payoff); must outlive the game. */
  std::vector<const MetricDefinition*> extra_metrics;
  double class_threshold = 0.5;
  /** Optional: 2^n slots that receive AUC_A of every evaluated coalition A (slot = bit mask).
   *  Each coalition is evaluated by exactly one task, so the writes never collide. */
  std::span<double> coalition_auc;
};

/** @brief What a RetrainGame needs to prepare its split itself, on first use (all views must
 *  outlive the game). */
struct SplitSource {
  const Learner* learner = nullptr;
  const Dataset* data = nullptr;
  std::span<const Player> players;
  std::span<const std::size_t> train_rows;
  std::span<const std::size_t> test_rows;
  /** How messages name the training rows, e.g. "the training rows of split 3 of mc:100". */
  std::string name;
};

/**
 * @brief The coalition-retraining game of one train/test split.
 *
 * Immutable and shared by the workers; each worker owns a CoalitionFitter (warm-started along
 * the Gray code inside a block, Reset at each block start) and the curve scratch, so Evaluate
 * allocates nothing.
 */
class RetrainGame final : public Game {
 public:
  /**
   * @param split the prepared split (must outlive the game); its test part must hold both
   *   classes (checked: DataError naming the split).
   * @throws InvalidArgument without an evaluator or with a coalition_auc span of the wrong size.
   */
  RetrainGame(const PreparedSplit& split, RetrainGameSettings settings);

  /**
   * @brief A game that prepares its split (PreparedSplit) when its first worker is made, on
   * that worker's thread: the preparation of many splits then runs inside the solver's one
   * parallel pass. The test part must hold both classes (checked here: DataError).
   * @throws InvalidArgument without an evaluator or with a coalition_auc span of the wrong size.
   */
  RetrainGame(SplitSource source, RetrainGameSettings settings);

  int n_players() const override { return n_players_; }
  std::size_t n_outputs() const override { return curve_outputs_ + settings_.extra_metrics.size(); }
  /** @throws whatever preparing the split throws (DataError for bad data, InvalidArgument). */
  std::unique_ptr<GameWorker> MakeWorker() const override;
  /** @brief Rebinds a worker of another RetrainGame (keeping its memory), else a new one. */
  std::unique_ptr<GameWorker> MakeWorkerFrom(std::unique_ptr<GameWorker> previous) const override;
  std::vector<std::string> player_names() const override { return names_; }
  /** @brief Prepares the split (from the source) now. */
  void Prepare() const override { split(); }
  /** @brief At least 32 coalitions (or all 2^n) per block, so that the GLMs' fits are
   *  warm-started along the Gray code; at most 256 blocks, one game's partial sums under 32 MB
   *  (many splits are in flight at once). */
  BlockHint block_hint() const override { return {32, 256, std::uint64_t{32} << 20}; }

  /** @brief The prepared split (prepared now if it was not yet). */
  const PreparedSplit& split() const;
  /** @brief Frees the split prepared from the source (split() would prepare it again), once
   *  nothing uses it: no worker bound to this game evaluates any more. For a batch that
   *  streams its games, so memory is reused from one split to the next. */
  void ReleaseSplit() const;
  const RetrainGameSettings& settings() const noexcept { return settings_; }
  /** @brief Number of curve outputs (AUC, ROC grid, PR grid, AUPRC) before the extra metrics. */
  std::size_t curve_outputs() const noexcept { return curve_outputs_; }
  /** @brief Index of the first PR grid output (the ROC grid's is 1), the AUPRC output. */
  std::size_t prc_offset() const noexcept { return 1 + settings_.evaluator->fpr_grid().size(); }
  std::size_t auprc_offset() const noexcept { return curve_outputs_ - 1; }

 private:
  void Check(std::span<const double> test_labels);

  SplitSource source_;
  mutable std::mutex prepared_mutex_;  // only while preparing or releasing
  mutable std::unique_ptr<PreparedSplit> owned_;
  mutable std::atomic<const PreparedSplit*> prepared_{nullptr};
  const PreparedSplit* split_ = nullptr;
  int n_players_ = 0;
  std::vector<std::string> names_;
  RetrainGameSettings settings_;
  std::size_t curve_outputs_ = 0;
};

/** @brief Test prevalence of a split (positives / test rows). */
double TestPrevalence(const PreparedSplit& split);
/** @brief Test prevalence of the rows `test` of labels `label`. */
double TestPrevalence(std::span<const double> label, std::span<const std::size_t> test);

}}}  // namespace perfshap::detail
