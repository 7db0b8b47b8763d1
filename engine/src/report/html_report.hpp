// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The self-contained HTML report of a run (`--report html`, Python's `result.to_html()`): one
// report.html built from the files the run's reporter wrote (result.json, the CSV tables, the SVG
// figures): the run's settings, every table (sortable), every figure inline, and result.json
// embedded whole. No network access and no external file: it opens anywhere, on any screen width.

#include <span>
#include <string>

#include "report/output.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief The text of report.html for a run's files, in the order the reporter wrote them.
 * `result.json` (required) gives the title (its "method"), the settings and the embedded JSON;
 * every `*.csv` becomes a table, every `*.svg` a figure; other files are listed by name.
 * @throws Error when the files hold no result.json or it is not valid JSON.
 */
std::string HtmlReport(std::span<const ReportFile> files);

}}}  // namespace perfshap::detail
