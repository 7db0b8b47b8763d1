// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/axom_request.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <functional>
#include <filesystem>
#include <numeric>

#include "api/model_columns.hpp"
#include "api/reproductions.hpp"
#include "api/run_inputs.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "schedule/checkpoint.hpp"
#include "schedule/distribute.hpp"
#include "schedule/schedule.hpp"
#include "report/format.hpp"

namespace perfshap { inline namespace v0 { namespace api {

namespace {

/** The index of each of the request's two heat map features among `names`. */
std::pair<int, int> NamedHeatmapFeatures(const AxomRequest& request, const std::vector<std::string>& names) {
  const std::string pair[2] = {request.heatmap_features->first, request.heatmap_features->second};
  int idx[2];
  for (int k = 0; k < 2; ++k) {
    const auto it = std::find(names.begin(), names.end(), pair[k]);
    if (it == names.end())
      throw InvalidArgument(
          "the heat map feature '" + pair[k] + "' is not a feature (" + detail::CommaList(names) + ")",
          {"heatmap_features"});
    idx[k] = static_cast<int>(it - names.begin());
  }
  if (idx[0] == idx[1]) throw InvalidArgument("the heat maps need two different features", {"heatmap_features"});
  return {idx[0], idx[1]};
}

/** The two features with the largest mean |SHAP| of the forest's predicted class over the rows. */
std::pair<int, int> MostImportantTwo(const AxomExplanation& e) {
  std::vector<double> importance(e.n_features, 0.0);
  for (std::size_t r = 0; r < e.n_rows; ++r)
    for (std::size_t j = 0; j < e.n_features; ++j)
      importance[j] +=
          std::fabs(e.forest[(r * e.n_classes + static_cast<std::size_t>(e.label[r])) * e.n_features + j]);
  std::vector<int> order(e.n_features);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return importance[static_cast<std::size_t>(a)] > importance[static_cast<std::size_t>(b)];
  });
  return {order[0], order.size() > 1 ? order[1] : order[0]};
}

/** The two features of the heat maps: the request's, or the two with the largest mean |SHAP| of
 *  the forest at the test points. */
std::pair<int, int> HeatmapFeatures(const AxomRequest& request, const AxomRun& run,
                                    const std::vector<std::string>& names) {
  if (request.heatmap_features) return NamedHeatmapFeatures(request, names);
  return MostImportantTwo(ExplainAxom(*run.forest, {run.test_points, run.test_rows.size()}));
}

// An AxomRun as bytes, for the processes of an MPI run (its tree and forest stay where they were
// fitted: only the first seed's are read, and every process fits that one itself).
void PutRobustness(detail::ByteWriter& out, const ExplanationRobustness& r) {
  out.PutVector(r.l_bar);
  out.PutVector(r.l_hat);
  out.PutVector(r.kept);
}
ExplanationRobustness GetRobustness(detail::ByteReader& in) {
  ExplanationRobustness r;
  r.l_bar = in.GetVector<double>();
  r.l_hat = in.GetVector<double>();
  r.kept = in.GetVector<std::size_t>();
  return r;
}
void PutSetting(detail::ByteWriter& out, const AxomSetting& s) {
  out.Put(s.max_depth);
  out.Put(s.min_samples_leaf);
  out.PutString(s.max_features);
}
AxomSetting GetSetting(detail::ByteReader& in) {
  AxomSetting s;
  s.max_depth = in.Get<int>();
  s.min_samples_leaf = in.Get<int>();
  s.max_features = in.GetString();
  return s;
}
void PutComparison(detail::ByteWriter& out, const AxomComparison& c) {
  for (const AxomTest* t : {&c.paired_t, &c.wilcoxon, &c.student_t, &c.mann_whitney}) {
    out.Put(t->statistic);
    out.Put(t->p_value);
    out.PutString(t->method);
  }
  out.Put<std::uint64_t>(c.n);
}
AxomComparison GetComparison(detail::ByteReader& in) {
  AxomComparison c;
  for (AxomTest* t : {&c.paired_t, &c.wilcoxon, &c.student_t, &c.mann_whitney}) {
    t->statistic = in.Get<double>();
    t->p_value = in.Get<double>();
    t->method = in.GetString();
  }
  c.n = static_cast<std::size_t>(in.Get<std::uint64_t>());
  return c;
}
void PutRun(detail::ByteWriter& out, const AxomRun& r) {
  out.PutString(r.data);
  for (const std::size_t v : {r.n_train, r.n_test, r.n_features, r.n_classes}) out.Put<std::uint64_t>(v);
  PutSetting(out, r.tree_setting);
  PutSetting(out, r.forest_setting);
  out.Put(r.trees);
  out.Put(r.tree_accuracy);
  out.Put(r.forest_accuracy);
  PutRobustness(out, r.robustness.tree);
  PutRobustness(out, r.robustness.forest);
  PutRobustness(out, r.robustness.axom);
  out.PutVector(r.robustness.mislabelling);
  out.Put(r.mislabelling);
  PutComparison(out, r.tree_vs_forest);
  PutComparison(out, r.tree_vs_axom);
  PutComparison(out, r.forest_vs_axom);
  out.Put(r.seconds_tuning);
  out.Put(r.seconds_fit);
  out.Put(r.seconds_robustness);
  out.PutVector(r.test_rows);
  out.PutVector(r.test_points);
}
AxomRun GetRun(detail::ByteReader& in) {
  AxomRun r;
  r.data = in.GetString();
  for (std::size_t* v : {&r.n_train, &r.n_test, &r.n_features, &r.n_classes})
    *v = static_cast<std::size_t>(in.Get<std::uint64_t>());
  r.tree_setting = GetSetting(in);
  r.forest_setting = GetSetting(in);
  r.trees = in.Get<int>();
  r.tree_accuracy = in.Get<double>();
  r.forest_accuracy = in.Get<double>();
  r.robustness.tree = GetRobustness(in);
  r.robustness.forest = GetRobustness(in);
  r.robustness.axom = GetRobustness(in);
  r.robustness.mislabelling = in.GetVector<double>();
  r.mislabelling = in.Get<double>();
  r.tree_vs_forest = GetComparison(in);
  r.tree_vs_axom = GetComparison(in);
  r.forest_vs_axom = GetComparison(in);
  r.seconds_tuning = in.Get<double>();
  r.seconds_fit = in.Get<double>();
  r.seconds_robustness = in.Get<double>();
  r.test_rows = in.GetVector<std::size_t>();
  r.test_points = in.GetVector<double>();
  return r;
}

detail::AxomDataReport RunDataSet(const AxomRequest& request, const std::string& name, const DataInput& input,
                                  std::size_t seeds, bool tune, bool heatmaps) {
  CsvOptions csv;
  csv.label = input.label.empty() ? std::string("label") : input.label;
  csv.regression = true;  // the classes as the file spells them (1, 2, 3...)
  csv.missing = input.missing;
  const Dataset data = ReadRows(input, csv);
  if (data.n_features() < 2)
    throw DataError(input.name() + " has fewer than two features; AXOM's robustness needs two", {"data"});
  detail::AxomDataReport report;
  report.name = name;
  report.feature_names = data.feature_names();
  AxomProtocolOptions po;
  po.tune = tune;
  po.trees = request.trees;
  po.max_depth = request.max_depth;
  po.robustness.eps = request.eps;
  po.robustness.neighbours = request.neighbours;
  po.robustness.full_matrix = request.full_matrix;
  po.execution = request.execution_of ? request.execution_of(name) : request.execution;
  // Over the processes of an MPI run: every one read the same, or the job ends here.
  RunInputs(po.execution).Data(data).Agree();
  const std::shared_ptr<const Processes> group = detail::SharedProcesses(po.execution);
  const auto run_seed = [&](std::size_t k, const ExecutionOptions& execution) {
    AxomProtocolOptions o = po;
    o.seed = request.seed + k;
    o.robustness.seed = o.seed;
    o.execution = execution;
    return RunAxomProtocol(data, o);
  };
  for (std::size_t k = 0; k < seeds; ++k) report.seeds.push_back(request.seed + k);
  if ((group == nullptr && request.checkpoint.empty()) || seeds < 2) {
    for (std::size_t k = 0; k < seeds; ++k) report.runs.push_back(run_seed(k, po.execution));
  } else {
    // Over the processes of an MPI run, or with a checkpoint: the first seed on every process
    // (its tree and forest draw the heat maps), the others one item each (shared, kept), each
    // run alone on its process.
    ExecutionOptions alone = po.execution;
    alone.processes = nullptr;
    report.runs.resize(seeds);
    report.runs[0] = run_seed(0, group == nullptr ? po.execution : alone);
    std::optional<detail::Checkpoint> checkpoint;
    if (!request.checkpoint.empty()) {
      // What the runs depend on: the data's values, the protocol's options, the seeds.
      detail::ByteWriter w;
      w.PutString(name);
      for (std::size_t c = 0; c < data.n_features(); ++c) w.PutSpan(std::span<const double>(data.column(c)));
      w.PutSpan(std::span<const double>(data.label()));
      w.Put(po.tune);
      w.Put(po.trees);
      w.Put(po.max_depth);
      w.Put(po.robustness.eps);
      w.Put<std::uint64_t>(po.robustness.neighbours);
      w.Put(po.robustness.full_matrix);
      w.Put(request.seed);
      checkpoint.emplace((std::filesystem::path(request.checkpoint) / name).string(), detail::Fingerprint(w.bytes()),
                         seeds - 1,
                         group.get());
    }
    detail::RunKeptItems(
        group, seeds - 1, checkpoint ? &*checkpoint : nullptr,
        [&](std::size_t i) {
          detail::ByteWriter out;
          PutRun(out, run_seed(i + 1, alone));
          return std::move(out.bytes());
        },
        [&](std::size_t i, detail::ByteReader& in) { report.runs[i + 1] = GetRun(in); });
  }
  if (heatmaps) {
    const AxomRun& r = report.runs.front();
    const auto [a, b] = HeatmapFeatures(request, r, data.feature_names());
    report.heatmaps = ComputeExplanationHeatmaps(r.tree.get(), *r.forest, {r.test_points, r.test_rows.size()},
                                                 0, a, b, request.eps, request.heatmap_grid, po.execution);
  }
  return report;
}

/** AXOM of the host's forest at the rows of the data (AxomRequest::model). */
detail::AxomModelReport RunGivenForest(const AxomRequest& request, const std::string& name) {
  const GivenModelInput& m = request.model;
  if (request.paper)
    throw InvalidArgument("the paper's protocol fits its own trees and forests; give the data to explain "
                          "with a fitted forest, or the protocol without one",
                          {"paper", "model"});
  if (request.tune)
    throw InvalidArgument("tune fits the forest; a fitted forest is used as it is", {"tune", "model"});
  if (request.seeds && *request.seeds != 1)
    throw InvalidArgument("seeds refit the forest; a fitted forest is used as it is (seed draws the neighbours)",
                          {"seeds", "model"});
  const auto t0 = std::chrono::steady_clock::now();
  const std::shared_ptr<const TreeEnsemble> forest = m.tree_model;
  const std::string model_name = m.display_name().empty() ? std::string("the model") : m.display_name();
  CsvOptions csv;
  csv.label = request.data.label;
  csv.label_optional = true;
  csv.allow_no_label = csv.label.empty();
  csv.regression = true;
  csv.missing = request.data.missing;
  const Dataset data = ReadRows(request.data, csv);
  const std::vector<std::size_t> columns = ModelColumns(data, *forest, model_name, "the data " + request.data.name());
  const std::size_t F = columns.size();
  const std::size_t n = data.n_rows();
  if (F < 2)
    throw DataError(model_name + " reads fewer than two features; AXOM's robustness needs two", {"model"});
  if (n == 0) throw DataError(request.data.name() + " has no rows to explain", {"data"});
  detail::AxomModelReport report;
  report.name = name;
  report.model = forest->Describe();
  report.model_source = model_name;
  report.seed = request.seed;
  // The rows in the model's feature order (column-major), and each feature's range over them.
  std::vector<double> points(F * n);
  report.scale.assign(F, 1.0);
  for (std::size_t j = 0; j < F; ++j) {
    const auto c = data.column(columns[j]);
    report.feature_names.push_back(data.feature_names()[columns[j]]);
    for (std::size_t r = 0; r < n; ++r) {
      if (!std::isfinite(c[r]))
        throw DataError(request.data.name() + ": row " + std::to_string(r) + ", column '" +
                            data.feature_names()[columns[j]] +
                            "' is missing or not finite; AXOM's neighbourhood needs every value (drop the row or "
                            "fill it)",
                        {"data"});
      points[j * n + r] = c[r];
    }
    const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
    if (*hi > *lo) report.scale[j] = *hi - *lo;
  }
  ExecutionOptions execution = request.execution_of ? request.execution_of(name) : request.execution;
  RunInputs(execution).Data(data).GivenModel(*forest, data, columns).Agree();
  report.explanation = ExplainAxom(*forest, {points, n}, execution);
  const auto t1 = std::chrono::steady_clock::now();
  report.seconds_explain = std::chrono::duration<double>(t1 - t0).count();
  const std::vector<std::string>& classes = forest->info().class_names;
  for (std::size_t k = 0; k < report.explanation.n_classes; ++k)
    report.class_names.push_back(classes.size() == report.explanation.n_classes ? classes[k] : std::to_string(k));
  ExplanationRobustnessOptions ro;
  ro.eps = request.eps;
  ro.neighbours = request.neighbours;
  ro.seed = request.seed;
  ro.full_matrix = request.full_matrix;
  ro.scale = report.scale;
  ro.execution = execution;
  report.robustness = EvaluateExplanationRobustness(nullptr, *forest, {points, n}, ro);
  report.forest_vs_axom = CompareRobustness(report.robustness.forest.l_bar, report.robustness.axom.l_bar);
  const auto [a, b] = request.heatmap_features ? NamedHeatmapFeatures(request, report.feature_names)
                                               : MostImportantTwo(report.explanation);
  report.heatmaps = ComputeExplanationHeatmaps(nullptr, *forest, {points, n}, 0, a, b, request.eps,
                                               request.heatmap_grid, execution, report.scale);
  report.seconds_robustness = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  return report;
}

}  // namespace

AxomResponse RunAxom(const AxomRequest& request) {
  if (request.model.has_tree_model() && request.model.tree_model == nullptr)
    throw InvalidArgument(
        "AXOM is not defined for boosted trees: each XGBoost tree fits what the trees before it left, so a "
        "tree has no label of its own to agree with the ensemble's and dropping trees changes the model; "
        "explain " +
            request.model.display_name() + " with treeshap",
        {request.model.tree_text.empty() ? "model_file" : "model"});
  if (request.model.host_model != nullptr)
    throw InvalidArgument("AXOM explains a forest by its trees; the model " + request.model.display_name() +
                              " is a function: give a fitted random forest (or explain the function with shap)",
                          {"model"});
  if (!(request.eps > 0.0 && request.eps <= 0.5))
    throw InvalidArgument("eps " + detail::Fmt("%g", request.eps) +
                              " is outside (0, 0.5]: it is a half-width on features normalised to [0, 1]",
                          {"eps"});
  if (request.neighbours < 1) throw InvalidArgument("the neighbours must be at least 1", {"neighbours"});
  if (request.model.tree_model != nullptr && request.data.generated() && !request.paper)
    throw InvalidArgument("give the rows to explain with the fitted forest (data)", {"data"});
  if (request.paper == !request.data.generated())
    throw InvalidArgument(
        "give the data (one data set) or the paper's protocol (its four data sets), one of them",
        {"data", "paper"});
  if (request.seeds && *request.seeds == 0) throw InvalidArgument("the seeds must be at least 1", {"seeds"});
  const auto t0 = std::chrono::steady_clock::now();
  AxomResponse response;
  response.paper = request.paper;
  detail::AxomReportSettings& settings = response.settings;
  settings.eps = request.eps;
  settings.neighbours = request.neighbours;
  settings.full_matrix = request.full_matrix;
  settings.tune = request.tune || request.paper;
  settings.threads = ResolvedThreads(request.execution);
  // The data set's name in the report: the request's, else the table's or the file's stem.
  const std::string name = !request.name.empty() ? request.name
                           : request.data.table != nullptr && request.data.path.empty()
                               ? request.data.name()
                               : std::filesystem::path(request.data.path).stem().string();
  if (request.model.tree_model != nullptr) {
    response.given = RunGivenForest(request, name);
  } else if (!request.paper) {
    response.reports.push_back(
        RunDataSet(request, name, request.data, request.seeds.value_or(1), request.tune, true));
    if (request.on_data_set) request.on_data_set(response.reports.back());
  } else {
    for (const std::string& data_set : AxomPaperDataSets(request.wide)) {
      DataInput input;
      input.path = (std::filesystem::path(request.data_dir) / (data_set + ".csv")).string();
      input.label = request.data.label;
      input.missing = request.data.missing;
      if (!std::filesystem::exists(input.path))
        throw DataError(input.path +
                            ": no such file; the data folder names the folder of the UCI CSV files "
                            "(wine.csv, ...)",
                        {"data_dir"});
      response.reports.push_back(RunDataSet(request, data_set, input, request.seeds.value_or(10), true, false));
      if (request.on_data_set) request.on_data_set(response.reports.back());
    }
  }
  settings.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return response;
}

}}}  // namespace perfshap::api
