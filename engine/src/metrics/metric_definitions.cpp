// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The built-in metric definitions, by family. XPER's terms G (ARCHITECTURE.md), each from the
// row statistic v of individual i over its n hybrid predictions; losses negated. A new metric is
// one more definition in its family here (or a family of its own, listed in registry.cpp).
#include <cmath>

#include "metrics/metric_families.hpp"
#include "perfshap/blocks/metric.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::vector<MetricDefinition> RankingMetrics() {
  MetricDefinition auc;
  auc.name = "auc";
  auc.label = "AUC";
  auc.description = "area under the ROC curve, ties counted one half";
  auc.input = MetricInput::kRanking;
  auc.needs_positive = auc.needs_negative = true;
  auc.xper_statistic = XperStatistic::kRank;  // its own path: the comparison sample's prefix counts

  MetricDefinition ap;
  ap.name = "average_precision";
  ap.label = "average precision";
  ap.description = "step-wise area of the PR curve (sklearn average_precision_score)";
  ap.input = MetricInput::kRanking;
  ap.needs_positive = true;
  ap.retrain = [](const RetrainSample& s) { return s.average_precision; };
  return {auc, ap};
}

std::vector<MetricDefinition> ProbabilityMetrics() {
  MetricDefinition brier;
  brier.name = "brier";
  brier.label = "Brier";
  brier.description = "mean squared error of the probabilities (a loss)";
  brier.input = MetricInput::kProbability;
  brier.loss = true;
  brier.retrain = [](const RetrainSample& s) { return Brier(s.y, s.score); };
  brier.xper_statistic = XperStatistic::kSquaredError;
  brier.xper_term = [](double v, bool, const XperTermContext& c) { return -v / c.n; };  // G = -(y - p)^2

  MetricDefinition log_loss;
  log_loss.name = "log_loss";
  log_loss.label = "log-loss";
  log_loss.description = "mean negative log-likelihood (a loss)";
  log_loss.input = MetricInput::kProbability;
  log_loss.loss = true;
  log_loss.retrain = [](const RetrainSample& s) { return LogLoss(s.y, s.score); };
  return {brier, log_loss};
}

std::vector<MetricDefinition> ClassMetrics() {
  auto make = [](const char* name, const char* description) {
    MetricDefinition m;
    m.name = name;
    m.label = name;
    for (char& c : m.label)
      if (c == '_') c = ' ';
    m.description = description;
    m.input = MetricInput::kClass;
    m.xper_statistic = XperStatistic::kPositives;
    return m;
  };
  MetricDefinition accuracy = make("accuracy", "share of correct classes");
  accuracy.retrain = [](const RetrainSample& s) { return Accuracy(s.y, s.yhat); };
  // G = yhat y + (1 - yhat)(1 - y)
  accuracy.xper_term = [](double v, bool pos, const XperTermContext& c) { return (pos ? v : c.n - v) / c.n; };

  MetricDefinition balanced = make("balanced_accuracy", "mean of sensitivity and specificity");
  balanced.needs_positive = balanced.needs_negative = true;
  balanced.retrain = [](const RetrainSample& s) { return BalancedAccuracy(s.y, s.yhat); };
  // G = 0.5 (yhat y / ybar + (1 - yhat)(1 - y) / (1 - ybar))
  balanced.xper_term = [](double v, bool pos, const XperTermContext& c) {
    return pos ? 0.5 * v / c.n1 : 0.5 * (c.n - v) / c.n0;
  };

  MetricDefinition sensitivity = make("sensitivity", "recall of class 1");
  sensitivity.needs_positive = true;
  sensitivity.retrain = [](const RetrainSample& s) { return Sensitivity(s.y, s.yhat); };
  // G = yhat y / ybar
  sensitivity.xper_term = [](double v, bool pos, const XperTermContext& c) { return pos ? v / c.n1 : 0.0; };

  MetricDefinition specificity = make("specificity", "recall of class 0");
  specificity.needs_negative = true;
  specificity.retrain = [](const RetrainSample& s) { return Specificity(s.y, s.yhat); };
  // G = (1 - yhat)(1 - y) / (1 - ybar)
  specificity.xper_term = [](double v, bool pos, const XperTermContext& c) { return pos ? 0.0 : (c.n - v) / c.n0; };

  MetricDefinition precision = make("precision", "share of class 1 among the predicted 1s");
  precision.retrain = [](const RetrainSample& s) { return Precision(s.y, s.yhat); };
  precision.xper_needs_delta = true;
  // G = yhat y / delta(S); no positive prediction in the comparison sample -> 0 (as sklearn's
  // zero_division=0). delta_count = n delta(S).
  precision.xper_term = [](double v, bool pos, const XperTermContext& c) {
    return pos && c.delta_count > 0 ? v / c.delta_count : 0.0;
  };

  MetricDefinition f1 = make("f1", "harmonic mean of precision and sensitivity");
  f1.label = "F1";
  f1.xper_statistic = XperStatistic::kNone;  // not an average of individual terms
  f1.retrain = [](const RetrainSample& s) { return F1(s.y, s.yhat); };

  MetricDefinition cost = make("cost", "misclassification cost CFP [yhat=1, y=0] + CFN [yhat=0, y=1] (a loss)");
  cost.loss = true;
  // G = -(CFP [yhat = 1, y = 0] + CFN [yhat = 0, y = 1])
  cost.xper_term = [](double v, bool pos, const XperTermContext& c) {
    return pos ? -c.cfn * (c.n - v) / c.n : -c.cfp * v / c.n;
  };
  return {accuracy, balanced, sensitivity, specificity, precision, f1, cost};
}

std::vector<MetricDefinition> RegressionMetrics() {
  auto make = [](const char* name, const char* description, bool loss) {
    MetricDefinition m;
    m.name = name;
    m.label = name;
    m.description = description;
    m.input = MetricInput::kRegression;
    m.loss = loss;
    return m;
  };
  MetricDefinition mse = make("mse", "mean squared error (a loss)", true);
  mse.label = "MSE";
  mse.retrain = [](const RetrainSample& s) { return Mse(s.y, s.score); };
  mse.xper_statistic = XperStatistic::kSquaredError;
  mse.xper_term = [](double v, bool, const XperTermContext& c) { return -v / c.n; };  // G = -(y - f)^2

  MetricDefinition mae = make("mae", "mean absolute error (a loss)", true);
  mae.label = "MAE";
  mae.retrain = [](const RetrainSample& s) { return Mae(s.y, s.score); };
  mae.xper_statistic = XperStatistic::kAbsoluteError;
  mae.xper_term = [](double v, bool, const XperTermContext& c) { return -v / c.n; };  // G = -|y - f|

  MetricDefinition rmse = make("rmse", "root mean squared error (a loss)", true);
  rmse.label = "RMSE";
  rmse.retrain = [](const RetrainSample& s) { return Rmse(s.y, s.score); };

  MetricDefinition r2 = make("r2", "coefficient of determination", false);
  r2.label = "R\u00b2";
  r2.needs_target_variance = true;
  r2.retrain = [](const RetrainSample& s) { return R2(s.y, s.score); };
  r2.xper_statistic = XperStatistic::kSquaredError;
  // G = 1 - (y - f)^2 / var(y)
  r2.xper_term = [](double v, bool, const XperTermContext& c) { return 1.0 - v / (c.n * c.var_y); };
  return {mse, mae, rmse, r2};
}

}}}  // namespace perfshap::detail
