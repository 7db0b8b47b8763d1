// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// A user's model is one call per coalition unless the solvers batch them: the permutation and
// kernel solvers hand a prediction game's coalitions to GameWorker::EvaluateMany, which predicts
// them in as few calls as kBatchHybridRows rows allow. The values must be bitwise those of the
// one-by-one evaluation (the plain reference: the same game with its batch hint hidden), at any
// thread count, with at most one call per 60 coalitions on the shape (30 features, 100
// background rows, one explained row, 1,000 evaluations).
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "games/prediction_game.hpp"
#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/solver.hpp"

namespace perfshap {
inline namespace v0 {
namespace {

constexpr std::size_t kFeatures = 30;

/** A nonlinear model of 30 features that counts its calls: P(y) = logistic of a sum of
 *  pairwise products and a sine, row by row. */
class CountingModel final : public Model {
 public:
  std::size_t n_features() const override { return kFeatures; }
  bool is_classifier() const override { return true; }
  std::string Describe() const override { return "counting model"; }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    calls.fetch_add(1);
    rows.fetch_add(n);
    for (std::size_t r = 0; r < n; ++r) {
      double z = 0.0;
      for (std::size_t j = 0; j + 1 < kFeatures; j += 2) z += x[j * n + r] * x[(j + 1) * n + r];
      z += std::sin(x[r] + x[(kFeatures - 1) * n + r]);
      out[r] = 1.0 / (1.0 + std::exp(-z));
    }
  }
  mutable std::atomic<std::uint64_t> calls{0};
  mutable std::atomic<std::uint64_t> rows{0};
};

/** The game with its batch hint hidden: the solvers evaluate it one coalition at a time. */
class OneByOne final : public Game {
 public:
  explicit OneByOne(const Game& g) : g_(g) {}
  int n_players() const override { return g_.n_players(); }
  std::size_t n_outputs() const override { return g_.n_outputs(); }
  std::unique_ptr<GameWorker> MakeWorker() const override { return g_.MakeWorker(); }
  BlockHint block_hint() const override {
    BlockHint h = g_.block_hint();
    h.batch_coalitions = 1;
    return h;
  }

 private:
  const Game& g_;
};

std::vector<double> Gaussian(std::size_t n, std::uint64_t seed) {
  RandomStream rng(seed, 0);
  std::vector<double> v(n);
  for (double& x : v) x = 2.0 * (static_cast<double>(rng() >> 11) * 0x1.0p-53) - 1.0;
  return v;
}

struct Shape {
  std::vector<double> rows = Gaussian(kFeatures, 1);
  std::vector<double> background = Gaussian(kFeatures * 100, 2);
  std::vector<Player> players;
  Shape() {
    for (std::size_t j = 0; j < kFeatures; ++j)
      players.push_back({std::string("x").append(std::to_string(j)), {j}, {}});
  }
};

ShapleyValues SolveWith(const std::string& solver, const Game& game, int threads) {
  SolverOptions o;
  o.budget = 1000;
  o.seed = 7;
  o.tolerance = 1e-9;  // the budget stops it
  o.execution.threads = threads;
  return MakeSolver(solver, o)->Solve(game);
}

void ExpectBitwise(const ShapleyValues& a, const ShapleyValues& b, const std::string& what) {
  ASSERT_EQ(a.phi.size(), b.phi.size()) << what;
  for (std::size_t i = 0; i < a.phi.size(); ++i) {
    EXPECT_EQ(a.phi[i], b.phi[i]) << what << " phi " << i;
    EXPECT_EQ(a.phi_se[i], b.phi_se[i]) << what << " se " << i;
  }
  EXPECT_EQ(a.n_evaluations, b.n_evaluations) << what;
}

class BatchedCalls : public ::testing::TestWithParam<const char*> {};

TEST_P(BatchedCalls, OneCallPerSixtyCoalitionsAndTheOneByOneValues) {
  const Shape s;
  CountingModel model;
  const detail::PredictionGame game(model, {s.rows, 1}, {s.background, 100}, s.players,
                                    ShapOutputScale::kPrediction);
  ASSERT_GT(game.block_hint().batch_coalitions, 60u);
  const ShapleyValues batched = SolveWith(GetParam(), game, 1);
  const std::uint64_t calls = model.calls.load();
  EXPECT_EQ(model.rows.load(), batched.n_evaluations * 100);
  EXPECT_LE(calls * 60, batched.n_evaluations)
      << calls << " calls for " << batched.n_evaluations << " coalitions";

  model.calls = 0;
  const ShapleyValues plain = SolveWith(GetParam(), OneByOne(game), 1);
  EXPECT_EQ(model.calls.load(), plain.n_evaluations);  // one call a coalition
  ExpectBitwise(batched, plain, "batched vs one by one");
  ExpectBitwise(batched, SolveWith(GetParam(), game, 2), "1 vs 2 threads");
  ExpectBitwise(batched, SolveWith(GetParam(), game, 3), "1 vs 3 threads");
}

TEST_P(BatchedCalls, ManyExplainedRowsStillBitwiseTheOneByOneValues) {
  // 90 explained rows and 60 background rows: 68 rows a block, so batches of a few coalitions
  // in several row blocks, the last one short.
  Shape s;
  s.rows = Gaussian(kFeatures * 90, 3);
  s.background = Gaussian(kFeatures * 60, 4);
  CountingModel model;
  const detail::PredictionGame game(model, {s.rows, 90}, {s.background, 60}, s.players,
                                    ShapOutputScale::kPrediction);
  const ShapleyValues batched = SolveWith(GetParam(), game, 2);
  const std::uint64_t calls = model.calls.load();
  model.calls = 0;
  const ShapleyValues plain = SolveWith(GetParam(), OneByOne(game), 2);
  EXPECT_LT(calls * 4, model.calls.load());
  ExpectBitwise(batched, plain, "batched vs one by one");
}

INSTANTIATE_TEST_SUITE_P(Solvers, BatchedCalls, ::testing::Values("permutation", "kernel"));

TEST(BatchedCalls, EvaluateManyIsEvaluateOneByOne) {
  const Shape s;
  CountingModel model;
  const detail::PredictionGame game(model, {s.rows, 1}, {s.background, 100}, s.players,
                                    ShapOutputScale::kPrediction);
  auto worker = game.MakeWorker();
  std::vector<std::uint64_t> words = {0, 1, 0x2AAAAAAAu, (std::uint64_t{1} << kFeatures) - 1, 0x15555555u};
  std::vector<double> many(words.size());
  worker->EvaluateMany(words, 1, many);
  EXPECT_EQ(model.calls.load(), 1u);
  for (std::size_t c = 0; c < words.size(); ++c) {
    std::vector<double> one(1);
    worker->Evaluate(words[c], one);
    EXPECT_EQ(many[c], one[0]) << "coalition " << c;
  }
}

}  // namespace
}  // namespace v0
}  // namespace perfshap
