// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The kernel solver past 128 players leaves its normal matrix implicit (products with vectors,
// conjugate gradients preconditioned by the matrix's expectation): the same least squares of the
// same samples as the formed matrix and its LDLT, in O(players) work a sample.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "perfshap/blocks/solver.hpp"
#include "solvers/sampling.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 {
namespace {

/** v(S) = sum_{i in S} a_i + sum over terms T held by S of d_T (pairs and triples): phi_i = a_i
 *  plus each term's d shared by its players. Any number of players (wide coalitions). */
class TermGame final : public Game {
 public:
  TermGame(int n, unsigned seed) : n_(n), a_(static_cast<std::size_t>(n)) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> normal;
    for (double& a : a_) a = 0.3 * normal(rng);
    for (int i = 0; i + 2 < n; i += 5) terms_.push_back({{i, i + 1}, normal(rng)});
    for (int i = 2; i + 4 < n; i += 7) terms_.push_back({{i, i + 3, i + 4}, 2.0 * normal(rng)});
  }
  int n_players() const override { return n_; }
  std::size_t n_outputs() const override { return 1; }
  std::unique_ptr<GameWorker> MakeWorker() const override { return std::make_unique<Worker>(*this); }
  std::vector<double> Shapley() const {
    std::vector<double> phi = a_;
    for (const Term& t : terms_)
      for (int i : t.players) phi[static_cast<std::size_t>(i)] += t.d / static_cast<double>(t.players.size());
    return phi;
  }

 private:
  struct Term {
    std::vector<int> players;
    double d;
  };
  class Worker final : public GameWorker {
   public:
    explicit Worker(const TermGame& g) : g_(g) {}
    void Evaluate(Coalition s, std::span<double> out) override {
      const std::uint64_t words[1] = {s};
      EvaluateWide(WideCoalition{words}, out);
    }
    void EvaluateWide(WideCoalition s, std::span<double> out) override {
      double v = 0.0;
      for (int i = 0; i < g_.n_; ++i)
        if (s.contains(i)) v += g_.a_[static_cast<std::size_t>(i)];
      for (const Term& t : g_.terms_) {
        bool all = true;
        for (int i : t.players) all = all && s.contains(i);
        if (all) v += t.d;
      }
      out[0] = v;
    }

   private:
    const TermGame& g_;
  };
  int n_;
  std::vector<double> a_;
  std::vector<Term> terms_;
};

TEST(KernelImplicitNormal, SameEstimateAndErrorsAsTheFormedMatrix) {
  // 40 players, the same draws: the formed normal matrix and its LDLT against the implicit one.
  // A budget whose cycles make at most 8 batches, as many as the implicit path takes.
  const TermGame game(40, 3);
  SolverOptions o;
  o.seed = 5;
  o.budget = 2000;
  o.tolerance = 1e-6;
  o.control_variate = false;
  const ShapleyValues formed = detail::MakeKernelSolverWithImplicitNormal(o, 1000)->Solve(game);
  const ShapleyValues implicit = detail::MakeKernelSolverWithImplicitNormal(o, 10)->Solve(game);
  ASSERT_EQ(formed.n_evaluations, implicit.n_evaluations);
  double scale = 0.0;
  for (const double v : formed.phi) scale = std::max(scale, std::fabs(v));
  for (std::size_t i = 0; i < formed.phi.size(); ++i) {
    EXPECT_NEAR(implicit.phi[i], formed.phi[i], 1e-9 * scale) << "player " << i;
    EXPECT_NEAR(implicit.phi_se[i], formed.phi_se[i], 1e-9 * scale + 1e-9 * formed.phi_se[i])
        << "player " << i;
  }
}

TEST(KernelImplicitNormal, ThreeHundredPlayersToTheTolerance) {
  const TermGame game(300, 7);
  const std::vector<double> truth = game.Shapley();
  SolverOptions o;
  o.seed = 2;
  o.tolerance = 0.02;
  o.budget = 400000;
  const ShapleyValues got = MakeSolver("kernel", o)->Solve(game);
  EXPECT_TRUE(got.converged) << got.n_evaluations << " evaluations";
  // Efficiency holds exactly; the values within 4 standard errors of the truth, nearly all.
  double sum = 0.0;
  std::size_t within = 0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    sum += got.phi[i];
    within += std::fabs(got.phi[i] - truth[i]) <= 4.0 * got.phi_se[i] ? 1 : 0;
  }
  EXPECT_NEAR(sum, got.full[0] - got.base[0], 1e-9);
  EXPECT_GE(within, truth.size() - 3);
}

}  // namespace
}}  // namespace perfshap
