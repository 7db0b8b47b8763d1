// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

#include "perfshap/error.hpp"
#include "perfshap/blocks/solver.hpp"
#include "support/shapley_properties.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::AdditiveGame;
using testing::BruteForcePermutationShapley;
using testing::MixedVectorGame;
using testing::UnanimityGame;
using testing::WeightedMajorityGame;

ShapleyValues SolveWith(const Game& g, int threads = 1, bool gray = true, bool store = false) {
  ExactOptions opt;
  opt.execution.threads = threads;
  opt.gray_code = gray;
  opt.store_values = store;
  return ExactSolver(opt).Solve(g);
}

TEST(ShapleyWeight, MatchesFactorialFormula) {
  // w(s) = s!(n-s-1)!/n! for small n computed directly.
  auto fact = [](int m) { double f = 1; for (int t = 2; t <= m; ++t) f *= t; return f; };
  for (int n = 1; n <= 12; ++n)
    for (int s = 0; s < n; ++s)
      EXPECT_NEAR(ShapleyWeight(n, s), fact(s) * fact(n - s - 1) / fact(n), 1e-15 * ShapleyWeight(n, s));
}

TEST(ShapleyWeight, WeightsOfEachPlayerSumToOneUpToN63) {
  // sum_s C(n-1, s) w(s) = 1: checks no overflow at n = 63 (C(62, 31) ~ 4.6e17).
  for (int n : {20, 40, 62, 63}) {
    long double total = 0, c = 1;
    for (int s = 0; s < n; ++s) {
      total += c * static_cast<long double>(ShapleyWeight(n, s));
      c = c * (n - 1 - s) / (s + 1);
    }
    EXPECT_NEAR(static_cast<double>(total), 1.0, 1e-13) << "n = " << n;
    EXPECT_GT(ShapleyWeight(n, n / 2), 0.0);
  }
}

TEST(ExactSolver, UnanimityGameSplitsEquallyInCarrier) {
  const auto g = UnanimityGame(6, 0b101100);
  const auto v = SolveWith(g);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(v(i, 0), Contains(0b101100, i) ? 1.0 / 3.0 : 0.0, 1e-15);
  EXPECT_TRUE(testing::CheckEfficiency(g, v, 1e-14));
  EXPECT_TRUE(testing::CheckNullPlayer(g, v, 0, 1e-15));
  EXPECT_TRUE(testing::CheckSymmetry(g, v, 2, 5, 1e-15));
}

TEST(ExactSolver, AdditiveGameGivesCoefficients) {
  const std::vector<double> a{0.5, -1.25, 3.0, 0.0, 2.5, -0.75, 1.0};
  const auto g = AdditiveGame(a);
  const auto v = SolveWith(g);
  for (int i = 0; i < 7; ++i) EXPECT_NEAR(v(i, 0), a[static_cast<std::size_t>(i)], 1e-14);
}

TEST(ExactSolver, WeightedMajorityMatchesBruteForce) {
  // [quota 4; weights 3,1,1,1]: player 0 is pivotal unless it comes first in the order
  // (probability 3/4); each small player is pivotal only right after player 0 when player 0
  // came first: phi = (3/4, 1/12, 1/12, 1/12).
  const auto g = WeightedMajorityGame({3, 1, 1, 1}, 4);
  const auto v = SolveWith(g);
  EXPECT_NEAR(v(0, 0), 0.75, 1e-15);
  for (int i = 1; i < 4; ++i) EXPECT_NEAR(v(i, 0), 1.0 / 12.0, 1e-15);
  const auto g8 = WeightedMajorityGame({4, 3, 3, 2, 2, 1, 1, 0}, 9);
  const auto v8 = SolveWith(g8);
  EXPECT_TRUE(testing::CheckMatches(v8, BruteForcePermutationShapley(g8), 1e-12));
  EXPECT_TRUE(testing::CheckNullPlayer(g8, v8, 7, 1e-14));
  EXPECT_TRUE(testing::CheckSymmetry(g8, v8, 1, 2, 1e-14));
}

TEST(ExactSolver, VectorGameMatchesBruteForceUpToEightPlayers) {
  for (int n = 1; n <= 8; ++n) {
    const auto g = MixedVectorGame(n, 3, static_cast<unsigned>(n));
    const auto ref = BruteForcePermutationShapley(g);
    EXPECT_TRUE(testing::CheckMatches(SolveWith(g, 1, true), ref, 1e-12)) << "n = " << n;
    EXPECT_TRUE(testing::CheckMatches(SolveWith(g, 2, false), ref, 1e-12)) << "n = " << n;
    EXPECT_TRUE(testing::CheckEfficiency(g, SolveWith(g), 1e-12)) << "n = " << n;
  }
}

TEST(ExactSolver, LinearityHolds) {
  const auto g1 = MixedVectorGame(6, 2, 1);
  const auto g2 = MixedVectorGame(6, 2, 7);
  EXPECT_TRUE(testing::CheckLinearity([](const Game& g) { return SolveWith(g, 2); }, g1, g2, 2.5, -0.75, 1e-12));
}

TEST(ExactSolver, EfficiencyAtTwentyPlayers) {
  const auto g = MixedVectorGame(20, 2, 3);
  const auto v = SolveWith(g, 2);
  EXPECT_EQ(v.n_evaluations, std::uint64_t{1} << 20);
  EXPECT_TRUE(testing::CheckEfficiency(g, v, 1e-12));
}

TEST(ExactSolver, BitwiseIdenticalForOneTwoFourThreads) {
  const auto g = MixedVectorGame(14, 3, 5);
  const auto v1 = SolveWith(g, 1);
  for (int t : {2, 4}) {
    const auto vt = SolveWith(g, t);
    ASSERT_EQ(v1.phi.size(), vt.phi.size());
    EXPECT_EQ(0, std::memcmp(v1.phi.data(), vt.phi.data(), v1.phi.size() * sizeof(double))) << t << " threads";
  }
}

TEST(ExactSolver, SolveBatchEqualsSolvingEachGame) {
  const auto g1 = MixedVectorGame(9, 2, 1);
  const auto g2 = MixedVectorGame(9, 2, 2);
  const auto g3 = MixedVectorGame(9, 2, 3);
  const Game* games[] = {&g1, &g2, &g3};
  for (int threads : {1, 2}) {
    ExactOptions opt;
    opt.execution.threads = threads;
    opt.block_size = 16;
    const ExactSolver solver(opt);
    const auto batch = solver.SolveBatch(games);
    ASSERT_EQ(batch.size(), 3u);
    for (std::size_t g = 0; g < 3; ++g) {
      const auto one = solver.Solve(*games[g]);
      EXPECT_EQ(0, std::memcmp(one.phi.data(), batch[g].phi.data(), one.phi.size() * sizeof(double))) << g;
      EXPECT_EQ(one.base, batch[g].base);
      EXPECT_EQ(one.full, batch[g].full);
    }
  }
  const auto other = MixedVectorGame(8, 2, 1);
  const Game* mixed[] = {&g1, &other};
  EXPECT_THROW(ExactSolver().SolveBatch(mixed), InvalidArgument);
}

TEST(ExactSolver, StoresCoalitionValuesByMask) {
  const auto g = MixedVectorGame(5, 2, 9);
  const auto v = SolveWith(g, 2, true, true);
  ASSERT_EQ(v.coalition_values.size(), 32u * 2u);
  for (Coalition s = 0; s < 32; ++s) {
    const auto want = EvaluateCoalition(g, s);
    EXPECT_EQ(v.coalition_values[s * 2], want[0]);
    EXPECT_EQ(v.coalition_values[s * 2 + 1], want[1]);
  }
  EXPECT_EQ(v.base, EvaluateCoalition(g, 0));
  EXPECT_EQ(v.full, EvaluateCoalition(g, 31));
}

TEST(ExactSolver, RefusesTooManyPlayersWithClearMessage) {
  const auto g = AdditiveGame(std::vector<double>(31, 1.0));
  try {
    SolveWith(g);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("31 players"), std::string::npos) << msg;
    EXPECT_NE(msg.find("limit of 30"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos);
  }
  ExactOptions opt;
  opt.max_players = 64;
  EXPECT_THROW(ExactSolver{opt}, InvalidArgument);
}

TEST(ExactSolver, CancellationFlagStopsTheSolve) {
  std::atomic<bool> cancel{true};
  ExactOptions opt;
  opt.execution.cancel = &cancel;
  EXPECT_THROW(ExactSolver(opt).Solve(MixedVectorGame(12, 1, 1)), Cancelled);
}

TEST(ExactSolver, ReportsProgressToTheEnd) {
  std::uint64_t last_done = 0, total = 0;
  bool finished = false;
  ExactOptions opt;
  opt.execution.threads = 2;
  opt.execution.progress = [&](const Progress& p) {
    last_done = p.done;
    total = p.total;
    finished = finished || p.finished;
  };
  ExactSolver(opt).Solve(MixedVectorGame(12, 1, 1));
  EXPECT_TRUE(finished);
  EXPECT_EQ(total, 4096u);
  EXPECT_EQ(last_done, 4096u);
}

// A worker that carries state along the Gray code (the running sum of its members' weights,
// updated by one player per step, as the real games do) and forgets it on Reset().
class RunningSumGame final : public Game {
 public:
  explicit RunningSumGame(int n) : n_(n) {}
  int n_players() const override { return n_; }
  std::size_t n_outputs() const override { return 2; }
  std::unique_ptr<GameWorker> MakeWorker() const override { return std::make_unique<Worker>(); }

 private:
  struct Worker final : GameWorker {
    void Reset() override { fresh = true; }
    void Evaluate(Coalition s, std::span<double> out) override {
      const Coalition diff = s ^ last;
      if (fresh || std::popcount(diff) != 1) {
        sum = 0;
        for (int i = 0; i < 64; ++i)
          if (Contains(s, i)) sum += 0.1 * (i + 1) + 1e-3 / (i + 1);
      } else {
        const int i = std::countr_zero(diff);
        sum += (Contains(s, i) ? 1.0 : -1.0) * (0.1 * (i + 1) + 1e-3 / (i + 1));
      }
      last = s;
      fresh = false;
      out[0] = sum * sum;
      out[1] = std::sin(sum);
    }
    Coalition last = 0;
    double sum = 0;
    bool fresh = true;
  };
  int n_;
};

TEST(ExactSolver, StatefulWorkerIsBitwiseIdenticalAcrossThreadsAndBatch) {
  const RunningSumGame g(13);
  const auto v1 = SolveWith(g, 1);
  for (int t : {2, 4}) {
    const auto vt = SolveWith(g, t);
    EXPECT_EQ(0, std::memcmp(v1.phi.data(), vt.phi.data(), v1.phi.size() * sizeof(double))) << t;
  }
  EXPECT_TRUE(testing::CheckEfficiency(g, v1, 1e-10));
  const RunningSumGame g2(13);
  const Game* games[] = {&g, &g2};
  for (int t : {1, 2}) {
    ExactOptions opt;
    opt.execution.threads = t;
    const auto batch = ExactSolver(opt).SolveBatch(games);
    EXPECT_EQ(0, std::memcmp(v1.phi.data(), batch[0].phi.data(), v1.phi.size() * sizeof(double))) << t;
    EXPECT_EQ(0, std::memcmp(v1.phi.data(), batch[1].phi.data(), v1.phi.size() * sizeof(double))) << t;
  }
}

TEST(ExactSolver, FirstFailingBlockIsReportedForAnyThreadCount) {
  // Two coalitions fail, in different blocks; the lower block's error is always the one seen.
  testing::FunctionGame g(12, 1, [](Coalition s, std::span<double> out) {
    if (s == GrayCode(100)) throw DataError("first failure");
    if (s == GrayCode(4000)) throw DataError("second failure");
    out[0] = 1;
  });
  for (int t : {1, 2, 4}) {
    ExactOptions opt;
    opt.execution.threads = t;
    opt.block_size = 64;
    try {
      ExactSolver(opt).Solve(g);
      FAIL() << "expected DataError";
    } catch (const DataError& e) {
      EXPECT_STREQ(e.what(), "first failure") << t << " threads";
    }
  }
}

TEST(ExactSolver, ExceptionInGamePropagates) {
  testing::FunctionGame g(8, 1, [](Coalition s, std::span<double> out) {
    if (s == 77) throw DataError("bad coalition");
    out[0] = 1;
  });
  EXPECT_THROW(SolveWith(g, 2), DataError);
}

}  // namespace
}}  // namespace perfshap

namespace perfshap { inline namespace v0 {
namespace {

// Solvers are chosen by name; an unknown one is a one-line error listing the known ones.
TEST(SolverRegistry, MakesTheExactSolverByName) {
  EXPECT_EQ(MakeSolver("exact")->name(), "exact");
  EXPECT_EQ(SolverNames().front(), "exact");
  try {
    MakeSolver("kernal");
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown solver 'kernal': choose one of exact, "), std::string::npos);
    EXPECT_EQ(e.options(), std::vector<std::string>{"solver"});
  }
  const auto g = testing::FunctionGame(5, 2, [](Coalition s, std::span<double> out) {
    out[0] = CoalitionSize(s);
    out[1] = static_cast<double>(s & 3);
  });
  const ShapleyValues v = MakeSolver("exact")->Solve(g);
  EXPECT_TRUE(v.converged);
  EXPECT_TRUE(v.phi_se.empty());
  EXPECT_EQ(v.n_evaluations, 32U);
}

// The one block policy reproduces the three the methods had before it, so their bits did not
// move: the exact solver's default, the retraining games' (at least 32 coalitions a block for the
// warm starts, at most 256 blocks, 32 MB of partial sums) and XPER's (at most 64 blocks).
TEST(ExactBlockSize, OnePolicyGivesTheBlocksOfTheOldThree) {
  const auto old = [](int n, std::size_t k, std::uint64_t max_blocks_cap, std::uint64_t budget,
                      std::uint64_t min_block) {
    const std::uint64_t total = std::uint64_t{1} << n;
    const std::uint64_t bytes = static_cast<std::uint64_t>(2 * n + 1) * k * sizeof(double);
    std::uint64_t max_blocks = std::max<std::uint64_t>(1, budget / bytes);
    max_blocks = std::bit_floor(std::min<std::uint64_t>({max_blocks, max_blocks_cap, total}));
    return std::max(total / max_blocks, std::min<std::uint64_t>(total, min_block));
  };
  for (int n : {1, 2, 4, 7, 10, 13, 16, 20, 24}) {
    for (std::size_t k : {std::size_t{1}, std::size_t{205}, std::size_t{301}, std::size_t{100001}}) {
      EXPECT_EQ(ExactBlockSize(n, k, BlockHint{}), old(n, k, 1024, std::uint64_t{256} << 20, 1)) << n << " " << k;
      EXPECT_EQ(ExactBlockSize(n, k, {32, 256, std::uint64_t{32} << 20}), old(n, k, 256, std::uint64_t{32} << 20, 32))
          << n << " " << k;
      EXPECT_EQ(ExactBlockSize(n, k, {1, 64, std::uint64_t{256} << 20}), old(n, k, 64, std::uint64_t{256} << 20, 1))
          << n << " " << k;
    }
  }
  EXPECT_EQ(ExactBlockSize(10, 3, BlockHint{}, 100), 100U);
  EXPECT_EQ(ExactBlockSize(3, 3, BlockHint{}, 100), 8U);
}

}  // namespace
}}  // namespace perfshap
