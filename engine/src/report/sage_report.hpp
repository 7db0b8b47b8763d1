// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The report of `perfshap sage`: the console summary (the metric with every feature and with
// none, the features by decreasing value with their standard errors), sage.csv (feature, phi,
// phi_se; with cv phi_std), sage_bar.svg (the values with 95% bands, or with cv +-1 std over the
// splits) and result.json ("method": "sage"); with compare_retrain, ShapAUC beside it
// (report/retrain_comparison.hpp).

#include <string>
#include <vector>

#include "perfshap/sage.hpp"
#include "report/report_content.hpp"
#include "report/retrain_comparison.hpp"
#include "report/shap_report.hpp"
#include "report/value_function_comparison.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

struct SageReport {
  /** The values; with splits, their mean. */
  const SageValues& result;
  /** The model, the data, the rows and the background, as shap describes them. */
  ShapRun run;
  /** Model-variability bands (cv): the plan, each split's values and phi's standard deviation
   *  over them; none: one model. */
  std::string plan;
  const std::vector<SageValues>* splits = nullptr;
  std::vector<double> phi_std;
  /** With a conditional value function: the marginal SAGE values on the same rows and background,
   *  when computed (SageResponse::marginal). */
  const SageValues* marginal = nullptr;
  /** With a conditional value function (no cv): its background's correlations. */
  const FeatureDependence* dependence = nullptr;
  /** With compare_retrain: ShapAUC on the same splits beside the SAGE values. */
  const RetrainComparison* retrain = nullptr;

  bool cv() const noexcept { return splits != nullptr && !splits->empty(); }
};

/** @brief The console summary; `out` is the output directory (empty: in memory). */
std::string SageConsoleText(const SageReport& report, const std::string& out);

/** @brief sage.csv, sage_bar.svg and result.json. */
void BuildSageReport(ReportContent& out, const SageReport& report);

}}}  // namespace perfshap::detail
