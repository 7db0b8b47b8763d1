// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The summary a run's report opens on, in report.html and at the head of the console text:
// the question the method answers, the data and the model, the headline value, the strongest
// features with their bands, and the solver with its error, read from the run's result.json
// (whatever the method, from the keys the methods share).

#include <string>
#include <vector>

#include "report/json.hpp"
#include "report/run_reporter.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief One feature of the summary: its name, value and band (NaN when it has none). */
struct SummaryFeature {
  std::string name;
  double value = 0;
  double band = 0;
};

/** @brief What the summary shows, read from result.json. */
struct ReportSummary {
  std::string question;  ///< the method's question ("" for an unknown method)
  std::vector<std::pair<std::string, std::string>> facts;  ///< data, model, value, solver ...
  std::string values_label;               ///< what the values are ("phi (AUC)", "mean |phi|")
  std::string band_label;                 ///< what the bands are ("std over splits", "standard error")
  std::vector<SummaryFeature> strongest;  ///< at most three, by decreasing |value|
};

/** @brief The summary of a run's result.json. */
ReportSummary SummarizeResult(const Json& result);

/** @brief The summary of the run `reporter` reports, read from its result.json (built without
 *  its tables and figures, so a large run's per-row tables are not formatted for it). */
ReportSummary SummarizeRun(const Reporter& reporter);

/** @brief The summary as the page's first section (<section id="summary">). */
std::string SummaryHtml(const ReportSummary& summary);

/** @brief The summary as the console's first lines (each ended by "\n"); empty when it holds
 *  neither a fact nor a feature (the demo, whose sections each summarize a method). */
std::string SummaryText(const ReportSummary& summary);

/** @brief A number to 4 significant digits ("0.1537", "-2.31e-05"), as the page shows numbers. */
std::string ShortNumber(double v);

}}}  // namespace perfshap::detail
