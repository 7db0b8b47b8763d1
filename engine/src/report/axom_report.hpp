// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The report of `perfshap axom`: one data set over one or more seeds (result.json with
// "method": "axom", points.csv, the box plot and the heat maps), or the paper's protocol over
// several data sets (the paper's Tables 1-4 as CSV and Markdown beside the paper's numbers, the
// box plots of its Fig. 6).

#include <filesystem>
#include <string>
#include <vector>

#include "perfshap/axom.hpp"
#include "report/output.hpp"

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

/** @brief Writes result.json, points.csv and the SVGs of one data set into `out`. */
void WriteAxomReport(OutputDir& out, const AxomDataReport& report,
                     const AxomReportSettings& settings);

/** @brief The console summary of a given forest's AXOM run. */
std::string AxomModelConsoleText(const AxomModelReport& report, const AxomReportSettings& settings);

/** @brief Writes result.json, points.csv, axom_values.csv, forest_values.csv and the figures of a
 *  given forest's AXOM run into `out`. */
void WriteAxomModelReport(OutputDir& out, const AxomModelReport& report, const AxomReportSettings& settings);

/** @brief The paper's tables (Markdown) with the paper's numbers beside ours, for the console. */
std::string AxomPaperText(const std::vector<AxomDataReport>& reports, const AxomReportSettings& settings);

/** @brief Writes table1..4 (.csv and .md), fig6_boxplots.svg and result.json of the paper's
 *  protocol into `out`. */
void WriteAxomPaperReport(OutputDir& out, const std::vector<AxomDataReport>& reports,
                          const AxomReportSettings& settings);

}}}  // namespace perfshap::detail
