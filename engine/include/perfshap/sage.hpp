// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// SAGE (Covert, Lundberg and Lee 2020): a model's performance decomposed over its features.
// v(S) = the metric of the predictions that know only the features in S, the others imputed by
// a value function (the background's rows, or a conditional distribution given S as SHAP's
// conditional values draw them: shap.hpp's ShapConditional), the imputed predictions averaged
// per row before the metric. Losses are negated, so a positive value means a feature helps, and
// the values add up to metric(all features) - metric(none), signed so. Solved exactly for few
// players and sampled past that (the permutation solver's stopping rule is SAGE's: the largest
// standard error below tolerance x the values' range).

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/export.hpp"
#include "perfshap/shap.hpp"

namespace perfshap { inline namespace v0 {

/** @brief Options of ExplainSage. */
struct SageOptions {
  /** A registered metric (metric_registry.hpp) but the curves'; empty: log_loss for a classifier,
   *  mse for a regressor. */
  std::string metric;
  /** The class rule of the 0/1 metrics: prediction > threshold. */
  double threshold = 0.5;
  /** The value function of the features off a coalition, and its draws a coalition and row. */
  ShapConditional conditional = ShapConditional::kMarginal;
  std::size_t conditional_samples = 1000;
  /** The regressor of the regression value function (as ShapOptions'). */
  std::string regression_model = "linear";
  /** The solver (as ShapOptions'), its sampling and the execution. */
  SolverSpec solver = "auto";
  SolverOptions solver_options;
};

/** @brief SAGE values of a model's performance. */
struct PERFSHAP_EXPORT SageValues {
  std::vector<std::string> players;
  /** The metric's name and label, and whether it is a loss (its values negated). */
  std::string metric;
  std::string metric_label;
  bool loss = false;
  /** phi[j]: player j's share of metric(all) - metric(none), signed so positive helps. */
  std::vector<double> phi;
  /** Standard errors of phi: the solver's and the draws' (zero when exact). */
  std::vector<double> phi_se;
  /** The metric (unsigned, as the metric reads) with every feature, and with none (each row's
   *  prediction the mean prediction). */
  double metric_full = 0.0;
  double metric_empty = 0.0;
  ShapConditional conditional = ShapConditional::kMarginal;
  std::size_t conditional_samples = 0;
  bool conditional_exact = false;
  /** The conditional draws the model predicted, on average a coalition (one that draws) and
   *  row: at most conditional_samples, fewer where drawn background rows repeat (empirical,
   *  ctree: a repeated draw is predicted once); 0 when none were drawn. */
  double conditional_distinct_draws = 0.0;
  /** The regression value function's regressor; empty for the others. */
  std::string regression_model;
  std::size_t n_rows = 0;
  SolveReport solve;
  double elapsed_seconds = 0.0;

  /** @brief sum_j phi_j = signed metric(all) - signed metric(none). */
  double Total() const;
};

/**
 * @brief SAGE values of `model` (one output: a binary classifier's P(y = 1) or a regressor's
 * prediction) on `rows` with labels `labels` (0/1 for a classification metric), the features off
 * a coalition imputed from `background` (the marginal value function) or drawn given the
 * coalition from the distribution fitted to it. `players` are groups of model features (empty:
 * one per feature, named by `feature_names`).
 * @throws InvalidArgument (naming the option) for a model with several outputs, a metric that is
 *   not defined on the labels or the predictions, sizes that do not match, and as
 *   ExplainInterventional.
 */
PERFSHAP_EXPORT SageValues ExplainSage(const Model& model, ColumnMatrix rows, std::span<const double> labels,
                                       ColumnMatrix background, std::span<const Player> players,
                                       std::span<const std::string> feature_names,
                                       const SageOptions& options = {});

}}  // namespace perfshap
