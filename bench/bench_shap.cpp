// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Prediction explanations (issue 11):
// - TreeSHAP of the 100-tree depth-6 XGBoost fixture (tests/fixtures/xgboost/binary_logistic_100x6.json)
//   on breast_cancer's rows repeated 20 times (11,380 rows), at 1 and 2 threads: the side of the
//   comparison with XGBoost's pred_contribs that bench/run_shap_bench.sh runs (rows/s);
// - interventional SHAP of a logistic model, exact on pima (8 features, 100 rows explained,
//   100 background rows) and by the kernel solver on breast_cancer (30 features, 20 rows).
// Run: build/<dir>/bench/perfshap_bench --benchmark_filter=Shap
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/treeshap.hpp"
#include "perfshap/blocks/trees.hpp"
#include "solvers/quadrature_treeshap.hpp"

namespace {

perfshap::Dataset Read(const std::string& name) {
  perfshap::CsvOptions o;
  o.label = "label";
  return perfshap::ReadCsv(std::string(PERFSHAP_FIXTURE_DIR) + "/data/" + name + ".csv", o);
}

/** Rows of `d` (all its columns), column-major, the data repeated `times` times. */
std::vector<double> Tiled(const perfshap::Dataset& d, std::size_t times) {
  const std::size_t n = d.n_rows() * times;
  std::vector<double> x(d.n_features() * n);
  for (std::size_t j = 0; j < d.n_features(); ++j)
    for (std::size_t r = 0; r < n; ++r) x[j * n + r] = d.column(j)[r % d.n_rows()];
  return x;
}

void BM_TreeShap_Xgboost100x6(benchmark::State& state) {
  static const auto model =
      perfshap::ReadXgboostModel(std::string(PERFSHAP_FIXTURE_DIR) + "/xgboost/binary_logistic_100x6.json");
  static const perfshap::Dataset data = Read("breast_cancer");
  static const std::vector<double> x = Tiled(data, 20);
  const std::size_t n = data.n_rows() * 20;
  perfshap::ExecutionOptions e;
  e.threads = static_cast<int>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(perfshap::TreeShap(*model, x, n, e));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
  state.counters["rows"] = static_cast<double>(n);
}
BENCHMARK(BM_TreeShap_Xgboost100x6)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

/** Path-dependent TreeSHAP (one thread) by each algorithm: 0 the default (per tree), 1 the leaf
 *  paths (pattern tables where they fit), 2 quadrature; of the 100-tree depth-6 fixture on 2,000
 *  generated rows, or of the XGBoost JSON model PERFSHAP_BENCH_TREE_MODEL names (as
 *  bench/treeshap_vs_xgboost.py --save-models writes them). */
void BM_TreeShapAlgorithm(benchmark::State& state) {
  const char* path = std::getenv("PERFSHAP_BENCH_TREE_MODEL");
  static const auto model = perfshap::ReadXgboostModel(
      path != nullptr ? std::string(path) : std::string(PERFSHAP_FIXTURE_DIR) + "/xgboost/binary_logistic_100x6.json");
  const std::size_t n = 2000;
  static const std::vector<double> x = [&] {
    std::mt19937_64 rng(1);
    std::normal_distribution<double> normal;
    std::vector<double> v(model->n_features() * n);
    for (double& c : v) c = normal(rng);
    return v;
  }();
  const auto columns = perfshap::FeatureColumns::ColumnMajor(x, n, model->n_features());
  const auto algorithm = static_cast<perfshap::detail::TreeShapAlgorithm>(state.range(0));
  perfshap::ExecutionOptions e;
  e.threads = 1;
  for (auto _ : state) benchmark::DoNotOptimize(perfshap::detail::TreeShapUsing(*model, columns, algorithm, e));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n));
}
BENCHMARK(BM_TreeShapAlgorithm)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void InterventionalLogistic(benchmark::State& state, const std::string& name, std::size_t explained,
                            const std::string& solver) {
  const perfshap::Dataset data = Read(name);
  std::vector<std::size_t> rows(data.n_rows());
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::vector<std::size_t> columns(data.n_features());
  std::iota(columns.begin(), columns.end(), std::size_t{0});
  const auto model = perfshap::MakeLearner("logistic")->Train(data, rows, columns);
  const std::vector<double> all = Tiled(data, 1);
  const std::size_t n = data.n_rows();
  std::vector<double> x(data.n_features() * explained);
  std::vector<double> bg(data.n_features() * 100);
  for (std::size_t j = 0; j < data.n_features(); ++j) {
    for (std::size_t r = 0; r < explained; ++r) x[j * explained + r] = all[j * n + r];
    for (std::size_t b = 0; b < 100; ++b) bg[j * 100 + b] = all[j * n + (b * 7) % n];
  }
  perfshap::ShapOptions options;
  options.solver = solver;
  options.solver_options.execution.threads = static_cast<int>(state.range(0));
  for (auto _ : state)
    benchmark::DoNotOptimize(
        perfshap::ExplainInterventional(*model, {x, explained}, {bg, 100}, {}, data.feature_names(), options));
  state.counters["rows"] = static_cast<double>(explained);
}

void BM_Shap_ExactInterventional_Pima(benchmark::State& state) {
  InterventionalLogistic(state, "pima", 100, "exact");
}
BENCHMARK(BM_Shap_ExactInterventional_Pima)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Shap_KernelInterventional_BreastCancer(benchmark::State& state) {
  InterventionalLogistic(state, "breast_cancer", 20, "kernel");
}
BENCHMARK(BM_Shap_KernelInterventional_BreastCancer)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
