// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The regression value function (games/regression_value_game.hpp): with the linear learner and a
// linear model it is the plug-in Gaussian conditional mean, so its SHAP and SAGE values equal the
// gaussian value function's exact path; efficiency, symmetry and the null player on designed
// backgrounds; a forest's values at any thread count; the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "games/regression_value_game.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/error.hpp"
#include "perfshap/sage.hpp"
#include "perfshap/shap.hpp"
#include "support/correlated_rows.hpp"
#include "support/expect_error.hpp"
#include "support/shapley_properties.hpp"

namespace perfshap {
inline namespace v0 {
namespace {

std::vector<double> Ar1Rows(std::size_t n, std::size_t F, double rho, std::uint64_t seed) {
  return testing::Ar1Rows(n, F, rho, seed, 11);
}

std::vector<Player> OnePerFeature(std::size_t F) {
  std::vector<Player> players;
  for (std::size_t j = 0; j < F; ++j)
    players.push_back({std::string("x").append(std::to_string(j)), {j}, {}});
  return players;
}

TEST(RegressionValues, LinearLearnerOnALinearModelIsTheExactGaussianPath) {
  const std::size_t F = 5, nb = 400, nx = 6;
  const std::vector<double> bg = Ar1Rows(nb, F, 0.7, 3), rows = Ar1Rows(nx, F, 0.7, 4);
  const std::unique_ptr<Model> model = MakeGlm(Link::kIdentity, {0.3, 1.0, -2.0, 0.5, 3.0, 1.5}, false);
  ShapOptions o;
  o.solver = "exact";
  o.conditional = ShapConditional::kGaussian;
  const ShapExplanation g = ExplainInterventional(*model, {rows, nx}, {bg, nb}, {}, {}, o);
  ASSERT_TRUE(g.conditional_exact);
  o.conditional = ShapConditional::kRegression;
  const ShapExplanation r = ExplainInterventional(*model, {rows, nx}, {bg, nb}, {}, {}, o);
  EXPECT_EQ(r.conditional, ShapConditional::kRegression);
  EXPECT_STREQ(ShapConditionalName(r.conditional), "regression");
  EXPECT_EQ(r.regression_model, "linear");
  ASSERT_EQ(r.phi.size(), g.phi.size());
  for (std::size_t t = 0; t < g.phi.size(); ++t) EXPECT_NEAR(r.phi[t], g.phi[t], 1e-9) << t;
  for (std::size_t i = 0; i < nx; ++i) EXPECT_NEAR(r.base[i], g.base[i], 1e-9) << i;
  // SAGE of the same model's squared error: the same coalition values, so the same SAGE.
  std::vector<double> y(nx);
  for (std::size_t i = 0; i < nx; ++i) y[i] = g.prediction[i] + (i % 2 == 0 ? 0.5 : -0.25);
  SageOptions s;
  s.metric = "mse";
  s.solver = "exact";
  s.conditional = ShapConditional::kGaussian;
  const SageValues sg = ExplainSage(*model, {rows, nx}, y, {bg, nb}, {}, {}, s);
  s.conditional = ShapConditional::kRegression;
  const SageValues sr = ExplainSage(*model, {rows, nx}, y, {bg, nb}, {}, {}, s);
  EXPECT_EQ(sr.regression_model, "linear");
  for (std::size_t j = 0; j < F; ++j) EXPECT_NEAR(sr.phi[j], sg.phi[j], 1e-9) << j;
}

TEST(RegressionValues, EfficiencySymmetryAndNullPlayerOnDesignedBackgrounds) {
  const std::size_t F = 3, half = 150, nb = 2 * half, nx = 2;
  const std::vector<double> base = Ar1Rows(half, F, 0.5, 7);
  const std::shared_ptr<const Learner> linear = detail::RegressionLearner("linear");
  // Symmetry: every row with features 0 and 1 swapped beside it, the model symmetric in them,
  // an explained row with x0 = x1.
  std::vector<double> bg(nb * F), rows = {0.4, -1.0, 0.4, -1.0, 2.0, 0.1};
  for (std::size_t r = 0; r < half; ++r) {
    const double a = base[r], b = base[half + r], c = base[2 * half + r];
    for (std::size_t j = 0; j < F; ++j) {
      bg[j * nb + 2 * r] = j == 0 ? a : j == 1 ? b : c;
      bg[j * nb + 2 * r + 1] = j == 0 ? b : j == 1 ? a : c;
    }
  }
  const std::unique_ptr<Model> symmetric = MakeGlm(Link::kIdentity, {0.5, 1.0, 1.0, -0.7}, false);
  const detail::RegressionValueGame twins(*symmetric, {rows, nx}, {bg, nb}, OnePerFeature(F),
                                          ShapOutputScale::kPrediction, *linear);
  const ShapleyValues v = ExactSolver().Solve(twins);
  EXPECT_TRUE(testing::CheckEfficiency(twins, v, 1e-12));
  EXPECT_TRUE(testing::CheckSymmetry(twins, v, 0, 1, 1e-10, 1e-10));
  // Null player: feature 2 takes +c and -c on rows otherwise equal, so it is centred and
  // orthogonal to the others and to a model that does not use it: its least-squares
  // coefficient is 0 in every coalition.
  for (std::size_t r = 0; r < half; ++r)
    for (std::size_t j = 0; j < F; ++j) {
      bg[j * nb + 2 * r] = base[j * half + r];
      bg[j * nb + 2 * r + 1] = j == 2 ? -base[j * half + r] : base[j * half + r];
    }
  const std::unique_ptr<Model> without = MakeGlm(Link::kIdentity, {0.5, 1.0, -2.0, 0.0}, false);
  const detail::RegressionValueGame null(*without, {rows, nx}, {bg, nb}, OnePerFeature(F),
                                         ShapOutputScale::kPrediction, *linear);
  const ShapleyValues w = ExactSolver().Solve(null);
  EXPECT_TRUE(testing::CheckEfficiency(null, w, 1e-12));
  EXPECT_TRUE(testing::CheckNullPlayer(null, w, 2, 1e-10, 1e-10));
}

TEST(RegressionValues, ForestValuesAddUpAndAreTheSameOnAnyThreadCount) {
  const std::size_t F = 4, nb = 300, nx = 3;
  const std::vector<double> bg = Ar1Rows(nb, F, 0.6, 9), rows = Ar1Rows(nx, F, 0.6, 10);
  const std::unique_ptr<Model> model = MakeGlm(Link::kLogit, {0.1, 1.0, -1.0, 0.5, 0.0}, true);
  ShapOptions o;
  o.solver = "exact";
  o.conditional = ShapConditional::kRegression;
  o.regression_model = "forest";
  std::vector<double> first;
  for (const int threads : {1, 2}) {
    o.solver_options.execution.threads = threads;
    const ShapExplanation e = ExplainInterventional(*model, {rows, nx}, {bg, nb}, {}, {}, o);
    EXPECT_EQ(e.regression_model, "forest");
    for (std::size_t i = 0; i < nx; ++i) {
      double sum = e.base[i];
      for (std::size_t j = 0; j < F; ++j) sum += e(i, 0, j);
      EXPECT_NEAR(sum, e.prediction[i], 1e-12);
    }
    if (first.empty()) first = e.phi;
    EXPECT_EQ(e.phi, first) << threads << " threads";
  }
}

TEST(RegressionValues, RefusesAClassifierAndAnUnknownRegressor) {
  const std::size_t F = 2, nb = 50, nx = 2;
  const std::vector<double> bg = Ar1Rows(nb, F, 0.3, 1), rows = Ar1Rows(nx, F, 0.3, 2);
  const std::unique_ptr<Model> model = MakeGlm(Link::kIdentity, {0.0, 1.0, 1.0}, false);
  testing::ExpectError<InvalidArgument>([] { (void)detail::RegressionLearner("logistic"); },
                                        {"regression model logistic", "linear, tree or forest"},
                                        "regression_model");
  testing::ExpectError<InvalidArgument>(
      [&] {
        const detail::RegressionValueGame game(*model, {rows, nx}, {bg, nb}, OnePerFeature(F),
                                               ShapOutputScale::kPrediction, *MakeLearner("gnb"));
      },
      {"needs a regressor"}, "regression_model");
  ShapOptions o;
  o.conditional = ShapConditional::kRegression;
  o.conditional = ShapConditional::kGaussian;
  o.regression_model = "tree";
  testing::ExpectError<InvalidArgument>(
      [&] {
        (void)ExplainInterventional(*model, {rows, nx}, {bg, nb}, {}, {}, o);
      },
      {"regression model tree", "value function is gaussian"}, "regression_model");
  SageOptions s;
  s.regression_model = "forest";
  const std::vector<double> y(nx, 0.5);
  testing::ExpectError<InvalidArgument>(
      [&] {
        (void)ExplainSage(*model, {rows, nx}, y, {bg, nb}, {}, {}, s);
      },
      {"regression model forest"}, "conditional");
  o.conditional = ShapConditional::kRegression;
  o.regression_model = "linear";
  const std::vector<double> one_row(F, 0.5);
  testing::ExpectError<InvalidArgument>(
      [&] {
        (void)ExplainInterventional(*model, {rows, nx}, {one_row, 1}, {}, {}, o);
      },
      {"at least 2 background rows"}, "background");
}

}  // namespace
}  // namespace v0
}  // namespace perfshap
