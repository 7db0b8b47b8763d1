// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The gaussian conditional value function (values/gaussian_conditional.hpp) and the conditional
// prediction game (games/conditional_game.hpp) through ExplainInterventional: the draws against
// the bivariate normal's closed form, the values of a linear model against its closed form
// v(S) = f(x_S, mu_O + Sigma_OS Sigma_SS^-1 (x_S - mu_S)) enumerated over every coalition, the
// Monte Carlo standard errors' coverage, the interaction values under it (against the closed
// form's enumerated index; rows adding up to phi), threads, and bad input.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "perfshap/blocks/interactions.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/error.hpp"
#include "perfshap/shap.hpp"
#include "support/correlated_rows.hpp"
#include "values/copula_conditional.hpp"
#include "values/empirical_conditional.hpp"
#include "values/gaussian_conditional.hpp"

namespace perfshap {
inline namespace v0 {
namespace {

using testing::Ar1Rows;  // feature j's mean j / 2

TEST(GaussianConditional, DrawsFollowTheBivariateClosedForm) {
  const std::size_t n = 500;
  const std::vector<double> bg = Ar1Rows(n, 2, 0.6, 1);
  const detail::GaussianFeatures g(ColumnMatrix{bg, n}, 2);
  // The sample's moments, by scalar sums (not the class's matrix code).
  double m0 = 0.0, m1 = 0.0;
  for (std::size_t r = 0; r < n; ++r) {
    m0 += bg[r] / n;
    m1 += bg[n + r] / n;
  }
  double s00 = 0.0, s01 = 0.0, s11 = 0.0;
  for (std::size_t r = 0; r < n; ++r) {
    s00 += (bg[r] - m0) * (bg[r] - m0) / (n - 1.0);
    s01 += (bg[r] - m0) * (bg[n + r] - m1) / (n - 1.0);
    s11 += (bg[n + r] - m1) * (bg[n + r] - m1) / (n - 1.0);
  }
  EXPECT_FALSE(g.adjusted());
  const std::vector<std::uint8_t> inside = {1, 0};
  const std::vector<double> x = {1.7, -3.0};
  const std::vector<double> z = {0.3, -1.2, 5.0, 0.8};  // two draws: z_k0 unused, z_k1 the noise
  detail::GaussianConditional c(g, inside, z, 2);
  std::vector<double> draws(4);
  c.Draw(x, draws);
  const double mean = m1 + s01 / s00 * (x[0] - m0);
  const double sd = std::sqrt(s11 - s01 * s01 / s00);
  EXPECT_EQ(draws[0], 1.7);
  EXPECT_EQ(draws[1], 1.7);
  EXPECT_NEAR(draws[2], mean + sd * -1.2, 1e-12);
  EXPECT_NEAR(draws[3], mean + sd * 0.8, 1e-12);
  // Nothing on the coalition: the marginal, L z with L the covariance's Cholesky factor.
  detail::GaussianConditional none(g, std::vector<std::uint8_t>{0, 0}, z, 2);
  none.Draw(x, draws);
  const double l00 = std::sqrt(s00), l10 = s01 / l00, l11 = std::sqrt(s11 - l10 * l10);
  EXPECT_NEAR(draws[0], m0 + l00 * 0.3, 1e-12);
  EXPECT_NEAR(draws[2], m1 + l10 * 0.3 + l11 * -1.2, 1e-12);
}

TEST(GaussianConditional, SingularCovarianceIsMadePositiveDefinite) {
  // Feature 2 = feature 0 + feature 1: the sample covariance is singular.
  const std::size_t n = 50;
  std::vector<double> bg = Ar1Rows(n, 3, 0.3, 2);
  for (std::size_t r = 0; r < n; ++r) bg[2 * n + r] = bg[r] + bg[n + r];
  const detail::GaussianFeatures g(ColumnMatrix{bg, n}, 3);
  EXPECT_TRUE(g.adjusted());
  EXPECT_EQ(Eigen::LLT<Eigen::MatrixXd>(g.covariance()).info(), Eigen::Success);
  const std::vector<double> x = {0.5, 1.0, 0.0};
  const std::vector<double> z = {0.0, 0.0, 1.0};
  detail::GaussianConditional c(g, std::vector<std::uint8_t>{1, 1, 0}, z, 1);
  std::vector<double> draws(3);
  c.Draw(x, draws);
  EXPECT_NEAR(draws[2], 1.5, 1e-3);  // the sum, nearly without spread
}

// The copula's pieces: normal scores from ranks, type-7 quantiles, and a draw given one feature
// against the bivariate formula on the scores.
TEST(CopulaConditional, ScoresQuantilesAndADrawByHand) {
  const std::vector<double> bg = {1.0, 4.0, 2.0, 8.0, /* feature 1 */ 10.0, 30.0, 20.0, 40.0};
  const detail::CopulaFeatures c(ColumnMatrix{bg, 4}, 2);
  EXPECT_NEAR(c.Score(0, 2.0), -0.2533471031357997, 1e-12);  // Phi^-1(2 / 5)
  EXPECT_NEAR(c.Score(0, 3.0), 0.0, 1e-15);                  // between the 2nd and 3rd of 4
  EXPECT_NEAR(c.Score(0, 0.0), -1.2815515655446004, 1e-12);  // Phi^-1(0.5 / 5)
  EXPECT_EQ(c.Quantile(0, 0.0), 1.0);
  EXPECT_EQ(c.Quantile(0, 1.0), 8.0);
  EXPECT_DOUBLE_EQ(c.Quantile(0, 0.5), 3.0);    // halfway between 2 and 4
  EXPECT_DOUBLE_EQ(c.Quantile(1, 0.25), 17.5);  // h = 0.75: 10 + 0.75 (20 - 10)
  // Both features have the same ranks: the scores' correlation is 1 up to the floor, so the
  // draw of feature 1 given feature 0 = 2 (score Phi^-1(2/5)) is at feature 1's p = 2/5.
  const std::vector<double> x = {2.0, 0.0};
  const std::vector<double> z = {0.0, 0.0};
  const std::unique_ptr<detail::CoalitionDraws> d = c.Given(std::vector<std::uint8_t>{1, 0}, z, 1);
  std::vector<double> draws(2);
  d->Draw(x, draws);
  EXPECT_EQ(draws[0], 2.0);
  EXPECT_NEAR(draws[1], c.Quantile(1, 0.4), 1e-6);
}

// Under normal features the copula's values of a linear model are close to the gaussian
// function's (the margins are the sample's, not the fitted normal's: within 0.1 sd of phi).
TEST(CopulaConditional, CloseToTheGaussianUnderNormalFeatures) {
  const std::size_t F = 4, nb = 1000, nx = 3;
  const std::vector<double> bg = Ar1Rows(nb, F, 0.7, 8);
  const std::vector<double> rows = Ar1Rows(nx, F, 0.7, 9);
  const std::unique_ptr<Model> model = MakeGlm(Link::kIdentity, {0.0, 1.0, -1.0, 2.0, 0.5}, false);
  ShapOptions o;
  o.solver = "exact";
  o.conditional_samples = 2000;
  o.conditional = ShapConditional::kGaussian;
  const ShapExplanation g =
      ExplainInterventional(*model, ColumnMatrix{rows, nx}, ColumnMatrix{bg, nb}, {}, {}, o);
  o.conditional = ShapConditional::kCopula;
  const ShapExplanation c =
      ExplainInterventional(*model, ColumnMatrix{rows, nx}, ColumnMatrix{bg, nb}, {}, {}, o);
  EXPECT_EQ(c.conditional, ShapConditional::kCopula);
  double ss = 0.0, dd = 0.0;
  for (std::size_t t = 0; t < g.phi.size(); ++t) {
    ss += g.phi[t] * g.phi[t];
    dd += (g.phi[t] - c.phi[t]) * (g.phi[t] - c.phi[t]);
  }
  EXPECT_LT(std::sqrt(dd), 0.1 * std::sqrt(ss));
  for (std::size_t r = 0; r < nx; ++r) {
    double sum = c.base[r];
    for (std::size_t j = 0; j < F; ++j) sum += c(r, 0, j);
    EXPECT_NEAR(sum, c.prediction[r], 1e-12);
  }
}

// The empirical conditional's weights by hand: one feature on the coalition, three background
// rows at 0, 0.1 and 1 from the explained row (weights exp(-d^2 / var / (2 sigma^2)) with var the
// feature's sample variance: 1, e^-1.65 and e^-165, the last outside the top 95%), and 1,000
// stratified draws reproduce the kept weights to 1/1,000.
TEST(EmpiricalConditional, WeightsByHandAndStratifiedDraws) {
  const double m = (0.0 + 0.1 + 1.0) / 3.0;
  const double var = ((0.0 - m) * (0.0 - m) + (0.1 - m) * (0.1 - m) + (1.0 - m) * (1.0 - m)) / 2.0;
  const std::vector<double> bg = {0.0, 0.1, 1.0, 10.0, 20.0, 30.0};
  const detail::EmpiricalFeatures e(ColumnMatrix{bg, 3}, 2);
  ASSERT_NEAR(e.covariance()(0, 0), var, 1e-12);
  const std::size_t n = 1000;
  std::vector<double> z(n * 2);
  RandomStream rng(3, 1);
  for (double& v : z) v = rng.Normal();
  const std::unique_ptr<detail::CoalitionDraws> d = e.Given(std::vector<std::uint8_t>{1, 0}, z, n);
  std::vector<double> draws(n * 2);
  const std::vector<double> x = {0.0, 99.0};
  d->Draw(x, draws);
  const double w1 = std::exp(-0.01 / var / 0.02);
  ASSERT_LT(1.0, 0.95 * (1.0 + w1));         // the first row alone is short of 95%
  const double expect10 = 1.0 / (1.0 + w1);  // the third row's e^-165 is beyond the 95% share
  std::size_t count10 = 0, count20 = 0;
  for (std::size_t k = 0; k < n; ++k) {
    EXPECT_EQ(draws[k], 0.0);  // feature 0 on the coalition: the row's own value
    count10 += draws[n + k] == 10.0;
    count20 += draws[n + k] == 20.0;
  }
  EXPECT_EQ(count10 + count20, n);
  EXPECT_LE(std::abs(static_cast<double>(count10) - expect10 * n), 1.0);
  // Nothing on the coalition: every row alike, a third each to 1/1,000.
  const std::unique_ptr<detail::CoalitionDraws> none = e.Given(std::vector<std::uint8_t>{0, 0}, z, n);
  none->Draw(x, draws);
  std::size_t count30 = 0;
  for (std::size_t k = 0; k < n; ++k) count30 += draws[n + k] == 30.0;
  EXPECT_LE(std::abs(static_cast<double>(count30) - n / 3.0), 1.0);
}

// Through ExplainInterventional: efficiency, and a linear model's values near the gaussian
// function's on normal features (the kernel's bandwidth smooths: within 0.25 of |phi|).
TEST(EmpiricalConditional, ExplainsWithEfficiencyNearTheGaussian) {
  const testing::AgainstGaussian c = testing::ExplainAgainstGaussian(ShapConditional::kEmpirical);
  EXPECT_EQ(c.other.conditional, ShapConditional::kEmpirical);
  EXPECT_LT(c.relative_error, 0.25);
  EXPECT_LT(c.efficiency_gap, 1e-12);
}

// The linear model's conditional game in closed form: v(S) = f(x_S, mu_O + Sigma_OS Sigma_SS^-1
// (x_S - mu_S)) with the background's own mean and covariance (intercept 0.3).
double LinearConditionalValue(const std::vector<double>& beta, std::span<const double> x,
                              const detail::GaussianFeatures& g, unsigned mask) {
  const int F = static_cast<int>(beta.size());
  std::vector<int> in, out;
  for (int j = 0; j < F; ++j) ((mask >> j) & 1U ? in : out).push_back(j);
  Eigen::VectorXd z(F);
  for (int j = 0; j < F; ++j) z(j) = x[static_cast<std::size_t>(j)];
  if (!out.empty()) {
    Eigen::VectorXd mo = g.mean()(out);
    if (!in.empty()) {
      Eigen::VectorXd d(static_cast<Eigen::Index>(in.size()));
      for (std::size_t a = 0; a < in.size(); ++a)
        d(static_cast<Eigen::Index>(a)) = x[in[a]] - g.mean()(in[a]);
      mo += g.covariance()(out, in) * g.covariance()(in, in).ldlt().solve(d);
    }
    for (std::size_t a = 0; a < out.size(); ++a) z(out[a]) = mo(static_cast<Eigen::Index>(a));
  }
  double y = 0.3;
  for (int j = 0; j < F; ++j) y += beta[static_cast<std::size_t>(j)] * z(j);
  return y;
}

// Exact Shapley values of the linear model's conditional game, by enumeration of every
// coalition with the background's own mean and covariance.
std::vector<double> LinearConditionalShapley(const std::vector<double>& beta, std::span<const double> x,
                                             const detail::GaussianFeatures& g) {
  const int F = static_cast<int>(beta.size());
  const auto v = [&](unsigned mask) { return LinearConditionalValue(beta, x, g, mask); };
  std::vector<double> phi(static_cast<std::size_t>(F), 0.0);
  for (int i = 0; i < F; ++i)
    for (unsigned mask = 0; mask < (1U << F); ++mask) {
      if ((mask >> i) & 1U) continue;
      const int s = __builtin_popcount(mask);
      const double w = std::tgamma(s + 1.0) * std::tgamma(F - s) / std::tgamma(F + 1.0);
      phi[static_cast<std::size_t>(i)] += w * (v(mask | (1U << i)) - v(mask));
    }
  return phi;
}

// A model that predicts as `inner` but does not say it is additive: a linear one takes the
// sampled path (the draws), as a user's function does.
class Opaque final : public Model {
 public:
  explicit Opaque(std::unique_ptr<Model> inner) : inner_(std::move(inner)) {}
  std::size_t n_features() const override { return inner_->n_features(); }
  bool is_classifier() const override { return inner_->is_classifier(); }
  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    inner_->Predict(x, n_rows, out);
  }
  std::string Describe() const override { return "opaque " + inner_->Describe(); }

 private:
  std::unique_ptr<Model> inner_;
};

struct LinearCase {
  std::size_t F = 5;
  std::size_t nb = 400;
  std::size_t nx = 4;
  std::vector<double> beta = {1.0, -2.0, 0.5, 3.0, 1.5};
  std::vector<double> bg = Ar1Rows(nb, F, 0.7, 3);
  std::vector<double> rows = Ar1Rows(nx, F, 0.7, 4);
  std::unique_ptr<Model> glm = MakeGlm(Link::kIdentity, {0.3, 1.0, -2.0, 0.5, 3.0, 1.5}, false);
  std::unique_ptr<Model> model =
      std::make_unique<Opaque>(MakeGlm(Link::kIdentity, {0.3, 1.0, -2.0, 0.5, 3.0, 1.5}, false));

  ShapExplanation Explain(std::uint64_t seed, std::size_t samples, int threads = 2,
                          const char* solver = "exact") const {
    ShapOptions o;
    o.conditional = ShapConditional::kGaussian;
    o.conditional_samples = samples;
    o.solver = solver;
    o.solver_options.seed = seed;
    o.solver_options.execution.threads = threads;
    return ExplainInterventional(*model, ColumnMatrix{rows, nx}, ColumnMatrix{bg, nb}, {}, {}, o);
  }
  std::vector<double> Row(std::size_t r) const {
    std::vector<double> x(F);
    for (std::size_t j = 0; j < F; ++j) x[j] = rows[j * nx + r];
    return x;
  }
};

TEST(ConditionalShap, LinearGaussianWithinItsMonteCarloError) {
  const LinearCase c;
  const detail::GaussianFeatures g(ColumnMatrix{c.bg, c.nb}, c.F);
  const ShapExplanation e = c.Explain(11, 2000);
  EXPECT_EQ(e.conditional, ShapConditional::kGaussian);
  EXPECT_EQ(e.approach, "interventional");
  ASSERT_EQ(e.phi_se.size(), e.phi.size());
  for (std::size_t r = 0; r < c.nx; ++r) {
    const std::vector<double> x = c.Row(r);
    const std::vector<double> exact = LinearConditionalShapley(c.beta, x, g);
    double sum = e.base[r];
    for (std::size_t j = 0; j < c.F; ++j) {
      EXPECT_LE(std::abs(e(r, 0, j) - exact[j]), 4.0 * e.phi_se[r * c.F + j])
          << "row " << r << " feature " << j;
      EXPECT_GT(e.phi_se[r * c.F + j], 0.0);
      EXPECT_LT(e.phi_se[r * c.F + j], 0.1);
      sum += e(r, 0, j);
    }
    EXPECT_NEAR(sum, e.prediction[r], 1e-12);  // efficiency in every group, so in the mean
    double f = 0.3;
    for (std::size_t j = 0; j < c.F; ++j) f += c.beta[j] * x[j];
    EXPECT_NEAR(e.prediction[r], f, 1e-12);
  }
}

// A linear model under the gaussian value function takes the exact path: one draw at the
// conditional mean, the closed form's values to rounding, no Monte Carlo error.
TEST(ConditionalShap, LinearGaussianExactWithoutDraws) {
  const LinearCase c;
  const detail::GaussianFeatures g(ColumnMatrix{c.bg, c.nb}, c.F);
  ShapOptions o;
  o.conditional = ShapConditional::kGaussian;
  o.solver = "exact";
  const ShapExplanation e =
      ExplainInterventional(*c.glm, ColumnMatrix{c.rows, c.nx}, ColumnMatrix{c.bg, c.nb}, {}, {}, o);
  EXPECT_TRUE(e.conditional_exact);
  EXPECT_TRUE(e.phi_se.empty());
  for (std::size_t r = 0; r < c.nx; ++r) {
    const std::vector<double> exact = LinearConditionalShapley(c.beta, c.Row(r), g);
    for (std::size_t j = 0; j < c.F; ++j) EXPECT_NEAR(e(r, 0, j), exact[j], 1e-10) << "row " << r;
  }
  // A model that is not linear on the scale (a logistic model's probability) is sampled.
  const std::unique_ptr<Model> logistic = MakeGlm(Link::kLogit, {0.3, 1.0, -2.0, 0.5, 3.0, 1.5}, true);
  o.conditional_samples = 100;
  const ShapExplanation p =
      ExplainInterventional(*logistic, ColumnMatrix{c.rows, c.nx}, ColumnMatrix{c.bg, c.nb}, {}, {}, o);
  EXPECT_FALSE(p.conditional_exact);
  EXPECT_EQ(p.phi_se.size(), p.phi.size());
  o.output = ShapOutputScale::kMargin;  // its margin is linear
  EXPECT_TRUE(
      ExplainInterventional(*logistic, ColumnMatrix{c.rows, c.nx}, ColumnMatrix{c.bg, c.nb}, {}, {}, o)
          .conditional_exact);
}

// Interaction values under the gaussian value function of a linear model: exact (one draw at
// the conditional mean), equal to the Shapley interaction index enumerated on the closed form's
// v(S), half of it off the diagonal and phi_i less the row's others on it.
TEST(ConditionalShap, LinearGaussianInteractionsEqualTheEnumeratedIndex) {
  const LinearCase c;
  const detail::GaussianFeatures g(ColumnMatrix{c.bg, c.nb}, c.F);
  ShapOptions o;
  o.conditional = ShapConditional::kGaussian;
  o.solver = "exact";
  const InteractionValues iv =
      ExplainInterventionalInteractions(*c.glm, ColumnMatrix{c.rows, c.nx}, ColumnMatrix{c.bg, c.nb}, {}, o);
  const int F = static_cast<int>(c.F);
  for (std::size_t r = 0; r < c.nx; ++r) {
    const std::vector<double> x = c.Row(r);
    const auto v = [&](unsigned mask) { return LinearConditionalValue(c.beta, x, g, mask); };
    const std::vector<double> phi = LinearConditionalShapley(c.beta, x, g);
    double largest = 0.0;
    for (int i = 0; i < F; ++i) {
      double others = 0.0;
      for (int j = 0; j < F; ++j) {
        if (j == i) continue;
        double index = 0.0;
        for (unsigned mask = 0; mask < (1U << F); ++mask) {
          if (((mask >> i) & 1U) || ((mask >> j) & 1U)) continue;
          const int s = __builtin_popcount(mask);
          const double w = std::tgamma(s + 1.0) * std::tgamma(F - s - 1.0) / std::tgamma(F);
          const unsigned ij = mask | (1U << i) | (1U << j);
          index += w * (v(ij) - v(mask | (1U << i)) - v(mask | (1U << j)) + v(mask));
        }
        EXPECT_NEAR(iv(i, j, r), index / 2.0, 1e-10) << "row " << r << " pair " << i << "," << j;
        others += index / 2.0;
        largest = std::max(largest, std::fabs(index));
      }
      EXPECT_NEAR(iv(i, i, r), phi[static_cast<std::size_t>(i)] - others, 1e-10) << "row " << r;
    }
    EXPECT_GT(largest, 1e-3) << "the conditional game of a linear model has interactions";
  }
}

// Sampled value functions: each row of the interaction matrix adds up to the conditional
// Shapley value of the same run (the same game), with a standard error on every entry.
TEST(ConditionalShap, InteractionRowsAddUpToTheConditionalValues) {
  const LinearCase c;
  for (const ShapConditional kind :
       {ShapConditional::kGaussian, ShapConditional::kEmpirical, ShapConditional::kCtree}) {
    ShapOptions o;
    o.conditional = kind;
    o.conditional_samples = 100;
    o.solver = "exact";
    o.solver_options.seed = 5;
    const ColumnMatrix rows{c.rows, c.nx}, bg{c.bg, c.nb};
    const ShapExplanation e = ExplainInterventional(*c.model, rows, bg, {}, {}, o);
    const InteractionValues iv = ExplainInterventionalInteractions(*c.model, rows, bg, {}, o);
    ASSERT_EQ(iv.se.size(), iv.values.size());
    for (std::size_t r = 0; r < c.nx; ++r)
      for (int i = 0; i < static_cast<int>(c.F); ++i) {
        double sum = 0.0;
        for (int j = 0; j < static_cast<int>(c.F); ++j) sum += iv(i, j, r);
        EXPECT_NEAR(sum, e(r, 0, static_cast<std::size_t>(i)), 1e-10)
            << ShapConditionalName(kind) << " row " << r;
        EXPECT_GT(iv.se[(static_cast<std::size_t>(i) * c.F + (i + 1) % c.F) * c.nx + r], 0.0);
      }
  }
  ShapOptions regression;
  regression.conditional = ShapConditional::kRegression;
  EXPECT_THROW(ExplainInterventionalInteractions(*c.model, ColumnMatrix{c.rows, c.nx},
                                                 ColumnMatrix{c.bg, c.nb}, {}, regression),
               InvalidArgument);
}

// The standard error is the spread of the estimate over seeds: across 30 seeds, the values'
// standard deviation is within a factor 2 of the mean reported se, and 95% intervals cover the
// exact values in at least 85% of the 30 x 5 cases of row 0.
TEST(ConditionalShap, StandardErrorsMatchTheSpreadAcrossSeeds) {
  const LinearCase c;
  const detail::GaussianFeatures g(ColumnMatrix{c.bg, c.nb}, c.F);
  const std::vector<double> exact = LinearConditionalShapley(c.beta, c.Row(0), g);
  const int seeds = 30;
  std::vector<double> sum(c.F, 0.0), sq(c.F, 0.0), se(c.F, 0.0);
  int covered = 0;
  for (int s = 0; s < seeds; ++s) {
    const ShapExplanation e = c.Explain(100 + s, 200);
    for (std::size_t j = 0; j < c.F; ++j) {
      sum[j] += e(0, 0, j);
      sq[j] += e(0, 0, j) * e(0, 0, j);
      se[j] += e.phi_se[j] / seeds;
      covered += std::abs(e(0, 0, j) - exact[j]) <= 1.96 * e.phi_se[j];
    }
  }
  for (std::size_t j = 0; j < c.F; ++j) {
    const double mean = sum[j] / seeds;
    const double sd = std::sqrt((sq[j] - seeds * mean * mean) / (seeds - 1));
    EXPECT_GT(se[j], 0.5 * sd) << "feature " << j;
    EXPECT_LT(se[j], 2.0 * sd) << "feature " << j;
  }
  EXPECT_GE(covered, static_cast<int>(0.85 * static_cast<double>(seeds) * static_cast<double>(c.F)));
}

TEST(ConditionalShap, SameValuesAtAnyThreadCountAndSolver) {
  const LinearCase c;
  const ShapExplanation one = c.Explain(5, 100, 1);
  const ShapExplanation two = c.Explain(5, 100, 2);
  EXPECT_EQ(one.phi, two.phi);
  EXPECT_EQ(one.phi_se, two.phi_se);
  const ShapExplanation k1 = c.Explain(5, 100, 1, "kernel");
  const ShapExplanation k2 = c.Explain(5, 100, 2, "kernel");
  EXPECT_EQ(k1.phi, k2.phi);
}

TEST(ConditionalShap, BadInputIsAOneLineErrorNamingTheOption) {
  const LinearCase c;
  ShapOptions o;
  o.conditional = ShapConditional::kGaussian;
  o.conditional_samples = 5;
  try {
    (void)ExplainInterventional(*c.model, ColumnMatrix{c.rows, c.nx}, ColumnMatrix{c.bg, c.nb}, {}, {}, o);
    FAIL() << "5 draws taken";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.options(), std::vector<std::string>{"conditional_samples"});
  }
  o.conditional_samples = 100;
  const std::vector<double> one_row(c.F, 1.0);
  try {
    (void)ExplainInterventional(*c.model, ColumnMatrix{c.rows, c.nx}, ColumnMatrix{one_row, 1}, {}, {}, o);
    FAIL() << "one background row taken";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.options(), std::vector<std::string>{"background"});
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
  }
  std::vector<double> with_nan = c.bg;
  with_nan[3] = std::nan("");
  try {
    (void)ExplainInterventional(*c.model, ColumnMatrix{c.rows, c.nx}, ColumnMatrix{with_nan, c.nb}, {}, {},
                                o);
    FAIL() << "a missing background value taken";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.options(), std::vector<std::string>{"background"});
  }
}

}  // namespace
}  // namespace v0
}  // namespace perfshap
