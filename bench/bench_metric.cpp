// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "perfshap/blocks/metric.hpp"

namespace {

// RocAuc on m random rows: labels Bernoulli(0.3), scores = label + N(0, 1) rounded to 1e-3
// so that ties occur at every size. Fixed seed: every run times the same data. The scratch
// overload is used, so after the first iteration the timed loop does not allocate.
void BM_RocAuc_Random(benchmark::State& state) {
  const auto m = static_cast<std::size_t>(state.range(0));
  std::mt19937_64 rng(20260101);
  std::bernoulli_distribution label(0.3);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<double> y_true(m);
  std::vector<double> score(m);
  for (std::size_t i = 0; i < m; ++i) {
    y_true[i] = label(rng) ? 1.0 : 0.0;
    score[i] = static_cast<double>(static_cast<std::int64_t>((y_true[i] + noise(rng)) * 1000.0)) /
               1000.0;
  }
  std::vector<std::size_t> scratch;
  scratch.reserve(m);
  for (auto _ : state) {
    double auc = perfshap::RocAuc(y_true, score, scratch);
    benchmark::DoNotOptimize(auc);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(m));
}
BENCHMARK(BM_RocAuc_Random)->RangeMultiplier(10)->Range(1000, 1000000);

}  // namespace
