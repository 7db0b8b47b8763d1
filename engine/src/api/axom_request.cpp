// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/axom_request.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <numeric>

#include "api/model_columns.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "report/format.hpp"

namespace perfshap::inline v0::api {

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
          {"features"});
    idx[k] = static_cast<int>(it - names.begin());
  }
  if (idx[0] == idx[1]) throw InvalidArgument("the heat maps need two different features", {"features"});
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
  for (std::size_t k = 0; k < seeds; ++k) {
    po.seed = request.seed + k;
    po.robustness.seed = po.seed;
    report.seeds.push_back(po.seed);
    report.runs.push_back(RunAxomProtocol(data, po));
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
  if (request.model.tree_model != nullptr) {
    std::string name = request.name;
    if (name.empty())
      name = request.data.table != nullptr && request.data.path.empty()
                 ? request.data.name()
                 : std::filesystem::path(request.data.path).stem().string();
    response.given = RunGivenForest(request, name);
  } else if (!request.paper) {
    std::string name = request.name;
    if (name.empty())
      name = request.data.table != nullptr && request.data.path.empty()
                 ? request.data.name()
                 : std::filesystem::path(request.data.path).stem().string();
    response.reports.push_back(
        RunDataSet(request, name, request.data, request.seeds.value_or(1), request.tune, true));
    if (request.on_data_set) request.on_data_set(response.reports.back());
  } else {
    std::vector<std::string> names = {"wine", "glass", "seeds", "banknote"};
    if (request.wide) names.insert(names.end(), {"breast_cancer", "ionosphere", "sonar"});
    for (const std::string& name : names) {
      DataInput input;
      input.path = (std::filesystem::path(request.data_dir) / (name + ".csv")).string();
      input.label = request.data.label;
      input.missing = request.data.missing;
      if (!std::filesystem::exists(input.path))
        throw DataError(input.path +
                            ": no such file; the data folder names the folder of the UCI CSV files "
                            "(wine.csv, ...)",
                        {"data_dir"});
      response.reports.push_back(RunDataSet(request, name, input, request.seeds.value_or(10), true, false));
      if (request.on_data_set) request.on_data_set(response.reports.back());
    }
  }
  settings.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return response;
}

}  // namespace perfshap::api
