// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/run_reporter.hpp"

#include <utility>

#include "report/html_report.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::vector<ReportFile> RunReporter(const Reporter& reporter, const ReportTarget& target, Json* document) {
  ReportContent content = reporter(target.options);
  OutputDir out = target.dir.empty() ? OutputDir() : OutputDir(target.dir, target.force);
  WriteReport(out, std::move(content));
  if (target.html) out.Write("report.html", HtmlReport(out.contents()));
  out.Commit();
  if (document != nullptr) *document = out.document();
  return out.contents();
}

}}}  // namespace perfshap::detail
