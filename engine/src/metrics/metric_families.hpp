// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <vector>

#include "perfshap/blocks/metric_registry.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** auc, average_precision (metric_definitions_ranking.cpp). */
std::vector<MetricDefinition> RankingMetrics();
/** brier, log_loss. */
std::vector<MetricDefinition> ProbabilityMetrics();
/** accuracy, balanced_accuracy, sensitivity, specificity, precision, f1, cost. */
std::vector<MetricDefinition> ClassMetrics();
/** mse, mae, rmse, r2. */
std::vector<MetricDefinition> RegressionMetrics();

}}}  // namespace perfshap::detail
