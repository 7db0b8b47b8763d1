// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "solvers/sampling.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>

#include "perfshap/error.hpp"
#include "solvers/finite_values.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::uint64_t SampleBudget(const SolverOptions& options) noexcept {
  return options.budget > 0 ? options.budget : kDefaultSampleBudget;
}

void CheckSampledOptions(const SolverOptions& options, const std::string& solver, int n, std::uint64_t min_budget) {
  PERFSHAP_CHECK(n >= 2, solver + " sampling needs at least 2 players; solve 1 player exactly", {"solver"});
  PERFSHAP_CHECK(options.tolerance > 0.0 && options.tolerance < 1.0,
                 "the tolerance must lie in (0, 1) (the largest standard error as a share of the range of the "
                 "values, e.g. 0.01), got " +
                     std::to_string(options.tolerance),
                 {"tolerance"});
  PERFSHAP_CHECK(std::isfinite(options.time_limit_seconds) && options.time_limit_seconds >= 0.0,
                 "the time limit must be a number of seconds >= 0 (0: none)", {"time_limit_seconds"});
  const std::uint64_t budget = SampleBudget(options);
  if (budget < min_budget)
    throw InvalidArgument("a budget of " + std::to_string(budget) + " coalition evaluations is too small for " +
                              solver + " sampling of " + std::to_string(n) + " players: it needs at least " +
                              std::to_string(min_budget) + "; raise the budget",
                          {"budget"});
}

void VectorMoments::Reset(std::size_t d) {
  count_ = 0;
  mean_.assign(d, 0.0);
  m2_.assign(d, 0.0);
}

void VectorMoments::Add(const double* x) {
  ++count_;
  const double inv = 1.0 / static_cast<double>(count_);
  for (std::size_t j = 0; j < mean_.size(); ++j) {
    const double delta = x[j] - mean_[j];
    mean_[j] += delta * inv;
    m2_[j] += delta * (x[j] - mean_[j]);
  }
}

void VectorMoments::Write(ByteWriter& out) const {
  out.Put(count_);
  out.PutVector(mean_);
  out.PutVector(m2_);
}

void VectorMoments::Read(ByteReader& in) {
  count_ = in.Get<std::uint64_t>();
  mean_ = in.GetVector<double>();
  m2_ = in.GetVector<double>();
}

void RoundLoop::operator()(std::size_t n, std::uint64_t units, const std::function<void(std::size_t, void*)>& body,
                           const BlockExchange& exchange) const {
  if (group_ == nullptr) {
    (*loop_)(n, units, body);
    return;
  }
  struct Holder {
    std::shared_ptr<void> scratch;
  };
  ItemRange mine;
  RunShared(
      *group_, n,
      [&](ItemRange share, const std::function<ByteWriter&(std::size_t)>& write) {
        mine = share;
        schedule_->ForEachBlock<Holder>(
            share.end - share.begin, units,
            [&] { return std::make_unique<Holder>(Holder{make_scratch_()}); },
            [&](std::size_t b, Holder& holder) { body(share.begin + b, holder.scratch.get()); });
        for (std::size_t b = share.begin; b < share.end; ++b) exchange.put(b, write(b));
      },
      [&](std::size_t b, ByteReader& in) {
        if (b < mine.begin || b >= mine.end) exchange.get(b, in);
      });
}

void VectorMoments::Merge(const VectorMoments& other) {
  if (other.count_ == 0) return;
  if (count_ == 0) {
    *this = other;
    return;
  }
  const double na = static_cast<double>(count_);
  const double nb = static_cast<double>(other.count_);
  const double n = na + nb;
  for (std::size_t j = 0; j < mean_.size(); ++j) {
    const double delta = other.mean_[j] - mean_[j];
    mean_[j] += delta * (nb / n);
    m2_[j] += other.m2_[j] + delta * delta * (na * nb / n);
  }
  count_ += other.count_;
}

void VectorMoments::StandardErrors(std::span<double> out) const {
  const double c = static_cast<double>(count_);
  for (std::size_t j = 0; j < mean_.size(); ++j)
    out[j] = count_ >= 2 ? std::sqrt(std::max(0.0, m2_[j]) / (c - 1.0) / c) : 0.0;
}

double ConvergenceRatio(std::span<const double> phi, std::span<const double> se, int n, std::size_t k) {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  double worst = 0.0;
  for (int i = 0; i < n; ++i) {
    const std::size_t at = static_cast<std::size_t>(i) * k;
    lo = std::min(lo, phi[at]);
    hi = std::max(hi, phi[at]);
    worst = std::max(worst, se[at]);
  }
  if (worst == 0.0) return 0.0;
  const double range = hi - lo;
  return range > 0.0 ? worst / range : std::numeric_limits<double>::infinity();
}

void ProjectEfficiency(std::span<double> phi, int n, std::size_t k, std::span<const double> base,
                       std::span<const double> full) {
  for (std::size_t j = 0; j < k; ++j) {
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += phi[static_cast<std::size_t>(i) * k + j];
    const double shift = ((full[j] - base[j]) - sum) / static_cast<double>(n);
    for (int i = 0; i < n; ++i) phi[static_cast<std::size_t>(i) * k + j] += shift;
  }
}

void EvaluateWords(GameWorker& worker, int n, std::span<const std::uint64_t> words, std::span<double> out) {
  if (n <= 64) {
    worker.Evaluate(words[0], out);
  } else {
    worker.EvaluateWide(WideCoalition{words}, out);
  }
}

ShapleyValues BeginSampledValues(const Game& game, const RoundLoop& loop) {
  const int n = game.n_players();
  const std::size_t k = game.n_outputs();
  ShapleyValues out;
  out.players = game.player_names();
  out.n_players = n;
  out.n_outputs = k;
  out.base.assign(k, 0.0);
  out.full.assign(k, 0.0);
  loop(2, 1, [&](std::size_t b, void*) {
    auto worker = game.MakeWorker();
    worker->Reset();
    std::vector<std::uint64_t> words(CoalitionWords(n), 0);
    if (b == 1)
      for (int i = 0; i < n; ++i) words[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64);
    EvaluateWords(*worker, n, words, b == 0 ? out.base : out.full);
  }, {[&](std::size_t b, ByteWriter& w) { w.PutVector(b == 0 ? out.base : out.full); },
      [&](std::size_t b, ByteReader& r) { r.GetInto(std::span<double>(b == 0 ? out.base : out.full)); }});
  return out;
}

StopRule::StopRule(const SolverOptions& options, std::uint64_t budget, std::chrono::steady_clock::time_point start)
    : budget_(budget), tolerance_(options.tolerance), time_limit_(options.time_limit_seconds), start_(start) {}

std::optional<StopReason> StopRule::Check(std::uint64_t used, double ratio) const {
  if (ratio < tolerance_) return StopReason::kTolerance;
  if (used >= budget_) return StopReason::kBudget;
  if (time_limit_ > 0.0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count() >= time_limit_)
    return StopReason::kTime;
  return std::nullopt;
}

std::uint64_t StopRule::Forecast(std::uint64_t used, double ratio) const {
  if (!(ratio < std::numeric_limits<double>::infinity())) return budget_;
  const double need = static_cast<double>(used) * (ratio / tolerance_) * (ratio / tolerance_);
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::min(need, 1e18)), used, budget_);
}

void SolveSampledBatch(std::span<const Game* const> games, const Solver::GameSink& sink, const SolverOptions& options,
                       const std::function<std::shared_ptr<void>()>& make_scratch,
                       const std::function<ShapleyValues(std::size_t g, const Game& game, const RoundLoop& loop,
                                                         Schedule& schedule)>& run_game) {
  const auto t0 = std::chrono::steady_clock::now();
  PERFSHAP_CHECK(!games.empty(), "no games to solve");
  const int n = games[0]->n_players();
  const std::size_t k = games[0]->n_outputs();
  for (const Game* g : games)
    PERFSHAP_CHECK(g->n_players() == n && g->n_outputs() == k, "every game of a batch needs the same players and outputs");
  Schedule schedule(options.execution);
  schedule.SetProgressTotal(SampleBudget(options) * games.size());
  if (const std::shared_ptr<const Processes> group = SharedProcesses(options.execution)) {
    PERFSHAP_CHECK(!(options.time_limit_seconds > 0.0),
                   "a time limit would stop each process of the MPI run at its own time, and they share every "
                   "game's rounds here; give a budget or a tolerance instead",
                   {"time_limit_seconds"});
    const RoundLoop loop(group, schedule, make_scratch);
    for (std::size_t g = 0; g < games.size(); ++g) {
      games[g]->Prepare();
      ShapleyValues values = run_game(g, *games[g], loop, schedule);
      values.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      CheckFiniteValues(values);
      sink(g, std::move(values));
    }
    schedule.FinishProgress();
    return;
  }
  std::vector<ShapleyValues> results(std::min(games.size(), schedule.max_in_flight()));
  PipelineStages stages;
  stages.n_items = games.size();
  stages.blocks_per_item = 1;
  stages.make_scratch = make_scratch;
  stages.prepare = [&](std::size_t g, std::size_t) { games[g]->Prepare(); };
  stages.drive = [&](std::size_t g, std::size_t slot, const BlockLoop& loop) {
    results[slot] = run_game(g, *games[g], RoundLoop(loop), schedule);
  };
  stages.deliver = [&](std::size_t g, std::size_t slot) {
    results[slot].elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    CheckFiniteValues(results[slot]);
    sink(g, std::move(results[slot]));
  };
  schedule.RunPipeline(stages);
  schedule.FinishProgress();
}

}}}  // namespace perfshap::detail
