// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap axom`: AXOM explanations of random forests and the robustness of explanations (Pala
// & Garcia-Cuesta). One data set (--data) over --seeds seeds, or the paper's protocol (--paper)
// on wine, glass, seeds and banknote (with --wide also breast_cancer, ionosphere and sonar).
// Flags -> api::AxomRequest -> api::RunAxom (RunAxomProtocol per data set and seed, and the heat
// maps of the first seed) -> the AXOM reporter (report/axom_report.hpp).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/axom_request.hpp"
#include "commands.hpp"
#include "perfshap/axom.hpp"
#include "perfshap/error.hpp"
#include "report/axom_report.hpp"

namespace perfshap::inline v0::cli {

namespace {

struct AxomCliOptions {
  CommonOptions common;
  bool paper = false;
  bool wide = false;
  std::string data_dir = "tests/fixtures/data";
  std::string model_file;
  int trees = 100;
  int max_depth = 0;
  bool tune = false;
  double eps = 0.01;
  std::size_t neighbours = 10000;
  std::size_t seeds = 0;  // 0: 1 for --data, 10 for --paper
  std::string checkpoint;
  bool full_matrix = false;
  std::string heatmap_features;
  std::size_t heatmap_grid = 100;
};

void RunAxom(const AxomCliOptions& o) {
  const CommonOptions& c = o.common;
  api::AxomRequest request;
  request.model.tree_file = o.model_file;
  request.paper = o.paper;
  request.wide = o.wide;
  request.data_dir = o.data_dir;
  request.data = CommandData(c, 0, "");
  request.tune = o.tune;
  request.trees = o.trees;
  request.max_depth = o.max_depth;
  request.eps = o.eps;
  request.neighbours = o.neighbours;
  if (o.seeds > 0) request.seeds = o.seeds;
  request.checkpoint = o.checkpoint;
  request.full_matrix = o.full_matrix;
  if (!o.heatmap_features.empty()) {
    const std::vector<std::string> items = SplitList(o.heatmap_features);
    if (items.size() != 2) throw InvalidArgument("--heatmap-features takes two column names, a,b");
    request.heatmap_features = std::make_pair(items[0], items[1]);
  }
  request.heatmap_grid = o.heatmap_grid;
  request.seed = c.seed;
  request.execution = MakeExecution(c, "axom");
  request.execution_of = [&c](const std::string& data_set) { return MakeExecution(c, data_set); };
  PrepareOut(c);
  // The paper's data sets are said as each is done (with the run's settings, no time yet).
  detail::AxomReportSettings paper_settings;
  paper_settings.eps = o.eps;
  paper_settings.neighbours = o.neighbours;
  paper_settings.full_matrix = o.full_matrix;
  paper_settings.tune = true;
  paper_settings.threads = ResolvedThreads(request.execution);
  if (o.paper)
    request.on_data_set = [&](const detail::AxomDataReport& report) {
      Say(c, detail::AxomConsoleText(report, paper_settings));
    };
  auto r = std::make_shared<const api::AxomResponse>(api::RunAxom(request));
  if (!o.paper) {
    Report(c, [r](detail::OutputDir& out) { detail::WriteAxomReport(out, r->reports.front(), r->settings); });
    Say(c, detail::AxomConsoleText(r->reports.front(), r->settings));
    if (!c.out.empty()) Say(c, "  wrote " + c.out + "/result.json, points.csv and the SVGs\n");
    return;
  }
  Report(c, [r](detail::OutputDir& out) { detail::WriteAxomPaperReport(out, r->reports, r->settings); });
  Say(c, "\n" + detail::AxomPaperText(r->reports, r->settings));
  if (!c.out.empty()) Say(c, "  wrote " + c.out + "/result.json, table1..4.csv, tables.md, fig6_boxplots.svg\n");
}

}  // namespace

void SetupAxom(CLI::App& app) {
  auto o = std::make_shared<AxomCliOptions>();
  AddCommonOptions(app, o->common, 0);
  app.add_flag("--paper", o->paper,
               "the paper's protocol on wine, glass, seeds and banknote (tuned, 10 seeds by default): Tables 1-4 and "
               "Fig. 6");
  app.add_flag("--wide", o->wide, "with --paper: also breast_cancer (30 features), ionosphere (34) and sonar (60)");
  app.add_option("--data-dir", o->data_dir, "with --paper: the folder of the data sets' CSV files")->capture_default_str();
  app.add_option("--model-file", o->model_file, "an XGBoost model: refused, AXOM is defined for forests (see the README)");
  app.add_option("--trees", o->trees, "trees of the forest")->capture_default_str()->check(CLI::Range(1, 100000));
  app.add_option("--max-depth", o->max_depth, "largest depth of the tree and the forest's trees (0 = unlimited)")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  app.add_flag("--tune", o->tune, "tune the tree and the forest by 5-fold grid-search cross-validation on accuracy");
  app.add_option("--eps", o->eps, "half-width of the neighbourhood box, features min-max normalised")->capture_default_str();
  app.add_option("--neighbours", o->neighbours, "points drawn in the box per test point")->capture_default_str();
  app.add_option("--seeds", o->seeds, "seeds (splits, forests, neighbours): --seed, --seed + 1, ... (default 1; --paper 10)");
  app.add_option("--checkpoint", o->checkpoint,
                 "DIR keeps every finished seed (after the first): the same command after a crash resumes, "
                 "bitwise the uninterrupted result");
  app.add_flag("--full-matrix", o->full_matrix, "g = every class's SHAP values instead of the predicted class's");
  app.add_option("--heatmap-features", o->heatmap_features,
                 "a,b: the features of the heat maps (default: the forest's two most important)");
  app.add_option("--heatmap-grid", o->heatmap_grid, "points per side of the heat maps")
      ->capture_default_str()
      ->check(CLI::Range(2, 1000));
  app.callback([o] { RunAxom(*o); });
}

}  // namespace perfshap::cli
