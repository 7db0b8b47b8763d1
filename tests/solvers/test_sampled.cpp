// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The sampled solvers against games whose values are known: the exact solver's at n = 10..12,
// games of known Harsanyi dividends (terms of 1 to 4 players) in closed form at n = 12, 200 and 1,000. Checked: convergence to
// the truth, efficiency exactly, the Shapley axioms, bitwise identical results at 1, 2 and 4
// threads, the 95% intervals' coverage over 200 seeded runs (the counting below), the error's
// 1/sqrt(budget) slope, the stopping rule and the one-line errors of bad options.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <cstdio>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/solver.hpp"
#include "support/shapley_properties.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 {
namespace {

SolverOptions Sampled(std::uint64_t budget, std::uint64_t seed, double tolerance = 1e-9, int threads = 2) {
  SolverOptions o;
  o.budget = budget;
  o.seed = seed;
  o.tolerance = tolerance;
  o.execution.threads = threads;
  return o;
}

ShapleyValues Exact(const Game& game) {
  SolverOptions o;
  o.execution.threads = 2;
  return MakeSolver("exact", o)->Solve(game);
}

// A solver as the tests run it: its name, and for the kernel solver whether output 0 gets the
// control variate (every test runs with and without it).
struct SampledCase {
  const char* solver;
  bool control_variate;
  std::string label() const {
    return std::string(solver) + (std::string(solver) == "kernel" && !control_variate ? "_plain" : "");
  }
};

class SampledSolvers : public ::testing::TestWithParam<SampledCase> {
 protected:
  static std::unique_ptr<Solver> Make(SolverOptions options) {
    options.control_variate = GetParam().control_variate;
    return MakeSolver(GetParam().solver, options);
  }
  static bool Kernel() { return std::string(GetParam().solver) == "kernel"; }
};

// Estimates close in to the exact values as the budget grows; every estimate is within 5 of
// its standard errors of them, and efficiency holds to rounding for every output.
TEST_P(SampledSolvers, ConvergeToTheExactValues) {
  for (int n : {13, 15}) {
    const auto game = testing::MixedVectorGame(n, 3, 5);
    const ShapleyValues exact = Exact(game);
    double previous = 1e300;
    for (std::uint64_t budget : {2000u, 6000u}) {
      const ShapleyValues v = Make(Sampled(budget, 3))->Solve(game);
      ASSERT_EQ(v.phi_se.size(), v.phi.size());
      EXPECT_TRUE(testing::CheckEfficiency(game, v, 1e-12));
      double sq = 0.0;
      for (std::size_t t = 0; t < v.phi.size(); ++t) {
        const double err = v.phi[t] - exact.phi[t];
        sq += err * err;
        EXPECT_LE(std::abs(err), 5.0 * v.phi_se[t] + 1e-12) << GetParam().label() << " n " << n << " budget " << budget;
      }
      EXPECT_LT(sq, previous) << GetParam().label() << " n " << n;
      previous = sq;
      EXPECT_LE(v.n_evaluations, budget);
      EXPECT_FALSE(v.converged);
      EXPECT_EQ(v.stopped_by, StopReason::kBudget);
    }
  }
}

// Symmetric players get equal values in expectation and a null player gets 0 exactly (its
// marginal contributions are all 0); linearity holds to the sampling error.
TEST_P(SampledSolvers, KeepTheAxiomsThatHoldSampleBySample) {
  // Player 3 is null: the game ignores it.
  const testing::FunctionGame game(6, 1, [](Coalition s, std::span<double> out) {
    const double a = Contains(s, 0) + Contains(s, 1);
    out[0] = a * a + 2.0 * Contains(s, 2) * Contains(s, 4) + Contains(s, 5);
  });
  const ShapleyValues v = Make(Sampled(4000, 1))->Solve(game);
  EXPECT_TRUE(testing::CheckNullPlayer(game, v, 3, 1e-12));
  EXPECT_TRUE(testing::CheckSymmetry(game, v, 0, 1, 4.0 * (v.phi_se[0] + v.phi_se[1]) + 1e-12));
  EXPECT_TRUE(testing::CheckEfficiency(game, v, 1e-12));
}

// Same seed, same result, bit for bit, whatever the thread count; another seed another result.
TEST_P(SampledSolvers, BitwiseIdenticalForOneTwoFourThreads) {
  const auto game = testing::MixedVectorGame(14, 4, 2);
  std::vector<ShapleyValues> runs;
  for (int threads : {1, 2, 4}) runs.push_back(Make(Sampled(6000, 9, 1e-9, threads))->Solve(game));
  for (const ShapleyValues& r : runs) {
    EXPECT_EQ(r.phi, runs[0].phi);
    EXPECT_EQ(r.phi_se, runs[0].phi_se);
    EXPECT_EQ(r.n_evaluations, runs[0].n_evaluations);
  }
  EXPECT_NE(Make(Sampled(6000, 10))->Solve(game).phi, runs[0].phi);
}

// Coverage: 200 seeded runs on a 12-player dividend game with known values and a fixed budget.
// Each run gives 12 intervals phi_i +- 1.96 se_i; of the 2,400 intervals, the share that holds
// the true value must lie in [0.93, 0.97] (a binomial share of 2,400 at 0.95 has a standard
// deviation of 0.0044: the band is about +-4.5 of them).
TEST_P(SampledSolvers, NinetyFivePercentIntervalsCoverTheTruth) {
  const testing::DividendGame game = testing::DividendGame::Random(12, 4);
  const std::vector<double> truth = game.Shapley();
  int covered = 0, intervals = 0;
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const ShapleyValues v = Make(Sampled(1200, 1000 + seed, 1e-9, 1))->Solve(game);
    for (int i = 0; i < 12; ++i) {
      ++intervals;
      covered += std::abs(v.phi[static_cast<std::size_t>(i)] - truth[static_cast<std::size_t>(i)]) <=
                 1.96 * v.phi_se[static_cast<std::size_t>(i)] + 1e-12;
    }
  }
  const double share = static_cast<double>(covered) / intervals;
  RecordProperty("coverage", std::to_string(share));
  EXPECT_GE(share, 0.93) << GetParam().label() << ": " << covered << " of " << intervals;
  EXPECT_LE(share, 0.97) << GetParam().label() << ": " << covered << " of " << intervals;
}

// The error falls like 1/sqrt(budget): the slope of log RMSE against log budget, fitted over
// four budgets of 20 seeded runs each, lies in [-0.65, -0.35].
TEST_P(SampledSolvers, ErrorFallsLikeOneOverTheSquareRootOfTheBudget) {
  // 200 players: the kernel solver's complete layers (sizes 1 and 199, 400 coalitions) are the
  // same at every budget and small next to it, so the error is that of the sampled part.
  const testing::DividendGame game = testing::DividendGame::Random(200, 8);
  const std::vector<double> truth = game.Shapley();
  std::vector<double> x, y;
  for (std::uint64_t budget : {2000u, 4000u, 8000u, 16000u}) {
    double sq = 0.0;
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      const ShapleyValues v = Make(Sampled(budget, seed))->Solve(game);
      for (std::size_t i = 0; i < truth.size(); ++i) sq += (v.phi[i] - truth[i]) * (v.phi[i] - truth[i]);
    }
    x.push_back(std::log(static_cast<double>(budget)));
    y.push_back(0.5 * std::log(sq / (20.0 * static_cast<double>(truth.size()))));
  }
  double mx = 0, my = 0;
  for (std::size_t t = 0; t < x.size(); ++t) {
    mx += x[t] / 4;
    my += y[t] / 4;
  }
  double sxy = 0, sxx = 0;
  for (std::size_t t = 0; t < x.size(); ++t) {
    sxy += (x[t] - mx) * (y[t] - my);
    sxx += (x[t] - mx) * (x[t] - mx);
  }
  const double slope = sxy / sxx;
  RecordProperty("log_rmse_slope", std::to_string(slope));
  EXPECT_GE(slope, -0.65) << GetParam().label();
  EXPECT_LE(slope, -0.35) << GetParam().label();
}

// 1,000 players (coalitions of 16 words): at least 95% of the values within 3 standard errors
// of the closed form, and efficiency exactly.
TEST_P(SampledSolvers, ThousandPlayersWithinThreeStandardErrors) {
  const testing::DividendGame game = testing::DividendGame::Random(1000, 12);
  const std::vector<double> truth = game.Shapley();
  const ShapleyValues v =
      Make(Sampled(Kernel() ? 40000 : 120000, 5))->Solve(game);
  int within = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) within += std::abs(v.phi[i] - truth[i]) <= 3.0 * v.phi_se[i];
  RecordProperty("within_3_se", std::to_string(within));
  EXPECT_GE(within, 950) << GetParam().label();
  double sum = 0, full = 0;
  for (double p : v.phi) sum += p;
  full = v.full[0] - v.base[0];
  EXPECT_NEAR(sum, full, 1e-9 * (1 + std::abs(full)));
}

// The stopping rule: a loose tolerance stops early with converged = true and the ratio below
// it; a tight one spends the budget and says so.
TEST_P(SampledSolvers, StopOnTheToleranceOrSayTheyDidNot) {
  const auto game = testing::MixedVectorGame(14, 1, 1);
  // A budget below 2^14: the kernel solver samples the middle layers rather than completing all.
  const std::uint64_t budget = Kernel() ? 12000 : 200000;
  const ShapleyValues loose = Make(Sampled(budget, 2, 0.05))->Solve(game);
  EXPECT_TRUE(loose.converged);
  EXPECT_EQ(loose.stopped_by, StopReason::kTolerance);
  EXPECT_LT(loose.convergence_ratio, 0.05);
  EXPECT_LT(loose.n_evaluations, budget);
  const ShapleyValues tight = Make(Sampled(3000, 2, 1e-6))->Solve(game);
  EXPECT_FALSE(tight.converged);
  EXPECT_EQ(tight.stopped_by, StopReason::kBudget);
  EXPECT_GT(tight.convergence_ratio, 1e-6);
}

TEST_P(SampledSolvers, BadOptionsAreOneLineErrors) {
  const auto game = testing::MixedVectorGame(10, 1, 1);
  const auto message = [&](SolverOptions o) {
    try {
      Make(o)->Solve(game);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  SolverOptions bad = Sampled(1000, 0, 0.0);
  EXPECT_NE(message(bad).find("the tolerance must lie in (0, 1)"), std::string::npos);
  bad.tolerance = 1.5;
  EXPECT_NE(message(bad).find("the tolerance must lie in (0, 1)"), std::string::npos);
  const std::string small = message(Sampled(5, 0));
  EXPECT_NE(small.find("too small"), std::string::npos) << small;
  EXPECT_EQ(small.find('\n'), std::string::npos);
}

// The kernel solver's control variate (boosted trees on the indicators, cross-fitted) keeps the
// estimate unbiased and lowers its error where the game is smooth in the coalition: on a
// saturating 14-player game, v(S) = sqrt(sum_{i in S} w_i) + 0.3 * [0 and 1 in S], 20 seeds at
// a budget of 2,000 (an eighth of the 2^14 coalitions), its mean squared error against the exact
// values is at most half the plain solver's, and both cover the truth within 3 se.
TEST(KernelControlVariate, AtMostHalfThePlainErrorOnASaturatingGame) {
  const int n = 14;
  const testing::FunctionGame game(n, 1, [](Coalition s, std::span<double> out) {
    double sum = 0.0;
    for (int i = 0; i < 14; ++i) sum += Contains(s, i) ? 0.5 + 0.25 * i : 0.0;
    out[0] = std::sqrt(sum) + (Contains(s, 0) && Contains(s, 1) ? 0.3 : 0.0);
  });
  const ShapleyValues exact = Exact(game);
  double mse[2] = {0.0, 0.0};
  int outside[2] = {0, 0};
  for (int cv = 0; cv < 2; ++cv) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
      SolverOptions o = Sampled(2000, seed);
      o.control_variate = cv == 1;
      const ShapleyValues v = MakeSolver("kernel", o)->Solve(game);
      for (std::size_t i = 0; i < 14; ++i) {
        const double e = v.phi[i] - exact.phi[i];
        mse[cv] += e * e / (20.0 * 14.0);
        outside[cv] += std::abs(e) > 3.0 * v.phi_se[i] + 1e-12;
      }
    }
  }
  RecordProperty("mse_plain", std::to_string(mse[0]));
  RecordProperty("mse_control_variate", std::to_string(mse[1]));
  EXPECT_LE(mse[1], 0.5 * mse[0]) << "plain " << mse[0] << ", control variate " << mse[1];
  EXPECT_GT(mse[1], 0.0);  // still sampled, not exact
  // 280 values each: a 3-se miss has probability 0.0027, so more than 5 would mean biased ses.
  EXPECT_LE(outside[0], 5);
  EXPECT_LE(outside[1], 5);
}

// The kernel solver spends its budget to within one cycle (a pair from each sampled layer): a
// last round gives one more cycle to the batches the rest pays for. Before, each batch took the
// same number of cycles, and up to batches - 1 cycles went unspent (86 of 96 evaluations at 12
// players). The estimate stays within 5 of its standard errors of the exact values, and the same
// at 1 and 2 threads.
TEST(KernelBudget, SpentToWithinOneCycle) {
  for (const int n : {12, 13}) {
    const auto game = testing::MixedVectorGame(n, 2, 7);
    const ShapleyValues exact = Exact(game);
    // Sizes 1 and n - 1 complete at these budgets; the other layer pairs sampled, two
    // evaluations each a cycle.
    const std::uint64_t per_cycle = 2 * static_cast<std::uint64_t>(n / 2 - 1);
    for (const std::uint64_t budget : {96u, 150u, 384u, 1000u}) {
      const ShapleyValues v = MakeSolver("kernel", Sampled(budget, 5, 1e-9, 2))->Solve(game);
      EXPECT_LE(v.n_evaluations, budget) << "n " << n << " budget " << budget;
      EXPECT_GT(v.n_evaluations + per_cycle, budget) << "n " << n << " budget " << budget;
      EXPECT_TRUE(testing::CheckEfficiency(game, v, 1e-12));
      for (std::size_t t = 0; t < v.phi.size(); ++t)
        EXPECT_LE(std::abs(v.phi[t] - exact.phi[t]), 5.0 * v.phi_se[t] + 1e-12)
            << "n " << n << " budget " << budget;
      const ShapleyValues one = MakeSolver("kernel", Sampled(budget, 5, 1e-9, 1))->Solve(game);
      EXPECT_EQ(one.phi, v.phi);
      EXPECT_EQ(one.phi_se, v.phi_se);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Solvers, SampledSolvers,
                         ::testing::Values(SampledCase{"permutation", false}, SampledCase{"kernel", true},
                                           SampledCase{"kernel", false}),
                         [](const ::testing::TestParamInfo<SampledCase>& param) { return param.param.label(); });

}  // namespace
}}  // namespace perfshap
