// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The host's threads: with threads = 0 a computation started inside a host's tbb::task_arena
// takes that arena's concurrency (a task_arena(1) runs it on one thread); a host may pass its
// arena (ExecutionOptions::arena) and the computation runs in it; hosts' arenas side by side
// give the same bits.
#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <oneapi/tbb/task_arena.h>

#include "aggregate/block_partials.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/random.hpp"
#include "schedule/schedule.hpp"
#include "support/expect_error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

struct BlockRun {
  std::vector<double> sums;
  std::set<std::thread::id> threads;  // the threads that ran blocks
  std::set<int> concurrency;          // each block's view of its arena's concurrency
};

/** A sum whose bits depend on order (block partials reduced in block order must not). */
BlockRun BlockSum(const ExecutionOptions& options) {
  detail::Schedule schedule(options);
  detail::BlockPartials partials(64, 2);
  BlockRun run;
  std::mutex mutex;
  schedule.ForEachBlock(64, 1, [&](std::size_t b) {
    RandomStream rng(7, b);
    auto row = partials.Row(b);
    for (int t = 0; t < 20000; ++t)
      for (double& x : row) x += rng.Uniform() * 1e6 - 5e5;
    const std::lock_guard<std::mutex> lock(mutex);
    run.threads.insert(std::this_thread::get_id());
    run.concurrency.insert(tbb::this_task_arena::max_concurrency());
  });
  run.sums = partials.ReduceInOrder();
  return run;
}

TEST(HostArena, ThreadsZeroInsideAOneThreadArenaRunsOnOneThread) {
  const BlockRun outside = BlockSum({});
  tbb::task_arena one(1);
  BlockRun inside;
  one.execute([&] {
    EXPECT_EQ(ResolvedThreads({}), 1);
    inside = BlockSum({});
  });
  EXPECT_EQ(inside.threads.size(), 1u);
  EXPECT_EQ(inside.concurrency, std::set<int>{1});
  EXPECT_EQ(0, std::memcmp(inside.sums.data(), outside.sums.data(), outside.sums.size() * sizeof(double)));
}

TEST(HostArena, AnArenaPassedInIsWhereTheBlocksRun) {
  tbb::task_arena host(2);
  ExecutionOptions options;
  options.arena = &host;
  EXPECT_EQ(ResolvedThreads(options), 2);
  const BlockRun run = BlockSum(options);
  EXPECT_EQ(run.concurrency, std::set<int>{2});
  EXPECT_LE(run.threads.size(), 2u);
  options.threads = 3;
  testing::ExpectError<InvalidArgument>([&] { detail::Schedule s(options); }, {"host's arena of 2 threads"},
                                        "threads");
  options.threads = 2;  // the arena's own count is fine
  EXPECT_EQ(0, std::memcmp(BlockSum(options).sums.data(), run.sums.data(), run.sums.size() * sizeof(double)));
}

TEST(HostArena, TwoHostsArenasSideBySideGiveTheSameBits) {
  tbb::task_arena one(1), two(2);
  BlockRun a, b;
  std::thread first([&] { one.execute([&] { a = BlockSum({}); }); });
  std::thread second([&] {
    ExecutionOptions options;
    options.arena = &two;
    b = BlockSum(options);
  });
  first.join();
  second.join();
  EXPECT_EQ(a.threads.size(), 1u);
  EXPECT_EQ(b.concurrency, std::set<int>{2});
  EXPECT_EQ(0, std::memcmp(a.sums.data(), b.sums.data(), a.sums.size() * sizeof(double)));
}

TEST(ArenaPool, IsBoundedAndReleasedOnRequest) {
  const BlockRun reference = BlockSum({});
  // Computations of many sizes, some side by side: each leases an arena and gives it back; no
  // more than kMaxIdleArenas stay.
  std::vector<std::thread> hosts;
  for (int threads = 1; threads <= 9; ++threads)
    hosts.emplace_back([threads] {
      ExecutionOptions o;
      o.threads = threads;
      BlockSum(o);
    });
  for (std::thread& t : hosts) t.join();
  for (int threads = 1; threads <= 9; ++threads) {
    ExecutionOptions o;
    o.threads = threads;
    const BlockRun run = BlockSum(o);
    EXPECT_EQ(0, std::memcmp(run.sums.data(), reference.sums.data(), reference.sums.size() * sizeof(double)))
        << threads << " threads";
    EXPECT_LE(detail::IdleArenaCount(), kMaxIdleArenas);
  }
  EXPECT_GE(detail::IdleArenaCount(), 1u);
  EXPECT_GE(ReleaseIdleArenas(), 1u);
  EXPECT_EQ(detail::IdleArenaCount(), 0u);
  // The next computation makes a new arena, and the same bits.
  const BlockRun again = BlockSum({});
  EXPECT_EQ(0, std::memcmp(again.sums.data(), reference.sums.data(), reference.sums.size() * sizeof(double)));
  EXPECT_EQ(detail::IdleArenaCount(), 1u);
}

}  // namespace
}}  // namespace perfshap
