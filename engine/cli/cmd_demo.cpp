// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap demo`: the main job on built-in generated data. Loads (or generates) data, fits a
// linear probability model on a stratified holdout split, reports the test metrics, and
// decomposes the test AUC and accuracy over the features with exact Shapley values, then shows
// XPER and ShapAUC bands on the same data, and a sampled solver on a generated 40-feature
// design (and the prediction, AXOM and chains sections). Flags -> api::DemoRequest -> api::RunDemo
// -> the demo reporter (report/demo_report.hpp).
#include <memory>
#include <string>

#include "api/demo_request.hpp"
#include "commands.hpp"
#include "report/demo_report.hpp"

namespace perfshap::inline v0::cli {

namespace {

struct DemoOptions {
  CommonOptions common;
  std::size_t rows = 1000;
  double test_size = 0.3;
  int exact_limit = 24;
};

void RunDemo(const DemoOptions& o) {
  const CommonOptions& c = o.common;
  PrepareOut(c);
  api::DemoRequest request;
  request.data = CommandData(c, o.rows, "");
  request.test_size = o.test_size;
  request.exact_limit = o.exact_limit;
  request.seed = c.seed;
  request.execution = MakeExecution(c, "demo");
  request.execution_of = [&c](const std::string& section) { return MakeExecution(c, section); };
  auto r = std::make_shared<const api::DemoResponse>(api::RunDemo(request));
  Report(c, [r](detail::OutputDir& out) { detail::WriteDemoReport(out, r->Report()); });  // before "wrote"
  Say(c, detail::DemoConsoleText(r->Report(), c.out));
  Say(c, "\nfrom Python: import perfshap; perfshap.robustness(X, y), .xper, .shap, .treeshap, .axom, .chains on numpy "
         "arrays or pandas DataFrames (README, \"Python\")\na page to share of any run: --report html --out DIR writes "
         "DIR/report.html\n");
}

}  // namespace

void SetupDemo(CLI::App& app) {
  auto o = std::make_shared<DemoOptions>();
  AddCommonOptions(app, o->common, 2024);
  app.add_option("--rows", o->rows, "rows of the generated probit design")
      ->capture_default_str()
      ->check(CLI::Range(10, 100000000));
  app.add_option("--test-size", o->test_size, "test fraction of the holdout split")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 0.99));
  app.add_option("--exact-limit", o->exact_limit, "largest number of features solved exactly")
      ->capture_default_str()
      ->check(CLI::Range(1, 30));
  app.callback([o] { RunDemo(*o); });
}

}  // namespace perfshap::cli
