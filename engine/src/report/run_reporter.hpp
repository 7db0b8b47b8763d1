// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A run's reporter run the one way every front end needs: into an output directory, published
// as one set, or into memory, with the HTML page when asked.

#include <functional>
#include <string>
#include <vector>

#include "report/output.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief A run's reporter: writes its files (result.json last) into the output it is given. */
using Reporter = std::function<void(OutputDir&)>;

/** @brief Where and how a reporter runs. */
struct ReportTarget {
  ReportOptions options;
  /** The output directory (checked before the run with PrepareOutputDir); empty: in memory. */
  std::string dir;
  /** Whether an earlier run's files in `dir` are replaced. */
  bool force = false;
  /** Also report.html, the page of all the files (HtmlReport). */
  bool html = false;
};

/** @brief Runs `reporter` (then HtmlReport with target.html) and, with a directory, publishes
 *  the files there as one set (PublishFiles); `document` (if given) gets result.json's document
 *  (OutputDir::document). @return the files, in order. @throws Error as PublishFiles. */
std::vector<ReportFile> RunReporter(const Reporter& reporter, const ReportTarget& target, Json* document = nullptr);

}}}  // namespace perfshap::detail
