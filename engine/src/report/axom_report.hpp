// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The report of `perfshap axom`: one data set over one or more seeds (result.json with
// "method": "axom", points.csv, the box plot and the heat maps), or a fitted forest's AXOM run;
// and the summaries the paper's protocol over several data sets reports with (its tables and
// numbers are a reproduction: reproduce/axom_paper/).

#include <filesystem>
#include <string>
#include <vector>

#include "perfshap/axom.hpp"
#include "report/json.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief The runs of one data set, one per seed, and what the report says of them. */
struct AxomDataReport {
  std::string name;  ///< "wine", or the file's name
  std::vector<std::uint64_t> seeds;
  std::vector<AxomRun> runs;
  /** Heat maps around a test point of the first seed's run (empty grid: none). */
  ExplanationHeatmaps heatmaps;
  std::vector<std::string> feature_names;
};

/** @brief AXOM of a forest the host fitted (api::AxomRequest::model): its explanations of the
 *  rows given and their robustness there. */
struct AxomModelReport {
  std::string name;   ///< the data's
  std::string model;  ///< the model's description
  std::string model_source;  ///< how the request named it
  std::vector<std::string> feature_names;  ///< the model's features, in its order
  std::vector<std::string> class_names;    ///< one per class (the model's, else 0, 1, ...)
  /** Each feature's unit: its range over the rows (1 for a constant feature). */
  std::vector<double> scale;
  AxomExplanation explanation;
  /** The forest's and AXOM's robustness (no tree). */
  AxomRobustness robustness;
  AxomComparison forest_vs_axom;
  /** Around the first row (empty grid: fewer than two features). */
  ExplanationHeatmaps heatmaps;
  double seconds_explain = 0.0, seconds_robustness = 0.0;
  std::uint64_t seed = 0;  ///< the neighbours' streams
};

/** @brief Settings the report records. */
struct AxomReportSettings {
  double eps = 0.01;
  std::size_t neighbours = 10000;
  bool full_matrix = false;
  bool tune = false;
  int threads = 0;
  double elapsed_seconds = 0.0;
};

/** @brief The console summary of one data set. */
std::string AxomConsoleText(const AxomDataReport& report, const AxomReportSettings& settings);

/** @brief The report's content: result.json, points.csv and the SVGs of one data set. */
void BuildAxomReport(ReportContent& out, const AxomDataReport& report, const AxomReportSettings& settings);

/** @brief The console summary of a given forest's AXOM run. */
std::string AxomModelConsoleText(const AxomModelReport& report, const AxomReportSettings& settings);

/** @brief The report's content: result.json, points.csv, axom_values.csv, forest_values.csv and
 *  the figures of a given forest's AXOM run. */
void BuildAxomModelReport(ReportContent& out, const AxomModelReport& report,
                          const AxomReportSettings& settings);

/** @brief The models' keys in result.json (tree, forest, AXOM) and their names in figures. */
inline constexpr const char* kAxomModels[3] = {"dt", "rf", "axom"};
inline constexpr const char* kAxomModelNames[3] = {"Decision Tree", "Random Forest", "AXOM"};
/** @brief The comparisons' keys (tree vs forest, tree vs AXOM, forest vs AXOM) and names. */
inline constexpr const char* kAxomComparisons[3] = {"dt_vs_rf", "dt_vs_axom", "rf_vs_axom"};
inline constexpr const char* kAxomComparisonNames[3] = {"DT vs. RF", "DT vs. AXOM", "RF vs. AXOM"};

/** @brief One seed's run in result.json: each model's L_bar summary and accuracy, the p-values of
 *  the comparisons, the mislabelling and the seconds. */
Json AxomRunJson(const AxomRun& run, std::uint64_t seed);

/** @brief One data set over its seeds in result.json: the means (and stds over seeds) of each
 *  model's L_bar and accuracy, the p-values' medians, the mislabelling. */
Json AxomSummaries(const AxomDataReport& report);

/** @brief The box plot of every test point's L_bar, a group per data set, a box per model. */
Chart AxomBoxFigure(const std::vector<const AxomDataReport*>& reports);

/** @brief A fraction as a percentage with one decimal ("n/a" when not finite). */
std::string AxomPct(double v);
/** @brief A number with 2, 3 or 4 decimals ("n/a" when not finite). */
std::string AxomNum(double v, int decimals = 2);

}}}  // namespace perfshap::detail
