// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A conditional value function's values beside the marginal one's on the same model, rows and
// players (issue 38's "conditional vs marginal side by side"): each player's two values, their
// difference and their ranks, as result.json's `marginal_comparison`, conditional_vs_marginal.csv
// and conditional_vs_marginal.svg. The methods that take a conditional value function (xper,
// sage) compute the marginal values beside it and report them with this.

#include <string>
#include <vector>

#include "perfshap/blocks/game_settings.hpp"
#include "report/json.hpp"
#include "report/report_content.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

struct ValueFunctionComparison {
  /** The conditional value function's name, and what the values are (a figure's axis). */
  std::string conditional;
  std::string quantity;
  std::vector<std::string> players;
  /** One value a player under each; the conditional values' standard errors (empty: none). */
  std::vector<double> conditional_phi;
  std::vector<double> conditional_se;
  std::vector<double> marginal_phi;

  /** @brief The players by decreasing value, ties in player order. */
  static std::vector<std::size_t> Order(const std::vector<double>& values);
  /** @brief Player j's rank under `values` (1: the largest value). */
  static std::vector<int> Ranks(const std::vector<double>& values);
};

/** @brief {"value_function", "players": {name: {conditional, marginal, difference,
 *  rank_conditional, rank_marginal}}, "largest_rank_change"}. */
Json ComparisonJson(const ValueFunctionComparison& c);

/** @brief The console lines: the players whose rank moves, at most five. */
std::string ComparisonText(const ValueFunctionComparison& c);

/** @brief conditional_vs_marginal.csv and conditional_vs_marginal.svg. */
void AddComparisonFiles(ReportContent& out, const ValueFunctionComparison& c);

/** @brief The dependence of the features in a conditional value function's training data (its
 *  background): each pair's Pearson correlation. */
struct FeatureDependence {
  std::vector<std::string> features;
  std::size_t rows = 0;
  /** F x F row-major; NaN off the diagonal where a column is constant. */
  std::vector<double> correlation;
};

/** @brief The correlations of the background's columns (column-major, one per name). */
FeatureDependence DependenceOf(ColumnMatrix background, const std::vector<std::string>& names);

/** @brief {"method": "pearson", "rows", "features", "correlation": F rows of F (null: none)}. */
Json DependenceJson(const FeatureDependence& d);

/** @brief dependence.svg: the correlation heat map (up to kDependenceMapFeatures features). */
void AddDependenceFiles(ReportContent& out, const FeatureDependence& d);
inline constexpr std::size_t kDependenceMapFeatures = 40;

}}}  // namespace perfshap::detail
