// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Exact solver throughput (coalitions per second) on a cheap vector game, n = 10..24,
// 1 and 2 threads. Compare the two thread counts within one run: absolute times drift.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include "perfshap/blocks/solver.hpp"

namespace {

// A cheap vector game (k = 4): v(S) depends on the members through a weighted sum and an
// interaction, so the solver's accumulation, not the game, dominates.
class CheapVectorGame final : public perfshap::Game {
 public:
  explicit CheapVectorGame(int n) : n_(n), weights_(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i) weights_[static_cast<std::size_t>(i)] = std::sin(1.0 + i);
  }
  int n_players() const override { return n_; }
  std::size_t n_outputs() const override { return 4; }
  std::unique_ptr<perfshap::GameWorker> MakeWorker() const override { return std::make_unique<Worker>(*this); }

 private:
  class Worker final : public perfshap::GameWorker {
   public:
    explicit Worker(const CheapVectorGame& g) : g_(g) {}
    void Evaluate(perfshap::Coalition s, std::span<double> out) override {
      double sum = 0;
      for (perfshap::Coalition rest = s; rest != 0; rest &= rest - 1)
        sum += g_.weights_[static_cast<std::size_t>(std::countr_zero(rest))];
      const double inter = (s & 3) == 3 ? 1.0 : 0.0;
      out[0] = sum;
      out[1] = sum * sum;
      out[2] = inter;
      out[3] = sum + inter;
    }

   private:
    const CheapVectorGame& g_;
  };
  int n_;
  std::vector<double> weights_;
};

void BM_ExactSolver_CheapVectorGame(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const int threads = static_cast<int>(state.range(1));
  CheapVectorGame game(n);
  perfshap::ExactOptions opt;
  opt.execution.threads = threads;
  const perfshap::ExactSolver solver(opt);
  for (auto _ : state) {
    auto values = solver.Solve(game);
    benchmark::DoNotOptimize(values.phi.data());
  }
  const double coalitions = std::ldexp(1.0, n);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(coalitions));
  state.counters["coalitions_per_s"] =
      benchmark::Counter(coalitions * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExactSolver_CheapVectorGame)
    ->ArgsProduct({{10, 12, 14, 16, 18, 20, 22, 24}, {1, 2}})
    ->ArgNames({"n", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The batch pipeline's cost per game: many small games of one block each (as 100 Monte-Carlo
// splits of 4 features), solved in one SolveBatch that streams their values in game order.
// Games per second, 1 and 2 threads.
void BM_ExactSolver_BatchOfSmallGames(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto n_games = static_cast<std::size_t>(state.range(1));
  std::vector<CheapVectorGame> games;
  games.reserve(n_games);
  for (std::size_t g = 0; g < n_games; ++g) games.emplace_back(n);
  std::vector<const perfshap::Game*> pointers;
  for (const auto& g : games) pointers.push_back(&g);
  perfshap::ExactOptions opt;
  opt.execution.threads = static_cast<int>(state.range(2));
  const perfshap::ExactSolver solver(opt);
  for (auto _ : state) {
    double sum = 0.0;
    solver.SolveBatch(pointers, [&](std::size_t, perfshap::ShapleyValues&& v) { sum += v.phi[0]; });
    benchmark::DoNotOptimize(sum);
  }
  state.counters["games_per_s"] = benchmark::Counter(
      static_cast<double>(n_games) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ExactSolver_BatchOfSmallGames)
    ->ArgsProduct({{4, 8}, {100, 1000}, {1, 2}})
    ->ArgNames({"n", "games", "threads"})
    ->Unit(benchmark::kMicrosecond)
    ->UseRealTime();

}  // namespace
