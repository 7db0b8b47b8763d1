// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The report of `perfshap shap` / `perfshap treeshap`: the console summary, contributions.csv
// (one row per explained row, and per class of a multi-class model: a column per player, then
// `bias`), result.json ("method": "shap") and the SVGs (global bar chart, beeswarm, waterfall of
// one row; with FigureSet::kAll also the waterfalls of the first kMaxRowFigures rows). The
// beeswarm and the waterfalls are bounded (report/figure_bounds.hpp).

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/shap.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/value_function_comparison.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief What the report says of the run besides the explanation. */
struct ShapRun {
  std::string model;         ///< the model's description
  std::string model_source;  ///< the model file, or "trained on FILE"
  /** The learner fitted or retrained (--model NAME; empty for a model file) and its options in
   *  effect (result.json "model_params"). */
  std::string learner;
  LearnerParams learner_params;
  std::string data;
  /** The data rows explained, a contiguous range of 0-based indices into --data: explained row r
   *  is data row rows[r] = rows.first + r. */
  struct RowRange {
    std::size_t first = 0;
    std::size_t count = 0;
    std::size_t operator[](std::size_t r) const noexcept { return first + r; }
    std::size_t size() const noexcept { return count; }
  } rows;
  /** The player values of the rows the beeswarm shows (RowsShown(rows.size()), in that order) x
   *  players, row-major (NaN for a group): its colours, bounded as the figure is. */
  std::vector<double> player_values;
  /** Background: how many rows and where from ("drawn from FILE with the seed", a file). */
  std::size_t background_rows = 0;
  std::string background_source;
  /** Whether the caller gave the background (rows or a count); when not, the console and
   *  result.json say where it was drawn from. */
  bool background_given = false;
  /** The index into `rows` of the row the waterfall shows. */
  std::size_t explain_row = 0;
  std::uint64_t seed = 0;
  int threads = 0;
  /** The boosting rounds of an XGBoost model file used (total 0 for any other model). */
  BoostingRounds rounds;
};

struct ShapReport {
  const ShapExplanation& result;
  ShapRun run;
  /** Tree interaction values of the same rows (their matrix rows' features by index), or null. */
  const TreeShapInteractionValues* interactions = nullptr;
  /** With a conditional value function: the marginal explanation of the same rows and background,
   *  when computed (ShapResponse::marginal), and the background's correlations. */
  const ShapExplanation* marginal = nullptr;
  const FeatureDependence* dependence = nullptr;
};

/** @brief The console summary (global importance per output, the explained row). */
std::string ShapConsoleText(const ShapReport& report, const std::string& out);

/**
 * @brief The beeswarm of output `o`: one row per player by decreasing mean |phi|, the points
 * coloured by the player's value (run.player_values), bounded as report/figure_bounds.hpp says
 * (at most kMaxPointsPerFeature evenly spaced rows, stated in the title; at most
 * kMaxFeaturesShown players, the others summed into one row).
 */
Chart ShapBeeswarmFigure(const ShapReport& report, std::size_t o);

/** @brief contributions.csv. */
CsvTable ShapContributionsCsv(const ShapReport& report);

/** @brief Mean over the rows of |entry| of the interaction matrix rows kept, per output:
 *  outputs x matrix rows x features (the base value's column left out). */
std::vector<double> MeanAbsInteractions(const TreeShapInteractionValues& v);

/** @brief interactions.csv (long form: row, [class,] feature, other, interaction), of
 *  report.interactions. */
CsvTable ShapInteractionsCsv(const ShapReport& report);

/** @brief Heat map of the mean |interaction| of output o over the rows (the top features). */
Chart ShapInteractionsFigure(const ShapReport& report, std::size_t o);

/** @brief The report's content: contributions.csv (interactions.csv and shap_interactions.svg
 *  when there are interaction values), the SVGs `out`'s options ask for and, last, result.json
 *  (its "files" and "figures" name the figures drawn). */
void BuildShapReport(ReportContent& out, const ShapReport& report);
}}}  // namespace perfshap::detail
