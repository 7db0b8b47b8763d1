// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <numeric>

#include "aggregate/block_partials.hpp"
#include "perfshap/error.hpp"
#include "perfshap/random.hpp"
#include "perfshap/welford.hpp"
#include "schedule/schedule.hpp"

namespace perfshap {
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
      PoolWarmUp warm_up(opt);
      sums = BlockSum(2);
    }
    EXPECT_EQ(0, std::memcmp(reference.data(), sums.data(), reference.size() * sizeof(double))) << round;
  }
  for (int threads : {1, 2, 4}) {
    ExecutionOptions opt;
    opt.threads = threads;
    const PoolWarmUp idle(opt);  // destroyed with no computation: its tasks time out alone
  }
  std::atomic<int> runs{0};
  ExecutionOptions opt;
  opt.threads = 4;
  {
    const PoolWarmUp warm_up(opt);
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

TEST(Schedule, RunStagesRunsEveryStageOfEveryItemInOrder) {
  ExecutionOptions opt;
  opt.threads = 2;
  detail::Schedule schedule(opt);
  std::vector<int> a(64, 0), b(64, 0);
  schedule.RunStages(64, {[&](std::size_t i) { a[i] = static_cast<int>(i) * 2; },
                          [&](std::size_t i) { b[i] = a[i] + 1; }});
  for (int i = 0; i < 64; ++i) EXPECT_EQ(b[static_cast<std::size_t>(i)], 2 * i + 1);
}

TEST(Schedule, StageExceptionPropagates) {
  detail::Schedule schedule(ExecutionOptions{});
  EXPECT_THROW(schedule.RunStages(8, {[](std::size_t i) {
                 if (i == 5) throw DataError("stage failed");
               }}),
               DataError);
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
}  // namespace perfshap
