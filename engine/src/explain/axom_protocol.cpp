// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The AXOM paper's protocol on one data set and seed (perfshap/axom.hpp, RunAxomProtocol): min-max
// normalisation, a stratified split of the paper's sizes, grid-search cross-validation of the tree
// and the forest on accuracy, and the robustness of the three explanations at the test points.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "perfshap/axom.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/blocks/stats.hpp"
#include "perfshap/blocks/tree_learners.hpp"

namespace perfshap { inline namespace v0 {

std::string AxomSetting::Describe() const {
  std::string s = "max_depth=" + (max_depth > 0 ? std::to_string(max_depth) : std::string("none"));
  s += ", min_samples_leaf=" + std::to_string(min_samples_leaf);
  if (!max_features.empty()) s += ", max_features=" + max_features;
  return s;
}

std::vector<AxomSetting> AxomTreeGrid() {
  std::vector<AxomSetting> grid;
  for (int depth : {3, 5, 8, 0})
    for (int leaf : {1, 2, 5}) grid.push_back({depth, leaf, ""});
  return grid;
}

std::vector<AxomSetting> AxomForestGrid() {
  std::vector<AxomSetting> grid;
  for (int depth : {5, 10, 0})
    for (const char* features : {"sqrt", "0.5"}) grid.push_back({depth, 1, features});
  return grid;
}

namespace {

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/** The class of each row's largest output (one output: the fraction of class 1). */
std::vector<int> Labels(const TreeEnsemble& m, const std::vector<double>& x, std::size_t n) {
  std::vector<double> p(m.n_outputs() * n);
  m.PredictMargin(x, n, p);
  std::vector<int> labels(n);
  for (std::size_t r = 0; r < n; ++r) {
    if (m.n_outputs() == 1) {
      labels[r] = p[r] > 0.5 ? 1 : 0;
      continue;
    }
    std::size_t best = 0;
    for (std::size_t k = 1; k < m.n_outputs(); ++k)
      if (p[k * n + r] > p[best * n + r]) best = k;
    labels[r] = static_cast<int>(best);
  }
  return labels;
}

/** Column-major values of `rows` of every column. */
std::vector<double> Gather(const Dataset& d, const std::vector<std::size_t>& rows) {
  std::vector<double> x(d.n_features() * rows.size());
  for (std::size_t j = 0; j < d.n_features(); ++j)
    for (std::size_t r = 0; r < rows.size(); ++r) x[j * rows.size() + r] = d.column(j)[rows[r]];
  return x;
}

ForestOptions Options(const AxomSetting& s, int trees, std::uint64_t seed, const ExecutionOptions& e) {
  ForestOptions o;
  o.max_depth = s.max_depth;
  o.min_samples_leaf = s.min_samples_leaf;
  o.max_features = s.max_features;
  o.n_estimators = trees;
  o.seed = seed;
  o.execution = e;
  return o;
}

double Accuracy(const TreeEnsemble& m, const Dataset& d, const std::vector<std::size_t>& rows,
                const std::vector<int>& y) {
  const std::vector<int> labels = Labels(m, Gather(d, rows), rows.size());
  std::size_t right = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) right += labels[r] == y[rows[r]] ? 1 : 0;
  return static_cast<double>(right) / static_cast<double>(rows.size());
}

AxomTest FromStats(const TestResult& t) { return {t.statistic, t.p_value, t.method}; }


}  // namespace

AxomComparison CompareRobustness(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<double> x;
  std::vector<double> y;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::isfinite(a[i]) && std::isfinite(b[i])) {
      x.push_back(a[i]);
      y.push_back(b[i]);
    }
  AxomComparison c;
  c.n = x.size();
  if (x.size() < 2) {
    const AxomTest none{std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(),
                        "fewer than 2 points"};
    c.paired_t = c.wilcoxon = c.student_t = c.mann_whitney = none;
    return c;
  }
  c.paired_t = FromStats(PairedTTest(x, y));
  c.wilcoxon = FromStats(WilcoxonSignedRank(x, y));
  c.student_t = FromStats(StudentTTest(x, y));
  c.mann_whitney = FromStats(MannWhitneyU(x, y));
  return c;
}

AxomRun RunAxomProtocol(const Dataset& data, const AxomProtocolOptions& options) {
  PERFSHAP_CHECK(options.test_fraction > 0.0 && options.test_fraction < 1.0, "the test fraction must be in (0, 1)",
                 {"test_fraction"});
  PERFSHAP_CHECK(options.folds >= 2, "grid search needs at least 2 folds", {"folds"});
  PERFSHAP_CHECK(options.trees >= 1, "a forest needs at least one tree", {"trees"});
  const std::size_t n = data.n_rows();
  // Classes: the label's distinct values, which must be whole numbers, 2 to 50 of them.
  std::vector<double> classes(data.label().begin(), data.label().end());
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  const bool whole = std::all_of(classes.begin(), classes.end(), [](double v) { return v == std::floor(v); });
  if (!whole || classes.size() > 50)
    throw DataError(data.source() + ": the label has " + std::to_string(classes.size()) +
                        " distinct values" + (whole ? "" : ", not all whole numbers") +
                        ": it looks like a regression target, and AXOM explains classifiers; name a class label",
                    {"label"});
  if (classes.size() < 2)
    throw DataError(data.source() + ": the label has one class only; AXOM explains classifiers of two or more classes",
                    {"label"});
  std::vector<int> y(n);
  for (std::size_t r = 0; r < n; ++r)
    y[r] = static_cast<int>(std::lower_bound(classes.begin(), classes.end(), data.label()[r]) - classes.begin());

  // Features min-max normalised over all rows (a constant column becomes 0), as the paper.
  std::vector<std::vector<double>> columns(data.n_features());
  for (std::size_t j = 0; j < data.n_features(); ++j) {
    const auto c = data.column(j);
    const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
    const double range = *hi - *lo;
    for (double v : c) columns[j].push_back(range > 0.0 ? (v - *lo) / range : 0.0);
  }
  std::vector<double> label(y.begin(), y.end());
  Dataset norm(data.feature_names(), std::move(columns), label, data.label_name());
  norm.set_source(data.source());

  AxomRun run;
  run.data = data.source();
  run.n_features = data.n_features();
  run.n_classes = classes.size();
  run.trees = options.trees;
  const auto n_test = static_cast<std::size_t>(std::ceil(options.test_fraction * static_cast<double>(n)));
  // Before any fit: the robustness stage's neighbours dominate (trees of a balanced depth).
  CheckCost(EstimateAxomCost(n_test, options.robustness.neighbours, static_cast<std::size_t>(options.trees) + 1,
                             data.n_features(), static_cast<std::size_t>(std::ceil(std::log2(std::max(2.0, static_cast<double>(n))))),
                             1),
            options.execution, kAxomRemedy, {"neighbours", "trees"});
  const Split split = HoldoutSplit(n, static_cast<double>(n_test) / static_cast<double>(n), options.seed, label);
  run.n_train = split.train.size();
  run.n_test = split.test.size();
  std::vector<std::size_t> all_columns(data.n_features());
  for (std::size_t j = 0; j < all_columns.size(); ++j) all_columns[j] = j;

  // Grid search: stratified folds of the training rows, mean accuracy, the first best setting.
  auto t0 = std::chrono::steady_clock::now();
  if (options.tune) {
    std::vector<double> train_labels;
    for (std::size_t r : split.train) train_labels.push_back(label[r]);
    const SplitPlan folds = KFoldSplits(split.train.size(), options.folds, options.seed, train_labels);
    auto search = [&](const std::vector<AxomSetting>& grid, bool forest) {
      double best = -1.0;
      AxomSetting chosen = grid.front();
      for (const AxomSetting& s : grid) {
        double total = 0.0;
        for (const Split& f : folds) {
          std::vector<std::size_t> fit_rows;
          std::vector<std::size_t> check_rows;
          for (std::size_t i : f.train) fit_rows.push_back(split.train[i]);
          for (std::size_t i : f.test) check_rows.push_back(split.train[i]);
          const ForestOptions o = Options(s, options.trees, options.seed, options.execution);
          const auto m = forest ? FitForest(o, norm, fit_rows, all_columns) : FitTree(o, norm, fit_rows, all_columns);
          total += Accuracy(*m, norm, check_rows, y);
        }
        if (total > best) {
          best = total;
          chosen = s;
        }
      }
      return chosen;
    };
    run.tree_setting = search(AxomTreeGrid(), false);
    run.forest_setting = search(AxomForestGrid(), true);
  } else {
    run.tree_setting = {options.max_depth, 1, ""};
    run.forest_setting = {options.max_depth, 1, "sqrt"};
  }
  run.seconds_tuning = Seconds(t0);

  t0 = std::chrono::steady_clock::now();
  run.tree = FitTree(Options(run.tree_setting, 1, options.seed, options.execution), norm, split.train, all_columns);
  run.forest =
      FitForest(Options(run.forest_setting, options.trees, options.seed, options.execution), norm, split.train, all_columns);
  run.tree_accuracy = Accuracy(*run.tree, norm, split.test, y);
  run.forest_accuracy = Accuracy(*run.forest, norm, split.test, y);
  run.seconds_fit = Seconds(t0);

  t0 = std::chrono::steady_clock::now();
  run.test_rows = split.test;
  run.test_points = Gather(norm, split.test);
  ExplanationRobustnessOptions ro = options.robustness;
  ro.execution = options.execution;
  ro.execution.on_estimate = nullptr;  // estimated above
  run.robustness = EvaluateExplanationRobustness(run.tree.get(), *run.forest, {run.test_points, split.test.size()}, ro);
  run.seconds_robustness = Seconds(t0);
  double mis = 0.0;
  for (double v : run.robustness.mislabelling) mis += v;
  run.mislabelling = mis / static_cast<double>(split.test.size());
  run.tree_vs_forest = CompareRobustness(run.robustness.tree.l_bar, run.robustness.forest.l_bar);
  run.tree_vs_axom = CompareRobustness(run.robustness.tree.l_bar, run.robustness.axom.l_bar);
  run.forest_vs_axom = CompareRobustness(run.robustness.forest.l_bar, run.robustness.axom.l_bar);
  return run;
}

}}  // namespace perfshap
