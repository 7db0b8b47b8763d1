// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// A host's own Solver object through robustness, XPER and SHAP (issue 21, item 2): the methods
// take a solver object as well as a name, run it on their games and report it in one
// SolveReport; the exact limit and the keep-samples rule are applied in one place.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/xper.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 {
namespace {

// The toy solver a host might write: Shapley values by enumerating every permutation of the
// players (the definition, not the exact solver's subset sums), one game after another. With
// `sampled` it claims a sampling error (a standard error of 1e-3 on every value) and a
// tolerance stop, as a sampled solver of the host's would.
class ToySolver final : public Solver {
 public:
  explicit ToySolver(bool sampled = false) : sampled_(sampled) {}
  const std::string& name() const noexcept override { return name_; }
  bool Exact(int /*n_players*/) const noexcept override { return !sampled_; }
  using Solver::SolveBatch;
  void SolveBatch(std::span<const Game* const> games, const GameSink& sink) const override {
    for (std::size_t g = 0; g < games.size(); ++g) {
      const Game& game = *games[g];
      game.Prepare();
      ShapleyValues v;
      v.players = game.player_names();
      v.n_players = game.n_players();
      v.n_outputs = game.n_outputs();
      v.phi = testing::BruteForcePermutationShapley(game);
      v.base = EvaluateCoalition(game, 0);
      v.full = EvaluateCoalition(game, (Coalition{1} << game.n_players()) - 1);
      v.n_evaluations = Coalition{1} << game.n_players();
      v.solver = name_;
      if (sampled_) {
        v.phi_se.assign(v.phi.size(), 1e-3);
        v.stopped_by = StopReason::kTolerance;
        v.convergence_ratio = 0.004;
      }
      games_solved.fetch_add(1);
      sink(g, std::move(v));
    }
  }
  mutable std::atomic<int> games_solved{0};

 private:
  bool sampled_;
  std::string name_ = "toy";
};

Dataset Probit(std::size_t rows) {
  ProbitDesign design;
  design.n_rows = rows;
  return GenerateProbitDesign(design);
}

TEST(SolverObjects, RobustnessRunsAHostSolverOnEverySplit) {
  const Dataset data = Probit(240);
  const SplitPlan plan = MonteCarloSplits(data.n_rows(), 3, 0.3, 11, data.label());
  RobustnessOptions named;
  named.solver = "exact";
  const RobustnessResult exact = ExplainRobustness(data, plan, named);

  const auto toy = std::make_shared<ToySolver>();
  RobustnessOptions given;
  given.solver = toy;
  const RobustnessResult r = ExplainRobustness(data, plan, given);
  EXPECT_EQ(toy->games_solved.load(), 3);
  EXPECT_EQ(r.solve.solver, "toy");
  EXPECT_FALSE(r.solve.sampled);
  EXPECT_EQ(r.solve.stopped_by, StopReason::kExact);
  EXPECT_EQ(r.solve.n_evaluations, 3U * 8U);
  ASSERT_EQ(r.phi_auc_mean.size(), exact.phi_auc_mean.size());
  for (std::size_t j = 0; j < r.phi_auc_mean.size(); ++j) {
    EXPECT_NEAR(r.phi_auc_mean[j], exact.phi_auc_mean[j], 1e-12) << j;
    EXPECT_NEAR(r.phi_auprc_mean[j], exact.phi_auprc_mean[j], 1e-12) << j;
  }
  EXPECT_EQ(exact.solve.solver, "exact");
  EXPECT_EQ(exact.solve.n_evaluations, 3U * 8U);
}

TEST(SolverObjects, XperRunsAHostSolverAndReportsItsSamplingError) {
  const Dataset sample = Probit(120);
  const auto probit = MakeGlm(Link::kProbit, {0.05, 0.5, 0.5, 0.0}, true);
  XperOptions named;
  named.solver = "exact";
  const XperResult exact = ExplainXper(*probit, sample, named);
  EXPECT_EQ(exact.solve.solver, "exact");
  EXPECT_EQ(exact.solve.n_evaluations, 8U);

  XperOptions given;
  given.solver = std::make_shared<ToySolver>();
  const XperResult r = ExplainXper(*probit, sample, given);
  EXPECT_EQ(r.solve.solver, "toy");
  EXPECT_FALSE(r.solve.sampled);
  EXPECT_TRUE(r.phi_se.empty());
  for (std::size_t j = 0; j < 3; ++j) EXPECT_NEAR(r.phi[j], exact.phi[j], 1e-12) << j;
  for (std::size_t t = 0; t < r.individual_phi.size(); ++t)
    ASSERT_NEAR(r.individual_phi[t], exact.individual_phi[t], 1e-12) << t;

  // A sampled host solver: its standard errors and its stop reach the result.
  given.solver = std::make_shared<ToySolver>(/*sampled=*/true);
  const XperResult s = ExplainXper(*probit, sample, given);
  EXPECT_TRUE(s.solve.sampled);
  EXPECT_EQ(s.solve.stopped_by, StopReason::kTolerance);
  EXPECT_DOUBLE_EQ(s.solve.convergence_ratio, 0.004);
  ASSERT_EQ(s.phi_se.size(), 3U);
  EXPECT_EQ(s.phi_se[0], 1e-3);
}

TEST(SolverObjects, ShapRunsAHostSolver) {
  const auto logit = MakeGlm(Link::kLogit, {0.1, 0.8, -0.4, 0.3}, true);
  const std::vector<double> rows{0.5, -1.0, 0.2, 1.5, 0.0, -0.3};   // 2 rows x 3 features, by column
  const std::vector<double> background{0.0, 1.0, -0.5, 0.5, 0.3, -0.2, 0.1, 0.9, -1.0};  // 3 rows
  ShapOptions named;
  named.solver = "exact";
  const ShapExplanation exact = ExplainInterventional(*logit, {rows, 2}, {background, 3}, {}, {}, named);
  ShapOptions given;
  given.solver = std::make_shared<ToySolver>();
  const ShapExplanation e = ExplainInterventional(*logit, {rows, 2}, {background, 3}, {}, {}, given);
  EXPECT_EQ(e.solve.solver, "toy");
  EXPECT_EQ(exact.solve.solver, "exact");
  ASSERT_EQ(e.phi.size(), exact.phi.size());
  for (std::size_t t = 0; t < e.phi.size(); ++t) EXPECT_NEAR(e.phi[t], exact.phi[t], 1e-12) << t;
  for (std::size_t r = 0; r < 2; ++r) EXPECT_NEAR(e.base[r], exact.base[r], 1e-15);
}

TEST(SolverObjects, OneRuleForTheExactLimitAndKeptSamples) {
  const Dataset sample = Probit(60);
  const auto probit = MakeGlm(Link::kProbit, {0.05, 0.5, 0.5, 0.0}, true);
  // The named exact solver is refused past the method's limit; a host's object is its own to
  // size and runs.
  XperOptions limited;
  limited.solver = "exact";
  limited.max_features = 2;
  EXPECT_THROW(ExplainXper(*probit, sample, limited), InvalidArgument);
  limited.solver = std::make_shared<ToySolver>();
  EXPECT_NO_THROW(ExplainXper(*probit, sample, limited));
  // Keeping samples needs a sampled solver: refused for the exact name, for "auto" where it
  // enumerates, and for an exact object, in every method.
  for (const SolverSpec& spec : {SolverSpec("exact"), SolverSpec("auto"),
                                 SolverSpec(std::make_shared<ToySolver>())}) {
    SCOPED_TRACE(spec.name());
    XperOptions x;
    x.solver = spec;
    x.sampling.keep_samples = true;
    EXPECT_THROW(ExplainXper(*probit, sample, x), InvalidArgument);
    RobustnessOptions r;
    r.solver = spec;
    r.sampling.keep_samples = true;
    EXPECT_THROW(ExplainRobustness(sample, MonteCarloSplits(sample.n_rows(), 1, 0.3, 1, sample.label()), r),
                 InvalidArgument);
  }
  // Coalition values are the named exact solver's alone.
  XperOptions store;
  store.store_coalition_values = true;
  store.solver = std::make_shared<ToySolver>();
  EXPECT_THROW(ExplainXper(*probit, sample, store), InvalidArgument);
  store.solver = "exact";
  EXPECT_EQ(ExplainXper(*probit, sample, store).coalition_values.size(), 8U * (sample.n_rows() + 1));
  // Every method clamps its own limit to the one stated limit.
  XperOptions wide;
  wide.max_features = 60;
  ProbitDesign design;
  design.n_rows = 20;
  design.variances.assign(kExactPlayerLimit + 1, 1.0);
  design.beta.assign(kExactPlayerLimit + 2, 0.1);
  const Dataset many = GenerateProbitDesign(design);
  std::vector<double> coef(kExactPlayerLimit + 2, 0.1);
  const auto glm = MakeGlm(Link::kProbit, coef, true);
  try {
    ExplainXper(*glm, many, wide);
    ADD_FAILURE() << "expected the exact limit";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("limit of " + std::to_string(kExactPlayerLimit)), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(SolverSpec(std::shared_ptr<const Solver>()), InvalidArgument);
}

TEST(SolverObjects, StopReasonsHaveTheirResultJsonNames) {
  EXPECT_STREQ(StopReasonName(StopReason::kExact), "exact");
  EXPECT_STREQ(StopReasonName(StopReason::kTolerance), "tolerance");
  EXPECT_STREQ(StopReasonName(StopReason::kBudget), "budget");
  EXPECT_STREQ(StopReasonName(StopReason::kTime), "time");
  EXPECT_TRUE(ExactSolver().Exact(5));
  EXPECT_FALSE(MakeSolver("kernel")->Exact(5));
  EXPECT_TRUE(MakeSolver("auto")->Exact(5));
  EXPECT_FALSE(MakeSolver("auto")->Exact(40));
}

}  // namespace
}}  // namespace perfshap

namespace perfshap { inline namespace v0 {
namespace {

// A host's own fitted model (any Predict): here P(y=1) = logistic(0.8 x1 - 0.5 x2 + 0.3 x1 x3),
// which no built-in model is, through XPER and interventional SHAP.
class HostModel final : public Model {
 public:
  std::size_t n_features() const override { return 3; }
  bool is_classifier() const override { return true; }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    for (std::size_t r = 0; r < n; ++r) {
      const double z = 0.8 * x[r] - 0.5 * x[n + r] + 0.3 * x[r] * x[2 * n + r];
      out[r] = 1.0 / (1.0 + std::exp(-z));
    }
  }
  std::string Describe() const override { return "a host's interaction model"; }
};

TEST(HostObjects, AHostsModelRunsThroughXperAndShap) {
  const HostModel model;
  const Dataset sample = Probit(80);
  XperOptions xo;
  xo.metric = "brier";
  const XperResult x = ExplainXper(model, sample, xo);
  double sum = x.base;
  for (double v : x.phi) sum += v;
  EXPECT_NEAR(sum, x.value, 1e-12);  // efficiency
  // The model's Brier score computed here: the decomposed value is minus it.
  std::vector<double> p(sample.n_rows()), cols;
  for (std::size_t j = 0; j < 3; ++j) cols.insert(cols.end(), sample.column(j).begin(), sample.column(j).end());
  model.Predict(cols, sample.n_rows(), p);
  double brier = 0.0;
  for (std::size_t r = 0; r < sample.n_rows(); ++r) brier += (p[r] - sample.label()[r]) * (p[r] - sample.label()[r]);
  EXPECT_NEAR(x.value, -brier / static_cast<double>(sample.n_rows()), 1e-12);

  const std::vector<double> rows{0.5, -1.0, 1.5, 0.2, 0.3, -0.7};   // 2 rows, by column
  const std::vector<double> background{0.0, 1.0, -1.0, 0.5, 0.2, -0.4, 1.0, 0.1, 0.6};  // 3 rows
  ShapOptions so;
  so.solver = "exact";
  const ShapExplanation e = ExplainInterventional(model, {rows, 2}, {background, 3}, {}, {}, so);
  std::vector<double> pr(2);
  model.Predict(rows, 2, pr);
  for (std::size_t r = 0; r < 2; ++r) {
    double s = e.base[r];
    for (std::size_t j = 0; j < 3; ++j) s += e(r, 0, j);
    EXPECT_NEAR(s, pr[r], 1e-12);
  }
  EXPECT_EQ(e.outputs, std::vector<std::string>{"P(y=1)"});
}

}  // namespace
}}  // namespace perfshap
