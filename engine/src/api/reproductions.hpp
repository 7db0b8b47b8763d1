// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The papers' reproductions (reproduce/<name>/) that a method of the library calls, one
// declaration each: defined in their folders, outside the library's public headers and
// engine/src (the engine includes none of their headers; tests/layering checks it). A
// reproduction that is a method of its own needs none: its line in api/methods/method_list.inc.

#include <string>
#include <vector>

#include "perfshap/chains.hpp"
#include "report/axom_report.hpp"
#include "report/report_content.hpp"

namespace perfshap { inline namespace v0 {

/**
 * @brief The Adult data as the Shapley Chains paper's section 4.2 prepares it (`chains --adult`):
 * rows with a missing cell ('?') dropped; outputs sex (Male = 1), income (the 0/1 label column
 * `label`) and occupation_white_collar (1 for Exec-managerial, Prof-specialty, Adm-clerical, Sales,
 * Tech-support: the paper names no grouping, this one is ours); race, education and
 * native_country removed; workclass, marital_status and relationship as the codes of their sorted
 * levels; every feature min-max normalised over the kept rows. reproduce/chains_adult/.
 * @throws DataError naming the file for a missing column.
 */
MultiOutputData PrepareAdultChains(const std::string& path);

/** @brief `axom --paper`: the paper's data sets (wine, glass, seeds, banknote; with `wide` also
 *  breast_cancer, ionosphere and sonar), each read from DIR/<name>.csv. reproduce/axom_paper/. */
std::vector<std::string> AxomPaperDataSets(bool wide);

namespace detail {

/** @brief `axom --paper`: the paper's Tables 1-4 (Markdown) with the paper's numbers beside ours,
 *  for the console. reproduce/axom_paper/. */
std::string AxomPaperText(const std::vector<AxomDataReport>& reports, const AxomReportSettings& settings);

/** @brief `axom --paper`: the content of table1..4 (.csv), tables.md, fig6_boxplots.svg and result.json
 *  (ReportContent). reproduce/axom_paper/. */
void BuildAxomPaperReport(ReportContent& out, const std::vector<AxomDataReport>& reports,
                          const AxomReportSettings& settings);

}  // namespace detail

}}  // namespace perfshap
