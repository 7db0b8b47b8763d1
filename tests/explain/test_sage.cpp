// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// SAGE (perfshap/sage.hpp, games/sage_game.hpp): the values against a brute force written here
// (every coalition's imputed predictions by direct model calls, the metric by its function, the
// Shapley formula), the Shapley axioms on the game, the exact gaussian path against the linear
// model's closed form, the draws' jackknife standard error, threads, and bad input.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "games/prediction_game.hpp"
#include "games/sage_game.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/error.hpp"
#include "perfshap/sage.hpp"
#include "support/expect_error.hpp"
#include "support/shapley_properties.hpp"

namespace perfshap {
inline namespace v0 {
namespace {

// P(y = 1) = sigmoid(x0 x1 + x2 - 0.3): not additive, so the prediction game builds hybrids.
class ProductModel final : public Model {
 public:
  std::size_t n_features() const override { return 3; }
  bool is_classifier() const override { return true; }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    for (std::size_t r = 0; r < n; ++r)
      out[r] = 1.0 / (1.0 + std::exp(-(x[r] * x[n + r] + x[2 * n + r] - 0.3)));
  }
  std::string Describe() const override { return "product model"; }
};

// Two outputs: SAGE refuses it.
class TwoOutputs final : public Model {
 public:
  std::size_t n_features() const override { return 2; }
  std::size_t n_outputs() const override { return 2; }
  bool is_classifier() const override { return true; }
  void Predict(std::span<const double>, std::size_t n, std::span<double> out) const override {
    for (std::size_t i = 0; i < 2 * n; ++i) out[i] = 0.5;
  }
  std::string Describe() const override { return "two outputs"; }
};

struct Sample {
  std::vector<double> x;  // column-major
  std::vector<double> y;
  std::size_t n = 0;
};

// n rows of F correlated normal features (x_j = 0.6 x_{j-1} + 0.8 e), labels drawn from `model`.
Sample Draw(const Model& model, std::size_t n, std::uint64_t seed, bool binary) {
  const std::size_t F = model.n_features();
  RandomStream rng(seed, 3);
  Sample s;
  s.n = n;
  s.x.resize(n * F);
  for (std::size_t r = 0; r < n; ++r) {
    double prev = 0.0;
    for (std::size_t j = 0; j < F; ++j)
      s.x[j * n + r] = prev = (j == 0 ? 0.0 : 0.6 * prev) + 0.8 * rng.Normal();
  }
  std::vector<double> p(n);
  model.Predict(s.x, n, p);
  for (std::size_t r = 0; r < n; ++r)
    s.y.push_back(binary ? (rng.Uniform() < p[r] ? 1.0 : 0.0) : p[r] + rng.Normal());
  return s;
}

// The brute force: v(S) = signed metric of each row's mean prediction over the background rows
// with the features off S taken from them, every coalition, then the Shapley formula.
std::vector<double> BruteForceSage(const Model& model, const Sample& rows, const Sample& bg,
                                   const std::function<double(std::span<const double>)>& signed_metric) {
  const std::size_t F = model.n_features();
  const std::size_t n = rows.n, B = bg.n;
  std::vector<double> v(std::size_t{1} << F);
  std::vector<double> hybrid(F), pred(1), mean(n);
  for (std::size_t S = 0; S < v.size(); ++S) {
    for (std::size_t r = 0; r < n; ++r) {
      double sum = 0.0;
      for (std::size_t b = 0; b < B; ++b) {
        for (std::size_t j = 0; j < F; ++j) hybrid[j] = (S >> j) & 1 ? rows.x[j * n + r] : bg.x[j * B + b];
        model.Predict(hybrid, 1, pred);
        sum += pred[0];
      }
      mean[r] = sum / static_cast<double>(B);
    }
    v[S] = signed_metric(mean);
  }
  std::vector<double> phi(F, 0.0);
  std::vector<double> fact(F + 1, 1.0);
  for (std::size_t k = 1; k <= F; ++k) fact[k] = fact[k - 1] * static_cast<double>(k);
  for (std::size_t j = 0; j < F; ++j)
    for (std::size_t S = 0; S < v.size(); ++S) {
      if ((S >> j) & 1) continue;
      const std::size_t s = static_cast<std::size_t>(__builtin_popcountll(S));
      phi[j] += fact[s] * fact[F - s - 1] / fact[F] * (v[S | (std::size_t{1} << j)] - v[S]);
    }
  return phi;
}

SageOptions Exact(const std::string& metric) {
  SageOptions o;
  o.metric = metric;
  o.solver = "exact";
  return o;
}

TEST(Sage, EqualsTheBruteForceForEveryKindOfMetric) {
  const ProductModel model;
  const Sample rows = Draw(model, 60, 1, true), bg = Draw(model, 12, 2, true);
  const std::vector<std::pair<std::string, std::function<double(std::span<const double>)>>> metrics = {
      {"log_loss", [&](std::span<const double> p) { return -LogLoss(rows.y, p); }},
      {"auc", [&](std::span<const double> p) { return RocAuc(rows.y, p); }},
      {"brier", [&](std::span<const double> p) { return -Brier(rows.y, p); }},
      {"accuracy",
       [&](std::span<const double> p) {
         std::vector<double> yhat(p.size());
         for (std::size_t r = 0; r < p.size(); ++r) yhat[r] = p[r] > 0.5 ? 1.0 : 0.0;
         return Accuracy(rows.y, yhat);
       }},
  };
  for (const auto& [name, metric] : metrics) {
    const SageValues v = ExplainSage(model, {rows.x, rows.n}, rows.y, {bg.x, bg.n}, {}, {}, Exact(name));
    const std::vector<double> reference = BruteForceSage(model, rows, bg, metric);
    for (std::size_t j = 0; j < 3; ++j)
      EXPECT_NEAR(v.phi[j], reference[j], 1e-12) << name << " feature " << j;
    // Efficiency: the values add up to metric(all) - metric(none), signed.
    const double sign = v.loss ? -1.0 : 1.0;
    EXPECT_NEAR(v.Total(), sign * (v.metric_full - v.metric_empty), 1e-12) << name;
    EXPECT_TRUE(v.phi_se.empty()) << name;
    EXPECT_EQ(v.players, (std::vector<std::string>{"x0", "x1", "x2"}));
  }
}

TEST(Sage, RegressionMetricsOnAnAdditiveModel) {
  // A linear regression takes the prediction game's additive path: the same values as the brute
  // force, which calls the model row by row.
  const std::unique_ptr<Model> model = MakeGlm(Link::kIdentity, {0.5, 1.0, -2.0, 0.25, 0.0}, false);
  const Sample rows = Draw(*model, 50, 3, false), bg = Draw(*model, 15, 4, false);
  const SageValues mse = ExplainSage(*model, {rows.x, rows.n}, rows.y, {bg.x, bg.n}, {}, {}, Exact(""));
  EXPECT_EQ(mse.metric, "mse");  // a regressor's default
  const auto reference =
      BruteForceSage(*model, rows, bg, [&](std::span<const double> p) { return -Mse(rows.y, p); });
  for (std::size_t j = 0; j < 4; ++j) EXPECT_NEAR(mse.phi[j], reference[j], 1e-12);
  EXPECT_NEAR(mse.phi[3], 0.0, 1e-14);  // null player: its coefficient is 0
  const SageValues r2 = ExplainSage(*model, {rows.x, rows.n}, rows.y, {bg.x, bg.n}, {}, {}, Exact("r2"));
  const auto r2_ref =
      BruteForceSage(*model, rows, bg, [&](std::span<const double> p) { return R2(rows.y, p); });
  for (std::size_t j = 0; j < 4; ++j) EXPECT_NEAR(r2.phi[j], r2_ref[j], 1e-12);
}

TEST(Sage, TheGameHasTheShapleyAxioms) {
  // Features 0 and 1 interchangeable (equal coefficients, equal columns), feature 2 null.
  const std::unique_ptr<Model> model = MakeGlm(Link::kLogit, {-0.2, 0.7, 0.7, 0.0}, true);
  Sample rows = Draw(*model, 40, 5, true), bg = Draw(*model, 10, 6, true);
  for (std::size_t r = 0; r < rows.n; ++r) rows.x[rows.n + r] = rows.x[r];
  for (std::size_t r = 0; r < bg.n; ++r) bg.x[bg.n + r] = bg.x[r];
  const std::vector<Player> players = {{"a", {0}, {"a"}}, {"b", {1}, {"b"}}, {"c", {2}, {"c"}}};
  const detail::PredictionGame predictions(*model, {rows.x, rows.n}, {bg.x, bg.n}, players,
                                           ShapOutputScale::kPrediction);
  const detail::SageGame game(predictions, rows.y, FindMetric("log_loss"), 0.5, 1);
  const ShapleyValues values = MakeSolver("exact")->Solve(game);
  EXPECT_TRUE(testing::CheckEfficiency(game, values, 1e-12));
  EXPECT_TRUE(testing::CheckSymmetry(game, values, 0, 1, 1e-12));
  EXPECT_TRUE(testing::CheckNullPlayer(game, values, 2, 1e-12));
}

TEST(Sage, ExactGaussianPathEqualsTheClosedForm) {
  // A linear regression under the gaussian value function: v(S) = -MSE(y, f(x_S, E[X_O | x_S]))
  // with the background's mean and covariance, no draws.
  const std::vector<double> coef = {0.1, 1.0, -0.5, 0.8};
  const std::unique_ptr<Model> model = MakeGlm(Link::kIdentity, coef, false);
  const Sample rows = Draw(*model, 30, 7, false), bg = Draw(*model, 200, 8, false);
  SageOptions options = Exact("mse");
  options.conditional = ShapConditional::kGaussian;
  const SageValues v = ExplainSage(*model, {rows.x, rows.n}, rows.y, {bg.x, bg.n}, {}, {}, options);
  EXPECT_TRUE(v.conditional_exact);
  const std::size_t F = 3, n = rows.n, B = bg.n;
  Eigen::MatrixXd X(B, F);
  for (std::size_t j = 0; j < F; ++j)
    for (std::size_t b = 0; b < B; ++b) X(b, j) = bg.x[j * B + b];
  const Eigen::VectorXd mu = X.colwise().mean();
  const Eigen::MatrixXd C = X.rowwise() - mu.transpose();
  const Eigen::MatrixXd sigma = C.transpose() * C / static_cast<double>(B - 1);
  std::vector<double> value(8);
  for (std::size_t S = 0; S < 8; ++S) {
    std::vector<int> in, out;
    for (int j = 0; j < 3; ++j) ((S >> j) & 1 ? in : out).push_back(j);
    std::vector<double> pred(n);
    for (std::size_t r = 0; r < n; ++r) {
      Eigen::VectorXd x(F);
      for (std::size_t j = 0; j < F; ++j) x(j) = rows.x[j * n + r];
      Eigen::VectorXd z = x;
      if (!out.empty()) {
        Eigen::VectorXd m = mu(out);
        if (!in.empty()) m += sigma(out, in) * sigma(in, in).ldlt().solve(x(in) - mu(in));
        z(out) = m;
      }
      pred[r] = coef[0] + coef[1] * z(0) + coef[2] * z(1) + coef[3] * z(2);
    }
    value[S] = -Mse(rows.y, pred);
  }
  const double w[3] = {1.0 / 3.0, 1.0 / 6.0, 1.0 / 3.0};  // |S| = 0, 1, 2 of 3 players
  for (int j = 0; j < 3; ++j) {
    double phi = 0.0;
    for (std::size_t S = 0; S < 8; ++S)
      if (!((S >> j) & 1)) phi += w[__builtin_popcountll(S)] * (value[S | (std::size_t{1} << j)] - value[S]);
    EXPECT_NEAR(v.phi[j], phi, 1e-10) << j;
  }
}

TEST(Sage, ConditionalDrawsCarryTheirJackknifeError) {
  const ProductModel model;
  const Sample rows = Draw(model, 40, 9, true), bg = Draw(model, 300, 10, true);
  SageOptions options = Exact("log_loss");
  options.conditional = ShapConditional::kGaussian;
  const auto run = [&](std::size_t samples, std::uint64_t seed) {
    SageOptions o = options;
    o.conditional_samples = samples;
    o.solver_options.seed = seed;
    return ExplainSage(model, {rows.x, rows.n}, rows.y, {bg.x, bg.n}, {}, {}, o);
  };
  const SageValues few = run(100, 1), many = run(1600, 2);
  ASSERT_EQ(few.phi_se.size(), 3u);
  EXPECT_FALSE(few.conditional_exact);
  double ratio = 0.0;
  for (std::size_t j = 0; j < 3; ++j) {
    EXPECT_GT(few.phi_se[j], 0.0);
    // The two estimates agree within their combined error; the error shrinks as 1/sqrt(samples).
    EXPECT_LT(std::fabs(few.phi[j] - many.phi[j]), 4.0 * std::hypot(few.phi_se[j], many.phi_se[j])) << j;
    ratio += few.phi_se[j] / many.phi_se[j] / 3.0;
  }
  EXPECT_GT(ratio, 2.0);
  EXPECT_LT(ratio, 8.0);
  // Efficiency holds for the estimate too: the draws' values of every coalition add up.
  EXPECT_NEAR(few.Total(), -(few.metric_full - few.metric_empty), 1e-12);
}

TEST(Sage, SampledValuesAreTheSameOnAnyThreadCount) {
  const ProductModel model;
  const Sample rows = Draw(model, 50, 11, true), bg = Draw(model, 20, 12, true);
  SageOptions options;
  options.metric = "auc";
  options.solver = "permutation";
  options.solver_options.budget = 300;
  options.solver_options.seed = 5;
  std::vector<double> first;
  for (int threads : {1, 2, 3}) {
    options.solver_options.execution.threads = threads;
    const SageValues v = ExplainSage(model, {rows.x, rows.n}, rows.y, {bg.x, bg.n}, {}, {}, options);
    ASSERT_EQ(v.phi_se.size(), 3u);
    std::vector<double> both = v.phi;
    both.insert(both.end(), v.phi_se.begin(), v.phi_se.end());
    if (first.empty()) first = both;
    EXPECT_EQ(both, first) << threads << " threads";
  }
}

TEST(Sage, RefusesWhatItCannotDecompose) {
  const ProductModel model;
  Sample rows = Draw(model, 20, 13, true);
  const Sample bg = Draw(model, 5, 14, true);
  const ColumnMatrix x{rows.x, rows.n}, b{bg.x, bg.n};
  const TwoOutputs two;
  const std::vector<double> two_x(2 * rows.n, 0.0);
  testing::ExpectError<InvalidArgument>(
      [&] {
        ExplainSage(two, {two_x, rows.n}, rows.y, {two_x, 5}, {}, {});
      },
      {"2 outputs"}, "model_file");
  std::vector<double> short_labels(rows.y.begin(), rows.y.end() - 1);
  testing::ExpectError<InvalidArgument>([&] { ExplainSage(model, x, short_labels, b, {}, {}); },
                                        {"19 labels for 20 rows"}, "label");
  testing::ExpectError<InvalidArgument>(
      [&] { ExplainSage(model, x, rows.y, b, {}, {}, Exact("mse_of_nothing")); }, {"unknown sage metric"},
      "metric");
  const std::unique_ptr<Model> regressor = MakeGlm(Link::kIdentity, {0.0, 1.0, 1.0, 1.0}, false);
  testing::ExpectError<InvalidArgument>(
      [&] { ExplainSage(*regressor, x, rows.y, b, {}, {}, Exact("log_loss")); },
      {"reads probabilities", "prediction of row"}, "metric");
  // Its AUC is defined: the ranking of any real predictions.
  EXPECT_NO_THROW(ExplainSage(*regressor, x, rows.y, b, {}, {}, Exact("auc")));
  rows.y[7] = 2.0;
  testing::ExpectError<DataError>([&] { ExplainSage(model, x, rows.y, b, {}, {}); }, {"row 7 is 2"}, "label");
  std::vector<double> ones(rows.n, 1.0);
  testing::ExpectError<DataError>([&] { ExplainSage(model, x, ones, b, {}, {}, Exact("auc")); },
                                  {"a negative (0)"}, "metric");
  SageOptions few = Exact("log_loss");
  few.conditional = ShapConditional::kGaussian;
  few.conditional_samples = 5;
  rows.y[7] = 1.0;
  testing::ExpectError<InvalidArgument>([&] { ExplainSage(model, x, rows.y, b, {}, {}, few); },
                                        {"10 to 10,000,000"}, "conditional_samples");
}

// The refusals of too many players for exact and of too much work name SAGE, not SHAP.
TEST(Sage, RefusalsOfSizeNameTheMethod) {
  const ProductModel model;
  const Sample rows = Draw(model, 20, 15, true), bg = Draw(model, 5, 16, true);
  const ColumnMatrix x{rows.x, rows.n}, b{bg.x, bg.n};
  SageOptions narrow = Exact("log_loss");
  narrow.solver_options.max_players = 2;
  testing::ExpectError<InvalidArgument>([&] { ExplainSage(model, x, rows.y, b, {}, {}, narrow); },
                                        {"exact SAGE of 3 players"}, "solver");
  SageOptions small = Exact("log_loss");
  small.solver_options.execution.limits.max_model_evaluations = 10;
  try {
    (void)ExplainSage(model, x, rows.y, b, {}, {}, small);
    ADD_FAILURE() << "the work was not refused";
  } catch (const ResourceError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("sage: ", 0), 0U) << e.what();
    EXPECT_EQ(std::string(e.what()).find("SHAP"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace v0
}  // namespace perfshap
