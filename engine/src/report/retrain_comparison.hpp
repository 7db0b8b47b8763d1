// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Retrain vs marginalise (issue 38): on the same splits and learner, each feature's ShapAUC (the
// robustness method: the learner retrained on every coalition, the AUC of each refit) beside its
// SAGE value (the model fitted once per split, the features off a coalition imputed by the value
// function). The first asks what the model could do without a feature, the second what the fitted
// model loses when the feature is hidden from it; a feature whose information others carry scores
// low on the first and may score high on the second. result.json's `retrain_comparison`,
// retrain_vs_marginalise.csv and retrain_vs_marginalise.svg.

#include <cstddef>
#include <string>
#include <vector>

#include "report/json.hpp"
#include "report/report_content.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

struct RetrainComparison {
  /** SAGE's metric ("auc", "log_loss" ...) and the splits' plan and count. */
  std::string sage_metric;
  std::string plan;
  std::size_t splits = 0;
  std::vector<std::string> players;
  /** Mean and standard deviation over the splits, one a player. */
  std::vector<double> sage, sage_std;
  std::vector<double> shapauc, shapauc_std;
};

/** @brief {"plan", "splits", "sage_metric", "players": {name: {sage, sage_std, shapauc,
 *  shapauc_std, rank_sage, rank_shapauc}}, "largest_rank_change"}. */
Json RetrainComparisonJson(const RetrainComparison& c);

/** @brief The console lines: the strongest features under each, and those whose rank moves (at
 *  most five). */
std::string RetrainComparisonText(const RetrainComparison& c);

/** @brief retrain_vs_marginalise.csv and retrain_vs_marginalise.svg (paired bars, +-1 std). */
void AddRetrainComparisonFiles(ReportContent& out, const RetrainComparison& c);

}}}  // namespace perfshap::detail
