// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The performance metrics as the methods use them, one registry for all: what a metric reads
// (scores, probabilities, classes, a real target), what its labels must hold, its value as a
// retraining payoff (robustness: one model's test predictions) and its individual term as XPER
// decomposes it (ARCHITECTURE.md "XPER's individual terms G"). A method accepts the metrics
// that define what it needs (retrain or xper) and names the others' absence in its errors.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/** @brief What a metric reads from a model's predictions. */
enum class MetricInput {
  kRanking,      ///< only the order of the scores (AUC, average precision)
  kProbability,  ///< probabilities of class 1 (Brier, log-loss)
  kClass,        ///< classes yhat = 1{prediction > threshold} (accuracy, precision...)
  kRegression,   ///< predictions of a real target (MSE, R2...)
};

/** @brief One model's test predictions, as a retraining payoff reads them. */
struct RetrainSample {
  std::span<const double> y;       ///< labels (0/1) or the real target
  std::span<const double> score;   ///< probabilities of class 1, or predictions
  std::span<const double> yhat;    ///< classes 1{score > threshold} (class metrics only)
  double average_precision = 0.0;  ///< the step-wise area of the coalition's PR curve
};

/** @brief What an XPER term needs besides the row statistic: sample size, class counts,
 *  var(y) (ddof 0), costs, and for precision n delta(S). */
struct XperTermContext {
  double n = 0, n1 = 0, n0 = 0, var_y = 0, cfp = 1, cfn = 1, delta_count = 0;
};

/** @brief The statistic XPER sums over an individual's n hybrid predictions f(z_iu). */
enum class XperStatistic {
  kNone,           ///< not decomposed by XPER
  kRank,           ///< AUC: prefix counts in the sorted comparison sample (a path of its own)
  kSquaredError,   ///< sum_u (y_i - f)^2
  kAbsoluteError,  ///< sum_u |y_i - f|
  kPositives,      ///< sum_u 1{f > threshold}
};

/** @brief A registered metric. */
struct PERFSHAP_EXPORT MetricDefinition {
  /** The name methods and front ends use ("balanced_accuracy"). */
  std::string name;
  /** How reports and figures name it ("AUC", "balanced accuracy", "R²"). */
  std::string label;
  /** One line for help texts. */
  std::string description;
  MetricInput input = MetricInput::kClass;
  /** Lower is better (XPER decomposes -metric so that larger is better). */
  bool loss = false;
  /** The labels must hold a positive, a negative, or a target that varies, for the metric to
   *  be defined (checked by the methods, one-line errors). */
  bool needs_positive = false;
  bool needs_negative = false;
  bool needs_target_variance = false;
  /** Robustness: the metric of one model's test predictions (its raw value); null when the
   *  metric is not a retraining payoff. */
  double (*retrain)(const RetrainSample& sample) = nullptr;
  /** XPER: the statistic of an individual's hybrid predictions, and the individual term
   *  v_i = (1/n) sum_u G(y_i; f(z_iu)) from it (losses negated); kNone / null when XPER does not
   *  decompose the metric. `positive` is y_i == 1. */
  XperStatistic xper_statistic = XperStatistic::kNone;
  double (*xper_term)(double statistic, bool positive, const XperTermContext& context) = nullptr;
  /** XPER: the term needs delta(S), the share of comparison points classified positive. */
  bool xper_needs_delta = false;

  bool regression() const noexcept { return input == MetricInput::kRegression; }
  bool xper() const noexcept { return xper_statistic != XperStatistic::kNone; }
};

/**
 * @brief The metric called `name`.
 * @param method the method asking ("xper", "robustness", "sage"), for the message.
 * @throws InvalidArgument naming the bad value and listing the metrics the method accepts
 *   (those with an xper term for "xper", a retrain payoff for "robustness", a retrain payoff
 *   or the AUC for "sage", all otherwise).
 */
PERFSHAP_EXPORT const MetricDefinition& FindMetric(const std::string& name, const std::string& method = "");

/** @brief Every registered metric, in registry order. */
PERFSHAP_EXPORT std::vector<const MetricDefinition*> RegisteredMetrics();

/** @brief The names of the metrics `method` accepts, in registry order ("xper", "robustness"). */
PERFSHAP_EXPORT std::vector<std::string> MetricNames(const std::string& method);

}}  // namespace perfshap
