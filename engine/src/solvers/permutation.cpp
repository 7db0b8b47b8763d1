// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// "permutation": Shapley values by antithetic permutation sampling. A sample is a pair of walks,
// a random permutation and its reverse, each adding one player at a time from the empty
// coalition to all players; player i's marginal contribution in a walk is v(S + i) - v(S), and
// the pair's sample is the mean of its two walks' marginals (the reverse walk's are negatively
// correlated with the forward one's: the variance of the pair's mean is below half a walk's).
// phi is the mean of the pairs' samples, its standard error theirs (running moments); both walks
// of a pair telescope to v(N) - v(empty), and the result is projected onto efficiency exactly.
// Retraining games warm-start along each walk, as they do along Gray-code steps.
//
// Determinism: pair p of game g is drawn from RandomStream(seed, g) advanced by nothing else:
// the permutation comes from RandomStream(seed ^ g's key, p) (Fisher-Yates); pairs are cut into
// fixed blocks, each block's moments are merged in block order, and rounds are sized from the
// results only, so the values do not depend on the thread count.
#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/error.hpp"
#include "solvers/sampling.hpp"

namespace perfshap { inline namespace v0 {
namespace detail {
namespace {

// Pairs per block: about 256 coalition evaluations a block; blocks per round at most 64 (the
// partial moments of a round take 64 x 2 x n x k doubles).
std::size_t PairsPerBlock(int n) { return std::max<std::size_t>(1, 128 / static_cast<std::size_t>(n)); }
constexpr std::size_t kMaxBlocksPerRound = 64;

struct PermutationScratch {
  std::unique_ptr<GameWorker> worker;
  const Game* game = nullptr;
  std::vector<std::uint32_t> order;
  std::vector<std::uint64_t> words;
  std::vector<double> prev, cur, sample;
  // WalkPairsBatched: the orders of a batch's pairs and its coalitions.
  std::vector<std::uint32_t> orders;
  CoalitionBatch many;
};

class PermutationSolver final : public Solver {
 public:
  explicit PermutationSolver(SolverOptions options) : options_(std::move(options)) {}
  const std::string& name() const noexcept override {
    static const std::string kName = "permutation";
    return kName;
  }
  void SolveBatch(std::span<const Game* const> games, const GameSink& sink) const override;

 private:
  ShapleyValues SolveGame(std::size_t g, const Game& game, const RoundLoop& loop, Schedule& schedule) const;
  SolverOptions options_;
};

// Pair `pair`'s permutation of the n players into order (Fisher-Yates on its own stream).
void DrawPermutation(std::uint64_t key, std::uint64_t pair, std::span<std::uint32_t> order) {
  RandomStream rng(key, pair);
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.Below(i)]);
}

// One pair's sample: the mean over a permutation and its reverse of each player's marginal
// contributions, n x k row-major into s.sample.
void WalkPair(const Game& game, const ShapleyValues& ends, std::uint64_t key, std::uint64_t pair,
              PermutationScratch& s, SampleLog* log) {
  const int n = game.n_players();
  const std::size_t k = game.n_outputs();
  const std::size_t nw = CoalitionWords(n);
  DrawPermutation(key, pair, s.order);
  std::fill(s.sample.begin(), s.sample.end(), 0.0);
  for (int direction = 0; direction < 2; ++direction) {
    s.worker->Reset();  // every walk starts cold: a pair's values depend on the pair alone
    std::fill(s.words.begin(), s.words.begin() + static_cast<std::ptrdiff_t>(nw), 0);
    std::copy(ends.base.begin(), ends.base.end(), s.prev.begin());
    for (int t = 0; t < n; ++t) {
      const std::uint32_t i = s.order[static_cast<std::size_t>(direction == 0 ? t : n - 1 - t)];
      s.words[i / 64] |= std::uint64_t{1} << (i % 64);
      const double* v = ends.full.data();
      if (t + 1 < n) {
        const std::span<const std::uint64_t> words(s.words.data(), nw);
        EvaluateWords(*s.worker, n, words, s.cur);
        if (log != nullptr) log->Add(words, s.cur);
        v = s.cur.data();
      }
      double* row = s.sample.data() + static_cast<std::size_t>(i) * k;
      for (std::size_t j = 0; j < k; ++j) row[j] += 0.5 * (v[j] - s.prev[j]);
      std::copy(v, v + k, s.prev.begin());
    }
  }
}

// Pairs [first, last) as WalkPair walks them, each pair's sample added to `moments`, with the
// coalitions of up to `batch` of them (whole pairs) evaluated in one GameWorker::EvaluateMany:
// a game whose every coalition is a model call (a user's model) makes one call a batch. The
// same samples, logs and order as WalkPair's, which stays the plain reference.
void WalkPairsBatched(const Game& game, const ShapleyValues& ends, std::uint64_t key, std::uint64_t first,
                      std::uint64_t last, std::uint64_t batch, PermutationScratch& s, SampleLog* log,
                      VectorMoments& moments) {
  const int n = game.n_players();
  const auto un = static_cast<std::size_t>(n);
  const std::size_t k = game.n_outputs();
  const std::size_t nw = CoalitionWords(n);
  const std::uint64_t pairs_per_call =
      std::max<std::uint64_t>(1, batch / std::max<std::size_t>(1, 2 * (un - 1)));
  for (std::uint64_t p0 = first; p0 < last; p0 += pairs_per_call) {
    const auto pairs = static_cast<std::size_t>(std::min(last, p0 + pairs_per_call) - p0);
    if (s.orders.size() < pairs * un) s.orders.resize(pairs * un);
    // Every walk's coalitions in walk order: pair q's direction d, step t at (2 q + d) (n - 1) + t.
    s.many.Clear(nw, k);
    for (std::size_t q = 0; q < pairs; ++q) {
      const std::span<std::uint32_t> order(s.orders.data() + q * un, un);
      DrawPermutation(key, p0 + q, order);
      for (int direction = 0; direction < 2; ++direction) {
        std::fill(s.words.begin(), s.words.begin() + static_cast<std::ptrdiff_t>(nw), 0);
        for (std::size_t t = 0; t + 1 < un; ++t) {
          const std::uint32_t i = order[direction == 0 ? t : un - 1 - t];
          s.words[i / 64] |= std::uint64_t{1} << (i % 64);
          s.many.Add(std::span<const std::uint64_t>(s.words.data(), nw));
        }
      }
    }
    s.worker->Reset();
    s.many.Evaluate(*s.worker);
    // The samples, as WalkPair adds them up.
    std::size_t c = 0;
    for (std::size_t q = 0; q < pairs; ++q) {
      const std::uint32_t* order = s.orders.data() + q * un;
      std::fill(s.sample.begin(), s.sample.end(), 0.0);
      for (int direction = 0; direction < 2; ++direction) {
        std::copy(ends.base.begin(), ends.base.end(), s.prev.begin());
        for (std::size_t t = 0; t < un; ++t) {
          const std::uint32_t i = order[direction == 0 ? t : un - 1 - t];
          const double* v = ends.full.data();
          if (t + 1 < un) {
            v = s.many.values(c).data();
            if (log != nullptr) log->Add(s.many.words(c), s.many.values(c));
            ++c;
          }
          double* row = s.sample.data() + static_cast<std::size_t>(i) * k;
          for (std::size_t j = 0; j < k; ++j) row[j] += 0.5 * (v[j] - s.prev[j]);
          std::copy(v, v + k, s.prev.begin());
        }
      }
      moments.Add(s.sample.data());
    }
  }
}

ShapleyValues PermutationSolver::SolveGame(std::size_t g, const Game& game, const RoundLoop& loop,
                                           Schedule& schedule) const {
  const int n = game.n_players();
  const std::size_t k = game.n_outputs();
  const std::size_t nk = static_cast<std::size_t>(n) * k;
  const std::uint64_t per_pair = 2 * static_cast<std::uint64_t>(n - 1);
  const StopRule rule(options_, SampleBudget(options_), schedule.start_time());
  ProgressForecast forecast(schedule, rule.budget());
  // The game's stream: its key is the first draw of RandomStream(seed, g).
  const std::uint64_t key = RandomStream(options_.seed, options_.first_game + g)();

  // v(empty) and v(N), once: every walk starts and ends there.
  ShapleyValues out = BeginSampledValues(game, loop);
  std::uint64_t used = 2;
  std::vector<SampleLog> logs(options_.keep_samples ? kMaxBlocksPerRound : 0);
  if (options_.keep_samples) {
    std::vector<std::uint64_t> words(CoalitionWords(n), 0);
    logs[0].Add(words, out.base);
    for (int i = 0; i < n; ++i) words[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64);
    logs[0].Add(words, out.full);
    logs[0].AppendTo(out);
  }

  VectorMoments total;
  total.Reset(nk);
  std::vector<VectorMoments> blocks(kMaxBlocksPerRound);
  // A game whose every coalition is a model call takes a block's coalitions in one batch.
  const std::uint64_t batch = game.block_hint().batch_coalitions;
  const std::size_t pairs_per_block = PairsPerBlock(n);
  std::vector<double> se(nk);
  std::uint64_t pairs = 0;
  std::uint64_t planned = std::min<std::uint64_t>(rule.budget(), 2 + 8 * per_pair * pairs_per_block);
  double ratio = std::numeric_limits<double>::infinity();
  std::optional<StopReason> stop;
  for (;;) {
    // This round: the pairs up to the planned evaluations, in whole blocks, at most 64 blocks.
    const std::uint64_t affordable = used + per_pair <= planned ? (planned - used) / per_pair : 0;
    const std::uint64_t round_pairs =
        std::min<std::uint64_t>(std::max<std::uint64_t>(affordable, pairs == 0 ? 2 : 1),
                                kMaxBlocksPerRound * pairs_per_block);
    if (used + round_pairs * per_pair > rule.budget() && pairs >= 2) break;
    const std::size_t n_blocks = static_cast<std::size_t>((round_pairs + pairs_per_block - 1) / pairs_per_block);
    loop(n_blocks, 0, [&](std::size_t b, void* raw) {
      auto& s = *static_cast<PermutationScratch*>(raw);
      if (!s.worker || s.game != &game) {
        s.worker = s.worker ? game.MakeWorkerFrom(std::move(s.worker)) : game.MakeWorker();
        s.game = &game;
        s.order.resize(static_cast<std::size_t>(n));
        s.words.assign(CoalitionWords(n), 0);
        s.prev.resize(k);
        s.cur.resize(k);
        s.sample.resize(nk);
      }
      blocks[b].Reset(nk);
      SampleLog* log = logs.empty() ? nullptr : &logs[b];
      if (log != nullptr) log->Clear();
      const std::uint64_t first = pairs + b * pairs_per_block;
      const std::uint64_t last = std::min(pairs + round_pairs, first + pairs_per_block);
      if (batch > 1) {
        WalkPairsBatched(game, out, key, first, last, batch, s, log, blocks[b]);
      } else {
        for (std::uint64_t p = first; p < last; ++p) {
          WalkPair(game, out, key, p, s, log);
          blocks[b].Add(s.sample.data());
        }
      }
      schedule.AddProgress((last - first) * per_pair);
    }, {[&](std::size_t b, ByteWriter& w) {
          blocks[b].Write(w);
          if (!logs.empty()) logs[b].Write(w);
        },
        [&](std::size_t b, ByteReader& r) {
          blocks[b].Read(r);
          if (!logs.empty()) logs[b].Read(r);
        }});
    for (std::size_t b = 0; b < n_blocks; ++b) total.Merge(blocks[b]);
    if (!logs.empty())
      for (std::size_t b = 0; b < n_blocks; ++b) logs[b].AppendTo(out);
    pairs += round_pairs;
    used += round_pairs * per_pair;
    total.StandardErrors(se);
    ratio = ConvergenceRatio(total.mean(), se, n, k);
    stop = rule.Check(used, ratio);
    if (stop) break;
    // The next round aims at the forecast of the evaluations the rule will need.
    planned = std::max(rule.Forecast(used, ratio), used + per_pair);
    forecast.Update(planned);
  }
  forecast.Update(used);
  out.stopped_by = stop.value_or(StopReason::kBudget);
  out.phi = total.mean();
  ProjectEfficiency(out.phi, n, k, out.base, out.full);
  out.phi_se = se;
  out.n_evaluations = used;
  out.convergence_ratio = ratio;
  out.converged = out.stopped_by == StopReason::kTolerance;
  out.solver = "permutation";
  return out;
}

void PermutationSolver::SolveBatch(std::span<const Game* const> games, const GameSink& sink) const {
  PERFSHAP_CHECK(!games.empty(), "PermutationSolver: no games to solve");
  const int n = games[0]->n_players();
  CheckSampledOptions(options_, "permutation", n, 2 + 2 * 2 * static_cast<std::uint64_t>(n - 1));
  SolveSampledBatch(
      games, sink, options_, [] { return std::make_shared<PermutationScratch>(); },
      [&](std::size_t g, const Game& game, const RoundLoop& loop, Schedule& schedule) {
        return SolveGame(g, game, loop, schedule);
      });
}

}  // namespace
}  // namespace detail

std::unique_ptr<Solver> MakePermutationSolver(const SolverOptions& options) {
  return std::make_unique<detail::PermutationSolver>(options);
}

}}  // namespace perfshap
