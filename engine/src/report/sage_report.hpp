// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The report of `perfshap sage`: the console summary (the metric with every feature and with
// none, the features by decreasing value with their standard errors), sage.csv (feature, phi,
// phi_se), sage_bar.svg (the values with 95% bands) and result.json ("method": "sage").

#include <string>

#include "perfshap/sage.hpp"
#include "report/report_content.hpp"
#include "report/shap_report.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

struct SageReport {
  const SageValues& result;
  /** The model, the data, the rows and the background, as shap describes them. */
  ShapRun run;
};

/** @brief The console summary; `out` is the output directory (empty: in memory). */
std::string SageConsoleText(const SageReport& report, const std::string& out);

/** @brief sage.csv, sage_bar.svg and result.json. */
void BuildSageReport(ReportContent& out, const SageReport& report);

}}}  // namespace perfshap::detail
