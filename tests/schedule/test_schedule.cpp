// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "aggregate/block_partials.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/welford.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 {
namespace {

// A floating sum whose bits depend on order: block partials in block order must not.
std::vector<double> BlockSum(int threads) {
  ExecutionOptions opt;
  opt.threads = threads;
  detail::Schedule schedule(opt);
  detail::BlockPartials partials(257, 3);
  schedule.ForEachBlock(257, 1, [&](std::size_t b) {
    RandomStream rng(42, b);
    auto row = partials.Row(b);
    for (int t = 0; t < 1000; ++t)
      for (double& x : row) x += rng.Uniform() * 1e6 - 5e5;
  });
  return partials.ReduceInOrder();
}

TEST(Schedule, BlockReductionIsBitwiseIdenticalForOneTwoFourThreads) {
  const auto a = BlockSum(1);
  for (int t : {2, 4}) {
    const auto b = BlockSum(t);
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(double))) << t;
  }
}

// Two computations of the same size started from two threads run side by side: each one's first
// block waits until the other's has started (had the second to queue behind the first, the wait
// would end only by its time limit).
TEST(Schedule, ComputationsFromTwoThreadsRunSideBySide) {
  std::atomic<int> started{0};
  std::atomic<int> timed_out{0};
  auto run = [&] {
    ExecutionOptions opt;
    opt.threads = 1;
    detail::Schedule schedule(opt);
    schedule.ForEachBlock(4, 1, [&](std::size_t b) {
      if (b != 0) return;
      started.fetch_add(1);
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
      while (started.load() < 2) {
        if (std::chrono::steady_clock::now() > until) {
          timed_out.fetch_add(1);
          return;
        }
        std::this_thread::yield();
      }
    });
  };
  std::thread a(run);
  std::thread b(run);
  a.join();
  b.join();
  EXPECT_EQ(started.load(), 2);
  EXPECT_EQ(timed_out.load(), 0) << "the second computation could not start while the first ran";
  // Results still do not depend on how computations overlap.
  std::vector<double> x;
  std::vector<double> y;
  std::thread c([&] { x = BlockSum(2); });
  std::thread d([&] { y = BlockSum(2); });
  c.join();
  d.join();
  EXPECT_EQ(0, std::memcmp(x.data(), y.data(), x.size() * sizeof(double)));
  const auto serial = BlockSum(1);
  EXPECT_EQ(0, std::memcmp(x.data(), serial.data(), x.size() * sizeof(double)));
}

// A computation started inside another's block (a learner's threaded fit inside a coalition)
// runs in the enclosing arena and gives the same bits as on its own.
TEST(Schedule, NestedComputationGivesTheSameBits) {
  const auto alone = BlockSum(2);
  std::vector<std::vector<double>> nested(3);
  ExecutionOptions opt;
  opt.threads = 2;
  detail::Schedule outer(opt);
  outer.ForEachBlock(3, 1, [&](std::size_t b) { nested[b] = BlockSum(2); });
  for (const auto& n : nested) EXPECT_EQ(0, std::memcmp(n.data(), alone.data(), alone.size() * sizeof(double)));
}

// PoolWarmUp keeps workers waiting for the next computation: that computation gives the same
// bits, every block runs once, and warm-ups that no computation follows (or of one thread)
// end on their own without holding up anything.
TEST(PoolWarmUp, ComputationAfterWarmUpIsUnchangedAndIdleWarmUpsEnd) {
  const auto reference = BlockSum(1);
  for (int round = 0; round < 3; ++round) {
    std::vector<double> sums;
    {
      ExecutionOptions opt;
      opt.threads = 2;
      detail::PoolWarmUp warm_up(opt);
      sums = BlockSum(2);
    }
    EXPECT_EQ(0, std::memcmp(reference.data(), sums.data(), reference.size() * sizeof(double))) << round;
  }
  for (int threads : {1, 2, 4}) {
    ExecutionOptions opt;
    opt.threads = threads;
    const detail::PoolWarmUp idle(opt);  // destroyed with no computation: its tasks time out alone
  }
  std::atomic<int> runs{0};
  ExecutionOptions opt;
  opt.threads = 4;
  {
    const detail::PoolWarmUp warm_up(opt);
    detail::Schedule schedule(opt);
    schedule.ForEachBlock(100, 1, [&](std::size_t) { runs.fetch_add(1); });
  }
  EXPECT_EQ(runs.load(), 100);
}

TEST(Schedule, ScratchIsCreatedPerThreadNotPerBlock) {
  ExecutionOptions opt;
  opt.threads = 2;
  detail::Schedule schedule(opt);
  std::atomic<int> made{0};
  std::vector<int> seen(500, 0);
  schedule.ForEachBlock<std::vector<double>>(
      500, 1,
      [&] {
        ++made;
        return std::make_unique<std::vector<double>>(16);
      },
      [&](std::size_t b, std::vector<double>& scratch) {
        scratch[0] = static_cast<double>(b);
        seen[b] += 1;
      });
  EXPECT_LE(made.load(), 2);
  for (int s : seen) EXPECT_EQ(s, 1);
}

// The game pipeline: every stage of every item runs once, prepare before the item's blocks,
// reduce after all of them, deliver in item order one at a time; never more items between
// prepare and deliver than max_in_flight(), and no two in flight share a slot.
TEST(Schedule, PipelineRunsEveryStageInOrderWithBoundedSlots) {
  for (int threads : {1, 2, 4}) {
    ExecutionOptions opt;
    opt.threads = threads;
    detail::Schedule schedule(opt);
    constexpr std::size_t kItems = 57;
    constexpr std::size_t kBlocks = 5;
    const std::size_t slots = schedule.max_in_flight();
    std::vector<std::atomic<int>> prepared(kItems), reduced(kItems), blocks_done(kItems);
    std::vector<std::atomic<int>> slot_owner(slots);
    for (auto& o : slot_owner) o.store(-1);
    std::atomic<int> in_flight{0}, most_in_flight{0}, delivering{0}, made{0};
    std::vector<std::size_t> delivered;
    std::atomic<bool> bad{false};
    detail::PipelineStages st;
    st.n_items = kItems;
    st.blocks_per_item = kBlocks;
    st.units_per_block = 1;
    st.make_scratch = [&] {
      made.fetch_add(1);
      return std::make_shared<int>(0);
    };
    st.prepare = [&](std::size_t item, std::size_t slot) {
      if (slot != item % slots) bad = true;
      int expected = -1;
      if (!slot_owner[slot].compare_exchange_strong(expected, static_cast<int>(item))) bad = true;
      const int now = in_flight.fetch_add(1) + 1;
      int seen = most_in_flight.load();
      while (now > seen && !most_in_flight.compare_exchange_weak(seen, now)) {
      }
      prepared[item].fetch_add(1);
    };
    st.block = [&](std::size_t item, std::size_t, std::size_t slot, void* scratch) {
      if (prepared[item].load() != 1 || slot_owner[slot].load() != static_cast<int>(item) || scratch == nullptr)
        bad = true;
      blocks_done[item].fetch_add(1);
    };
    st.reduce = [&](std::size_t item, std::size_t, void*) {
      if (blocks_done[item].load() != static_cast<int>(kBlocks)) bad = true;
      reduced[item].fetch_add(1);
    };
    st.deliver = [&](std::size_t item, std::size_t slot) {
      if (delivering.fetch_add(1) != 0 || reduced[item].load() != 1) bad = true;
      delivered.push_back(item);
      in_flight.fetch_sub(1);
      slot_owner[slot].store(-1);
      delivering.fetch_sub(1);
    };
    schedule.RunPipeline(st);
    EXPECT_FALSE(bad.load()) << threads;
    ASSERT_EQ(delivered.size(), kItems) << threads;
    for (std::size_t i = 0; i < kItems; ++i) {
      EXPECT_EQ(delivered[i], i);
      EXPECT_EQ(prepared[i].load(), 1);
      EXPECT_EQ(reduced[i].load(), 1);
    }
    EXPECT_LE(most_in_flight.load(), static_cast<int>(slots));
    EXPECT_LE(made.load(), threads);
  }
}

// The lowest failing (item, block) is the error reported, whatever the thread count; items
// after a failure are not delivered; a throwing prepare or deliver counts like a block.
TEST(Schedule, PipelineReportsTheLowestFailure) {
  for (int threads : {1, 2, 4}) {
    for (int where : {0, 1, 2}) {
      ExecutionOptions opt;
      opt.threads = threads;
      detail::Schedule schedule(opt);
      std::vector<std::size_t> delivered;
      detail::PipelineStages st;
      st.n_items = 40;
      st.blocks_per_item = 3;
      st.prepare = [&](std::size_t item, std::size_t) {
        if (where == 0 && (item == 21 || item == 33)) throw DataError("prepare " + std::to_string(item));
      };
      st.block = [&](std::size_t item, std::size_t block, std::size_t, void*) {
        if (where == 1 && ((item == 17 && block == 2) || item == 30)) throw DataError("block " + std::to_string(item));
      };
      st.deliver = [&](std::size_t item, std::size_t) {
        if (where == 2 && item >= 12) throw DataError("deliver " + std::to_string(item));
        delivered.push_back(item);
      };
      const char* want[] = {"prepare 21", "block 17", "deliver 12"};
      try {
        schedule.RunPipeline(st);
        ADD_FAILURE() << "no error";
      } catch (const DataError& e) {
        EXPECT_EQ(std::string(e.what()), want[where]) << threads;
      }
      const std::size_t first_bad[] = {21, 17, 12};
      for (std::size_t i = 0; i < delivered.size(); ++i) EXPECT_EQ(delivered[i], i);
      EXPECT_LE(delivered.size(), first_bad[where]);
    }
  }
}

TEST(Schedule, CancelledBeforeStartThrows) {
  std::atomic<bool> cancel{true};
  ExecutionOptions opt;
  opt.cancel = &cancel;
  detail::Schedule schedule(opt);
  EXPECT_THROW(schedule.ForEachBlock(10, 1, [](std::size_t) {}), Cancelled);
}

TEST(Schedule, RejectsNegativeThreads) {
  ExecutionOptions opt;
  opt.threads = -1;
  EXPECT_THROW(detail::Schedule{opt}, InvalidArgument);
}

TEST(WelfordBands, MatchesTwoPassMeanAndVariance) {
  const std::vector<std::vector<double>> reps{{1.0, 10.0}, {2.0, 10.0}, {4.0, 10.0}, {8.5, 10.0}};
  WelfordBands w(2);
  for (const auto& r : reps) w.Add(r);
  const double mean = (1.0 + 2.0 + 4.0 + 8.5) / 4;
  double ss = 0;
  for (const auto& r : reps) ss += (r[0] - mean) * (r[0] - mean);
  EXPECT_NEAR(w.mean()[0], mean, 1e-15);
  EXPECT_NEAR(w.Variance(0)[0], ss / 4, 1e-14);
  EXPECT_NEAR(w.Variance(1)[0], ss / 3, 1e-14);
  EXPECT_EQ(w.StdDev()[1], 0.0);
  WelfordBands one(1);
  one.Add(std::vector<double>{3.0});
  EXPECT_EQ(one.StdDev(1)[0], 0.0);  // a single repetition has no spread
}

TEST(RandomStream, IsAPureFunctionOfSeedStreamAndCounter) {
  RandomStream a(7, 3), b(7, 3), c(7, 4), d(8, 3);
  for (int t = 0; t < 100; ++t) {
    const auto x = a();
    EXPECT_EQ(x, b());
    EXPECT_NE(x, c());
    EXPECT_NE(x, d());
  }
}

TEST(RandomStream, UniformAndBelowAreInRangeAndRoughlyUniform) {
  RandomStream rng(1, 0);
  std::vector<int> counts(10, 0);
  double sum = 0, sumsq = 0;
  const int m = 100000;
  for (int t = 0; t < m; ++t) {
    const double u = rng.Uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    counts[rng.Below(10)] += 1;
    const double z = rng.Normal();
    sum += z;
    sumsq += z * z;
  }
  for (int c : counts) EXPECT_NEAR(c, m / 10, 600);
  EXPECT_NEAR(sum / m, 0.0, 0.02);
  EXPECT_NEAR(sumsq / m, 1.0, 0.03);
}

}  // namespace
}}  // namespace perfshap
