// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the sampled solvers share: the checks of their options, running moments of vectors
// merged in a fixed order, the one convergence rule, the exact projection onto efficiency,
// coalitions of any width, and the batch driver that runs each game's rounds as a pipeline item.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/processes.hpp"
#include "schedule/distribute.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief The sampled solvers' budget: options.budget, or kDefaultSampleBudget. */
std::uint64_t SampleBudget(const SolverOptions& options) noexcept;

/** @brief Checks a sampled solver's options and game size. @throws InvalidArgument naming the
 *  option (tolerance outside (0, 1), a negative time limit, a budget below `min_budget`). */
void CheckSampledOptions(const SolverOptions& options, const std::string& solver, int n,
                         std::uint64_t min_budget);

/**
 * @brief Running mean and sum of squared deviations of d-vectors (Welford), merged with another
 * in a fixed order (Chan, Golub and LeVeque), so partial moments of blocks reduced in block order
 * give the same bits for any thread count.
 */
class VectorMoments {
 public:
  void Reset(std::size_t d);
  void Add(const double* x);
  void Merge(const VectorMoments& other);
  /** @brief The moments as bytes (an MPI run's exchange), and back. */
  void Write(ByteWriter& out) const;
  void Read(ByteReader& in);
  std::uint64_t count() const noexcept { return count_; }
  const std::vector<double>& mean() const noexcept { return mean_; }
  /** @brief out[j] = sqrt(m2_j / (count - 1) / count): the standard error of the mean (0 with
   *  fewer than 2 samples). */
  void StandardErrors(std::span<double> out) const;

 private:
  std::uint64_t count_ = 0;
  std::vector<double> mean_;
  std::vector<double> m2_;
};

/**
 * @brief The convergence rule's ratio on output 0: max_j se_j / (max_j phi_j - min_j phi_j)
 * over the players (phi and se are n x k row-major). 0 when every se is 0; infinite when the
 * values are all equal but some se is not 0.
 */
double ConvergenceRatio(std::span<const double> phi, std::span<const double> se, int n, std::size_t k);

/** @brief Shifts every player's value of output j by (full_j - base_j - sum_i phi_ij) / n, so
 *  that efficiency holds exactly (to the last rounding) for every output. */
void ProjectEfficiency(std::span<double> phi, int n, std::size_t k, std::span<const double> base,
                       std::span<const double> full);

/** @brief v(coalition) through the worker: a mask for n <= 64, else EvaluateWide. */
void EvaluateWords(GameWorker& worker, int n, std::span<const std::uint64_t> words, std::span<double> out);

/** @brief How the results of a round's blocks cross between the processes of an MPI run:
 *  put(b, out) writes block b's results (what the solver reduces after the round), get(b, in)
 *  reads them into block b's place on a process that did not run it. */
struct BlockExchange {
  std::function<void(std::size_t block, ByteWriter& out)> put;
  std::function<void(std::size_t block, ByteReader& in)> get;
};

/**
 * @brief A sampled solver's rounds of blocks: body(b, scratch) for b in [0, n). Alone (a
 * pipeline item's BlockLoop) the exchange is not used; over processes (one game that every
 * process of an MPI run takes part in), each runs a contiguous share of the round's blocks and
 * the blocks' results are exchanged with `exchange`, so every process reduces every block, in
 * block order, as one process does.
 */
class RoundLoop {
 public:
  explicit RoundLoop(const BlockLoop& loop) : loop_(&loop) {}
  RoundLoop(std::shared_ptr<const Processes> group, Schedule& schedule,
            std::function<std::shared_ptr<void>()> make_scratch)
      : group_(std::move(group)), schedule_(&schedule), make_scratch_(std::move(make_scratch)) {}
  void operator()(std::size_t n, std::uint64_t units, const std::function<void(std::size_t, void*)>& body,
                  const BlockExchange& exchange) const;
  /** @brief True over processes. */
  bool shared() const noexcept { return group_ != nullptr; }

 private:
  const BlockLoop* loop_ = nullptr;
  std::shared_ptr<const Processes> group_;
  Schedule* schedule_ = nullptr;
  std::function<std::shared_ptr<void>()> make_scratch_;
};

/** @brief A sampled solver's result, begun: the game's players and sizes, and v(empty) and
 *  v(N) (every estimate's two ends) in base and full, evaluated as two blocks of `loop`. */
ShapleyValues BeginSampledValues(const Game& game, const RoundLoop& loop);

/** @brief When a game's sampling stops: the budget, the tolerance, the time limit (counted
 *  from `start`, the start of the batch: the limit is the whole solve's). */
class StopRule {
 public:
  StopRule(const SolverOptions& options, std::uint64_t budget, std::chrono::steady_clock::time_point start);
  /** @brief Nothing to go on, or why to stop (kTolerance, kBudget, kTime) after `used`
   *  evaluations with convergence ratio `ratio`. */
  std::optional<StopReason> Check(std::uint64_t used, double ratio) const;
  /** @brief How many evaluations the rule forecasts it will have taken in all: used x
   *  (ratio / tolerance)^2 (SAGE's forecast), within the budget. */
  std::uint64_t Forecast(std::uint64_t used, double ratio) const;
  std::uint64_t budget() const noexcept { return budget_; }

 private:
  std::uint64_t budget_;
  double tolerance_;
  double time_limit_;
  std::chrono::steady_clock::time_point start_;
};

/**
 * @brief One game's share of the progress total: the budget at first, then the forecast of the
 * evaluations the stop rule will need (StopRule::Forecast) after each round, and what was used
 * once the game stops; the ETA of the progress bar follows it.
 */
class ProgressForecast {
 public:
  ProgressForecast(Schedule& schedule, std::uint64_t budget) : schedule_(schedule), forecast_(budget) {}
  void Update(std::uint64_t forecast) {
    schedule_.AdjustProgressTotal(static_cast<std::int64_t>(forecast) - static_cast<std::int64_t>(forecast_));
    forecast_ = forecast;
  }

 private:
  Schedule& schedule_;
  std::uint64_t forecast_;
};

/**
 * @brief The coalitions a block evaluated and their values (SolverOptions::keep_samples): each
 * block logs its own, and the solver appends the logs in block order, so the samples' order
 * does not depend on the thread count either.
 */
struct SampleLog {
  std::vector<std::uint64_t> coalitions;
  std::vector<double> values;

  void Clear() {
    coalitions.clear();
    values.clear();
  }
  void Add(std::span<const std::uint64_t> words, std::span<const double> v) {
    coalitions.insert(coalitions.end(), words.begin(), words.end());
    values.insert(values.end(), v.begin(), v.end());
  }
  void Write(ByteWriter& out) const {
    out.PutVector(coalitions);
    out.PutVector(values);
  }
  void Read(ByteReader& in) {
    coalitions = in.GetVector<std::uint64_t>();
    values = in.GetVector<double>();
  }
  void AppendTo(ShapleyValues& out) const {
    out.sample_coalitions.insert(out.sample_coalitions.end(), coalitions.begin(), coalitions.end());
    out.sample_values.insert(out.sample_values.end(), values.begin(), values.end());
  }
};

/**
 * @brief Coalitions gathered for one GameWorker::EvaluateMany call (a game whose hint asks for
 * batches, BlockHint::batch_coalitions): Add each, Evaluate, then read each one's values. Its
 * buffers grow to the largest batch once and are reused.
 */
class CoalitionBatch {
 public:
  /** @brief Empties the batch for coalitions of nw words and k outputs. */
  void Clear(std::size_t nw, std::size_t k) {
    nw_ = nw;
    k_ = k;
    count_ = 0;
  }
  /** @brief Adds a coalition (nw words). */
  void Add(std::span<const std::uint64_t> words) {
    if (words_.size() < (count_ + 1) * nw_) words_.resize((count_ + 1) * nw_);
    std::copy_n(words.data(), nw_, words_.data() + count_ * nw_);
    ++count_;
  }
  /** @brief The coalitions' values, in one EvaluateMany of `worker`. */
  void Evaluate(GameWorker& worker) {
    if (values_.size() < count_ * k_) values_.resize(count_ * k_);
    worker.EvaluateMany(std::span<const std::uint64_t>(words_.data(), count_ * nw_), nw_,
                        std::span<double>(values_.data(), count_ * k_));
  }
  std::size_t size() const noexcept { return count_; }
  std::span<const std::uint64_t> words(std::size_t c) const { return {words_.data() + c * nw_, nw_}; }
  std::span<const double> values(std::size_t c) const { return {values_.data() + c * k_, k_}; }

 private:
  std::size_t nw_ = 1, k_ = 1, count_ = 0;
  std::vector<std::uint64_t> words_;
  std::vector<double> values_;
};

/** @brief What a sampled solver's game driver hands back; the batch driver adds the rest. */
struct SampledGame {
  ShapleyValues values;
};

/**
 * @brief Runs a sampled solver over a batch: each game is a pipeline item whose driver
 * `run_game(g, game, loop, slot)` runs its rounds of parallel blocks (loop) and returns its
 * values; games are handed to the sink in order. Over the processes of an MPI run
 * (SharedProcesses of options.execution), the games are solved one after the other, every
 * process running a share of each round's blocks (a time limit is then refused: each process
 * would stop at its own time). Per-thread scratch comes from make_scratch.
 * Progress counts evaluations; its total is each game's forecast, updated by `progress_total`.
 */
void SolveSampledBatch(
    std::span<const Game* const> games, const Solver::GameSink& sink, const SolverOptions& options,
    const std::function<std::shared_ptr<void>()>& make_scratch,
    const std::function<ShapleyValues(std::size_t g, const Game& game, const RoundLoop& loop,
                                      Schedule& schedule)>& run_game);

/** @brief The kernel solver with the normal matrix left implicit (products with vectors, a
 *  preconditioned conjugate-gradient solve) above `implicit_above` players instead of the
 *  default's 128: for the tests that compare the two solves of the same samples. */
std::unique_ptr<Solver> MakeKernelSolverWithImplicitNormal(const SolverOptions& options, int implicit_above);

// The 0.975 quantile of Student's t with d degrees of freedom (the Cornish-Fisher expansion
// about the normal's 1.959964; within 1e-3 for d >= 3), so that the batches' standard error,
// scaled by t / z, makes phi +- 1.96 se a 95% interval.
inline double StudentT975(double d) {
  const double z = 1.959963984540054;
  const double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;
  return z + (z3 + z) / (4 * d) + (5 * z5 + 16 * z3 + 3 * z) / (96 * d * d) +
         (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * d * d * d);
}

}}}  // namespace perfshap::detail
