// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <bit>
#include <chrono>
#include <string>
#include <vector>

#include "aggregate/block_partials.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/processes.hpp"
#include "schedule/distribute.hpp"
#include "schedule/schedule.hpp"
#include "solvers/finite_values.hpp"

namespace perfshap::inline v0 {

// 128-bit products (a GCC/Clang extension, marked so -Wpedantic accepts it).
__extension__ using Uint128 = unsigned __int128;

namespace {

// Exact C(m, r) for m <= 62: the running product stays below 2^127.
Uint128 Binomial(int m, int r) {
  r = std::min(r, m - r);
  Uint128 c = 1;
  for (int t = 1; t <= r; ++t) c = c * static_cast<unsigned>(m - r + t) / static_cast<unsigned>(t);
  return c;
}

}  // namespace

double ShapleyWeight(int n, int s) {
  PERFSHAP_CHECK(n >= 1 && n <= kMaxExactPlayers && s >= 0 && s < n,
                 "ShapleyWeight: need 0 <= s < n <= 63");
  // w(s) = s!(n-s-1)!/n! = 1 / (n * C(n-1, s)); the binomial is exact, the division rounds once
  // in long double and once more to double.
  const auto c = static_cast<long double>(Binomial(n - 1, s));
  return static_cast<double>(1.0L / (static_cast<long double>(n) * c));
}

std::uint64_t ExactBlockSize(int n, std::size_t k, const BlockHint& hint, std::uint64_t requested) {
  // Fixed by (n, k, the game's hint, block_size) only: never by the thread count, nor by how
  // many games are solved together (a batched game gets the bits it would get alone).
  PERFSHAP_CHECK(n >= 1 && n <= kMaxExactPlayers, "ExactBlockSize: need 1 <= n <= 63");
  const std::uint64_t total = std::uint64_t{1} << n;
  if (requested > 0) return std::min(requested, total);
  const std::uint64_t bytes_per_block = static_cast<std::uint64_t>(2 * n + 1) * k * sizeof(double);
  std::uint64_t max_blocks = std::max<std::uint64_t>(1, hint.partial_bytes / std::max<std::uint64_t>(1, bytes_per_block));
  max_blocks = std::bit_floor(std::min({max_blocks, std::max<std::uint64_t>(1, hint.max_blocks), total}));
  return std::max(total / max_blocks, std::min(total, std::max<std::uint64_t>(1, hint.min_coalitions)));
}

Solver::~Solver() = default;

ShapleyValues Solver::Solve(const Game& game) const {
  const Game* games[] = {&game};
  return std::move(SolveBatch(games).front());
}

std::vector<ShapleyValues> Solver::SolveBatch(std::span<const Game* const> games) const {
  std::vector<ShapleyValues> results(games.size());
  SolveBatch(games, [&](std::size_t g, ShapleyValues&& values) { results[g] = std::move(values); });
  // Every game's elapsed time is the batch's.
  const double elapsed = results.empty() ? 0.0 : results.back().elapsed_seconds;
  for (ShapleyValues& result : results) result.elapsed_seconds = elapsed;
  return results;
}

bool Solver::Exact(int /*n_players*/) const noexcept { return false; }

const std::string& ExactSolver::name() const noexcept {
  static const std::string kName = "exact";
  return kName;
}

bool ExactSolver::Exact(int /*n_players*/) const noexcept { return true; }

const char* StopReasonName(StopReason reason) noexcept {
  switch (reason) {
    case StopReason::kExact: return "exact";
    case StopReason::kTolerance: return "tolerance";
    case StopReason::kBudget: return "budget";
    case StopReason::kTime: return "time";
  }
  return "exact";
}

ExactSolver::ExactSolver(ExactOptions options) : options_(std::move(options)) {
  PERFSHAP_CHECK(options_.max_players >= 1 && options_.max_players <= kMaxExactPlayers,
                 "ExactSolver: max_players must be in [1, 63]");
}

void ExactSolver::SolveBatch(std::span<const Game* const> games, const GameSink& sink) const {
  const auto t0 = std::chrono::steady_clock::now();
  PERFSHAP_CHECK(!games.empty(), "ExactSolver: no games to solve");
  const int n = games[0]->n_players();
  const std::size_t k = games[0]->n_outputs();
  PERFSHAP_CHECK(n >= 1, "ExactSolver: the game has no players");
  PERFSHAP_CHECK(k >= 1, "ExactSolver: the game has no outputs");
  for (const Game* g : games)
    PERFSHAP_CHECK(g->n_players() == n && g->n_outputs() == k,
                   "ExactSolver::SolveBatch: every game needs the same players and outputs");
  if (n > options_.max_players) {
    throw InvalidArgument("exact Shapley values need 2^" + std::to_string(n) + " coalitions for " + std::to_string(n) +
                              " players, above the exact limit of " + std::to_string(options_.max_players) +
                              " players; select fewer features (or group them) or use a sampling solver",
                          {"max_players", "solver"});
  }
  const std::size_t n_games = games.size();
  const std::uint64_t total = std::uint64_t{1} << n;
  const std::uint64_t block_size = ExactBlockSize(n, k, games[0]->block_hint(), options_.block_size);
  const std::uint64_t n_blocks = (total + block_size - 1) / block_size;
  if (options_.store_values) {
    // Written as a shift of the bound so the product 2^n k n_games cannot wrap around.
    PERFSHAP_CHECK(k * n_games <= ((std::uint64_t{1} << 31) >> n),
                   "ExactSolver: store_values would need more than 2^31 values; turn it off");
  }
  for (std::size_t g = 0; g < n_games; ++g)
    PERFSHAP_CHECK(games[g]->player_names().size() == static_cast<std::size_t>(n),
                   "ExactSolver: player_names() size differs from n_players()");

  // Signed coefficient tables: player in S of size s gets +w(s-1), player out gets -w(s).
  std::vector<double> w_in(static_cast<std::size_t>(n) + 1, 0.0), w_out(static_cast<std::size_t>(n) + 1, 0.0);
  for (int s = 0; s <= n; ++s) {
    if (s >= 1) w_in[static_cast<std::size_t>(s)] = ShapleyWeight(n, s - 1);
    if (s < n) w_out[static_cast<std::size_t>(s)] = -ShapleyWeight(n, s);
  }

  // Each block owns (2n + 1) x k partial sums: D_i = sum_{S in block, i in S} d(|S|) v(S) for
  // every player i, and T_s = sum_{S in block, |S| = s} v(S) for every size s. Then
  // phi_i = D_i + sum_s c_out(s) T_s, because c_i(S) = c_out(|S|) + [i in S] d(|S|) with
  // c_out(s) = -w(s) and d(s) = w(s-1) + w(s). The hot loop only visits the members of S.
  //
  // A block of fewer coalitions than the 2n + 1 rows of its partial sums (exact games of few
  // players: blocks of one coalition) keeps its coalitions' values instead, k per coalition,
  // and the reduction rebuilds each block's partial sums from them with the very operations
  // the block would have done: the same bits, with 2n + 1 times less memory to clear and read.
  const std::size_t nk = static_cast<std::size_t>(n) * k;
  const std::size_t width = nk + (static_cast<std::size_t>(n) + 1) * k;
  const auto players = static_cast<std::size_t>(n);
  const bool keep_values = block_size < 2 * players + 1;
  const std::size_t stored = keep_values ? static_cast<std::size_t>(block_size) * k : width;
  auto accumulate = [&](double* acc, Coalition s, const double* v) {
    const auto size = static_cast<std::size_t>(CoalitionSize(s));
    const double d = w_in[size] - w_out[size];
    for (Coalition rest = s; rest != 0; rest &= rest - 1) {
      double* row = acc + static_cast<std::size_t>(std::countr_zero(rest)) * k;
      for (std::size_t j = 0; j < k; ++j) row[j] += d * v[j];
    }
    double* by_size = acc + nk + size * k;
    for (std::size_t j = 0; j < k; ++j) by_size[j] += v[j];
  };
  auto coalition_at = [&](std::uint64_t r) -> Coalition { return options_.gray_code ? GrayCode(r) : r; };
  const Coalition full = FullCoalition(n);

  // The batch as one task graph (detail::Schedule::RunPipeline): prepare game g (its shared
  // state, its slot's partial sums and result) -> its blocks -> the reduction in block order, by
  // the thread that finished its last block -> the hand-over to the sink, in game order. A
  // slot's memory (partial sums, result) serves the games g with g % max_in_flight == slot in
  // turn, never two at once, so it is reused without a lock rather than fresh pages being
  // touched for every game (about 2 us a page on a small VM).
  //
  // Per thread: one worker, for the game of the block it last ran (a thread that moves on to
  // another game hands it to that game's MakeWorkerFrom, which rebinds it for games of one kind
  // or frees it before making a new one; workers are Reset at every block, so results do not
  // depend on it), and the buffers of a reduction.
  struct Scratch {
    std::unique_ptr<GameWorker> worker;
    std::size_t game = 0;
    std::vector<double> value;
    std::vector<double> sums;
    std::vector<double> block_sums;
    std::vector<double> out_part;
  };
  struct Slot {
    std::unique_ptr<detail::BlockPartials> partials;
    ShapleyValues result;
  };
  detail::Schedule schedule(options_.execution);
  std::vector<Slot> slots(std::min(n_games, schedule.max_in_flight()));
  schedule.SetProgressTotal(total * n_games);

  detail::PipelineStages stages;
  stages.n_items = n_games;
  stages.blocks_per_item = static_cast<std::size_t>(n_blocks);
  stages.units_per_block = block_size;
  stages.make_scratch = [&]() -> std::shared_ptr<void> {
    auto scratch = std::make_shared<Scratch>();
    scratch->value.assign(k, 0.0);
    return scratch;
  };
  stages.prepare = [&](std::size_t g, std::size_t slot) {
    games[g]->Prepare();
    Slot& mine = slots[slot];
    if (mine.partials) {
      mine.partials->Clear();
    } else {
      mine.partials = std::make_unique<detail::BlockPartials>(n_blocks, stored);
    }
    ShapleyValues& result = mine.result;
    result = ShapleyValues{};
    result.players = games[g]->player_names();
    result.n_players = n;
    result.n_outputs = k;
    result.base.assign(k, 0.0);
    result.full.assign(k, 0.0);
    if (options_.store_values) result.coalition_values.assign(total * k, 0.0);
  };
  stages.block = [&](std::size_t g, std::size_t b, std::size_t slot, void* raw) {
    Scratch& scratch = *static_cast<Scratch*>(raw);
    auto& worker = scratch.worker;
    if (!worker || scratch.game != g) {
      worker = worker ? games[g]->MakeWorkerFrom(std::move(worker)) : games[g]->MakeWorker();
      scratch.game = g;
    }
    worker->Reset();
    ShapleyValues& result = slots[slot].result;
    double* const acc = slots[slot].partials->Row(b).data();
    const std::uint64_t begin = b * block_size;
    const std::uint64_t end = std::min(total, begin + block_size);
    for (std::uint64_t r = begin; r < end; ++r) {
      const Coalition s = coalition_at(r);
      // Kept values are written in place; otherwise the worker writes to the thread's scratch.
      std::span<double> out = keep_values ? std::span<double>(acc + (r - begin) * k, k) : std::span<double>(scratch.value);
      worker->Evaluate(s, out);
      const double* v = out.data();
      if (s == 0) std::copy(v, v + k, result.base.begin());
      if (s == full) std::copy(v, v + k, result.full.begin());
      if (options_.store_values)
        std::copy(v, v + k, result.coalition_values.begin() + static_cast<std::ptrdiff_t>(s * k));
      if (!keep_values) accumulate(acc, s, v);
    }
  };
  stages.reduce = [&](std::size_t, std::size_t slot, void* raw) {
    Scratch& scratch = *static_cast<Scratch*>(raw);
    const detail::BlockPartials& partials = *slots[slot].partials;
    ShapleyValues& result = slots[slot].result;
    std::vector<double>& total_sums = scratch.sums;
    std::vector<double>& block_sums = scratch.block_sums;
    total_sums.resize(width);
    if (keep_values) {
      // ReduceInOrder of the partial sums each block would have held.
      std::fill(total_sums.begin(), total_sums.end(), 0.0);
      block_sums.resize(width);
      for (std::uint64_t b = 0; b < n_blocks; ++b) {
        std::fill(block_sums.begin(), block_sums.end(), 0.0);
        const double* values = partials.Row(b).data();
        const std::uint64_t begin = b * block_size;
        const std::uint64_t end = std::min(total, begin + block_size);
        for (std::uint64_t r = begin; r < end; ++r)
          accumulate(block_sums.data(), coalition_at(r), values + (r - begin) * k);
        for (std::size_t j = 0; j < width; ++j) total_sums[j] += block_sums[j];
      }
    } else {
      partials.ReduceInOrder(total_sums);
    }
    // Shapley (weighted marginal contributions regrouped by coalition):
    // phi_i = sum_S v(S) c_i(S), c_i(S) = w(|S|-1) if i in S else -w(|S|).
    std::vector<double>& out_part = scratch.out_part;
    out_part.assign(k, 0.0);
    for (std::size_t size = 0; size <= static_cast<std::size_t>(n); ++size)
      for (std::size_t j = 0; j < k; ++j) out_part[j] += w_out[size] * total_sums[nk + size * k + j];
    result.phi.assign(total_sums.begin(), total_sums.begin() + static_cast<std::ptrdiff_t>(nk));
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i)
      for (std::size_t j = 0; j < k; ++j) result.phi[i * k + j] += out_part[j];
    result.n_evaluations = total;
    result.solver = "exact";
  };
  stages.deliver = [&](std::size_t g, std::size_t slot) {
    ShapleyValues& result = slots[slot].result;
    result.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    detail::CheckFiniteValues(result);
    sink(g, std::move(result));
  };
  const std::shared_ptr<const Processes> group = detail::SharedProcesses(options_.execution);
  if (group == nullptr) {
    schedule.RunPipeline(stages);
    schedule.FinishProgress();
    return;
  }
  // Over the processes of an MPI run (calls from the method's own thread only): game by game,
  // each process evaluates its share of the coalition blocks, the blocks' partial sums (and the
  // values of v(empty), v(N) and, with store_values, every coalition) are exchanged, and every
  // process reduces all of them in block order, as one process does.
  schedule.SetProgressTotal(total * n_games / static_cast<std::uint64_t>(group->size()));
  // The blocks that hold v(empty) and v(N): their processes send those values too.
  std::uint64_t full_index = full;  // the inverse of coalition_at
  if (options_.gray_code) {
    full_index = 0;
    for (Coalition c = full; c != 0; c >>= 1) full_index ^= c;
  }
  const std::uint64_t base_block = 0;
  const std::uint64_t full_block = full_index / block_size;
  for (std::size_t g = 0; g < n_games; ++g) {
    stages.prepare(g, 0);
    ShapleyValues& result = slots[0].result;
    detail::BlockPartials& partials = *slots[0].partials;
    detail::RunShared(
        *group, static_cast<std::size_t>(n_blocks),
        [&](detail::ItemRange share, const std::function<detail::ByteWriter&(std::size_t)>& write) {
          schedule.ForEachBlock<Scratch>(
              share.end - share.begin, block_size,
              [&] {
                auto scratch = std::make_unique<Scratch>();
                scratch->value.assign(k, 0.0);
                return scratch;
              },
              [&](std::size_t b, Scratch& scratch) { stages.block(g, share.begin + b, 0, &scratch); });
          for (std::size_t b = share.begin; b < share.end; ++b) {
            detail::ByteWriter& out = write(b);
            out.PutSpan(std::span<const double>(partials.Row(b)));
            const std::uint64_t begin = b * block_size;
            const std::uint64_t end = std::min(total, begin + block_size);
            if (b == base_block) out.PutVector(result.base);
            if (b == full_block) out.PutVector(result.full);
            if (options_.store_values)
              for (std::uint64_t r = begin; r < end; ++r)
                out.PutSpan(std::span<const double>(result.coalition_values).subspan(coalition_at(r) * k, k));
          }
        },
        [&](std::size_t b, detail::ByteReader& in) {
          in.GetInto(partials.Row(b));
          const std::uint64_t begin = b * block_size;
          const std::uint64_t end = std::min(total, begin + block_size);
          if (b == base_block) in.GetInto(std::span<double>(result.base));
          if (b == full_block) in.GetInto(std::span<double>(result.full));
          if (options_.store_values)
            for (std::uint64_t r = begin; r < end; ++r)
              in.GetInto(std::span<double>(result.coalition_values).subspan(coalition_at(r) * k, k));
        });
    Scratch scratch;
    stages.reduce(g, 0, &scratch);
    stages.deliver(g, 0);
  }
  schedule.FinishProgress();
}

}  // namespace perfshap
