// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The reporter of `perfshap demo`, which shows every method on one data set: the test metrics
// of a linear probability model, the exact Shapley decomposition of its AUC and accuracy, the
// XPER decomposition of a probit's AUC, ShapAUC bands over Monte-Carlo splits, a sampled solver
// and prediction explanations (TreeSHAP of a forest, interventional SHAP of the probit).

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/axom.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/chains.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/sage.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/xper.hpp"
#include "report/json.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief Everything the demo reports. */
struct DemoReport {
  std::string data;  ///< the data set's source
  std::size_t n_rows = 0, n_features = 0, n_positive = 0;
  std::size_t n_train = 0, n_test = 0;  ///< the holdout split
  std::uint64_t seed = 0;
  std::vector<std::string> features;                    ///< the players' names
  std::vector<Player> players;                          ///< the players and their columns
  std::vector<std::string> column_names;                ///< the design's columns
  std::string missing = "error";                        ///< how missing cells were handled
  std::size_t dropped_rows = 0;                         ///< rows dropped for a missing cell
  std::string groups;                                   ///< the groups file, if any
  std::vector<double> coefficients;  ///< the linear probability model over the columns: intercept first
  std::vector<std::pair<std::string, double>> metrics;  ///< its test metrics, in order
  /** Exact Shapley values of (AUC - 0.5, accuracy) over the features. */
  const ShapleyValues* values = nullptr;
  /** The XPER decomposition, or why it was skipped. */
  const XperResult* xper = nullptr;
  std::string xper_skipped;
  /** The ShapAUC bands, or why they were skipped. */
  const RobustnessResult* robustness = nullptr;
  std::string robustness_skipped;
  /** ShapAUC of the generated 40-feature design by the kernel solver. */
  const RobustnessResult* sampled = nullptr;
  /** Prediction explanations: TreeSHAP of a random forest (P(y=1) fractions) on the test rows,
   *  and interventional SHAP of the XPER probit's probabilities on a few of them; or why not. */
  const ShapExplanation* treeshap = nullptr;
  /** The forest's SHAP interaction values on the same rows. */
  const TreeShapInteractionValues* tree_interactions = nullptr;
  const ShapExplanation* interventional = nullptr;
  /** SAGE of the probit's log-loss on the test rows: marginal and gaussian (with the
   *  prediction explanations, or skipped with them). */
  const SageValues* sage = nullptr;
  const SageValues* sage_gaussian = nullptr;
  std::string predictions_skipped;
  /** AXOM's protocol on the same data (untuned), or why not. */
  const AxomRun* axom = nullptr;
  std::string axom_skipped;
  /** Shapley Chains on the xor data, order and -> or -> xor. */
  const ChainOrderExplanation* chain = nullptr;
  int threads = 0;
  double elapsed_seconds = 0;
};

/** @brief The console text; with `out` non-empty, the line naming it. */
std::string DemoConsoleText(const DemoReport& report, const std::string& out);

/** @brief The method's keys of result.json. */
Json DemoResultJson(const DemoReport& report);

/**
 * @brief The report's content: result.json.
 */
void BuildDemoReport(ReportContent& out, const DemoReport& report);
}}}  // namespace perfshap::detail
