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

namespace perfshap { inline namespace v0 {

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

namespace {

// Checks a batch for the exact solver: games of the same players and outputs, few enough players.
void CheckExactBatch(std::span<const Game* const> games, int max_players) {
  PERFSHAP_CHECK(!games.empty(), "ExactSolver: no games to solve");
  const int n = games[0]->n_players();
  const std::size_t k = games[0]->n_outputs();
  PERFSHAP_CHECK(n >= 1, "ExactSolver: the game has no players");
  PERFSHAP_CHECK(k >= 1, "ExactSolver: the game has no outputs");
  for (const Game* g : games)
    PERFSHAP_CHECK(g->n_players() == n && g->n_outputs() == k,
                   "ExactSolver::SolveBatch: every game needs the same players and outputs");
  if (n > max_players) {
    throw InvalidArgument("exact Shapley values need 2^" + std::to_string(n) + " coalitions for " + std::to_string(n) +
                              " players, above the exact limit of " + std::to_string(max_players) +
                              " players; select fewer features (or group them) or use a sampling solver",
                          {"max_players", "solver"});
  }
}

// The fixed shape of an exact batch (from n, k, the first game's hint and the options) and the
// arithmetic every block and reduction of it shares.
//
// Each block owns (2n + 1) x k partial sums: D_i = sum_{S in block, i in S} d(|S|) v(S) for
// every player i, and T_s = sum_{S in block, |S| = s} v(S) for every size s. Then
// phi_i = D_i + sum_s c_out(s) T_s, because c_i(S) = c_out(|S|) + [i in S] d(|S|) with
// c_out(s) = -w(s) and d(s) = w(s-1) + w(s). The hot loop only visits the members of S.
//
// A block of fewer coalitions than the 2n + 1 rows of its partial sums (exact games of few
// players: blocks of one coalition) keeps its coalitions' values instead, k per coalition,
// and the reduction rebuilds each block's partial sums from them with the very operations
// the block would have done: the same bits, with 2n + 1 times less memory to clear and read.
struct ExactPlan {
  int n = 0;
  std::size_t k = 0;
  std::uint64_t total = 0;  // 2^n coalitions
  std::uint64_t block_size = 0;
  std::uint64_t n_blocks = 0;
  std::size_t nk = 0;        // the players' rows of the partial sums
  std::size_t width = 0;     // the partial sums of a block: (2n + 1) x k
  bool keep_values = false;  // blocks keep their coalitions' values instead of partial sums
  std::size_t stored = 0;    // doubles a block holds
  bool gray_code = true;
  bool store_values = false;
  Coalition full = 0;
  // Signed coefficient tables: player in S of size s gets +w(s-1), player out gets -w(s).
  std::vector<double> w_in, w_out;

  // The coalition visited at rank r.
  Coalition CoalitionAt(std::uint64_t r) const { return gray_code ? GrayCode(r) : r; }
  // The first rank of block b, and one past its last.
  std::uint64_t BlockBegin(std::uint64_t b) const { return b * block_size; }
  std::uint64_t BlockEnd(std::uint64_t b) const { return std::min(total, b * block_size + block_size); }

  // Adds v(S) (k values) to a block's partial sums `acc`.
  void Accumulate(double* acc, Coalition s, const double* v) const {
    const auto size = static_cast<std::size_t>(CoalitionSize(s));
    const double d = w_in[size] - w_out[size];
    for (Coalition rest = s; rest != 0; rest &= rest - 1) {
      double* row = acc + static_cast<std::size_t>(std::countr_zero(rest)) * k;
      for (std::size_t j = 0; j < k; ++j) row[j] += d * v[j];
    }
    double* by_size = acc + nk + size * k;
    for (std::size_t j = 0; j < k; ++j) by_size[j] += v[j];
  }
};

// The plan of a checked batch; throws where store_values or the player names do not fit.
ExactPlan MakeExactPlan(std::span<const Game* const> games, const ExactOptions& options) {
  ExactPlan plan;
  const int n = games[0]->n_players();
  const std::size_t k = games[0]->n_outputs();
  const std::size_t n_games = games.size();
  plan.n = n;
  plan.k = k;
  plan.total = std::uint64_t{1} << n;
  plan.block_size = ExactBlockSize(n, k, games[0]->block_hint(), options.block_size);
  plan.n_blocks = (plan.total + plan.block_size - 1) / plan.block_size;
  if (options.store_values) {
    // Written as a shift of the bound so the product 2^n k n_games cannot wrap around.
    PERFSHAP_CHECK(k * n_games <= ((std::uint64_t{1} << 31) >> n),
                   "ExactSolver: store_values would need more than 2^31 values; turn it off");
  }
  for (std::size_t g = 0; g < n_games; ++g)
    PERFSHAP_CHECK(games[g]->player_names().size() == static_cast<std::size_t>(n),
                   "ExactSolver: player_names() size differs from n_players()");
  plan.w_in.assign(static_cast<std::size_t>(n) + 1, 0.0);
  plan.w_out.assign(static_cast<std::size_t>(n) + 1, 0.0);
  for (int s = 0; s <= n; ++s) {
    if (s >= 1) plan.w_in[static_cast<std::size_t>(s)] = ShapleyWeight(n, s - 1);
    if (s < n) plan.w_out[static_cast<std::size_t>(s)] = -ShapleyWeight(n, s);
  }
  plan.nk = static_cast<std::size_t>(n) * k;
  plan.width = plan.nk + (static_cast<std::size_t>(n) + 1) * k;
  const auto players = static_cast<std::size_t>(n);
  plan.keep_values = plan.block_size < 2 * players + 1;
  plan.stored = plan.keep_values ? static_cast<std::size_t>(plan.block_size) * k : plan.width;
  plan.gray_code = options.gray_code;
  plan.store_values = options.store_values;
  plan.full = FullCoalition(n);
  return plan;
}

// Per thread: one worker, for the game of the block it last ran (a thread that moves on to
// another game hands it to that game's MakeWorkerFrom, which rebinds it for games of one kind
// or frees it before making a new one; workers are Reset at every block, so results do not
// depend on it), and the buffers of a reduction.
struct ExactScratch {
  std::unique_ptr<GameWorker> worker;
  std::size_t game = 0;
  std::vector<double> value;
  std::vector<double> sums;
  std::vector<double> block_sums;
  std::vector<double> out_part;
};

// A slot's memory: serves the games g with g % max_in_flight == slot in turn, never two at once.
struct ExactSlot {
  std::unique_ptr<detail::BlockPartials> partials;
  ShapleyValues result;
};

// Readies a slot for a game: the game prepared, the partial sums cleared (made on first use),
// the result emptied and given the game's header.
void PrepareSlot(const ExactPlan& plan, const Game& game, ExactSlot& mine) {
  game.Prepare();
  if (mine.partials) {
    mine.partials->Clear();
  } else {
    mine.partials = std::make_unique<detail::BlockPartials>(plan.n_blocks, plan.stored);
  }
  ShapleyValues& result = mine.result;
  result = ShapleyValues{};
  result.players = game.player_names();
  result.n_players = plan.n;
  result.n_outputs = plan.k;
  result.base.assign(plan.k, 0.0);
  result.full.assign(plan.k, 0.0);
  if (plan.store_values) result.coalition_values.assign(plan.total * plan.k, 0.0);
}

// Evaluates block b of game g into its slot: the block's partial sums (or its kept values),
// v(empty), v(N) and, with store_values, every value, with the running thread's scratch.
void EvaluateBlock(const ExactPlan& plan, std::span<const Game* const> games, std::size_t g, std::size_t b,
                   ExactSlot& mine, ExactScratch& scratch) {
  const std::size_t k = plan.k;
  auto& worker = scratch.worker;
  if (!worker || scratch.game != g) {
    worker = worker ? games[g]->MakeWorkerFrom(std::move(worker)) : games[g]->MakeWorker();
    scratch.game = g;
  }
  worker->Reset();
  ShapleyValues& result = mine.result;
  double* const acc = mine.partials->Row(b).data();
  const std::uint64_t begin = plan.BlockBegin(b);
  const std::uint64_t end = plan.BlockEnd(b);
  for (std::uint64_t r = begin; r < end; ++r) {
    const Coalition s = plan.CoalitionAt(r);
    // Kept values are written in place; otherwise the worker writes to the thread's scratch.
    std::span<double> out =
        plan.keep_values ? std::span<double>(acc + (r - begin) * k, k) : std::span<double>(scratch.value);
    worker->Evaluate(s, out);
    const double* v = out.data();
    if (s == 0) std::copy(v, v + k, result.base.begin());
    if (s == plan.full) std::copy(v, v + k, result.full.begin());
    if (plan.store_values)
      std::copy(v, v + k, result.coalition_values.begin() + static_cast<std::ptrdiff_t>(s * k));
    if (!plan.keep_values) plan.Accumulate(acc, s, v);
  }
}

// ReduceInOrder of the partial sums each block would have held, rebuilt from its kept values
// (block_sums: a buffer of the reduction).
void ReduceKeptValues(const ExactPlan& plan, const detail::BlockPartials& partials, std::vector<double>& total_sums,
                      std::vector<double>& block_sums) {
  std::fill(total_sums.begin(), total_sums.end(), 0.0);
  block_sums.resize(plan.width);
  for (std::uint64_t b = 0; b < plan.n_blocks; ++b) {
    std::fill(block_sums.begin(), block_sums.end(), 0.0);
    const double* values = partials.Row(b).data();
    const std::uint64_t begin = plan.BlockBegin(b);
    const std::uint64_t end = plan.BlockEnd(b);
    for (std::uint64_t r = begin; r < end; ++r)
      plan.Accumulate(block_sums.data(), plan.CoalitionAt(r), values + (r - begin) * plan.k);
    for (std::size_t j = 0; j < plan.width; ++j) total_sums[j] += block_sums[j];
  }
}

// The slot's Shapley values from its blocks' partial sums, reduced in block order.
void ReduceSlot(const ExactPlan& plan, ExactSlot& mine, ExactScratch& scratch) {
  const std::size_t k = plan.k;
  const std::size_t nk = plan.nk;
  const detail::BlockPartials& partials = *mine.partials;
  ShapleyValues& result = mine.result;
  std::vector<double>& total_sums = scratch.sums;
  total_sums.resize(plan.width);
  if (plan.keep_values) {
    ReduceKeptValues(plan, partials, total_sums, scratch.block_sums);
  } else {
    partials.ReduceInOrder(total_sums);
  }
  // Shapley (weighted marginal contributions regrouped by coalition):
  // phi_i = sum_S v(S) c_i(S), c_i(S) = w(|S|-1) if i in S else -w(|S|).
  std::vector<double>& out_part = scratch.out_part;
  out_part.assign(k, 0.0);
  for (std::size_t size = 0; size <= static_cast<std::size_t>(plan.n); ++size)
    for (std::size_t j = 0; j < k; ++j) out_part[j] += plan.w_out[size] * total_sums[nk + size * k + j];
  result.phi.assign(total_sums.begin(), total_sums.begin() + static_cast<std::ptrdiff_t>(nk));
  for (std::size_t i = 0; i < static_cast<std::size_t>(plan.n); ++i)
    for (std::size_t j = 0; j < k; ++j) result.phi[i * k + j] += out_part[j];
  result.n_evaluations = plan.total;
  result.solver = "exact";
}

// The blocks that hold v(empty) and v(N) (their processes send those values too).
struct ExchangedBlocks {
  std::uint64_t base = 0;
  std::uint64_t full = 0;
};

// Which blocks those are: rank 0's, and the rank of N (the inverse of CoalitionAt) over the block size.
ExchangedBlocks BlocksOfBaseAndFull(const ExactPlan& plan) {
  std::uint64_t full_index = plan.full;  // the inverse of CoalitionAt
  if (plan.gray_code) {
    full_index = 0;
    for (Coalition c = plan.full; c != 0; c >>= 1) full_index ^= c;
  }
  return ExchangedBlocks{0, full_index / plan.block_size};
}

// Writes what block b of this process's share sends: its partial sums, v(empty) or v(N) where
// it holds them and, with store_values, its coalitions' values.
void WriteSharedBlock(const ExactPlan& plan, const ExchangedBlocks& exchanged, std::size_t b,
                      const detail::BlockPartials& partials, const ShapleyValues& result, detail::ByteWriter& out) {
  out.PutSpan(std::span<const double>(partials.Row(b)));
  const std::uint64_t begin = plan.BlockBegin(b);
  const std::uint64_t end = plan.BlockEnd(b);
  if (b == exchanged.base) out.PutVector(result.base);
  if (b == exchanged.full) out.PutVector(result.full);
  if (plan.store_values)
    for (std::uint64_t r = begin; r < end; ++r)
      out.PutSpan(std::span<const double>(result.coalition_values).subspan(plan.CoalitionAt(r) * plan.k, plan.k));
}

// Reads what WriteSharedBlock wrote for block b into the slot's partial sums and result.
void ReadSharedBlock(const ExactPlan& plan, const ExchangedBlocks& exchanged, std::size_t b,
                     detail::BlockPartials& partials, ShapleyValues& result, detail::ByteReader& in) {
  in.GetInto(partials.Row(b));
  const std::uint64_t begin = plan.BlockBegin(b);
  const std::uint64_t end = plan.BlockEnd(b);
  if (b == exchanged.base) in.GetInto(std::span<double>(result.base));
  if (b == exchanged.full) in.GetInto(std::span<double>(result.full));
  if (plan.store_values)
    for (std::uint64_t r = begin; r < end; ++r)
      in.GetInto(std::span<double>(result.coalition_values).subspan(plan.CoalitionAt(r) * plan.k, plan.k));
}

// Over the processes of an MPI run (calls from the method's own thread only): game by game,
// each process evaluates its share of the coalition blocks, the blocks' partial sums (and the
// values of v(empty), v(N) and, with store_values, every coalition) are exchanged, and every
// process reduces all of them in block order, as one process does. Every game uses slot 0.
void SolveAcrossProcesses(const Processes& group, const ExactPlan& plan, detail::Schedule& schedule,
                          const detail::PipelineStages& stages, ExactSlot& slot0) {
  const std::size_t n_games = stages.n_items;
  schedule.SetProgressTotal(plan.total * n_games / static_cast<std::uint64_t>(group.size()));
  const ExchangedBlocks exchanged = BlocksOfBaseAndFull(plan);
  for (std::size_t g = 0; g < n_games; ++g) {
    stages.prepare(g, 0);
    ShapleyValues& result = slot0.result;
    detail::BlockPartials& partials = *slot0.partials;
    detail::RunShared(
        group, static_cast<std::size_t>(plan.n_blocks),
        [&](detail::ItemRange share, const std::function<detail::ByteWriter&(std::size_t)>& write) {
          schedule.ForEachBlock<ExactScratch>(
              share.end - share.begin, plan.block_size,
              [&] {
                auto scratch = std::make_unique<ExactScratch>();
                scratch->value.assign(plan.k, 0.0);
                return scratch;
              },
              [&](std::size_t b, ExactScratch& scratch) { stages.block(g, share.begin + b, 0, &scratch); });
          for (std::size_t b = share.begin; b < share.end; ++b)
            WriteSharedBlock(plan, exchanged, b, partials, result, write(b));
        },
        [&](std::size_t b, detail::ByteReader& in) { ReadSharedBlock(plan, exchanged, b, partials, result, in); });
    ExactScratch scratch;
    stages.reduce(g, 0, &scratch);
    stages.deliver(g, 0);
  }
}

}  // namespace

void ExactSolver::SolveBatch(std::span<const Game* const> games, const GameSink& sink) const {
  const auto t0 = std::chrono::steady_clock::now();
  CheckExactBatch(games, options_.max_players);
  const ExactPlan plan = MakeExactPlan(games, options_);
  const std::size_t n_games = games.size();

  // The batch as one task graph (detail::Schedule::RunPipeline): prepare game g (its shared
  // state, its slot's partial sums and result) -> its blocks -> the reduction in block order, by
  // the thread that finished its last block -> the hand-over to the sink, in game order. A
  // slot's memory (partial sums, result) serves the games g with g % max_in_flight == slot in
  // turn, never two at once, so it is reused without a lock rather than fresh pages being
  // touched for every game (about 2 us a page on a small VM).
  detail::Schedule schedule(options_.execution);
  std::vector<ExactSlot> slots(std::min(n_games, schedule.max_in_flight()));
  schedule.SetProgressTotal(plan.total * n_games);

  detail::PipelineStages stages;
  stages.n_items = n_games;
  stages.blocks_per_item = static_cast<std::size_t>(plan.n_blocks);
  stages.units_per_block = plan.block_size;
  stages.make_scratch = [&]() -> std::shared_ptr<void> {
    auto scratch = std::make_shared<ExactScratch>();
    scratch->value.assign(plan.k, 0.0);
    return scratch;
  };
  stages.prepare = [&](std::size_t g, std::size_t slot) { PrepareSlot(plan, *games[g], slots[slot]); };
  stages.block = [&](std::size_t g, std::size_t b, std::size_t slot, void* raw) {
    EvaluateBlock(plan, games, g, b, slots[slot], *static_cast<ExactScratch*>(raw));
  };
  stages.reduce = [&](std::size_t, std::size_t slot, void* raw) {
    ReduceSlot(plan, slots[slot], *static_cast<ExactScratch*>(raw));
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
  } else {
    SolveAcrossProcesses(*group, plan, schedule, stages, slots[0]);
  }
  schedule.FinishProgress();
}

}}  // namespace perfshap
