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
#include <span>
#include <string>
#include <vector>

#include "models/coalition_trainer.hpp"
#include "perfshap/curves.hpp"
#include "perfshap/game.hpp"
#include "perfshap/robustness.hpp"

namespace perfshap::detail {

/** @brief What a RetrainGame computes besides its split. */
struct RetrainGameSettings {
  /** Reads each coalition's curves at the grids; shared, must outlive the game. */
  const CurveGridEvaluator* evaluator = nullptr;
  /** How messages name the split, e.g. "split 3 of mc:100"; empty = the PreparedSplit's name. */
  std::string split_label;
  /** b of the precision payoffs (0.5, or this split's test prevalence). */
  double prc_baseline = 0.5;
  std::vector<RobustnessMetric> extra_metrics;
  double class_threshold = 0.5;
  /** Optional: 2^n slots that receive AUC_A of every evaluated coalition A (slot = bit mask).
   *  Each coalition is evaluated by exactly one task, so the writes never collide. */
  std::span<double> coalition_auc;
};

/**
 * @brief The coalition-retraining game of one train/test split.
 *
 * Immutable and shared by the workers; each worker owns a CoalitionTrainer (warm-started along
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

  int n_players() const override { return split_.n_players(); }
  std::size_t n_outputs() const override { return curve_outputs_ + settings_.extra_metrics.size(); }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  std::vector<std::string> player_names() const override { return split_.player_names(); }

  const PreparedSplit& split() const noexcept { return split_; }
  const RetrainGameSettings& settings() const noexcept { return settings_; }
  /** @brief Number of curve outputs (AUC, ROC grid, PR grid, AUPRC) before the extra metrics. */
  std::size_t curve_outputs() const noexcept { return curve_outputs_; }
  /** @brief Index of the first ROC grid output (1), PR grid output, AUPRC output. */
  std::size_t roc_offset() const noexcept { return 1; }
  std::size_t prc_offset() const noexcept { return 1 + settings_.evaluator->fpr_grid().size(); }
  std::size_t auprc_offset() const noexcept { return curve_outputs_ - 1; }

 private:
  const PreparedSplit& split_;
  RetrainGameSettings settings_;
  std::size_t curve_outputs_ = 0;
};

/** @brief Test prevalence of a split (positives / test rows). */
double TestPrevalence(const PreparedSplit& split);

}  // namespace perfshap::detail
