// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap axom`: AXOM explanations of random forests and the robustness of explanations (Pala
// & Garcia-Cuesta). One data set (--data) over --seeds seeds, or the paper's protocol (--paper)
// on wine, glass, seeds and banknote (with --wide also breast_cancer, ionosphere and sonar).
// Flags -> AxomProtocolOptions -> RunAxomProtocol per data set and seed (and the heat maps of the
// first seed) -> the AXOM reporter (report/axom_report.hpp).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <numeric>

#include "commands.hpp"
#include "perfshap/axom.hpp"
#include "perfshap/error.hpp"
#include "report/axom_report.hpp"

namespace perfshap::cli {

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
  bool full_matrix = false;
  std::string heatmap_features;
  std::size_t heatmap_grid = 100;
};

/** The two features of the heat maps: --heatmap-features a,b, or the two with the largest mean
 *  |SHAP| of the forest at the test points. */
std::pair<int, int> HeatmapFeatures(const AxomCliOptions& o, const AxomRun& run, const std::vector<std::string>& names) {
  if (!o.heatmap_features.empty()) {
    const std::vector<std::string> items = SplitList(o.heatmap_features);
    if (items.size() != 2) throw InvalidArgument("--heatmap-features takes two column names, a,b");
    int idx[2];
    for (int k = 0; k < 2; ++k) {
      const auto it = std::find(names.begin(), names.end(), items[static_cast<std::size_t>(k)]);
      if (it == names.end())
        throw InvalidArgument("--heatmap-features names '" + items[static_cast<std::size_t>(k)] +
                              "', which is not a feature (" + Join(names, ", ") + ")");
      idx[k] = static_cast<int>(it - names.begin());
    }
    if (idx[0] == idx[1]) throw InvalidArgument("--heatmap-features needs two different features");
    return {idx[0], idx[1]};
  }
  const AxomExplanation e = ExplainAxom(*run.forest, {run.test_points, run.test_rows.size()});
  std::vector<double> importance(e.n_features, 0.0);
  for (std::size_t r = 0; r < e.n_rows; ++r)
    for (std::size_t j = 0; j < e.n_features; ++j)
      importance[j] += std::fabs(e.forest[(r * e.n_classes + static_cast<std::size_t>(e.label[r])) * e.n_features + j]);
  std::vector<int> order(e.n_features);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return importance[static_cast<std::size_t>(a)] > importance[static_cast<std::size_t>(b)];
  });
  return {order[0], order.size() > 1 ? order[1] : order[0]};
}

detail::AxomDataReport RunDataSet(const AxomCliOptions& o, const std::string& name, const std::string& path,
                                  std::size_t seeds, bool heatmaps) {
  const CommonOptions& c = o.common;
  CsvOptions csv;
  csv.label = c.label.empty() ? std::string("label") : c.label;
  csv.regression = true;  // the classes as the file spells them (1, 2, 3...)
  csv.missing = MissingPolicy(c);
  const Dataset data = ReadInput(path, csv);
  if (data.n_features() < 2) throw DataError(path + " has fewer than two features; AXOM's robustness needs two");
  detail::AxomDataReport report;
  report.name = name;
  report.feature_names = data.feature_names();
  AxomProtocolOptions po;
  po.tune = o.tune;
  po.trees = o.trees;
  po.max_depth = o.max_depth;
  po.robustness.eps = o.eps;
  po.robustness.neighbours = o.neighbours;
  po.robustness.full_matrix = o.full_matrix;
  po.execution = MakeExecution(c, name);
  for (std::size_t k = 0; k < seeds; ++k) {
    po.seed = c.seed + k;
    po.robustness.seed = po.seed;
    report.seeds.push_back(po.seed);
    report.runs.push_back(RunAxomProtocol(data, po));
  }
  if (heatmaps && data.n_features() >= 2) {
    const AxomRun& r = report.runs.front();
    const auto [a, b] = HeatmapFeatures(o, r, data.feature_names());
    report.heatmaps = ComputeExplanationHeatmaps(r.tree.get(), *r.forest, {r.test_points, r.test_rows.size()}, 0, a, b,
                                                 o.eps, o.heatmap_grid, po.execution);
  }
  return report;
}

void RunAxom(const AxomCliOptions& o) {
  const CommonOptions& c = o.common;
  if (!o.model_file.empty())
    throw InvalidArgument(
        "AXOM is not defined for boosted trees: each XGBoost tree fits what the trees before it left, so a "
        "tree has no label of its own to agree with the ensemble's and dropping trees changes the model; "
        "explain it with treeshap");
  if (!(o.eps > 0.0 && o.eps <= 0.5))
    throw InvalidArgument("--eps " + Fmt("%g", o.eps) + " is outside (0, 0.5]: it is a half-width on features normalised to [0, 1]");
  if (o.neighbours < 1) throw InvalidArgument("--neighbours must be at least 1");
  if (o.paper == !c.data.empty())
    throw InvalidArgument("give --data FILE (one data set) or --paper (the paper's four data sets), one of them");
  PrepareOut(c);
  const auto t0 = std::chrono::steady_clock::now();
  detail::AxomReportSettings settings;
  settings.eps = o.eps;
  settings.neighbours = o.neighbours;
  settings.full_matrix = o.full_matrix;
  settings.tune = o.tune || o.paper;
  settings.threads = ResolvedThreads(MakeExecution(c, "axom"));
  if (!o.paper) {
    detail::AxomDataReport report =
        RunDataSet(o, std::filesystem::path(c.data).stem().string(), c.data, o.seeds == 0 ? 1 : o.seeds, true);
    settings.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    Say(c, detail::AxomConsoleText(report, settings));
    Report(c, [report = std::move(report), settings](detail::OutputDir& out) {
      detail::WriteAxomReport(out, report, settings);
    });
    if (!c.out.empty()) Say(c, "  wrote " + c.out + "/result.json, points.csv and the SVGs\n");
    return;
  }
  AxomCliOptions paper = o;
  paper.tune = true;
  std::vector<std::string> names = {"wine", "glass", "seeds", "banknote"};
  if (o.wide) names.insert(names.end(), {"breast_cancer", "ionosphere", "sonar"});
  std::vector<detail::AxomDataReport> reports;
  for (const std::string& name : names) {
    const std::string path = (std::filesystem::path(o.data_dir) / (name + ".csv")).string();
    if (!std::filesystem::exists(path))
      throw DataError(path + ": no such file; --data-dir names the folder of the UCI CSV files (wine.csv, ...)");
    reports.push_back(RunDataSet(paper, name, path, o.seeds == 0 ? 10 : o.seeds, false));
    Say(c, detail::AxomConsoleText(reports.back(), settings));
  }
  settings.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Say(c, "\n" + detail::AxomPaperText(reports, settings));
  Report(c, [reports = std::move(reports), settings](detail::OutputDir& out) {
    detail::WriteAxomPaperReport(out, reports, settings);
  });
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
  app.add_flag("--full-matrix", o->full_matrix, "g = every class's SHAP values instead of the predicted class's");
  app.add_option("--heatmap-features", o->heatmap_features,
                 "a,b: the features of the heat maps (default: the forest's two most important)");
  app.add_option("--heatmap-grid", o->heatmap_grid, "points per side of the heat maps")
      ->capture_default_str()
      ->check(CLI::Range(2, 1000));
  app.callback([o] { RunAxom(*o); });
}

}  // namespace perfshap::cli
