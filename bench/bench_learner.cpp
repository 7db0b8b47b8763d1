// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "perfshap/blocks/coalition.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/blocks/split.hpp"

namespace {

using perfshap::CoalitionFitter;
using perfshap::PreparedSplit;

// ../shared/data/<name> next to the source tree, or "" when absent.
std::string SharedData(const std::string& name) {
  const std::filesystem::path p =
      std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "shared" / "data" / name;
  return std::filesystem::exists(p) ? p.string() : std::string();
}

std::vector<std::size_t> AllColumns(const perfshap::Dataset& data) {
  std::vector<std::size_t> columns(data.n_features());
  for (std::size_t j = 0; j < columns.size(); ++j) columns[j] = j;
  return columns;
}

// One full exact pass of the retraining game's learner work on one split: prepare the split
// (gather, moments / standardisation), then train every non-empty coalition in Gray-code order
// (warm starts when state.range(0) == 1, a cold start per coalition otherwise), score the test
// rows (probabilities; log-odds / index when state.range(2) == 1) and, when state.range(1) == 1,
// take their AUC. Single thread.
void AllCoalitions(benchmark::State& state, const std::string& kind, const std::string& file,
                   const std::string& positive) {
  const std::string path = SharedData(file);
  if (path.empty()) {
    state.SkipWithError(("../shared/data/" + file + " is absent").c_str());
    return;
  }
  perfshap::CsvOptions csv;
  csv.label = "label";
  csv.positive = positive;
  const perfshap::Dataset data = perfshap::ReadCsv(path, csv);
  const perfshap::Split split = perfshap::HoldoutSplit(data.n_rows(), 0.2, 0);
  const auto columns = AllColumns(data);
  const bool warm = state.range(0) == 1;
  const bool auc = state.range(1) == 1;
  const auto scale =
      state.range(2) == 1 ? perfshap::ScoreScale::kIndex : perfshap::ScoreScale::kProbability;
  const std::uint64_t n_coalitions = std::uint64_t{1} << columns.size();
  std::vector<double> scores(split.test.size());
  std::vector<std::size_t> scratch(split.test.size());
  std::int64_t iterations = 0;
  for (auto _ : state) {
    const auto prepared_ptr = perfshap::MakeLearner(kind)->Prepare(data, perfshap::SingleColumnPlayers(data, columns),
                                                                   split.train, split.test, "the training rows");
    const PreparedSplit& prepared = *prepared_ptr;
    const auto trainer_ptr = prepared.MakeFitter();
    CoalitionFitter& trainer = *trainer_ptr;
    double sum = 0.0;
    for (std::uint64_t rank = 1; rank < n_coalitions; ++rank) {
      if (!warm) trainer.Reset();
      iterations += trainer.Score(perfshap::GrayCode(rank), scores, scale);
      sum += auc ? perfshap::RocAuc(prepared.test_labels(), scores, scratch) : scores[0];
    }
    benchmark::DoNotOptimize(sum);
  }
  const auto trainings =
      static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(n_coalitions - 1);
  state.SetItemsProcessed(trainings);
  state.counters["newton_iters_per_fit"] = static_cast<double>(iterations) / static_cast<double>(trainings);
}

void BM_GaussianNb_AllCoalitions_Banknote(benchmark::State& state) {
  AllCoalitions(state, "gnb", "banknote.csv", "");
}
BENCHMARK(BM_GaussianNb_AllCoalitions_Banknote)
    ->ArgNames({"warm", "auc", "index"})
    ->Args({1, 1, 0})
    ->Args({1, 0, 0})
    ->Args({1, 1, 1})
    ->Args({1, 0, 1})
    ->Unit(benchmark::kMicrosecond);

// Wine, class 1 vs rest, 13 features: 8191 logistic trainings per iteration.
void BM_Logistic_AllCoalitions_Wine(benchmark::State& state) {
  AllCoalitions(state, "logistic", "wine.csv", "1");
}
BENCHMARK(BM_Logistic_AllCoalitions_Wine)
    ->ArgNames({"warm", "auc", "index"})
    ->Args({1, 1, 0})
    ->Args({0, 1, 0})
    ->Args({1, 0, 0})
    ->Unit(benchmark::kMillisecond);

void BM_GaussianNb_AllCoalitions_Wine(benchmark::State& state) {
  AllCoalitions(state, "gnb", "wine.csv", "1");
}
BENCHMARK(BM_GaussianNb_AllCoalitions_Wine)
    ->ArgNames({"warm", "auc"})
    ->Args({1, 1})
    ->Unit(benchmark::kMillisecond);

// XPER's Monte Carlo experiment: one probit fit on 5,000 rows of the paper's design.
void BM_Probit_Train_5000(benchmark::State& state) {
  perfshap::ProbitDesign design;
  design.n_rows = 5000;
  const perfshap::Dataset data = perfshap::GenerateProbitDesign(design);
  std::vector<std::size_t> rows(data.n_rows());
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  const auto columns = AllColumns(data);
  for (auto _ : state) {
    auto model = perfshap::Train("probit", data, rows, columns);
    benchmark::DoNotOptimize(model);
  }
}
BENCHMARK(BM_Probit_Train_5000)->Unit(benchmark::kMicrosecond);

}  // namespace
