// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A run's report the one way every front end needs: the method builds its content (the record
// of tables, figures and result.json), the format writers write it into an output directory,
// published as one set, or into memory, with the HTML page when asked.

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "report/output.hpp"
#include "report/report_content.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief A run's report: builds its content (ReportContent) as the options ask. */
using Reporter = std::function<ReportContent(const ReportOptions&)>;

/** @brief The Reporter whose content `build` (a callable taking a ReportContent&) fills. */
template <class Build>
Reporter ReporterOf(Build build) {
  return [build = std::move(build)](const ReportOptions& options) {
    ReportContent content(options);
    build(content);
    return content;
  };
}

/** @brief Where and how a report is written. */
struct ReportTarget {
  ReportOptions options;
  /** The output directory (checked before the run with PrepareOutputDir); empty: in memory. */
  std::string dir;
  /** Whether an earlier run's files in `dir` are replaced. */
  bool force = false;
  /** Also report.html, the page of all the files (HtmlReport). */
  bool html = false;
};

/** @brief Builds the report's content (`reporter`), writes it through the format writers
 *  (WriteReport, then HtmlReport with target.html) and, with a directory, publishes the files
 *  there as one set (PublishFiles); `document` (if given) gets result.json's document
 *  (OutputDir::document). @return the files, in order. @throws Error as PublishFiles. */
std::vector<ReportFile> RunReporter(const Reporter& reporter, const ReportTarget& target, Json* document = nullptr);

}}}  // namespace perfshap::detail
