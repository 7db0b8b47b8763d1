// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The reporter of ExplainRobustness (ShapAUC, ShapROC, ShapPRC, ShapAUPRC with CV bands): the
// console summary, result.json, the CSV tables and the SVG figures.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "data/split_sequence.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/robustness.hpp"
#include "report/json.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief What the robustness report says about the run besides its result. */
struct RobustnessRun {
  std::string data;  ///< the data set's source (Dataset::source)
  std::size_t n_rows = 0;
  std::size_t n_positive = 0;
  std::string label;  ///< the label column's name
  std::string plan;   ///< how the split plan is named ("holdout", "mc:100", a split file)
  std::vector<std::size_t> train_sizes, test_sizes;  ///< rows of each split's parts
  std::optional<double> test_size;  ///< the test fraction of drawn splits; none for k-fold and files
  bool stratify = false;
  double slice_fpr = 0.2;  ///< the FPR of the slice (its nearest grid point is reported)
  std::uint64_t seed = 0;
  /** The design's column names (the players' columns index them). */
  std::vector<std::string> column_names;
  /** How missing cells were handled, rows dropped for them, the groups file (empty: none). */
  std::string missing = "error";
  std::size_t dropped_rows = 0;
  std::string groups;
};

/** @brief The run's description from its data and split plan (the other fields as default). */
RobustnessRun DescribeRobustnessRun(const Dataset& data, const SplitSequence& splits, std::string plan_name);

/** @brief The FPR grid point nearest to `fpr` (the first of two equally near). */
std::size_t RobustnessSliceIndex(const RobustnessResult& r, double fpr);

/**
 * @brief The console summary: data, AUC and AUPRC, the table of phi per feature (largest
 * |phi^AUC| first; "mean +- std" cells over several splits), the extra metrics, the Eq. (12)
 * gap, the section 4.4 selection, the timing; with `out` non-empty, the line naming it.
 */
std::string RobustnessConsoleText(const RobustnessResult& r, const RobustnessRun& run,
                                  const std::string& out);

/** @brief The method's keys of result.json; `files` lists what the run wrote. */
Json RobustnessResultJson(const RobustnessResult& r, const RobustnessRun& run,
                          const std::vector<std::string>& files);

/** @brief phi.csv, roc_curve.csv, pr_curve.csv, splits.csv and (exact runs) coalitions.csv. */
void AddRobustnessTables(ReportContent& out, const RobustnessResult& r, const RobustnessRun& run);

/** @brief The waterfalls, bars, ROC / PR curves and ShapROC / ShapPRC figures (SVG). */
void AddRobustnessFigures(ReportContent& out, const RobustnessResult& r, const RobustnessRun& run);

/**
 * @brief The report's content: the tables, the figures and, last, result.json.
 */
void BuildRobustnessReport(ReportContent& out, const RobustnessResult& r, const RobustnessRun& run);
}}}  // namespace perfshap::detail
