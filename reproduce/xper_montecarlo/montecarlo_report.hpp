// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The reporter of RunXperMonteCarlo (the XPER paper's Monte Carlo experiment): the console
// table of the distributions, result.json, samples.csv and the histogram figure.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "report/json.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "xper_montecarlo/xper_montecarlo.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief The quantities whose distributions over the samples are reported, one column each:
 *  auc, phi_0, phi_<feature>..., share_<feature>... (phi_j / (AUC - phi_0)), beta_const,
 *  beta_<feature>... (the fitted probit's coefficients). */
struct MonteCarloColumns {
  std::vector<std::string> names;
  std::vector<std::vector<double>> values;  ///< one value per sample in each column
  std::vector<DistributionSummary> summaries;
};

/** @brief The columns of a Monte Carlo result and their summaries. */
MonteCarloColumns MonteCarloDistributions(const XperMonteCarloResult& r);

/** @brief The console table (mean, std, 5 %, 50 %, 95 % of each quantity) and the timing; with
 *  `out` non-empty, the line naming it. */
std::string MonteCarloConsoleText(const XperMonteCarloResult& r, const MonteCarloColumns& columns,
                                  const std::string& out);

/** @brief The method's keys of result.json; `options` gives the design. */
Json MonteCarloResultJson(const XperMonteCarloResult& r, const XperMonteCarloOptions& options,
                          const MonteCarloColumns& columns);

/** @brief samples.csv: k, seed, then every column's value for sample k. */
CsvTable MonteCarloSamplesCsv(const XperMonteCarloResult& r, const MonteCarloColumns& columns);

/** @brief Summary statistics block (mean, std, min, max, q05..q95). */
Json SummaryJson(const DistributionSummary& s);

/** @brief The Monte Carlo histograms: AUC, phi_0, each phi_j, and the normalised shares. */
Chart MonteCarloHistogramFigure(const XperMonteCarloResult& r);

/**
 * @brief The report's content: samples.csv, the histogram figure and, last, result.json.
 */
void BuildMonteCarloReport(ReportContent& out, const XperMonteCarloResult& r,
                           const XperMonteCarloOptions& options, const MonteCarloColumns& columns);
}}}  // namespace perfshap::detail
