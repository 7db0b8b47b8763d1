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
#include "perfshap/solver.hpp"
#include "schedule/schedule.hpp"

namespace perfshap {

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

// Blocks are fixed by (n, k, block_size) only: never by the thread count, nor by how many games
// are solved together (a batched game gets the bits it would get alone).
std::uint64_t ChooseBlockSize(int n, std::size_t k, std::uint64_t requested) {
  const std::uint64_t total = std::uint64_t{1} << n;
  if (requested > 0) return std::min(requested, total);
  constexpr std::uint64_t kMaxBlocks = 1024;
  constexpr std::uint64_t kPartialBudgetBytes = std::uint64_t{256} << 20;
  const std::uint64_t bytes_per_block = static_cast<std::uint64_t>(2 * n + 1) * k * sizeof(double);
  std::uint64_t max_blocks = std::max<std::uint64_t>(1, kPartialBudgetBytes / std::max<std::uint64_t>(1, bytes_per_block));
  max_blocks = std::min({max_blocks, kMaxBlocks, total});
  max_blocks = std::bit_floor(max_blocks);
  return total / max_blocks;
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

ExactSolver::ExactSolver(ExactOptions options) : options_(std::move(options)) {
  PERFSHAP_CHECK(options_.max_players >= 1 && options_.max_players <= kMaxExactPlayers,
                 "ExactSolver: max_players must be in [1, 63]");
}

ShapleyValues ExactSolver::Solve(const Game& game) const {
  const Game* games[] = {&game};
  return std::move(SolveBatch(games).front());
}

std::vector<ShapleyValues> ExactSolver::SolveBatch(std::span<const Game* const> games) const {
  std::vector<ShapleyValues> results(games.size());
  SolveBatch(games, [&](std::size_t g, ShapleyValues&& values) { results[g] = std::move(values); });
  // Every game's elapsed time is the batch's.
  const double elapsed = results.empty() ? 0.0 : results.back().elapsed_seconds;
  for (ShapleyValues& result : results) result.elapsed_seconds = elapsed;
  return results;
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
    throw InvalidArgument("exact Shapley values need 2^" + std::to_string(n) +
                          " coalitions for " + std::to_string(n) + " features, above the exact limit of " +
                          std::to_string(options_.max_players) +
                          " features; select fewer features or use a sampling solver");
  }
  const std::size_t n_games = games.size();
  const std::uint64_t total = std::uint64_t{1} << n;
  const std::uint64_t block_size = ChooseBlockSize(n, k, options_.block_size);
  const std::uint64_t n_blocks = (total + block_size - 1) / block_size;
  if (options_.store_values) {
    // Written as a shift of the bound so the product 2^n k n_games cannot wrap around.
    PERFSHAP_CHECK(k * n_games <= ((std::uint64_t{1} << 31) >> n),
                   "ExactSolver: store_values would need more than 2^31 values; turn it off");
  }

  // Signed coefficient tables: player in S of size s gets +w(s-1), player out gets -w(s).
  std::vector<double> w_in(static_cast<std::size_t>(n) + 1, 0.0), w_out(static_cast<std::size_t>(n) + 1, 0.0);
  for (int s = 0; s <= n; ++s) {
    if (s >= 1) w_in[static_cast<std::size_t>(s)] = ShapleyWeight(n, s - 1);
    if (s < n) w_out[static_cast<std::size_t>(s)] = -ShapleyWeight(n, s);
  }

  for (std::size_t g = 0; g < n_games; ++g)
    PERFSHAP_CHECK(games[g]->player_names().size() == static_cast<std::size_t>(n),
                   "ExactSolver: player_names() size differs from n_players()");
  // A game's values live from its first block until the sink has taken them: games are handed
  // over in order, so only those solved ahead of an unfinished one wait, and their memory is
  // reused by the games after them rather than fresh pages being touched for every game.
  std::vector<std::unique_ptr<ShapleyValues>> results(n_games);
  std::vector<std::uint8_t> solved(n_games, 0);  // guarded by deliver_mutex
  std::mutex deliver_mutex;
  std::size_t next_to_deliver = 0;  // guarded by deliver_mutex
  auto start_game = [&](std::size_t g) {
    auto result = std::make_unique<ShapleyValues>();
    result->players = games[g]->player_names();
    result->n_players = n;
    result->n_outputs = k;
    result->base.assign(k, 0.0);
    result->full.assign(k, 0.0);
    if (options_.store_values) result->coalition_values.assign(total * k, 0.0);
    results[g] = std::move(result);
  };

  // Each block owns (2n + 1) x k partial sums: D_i = sum_{S in block, i in S} d(|S|) v(S) for
  // every player i, and T_s = sum_{S in block, |S| = s} v(S) for every size s. Then
  // phi_i = D_i + sum_s c_out(s) T_s, because c_i(S) = c_out(|S|) + [i in S] d(|S|) with
  // c_out(s) = -w(s) and d(s) = w(s-1) + w(s). The hot loop only visits the members of S.
  // Blocks of all games form one flat list (game-major), so repetitions and coalition blocks
  // run concurrently; each game's blocks are still reduced in their own order.
  const std::size_t nk = static_cast<std::size_t>(n) * k;
  const std::size_t width = nk + (static_cast<std::size_t>(n) + 1) * k;
  // A game's partial sums are allocated when its first block starts and reduced and freed by
  // the thread that completes its last block (in block order, once all are done: the same
  // bits whichever thread that is), so a batch of many games holds only the partials of the
  // games in progress and reuses their memory instead of touching fresh pages for each game.
  //
  // A block of fewer coalitions than the 2n + 1 rows of its partial sums (exact games of few
  // players: blocks of one coalition) keeps its coalitions' values instead, k per coalition,
  // and the reduction rebuilds each block's partial sums from them with the very operations
  // the block would have done: the same bits, with 2n + 1 times less memory to clear and read.
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
  // Per thread: one worker, for the game of the block it last ran (a thread that moves on to
  // another game hands it to that game's MakeWorkerFrom, which rebinds it for games of one kind
  // or frees it before making a new one, so memory is reused rather than grown by one worker
  // per (thread, game): fresh pages cost about 2 us each; workers are Reset at every block, so
  // results do not depend on it), and the buffers for finishing a game.
  struct Scratch {
    std::unique_ptr<GameWorker> worker;
    std::size_t game = 0;
    std::vector<double> value;
    std::vector<double> sums;
    std::vector<double> block_sums;
    std::vector<double> out_part;
  };
  std::vector<std::unique_ptr<detail::BlockPartials>> partials(n_games);
  // Partial sums of finished games, kept for the next games (all have the same shape): reused
  // memory, where a fresh allocation could cost a page fault per 4 KB.
  std::vector<std::unique_ptr<detail::BlockPartials>> spare_partials;
  std::mutex spare_mutex;
  auto take_partials = [&]() -> std::unique_ptr<detail::BlockPartials> {
    {
      const std::lock_guard<std::mutex> lock(spare_mutex);
      if (!spare_partials.empty()) {
        std::unique_ptr<detail::BlockPartials> reused = std::move(spare_partials.back());
        spare_partials.pop_back();
        reused->Clear();
        return reused;
      }
    }
    return std::make_unique<detail::BlockPartials>(n_blocks, stored);
  };
  auto give_back_partials = [&](std::unique_ptr<detail::BlockPartials> done) {
    const std::lock_guard<std::mutex> lock(spare_mutex);
    spare_partials.push_back(std::move(done));
  };
  const std::unique_ptr<std::once_flag[]> partials_once(new std::once_flag[n_games]);
  const std::unique_ptr<std::atomic<std::uint64_t>[]> blocks_done(new std::atomic<std::uint64_t>[n_games]);
  for (std::size_t g = 0; g < n_games; ++g) blocks_done[g].store(0, std::memory_order_relaxed);
  const Coalition full = FullCoalition(n);
  auto finish_game = [&](std::size_t g, Scratch& scratch) {
    ShapleyValues& result = *results[g];
    std::vector<double>& total_sums = scratch.sums;
    std::vector<double>& block_sums = scratch.block_sums;
    total_sums.resize(width);
    if (keep_values) {
      // ReduceInOrder of the partial sums each block would have held.
      std::fill(total_sums.begin(), total_sums.end(), 0.0);
      block_sums.resize(width);
      for (std::uint64_t b = 0; b < n_blocks; ++b) {
        std::fill(block_sums.begin(), block_sums.end(), 0.0);
        const double* values = partials[g]->Row(b).data();
        const std::uint64_t begin = b * block_size;
        const std::uint64_t end = std::min(total, begin + block_size);
        for (std::uint64_t r = begin; r < end; ++r)
          accumulate(block_sums.data(), coalition_at(r), values + (r - begin) * k);
        for (std::size_t j = 0; j < width; ++j) total_sums[j] += block_sums[j];
      }
    } else {
      partials[g]->ReduceInOrder(total_sums);
    }
    give_back_partials(std::move(partials[g]));
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
    // Hand over this game and the solved ones after it, in game order, one sink call at a time.
    const std::lock_guard<std::mutex> lock(deliver_mutex);
    solved[g] = 1;
    while (next_to_deliver < n_games && solved[next_to_deliver] != 0) {
      const std::unique_ptr<ShapleyValues> done = std::move(results[next_to_deliver]);
      done->elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      sink(next_to_deliver, std::move(*done));
      ++next_to_deliver;
    }
  };

  detail::Schedule schedule(options_.execution);
  schedule.SetProgressTotal(total * n_games);
  // When several blocks fail, the error reported is the one of the lowest block, whatever the
  // thread count: each block's exception is kept, and blocks after a known failure are skipped.
  const std::size_t n_flat = static_cast<std::size_t>(n_blocks) * n_games;
  std::vector<std::exception_ptr> errors(n_flat);
  std::atomic<std::size_t> first_error{n_flat};
  auto solve_block = [&](std::size_t flat, Scratch& scratch) {
    const std::size_t g = flat / n_blocks;
    const std::size_t b = flat % n_blocks;
    auto& worker = scratch.worker;
    if (!worker || scratch.game != g) {
      worker = worker ? games[g]->MakeWorkerFrom(std::move(worker)) : games[g]->MakeWorker();
      scratch.game = g;
    }
    worker->Reset();
    std::call_once(partials_once[g], [&] {
      partials[g] = take_partials();
      start_game(g);
    });
    ShapleyValues& result = *results[g];
    double* const acc = partials[g]->Row(b).data();
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
  schedule.ForEachBlock<Scratch>(
      n_blocks * n_games, block_size,
      [&] {
        auto s = std::make_unique<Scratch>();
        s->value.assign(k, 0.0);
        return s;
      },
      [&](std::size_t flat, Scratch& scratch) {
        if (flat > first_error.load(std::memory_order_relaxed)) return;
        try {
          solve_block(flat, scratch);
          const std::size_t g = flat / n_blocks;
          if (blocks_done[g].fetch_add(1, std::memory_order_acq_rel) + 1 == n_blocks) finish_game(g, scratch);
        } catch (...) {
          errors[flat] = std::current_exception();
          std::size_t seen = first_error.load();
          while (flat < seen && !first_error.compare_exchange_weak(seen, flat)) {
          }
        }
      });
  if (first_error.load() < n_flat) std::rethrow_exception(errors[first_error.load()]);
  schedule.FinishProgress();
}

}  // namespace perfshap
