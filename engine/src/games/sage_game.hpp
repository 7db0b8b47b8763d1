// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// SAGE's game (Covert, Lundberg and Lee 2020, "Understanding global feature importance through
// additive importance measures"): v(S) = the metric of the predictions that know only the
// features in S. Row r's prediction given S is the prediction game's value of S for row r: the
// mean of f over the background's (marginal) or the value function's (conditional) draws of the
// features off S, averaged per row before the metric. A loss is negated, so that a positive value
// means a feature helps and the values add up to metric(all) - metric(none) signed that way.
//
// With a conditional value function the predictions come in `groups` groups of draws (output
// r * groups + g of the prediction game): output 0 is the metric of the predictions averaged over
// every group, output 1 + g that of the predictions averaged over every group but g. Shapley
// values are linear in v, so the jackknife of those outputs' values is the Monte Carlo standard
// error of the draws (explain/sage.cpp).

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/metric_registry.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief A metric's scratch memory (grows only). */
struct MetricScratch {
  std::vector<double> yhat;
  std::vector<std::size_t> order;
};

/**
 * @brief The metric of predictions `score` (probabilities of class 1 or predicted values)
 * against `y`, negated for a loss: AUC and average precision from the scores, the class metrics
 * from the classes 1{score > threshold}, the others from the scores.
 * @throws InvalidArgument as the metric's function for labels or scores outside its domain.
 */
double SignedMetric(const MetricDefinition& metric, std::span<const double> y, std::span<const double> score,
                    double threshold, MetricScratch& scratch);

class SageGame final : public Game {
 public:
  /**
   * @param predictions the prediction game of the rows whose labels are `labels` (one model
   *   output, `groups` groups of draws a row: n_outputs() == labels.size() * groups); must outlive
   *   this game, as must `labels` and `metric`.
   * @throws InvalidArgument when the sizes do not match.
   */
  SageGame(const Game& predictions, std::span<const double> labels, const MetricDefinition& metric,
           double threshold, std::size_t groups);
  int n_players() const override { return predictions_.n_players(); }
  std::size_t n_outputs() const override { return groups_ > 1 ? groups_ + 1 : 1; }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  std::vector<std::string> player_names() const override { return predictions_.player_names(); }
  void Prepare() const override { predictions_.Prepare(); }
  BlockHint block_hint() const override { return predictions_.block_hint(); }

  const Game& predictions() const noexcept { return predictions_; }
  std::span<const double> labels() const noexcept { return labels_; }
  const MetricDefinition& metric() const noexcept { return metric_; }
  double threshold() const noexcept { return threshold_; }
  std::size_t groups() const noexcept { return groups_; }

 private:
  const Game& predictions_;
  std::span<const double> labels_;
  const MetricDefinition& metric_;
  double threshold_;
  std::size_t groups_;
};

}}}  // namespace perfshap::detail
