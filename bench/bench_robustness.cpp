// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <benchmark/benchmark.h>

#include <cstddef>
#include <filesystem>
#include <string>

#include "perfshap/dataset.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/blocks/split.hpp"

namespace {

// ../shared/data/<name> next to the source tree, or "" when absent.
std::string SharedData(const std::string& name) {
  const std::filesystem::path p =
      std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "shared" / "data" / name;
  return std::filesystem::exists(p) ? p.string() : std::string();
}

// The banknote case end to end in the library: GaussianNB, 100 Monte-Carlo CV splits
// (test 0.2), every coalition's AUC, ShapROC / ShapPRC grids (101 points), AUPRC, bands.
// state.range(0) = threads; state.range(1) = 1 for --curve-points thresholds:101.
void BM_Robustness_Banknote_Gnb_Mc100(benchmark::State& state) {
  const std::string path = SharedData("banknote.csv");
  if (path.empty()) {
    state.SkipWithError("../shared/data/banknote.csv is absent");
    return;
  }
  perfshap::CsvOptions csv;
  csv.label = "label";
  const perfshap::Dataset data = perfshap::ReadCsv(path, csv);
  const perfshap::SplitPlan plan = perfshap::MonteCarloSplits(data.n_rows(), 100, 0.2, 0);
  perfshap::RobustnessOptions options;
  options.learner = perfshap::MakeLearner("gnb");
  options.execution.threads = static_cast<int>(state.range(0));
  if (state.range(1) == 1) perfshap::ParseCurvePoints("thresholds:101", options.curves);
  for (auto _ : state) {
    const perfshap::RobustnessResult result = perfshap::ExplainRobustness(data, plan, options);
    benchmark::DoNotOptimize(result.auc_mean);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 100 * 15);
}
BENCHMARK(BM_Robustness_Banknote_Gnb_Mc100)
    ->ArgNames({"threads", "thresholds"})
    ->Args({1, 0})
    ->Args({2, 0})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
