// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// XPER under a conditional value function (issue 38): the game against its definition written
// out by brute force, efficiency, the Monte Carlo standard error against the spread across
// seeds, the marginal value function's XPER where the features are independent, the credit a
// correlated feature the model ignores takes, threads, and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "games/xper_conditional_game.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/error.hpp"
#include "perfshap/xper.hpp"
#include "support/correlated_rows.hpp"
#include "support/expect_error.hpp"
#include "support/synthetic_games.hpp"
#include "support/xper_reference.hpp"

namespace perfshap {
inline namespace v0 {
namespace {

// A model with interactions (no additive terms): a probability, or the index for a regression.
class BendModel final : public Model {
 public:
  explicit BendModel(bool classifier) : classifier_(classifier) {}
  std::size_t n_features() const override { return 3; }
  bool is_classifier() const override { return classifier_; }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    for (std::size_t r = 0; r < n; ++r) {
      const double index = 0.1 + 0.7 * x[r] * x[n + r] - 0.6 * x[2 * n + r] + 0.3 * std::sin(2.0 * x[r]);
      out[r] = classifier_ ? ApplyLink(Link::kLogit, index) : index;
    }
  }
  std::string Describe() const override { return "bend model"; }

 private:
  bool classifier_;
};

// n rows of 3 AR(1) features (correlation 0.6) with a 0/1 label drawn from the bend model, or a
// real one (the index plus noise).
Dataset CorrelatedSample(std::size_t n, bool regression, std::uint64_t seed) {
  const std::vector<double> x = testing::Ar1Rows(n, 3, 0.6, seed, 7, 0.0);
  const BendModel truth(true);
  std::vector<double> p(n);
  truth.Predict(x, n, p);
  RandomStream rng(seed, 99);
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double u = rng.Uniform();
    y[i] = regression ? std::log(p[i] / (1.0 - p[i])) + (u - 0.5) : (u < p[i] ? 1.0 : 0.0);
  }
  std::vector<std::vector<double>> cols;
  for (std::size_t j = 0; j < 3; ++j)
    cols.emplace_back(x.begin() + static_cast<std::ptrdiff_t>(j * n),
                      x.begin() + static_cast<std::ptrdiff_t>((j + 1) * n));
  return Dataset({"x1", "x2", "x3"}, std::move(cols), std::move(y), "y");
}

std::vector<double> Columns(const Dataset& d) {
  std::vector<double> x;
  for (std::size_t j = 0; j < d.n_features(); ++j) x.insert(x.end(), d.column(j).begin(), d.column(j).end());
  return x;
}

// The game's n + 1 outputs of each group for coalition s (output o * G + g), by the definition:
// every individual's draws predicted one at a time, G by XperTermByDefinition over the group's
// points, the comparison sample every individual's group points (full) or its first one.
std::vector<double> ByDefinition(const Model& model, const Dataset& d, const std::string& metric,
                                 XperComparator comparator, const detail::ConditionalXperGame& game,
                                 Coalition s) {
  const std::size_t n = d.n_rows(), F = d.n_features(), G = game.groups();
  std::vector<std::uint8_t> inside(F);
  for (std::size_t j = 0; j < F; ++j) inside[j] = Contains(s, static_cast<int>(j)) ? 1 : 0;
  const bool all_in = std::all_of(inside.begin(), inside.end(), [](std::uint8_t v) { return v != 0; });
  const std::size_t draws = all_in ? 1 : game.samples();
  const auto conditional = game.features().Given(inside, game.normals(), draws);
  std::vector<std::vector<double>> f(n, std::vector<double>(draws));
  std::vector<double> row(F), drawn(F * draws), one(F);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < F; ++j) row[j] = d.column(j)[i];
    conditional->Draw(row, drawn);
    for (std::size_t k = 0; k < draws; ++k) {
      for (std::size_t j = 0; j < F; ++j) one[j] = drawn[j * draws + k];
      model.Predict(one, 1, std::span<double>(&f[i][k], 1));
    }
  }
  const auto y = d.label();
  testing::XperTermInputs in;
  for (double v : y) in.ybar += v / static_cast<double>(n);
  for (double v : y) in.var += (v - in.ybar) * (v - in.ybar) / static_cast<double>(n);
  in.cfp = 1.5;
  in.cfn = 4.0;
  std::vector<double> out((n + 1) * G, 0.0);
  for (std::size_t g = 0; g < G; ++g) {
    std::vector<std::size_t> ks;
    for (std::size_t k = draws == 1 ? 0 : g; k < draws; k += draws == 1 ? 1 : G) ks.push_back(k);
    std::vector<std::pair<double, double>> w;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t t = 0; t < (comparator == XperComparator::kFull ? ks.size() : 1); ++t)
        w.emplace_back(f[i][ks[t]], y[i]);
    in.comparison = &w;
    in.delta = 0.0;
    for (const auto& [score, label] : w)
      in.delta += (score > 0.5 ? 1.0 : 0.0) / static_cast<double>(w.size());
    for (std::size_t i = 0; i < n; ++i) {
      double vi = 0.0;
      for (std::size_t k : ks) vi += testing::XperTermByDefinition(metric, y[i], f[i][k], in);
      vi /= static_cast<double>(ks.size());
      out[(1 + i) * G + g] = vi;
      out[g] += vi / static_cast<double>(n);
    }
  }
  return out;
}

TEST(ConditionalXper, EveryMetricMatchesItsDefinitionByBruteForce) {
  const Dataset cls = CorrelatedSample(14, false, 3), reg = CorrelatedSample(14, true, 3);
  const BendModel classifier(true), regressor(false);
  for (const std::string metric : {"auc", "brier", "accuracy", "balanced_accuracy", "sensitivity",
                                   "specificity", "precision", "cost", "mse", "mae", "r2"}) {
    const bool regression = FindMetric(metric, "xper").regression();
    const Dataset& d = regression ? reg : cls;
    const Model& model = regression ? static_cast<const Model&>(regressor) : classifier;
    const std::vector<double> x = Columns(d);
    // gaussian's draws are all distinct; empirical's and ctree's repeat background rows, which
    // the game predicts once (games/draw_block.hpp).
    for (const ShapConditional kind :
         {ShapConditional::kGaussian, ShapConditional::kEmpirical, ShapConditional::kCtree})
      for (XperComparator comparator : {XperComparator::kFull, XperComparator::kPermuted}) {
        const auto features = detail::MakeConditionalFeatures(kind, ColumnMatrix{x, d.n_rows()}, 3);
        detail::XperGameSettings settings;
        settings.metric = &FindMetric(metric, "xper");
        settings.cfp = 1.5;
        settings.cfn = 4.0;
        settings.comparator = comparator;
        const detail::ConditionalXperGame game(model, d, settings, *features, 30, 10, 17);
        const auto worker = game.MakeWorker();
        std::vector<double> out(game.n_outputs());
        for (Coalition s = 0; s < 8; ++s) {
          worker->Evaluate(s, out);
          const std::vector<double> brute = ByDefinition(model, d, metric, comparator, game, s);
          for (std::size_t t = 0; t < out.size(); ++t)
            ASSERT_NEAR(out[t], brute[t], 1e-12)
                << metric << "/" << XperComparatorName(comparator) << "/" << ShapConditionalName(kind)
                << " coalition " << s << " output " << t;
        }
      }
  }
}

XperOptions ConditionalOptions(const std::string& metric, std::size_t samples, std::uint64_t seed) {
  XperOptions o;
  o.metric = metric;
  o.comparator = XperComparator::kFull;
  o.conditional = ShapConditional::kGaussian;
  o.conditional_samples = samples;
  o.sampling.seed = seed;
  return o;
}

TEST(ConditionalXper, ShapleyValuesOfTheGroupsMeanAddUpToTheSampleMetric) {
  const Dataset d = CorrelatedSample(60, false, 5);
  const BendModel model(true);
  for (const std::string metric : {"auc", "brier", "precision"}) {
    XperOptions o = ConditionalOptions(metric, 100, 3);
    o.store_coalition_values = true;
    const XperResult r = ExplainXper(model, d, o);
    XperOptions marginal;
    marginal.metric = metric;
    marginal.comparator = XperComparator::kFull;
    // v(all features) is the sample's metric, as the marginal decomposition's.
    EXPECT_NEAR(r.value, ExplainXper(model, d, marginal).value, 1e-13) << metric;
    double sum = r.base;
    for (double v : r.phi) sum += v;
    EXPECT_NEAR(sum, r.value, 1e-12) << metric;
    // The Shapley values of the groups' mean table, by the 3! feature orders.
    const std::size_t k = d.n_rows() + 1;
    testing::FunctionGame table(3, k, [&](Coalition s, std::span<double> out) {
      std::copy_n(r.coalition_values.begin() + static_cast<std::ptrdiff_t>(s * k), k, out.begin());
    });
    const std::vector<double> phi = testing::BruteForcePermutationShapley(table);
    for (std::size_t j = 0; j < 3; ++j) {
      EXPECT_NEAR(r.phi[j], phi[j * k], 1e-12) << metric;
      for (std::size_t i = 0; i < d.n_rows(); ++i) EXPECT_NEAR(r.individual(i, j), phi[j * k + 1 + i], 1e-12);
      EXPECT_GT(r.phi_se[j], 0.0);
    }
    EXPECT_EQ(r.conditional, ShapConditional::kGaussian);
    EXPECT_EQ(r.background_rows, d.n_rows());
  }
  // With every draw at the joint distribution, the AUC's benchmark is one half exactly: every
  // individual's draws are the same (common random numbers), so no pair is ranked.
  EXPECT_EQ(ExplainXper(model, d, ConditionalOptions("auc", 100, 3)).base, 0.5);
}

TEST(ConditionalXper, StandardErrorsMatchTheSpreadAcrossSeeds) {
  const Dataset d = CorrelatedSample(80, false, 8);
  const BendModel model(true);
  const int seeds = 24;
  std::vector<double> sum(3, 0.0), sq(3, 0.0), se(3, 0.0);
  for (int s = 0; s < seeds; ++s) {
    const XperResult r = ExplainXper(model, d, ConditionalOptions("brier", 100, 200 + s));
    for (std::size_t j = 0; j < 3; ++j) {
      sum[j] += r.phi[j];
      sq[j] += r.phi[j] * r.phi[j];
      se[j] += r.phi_se[j] / seeds;
    }
  }
  for (std::size_t j = 0; j < 3; ++j) {
    const double mean = sum[j] / seeds;
    const double sd = std::sqrt((sq[j] - seeds * mean * mean) / (seeds - 1));
    EXPECT_GT(se[j], 0.5 * sd) << "feature " << j;
    EXPECT_LT(se[j], 2.0 * sd) << "feature " << j;
  }
}

// Independent features: the conditional distribution of the others is their marginal one, so the
// gaussian value function's XPER estimates the marginal's (the sample's rows as the draws).
TEST(ConditionalXper, IndependentFeaturesGiveTheMarginalDecomposition) {
  ProbitDesign design;
  design.n_rows = 400;
  design.seed = 21;
  const Dataset d = GenerateProbitDesign(design);
  const auto probit = MakeGlm(Link::kProbit, {0.05, 0.5, -0.5, 0.2}, true);
  XperOptions marginal;
  marginal.metric = "brier";
  const XperResult m = ExplainXper(*probit, d, marginal);
  const XperResult c = ExplainXper(*probit, d, ConditionalOptions("brier", 400, 4));
  for (std::size_t j = 0; j < 3; ++j)
    EXPECT_NEAR(c.phi[j], m.phi[j], 0.05 * std::abs(m.phi[j]) + 4.0 * c.phi_se[j]) << d.feature_names()[j];
}

// The dependence-aware view: a model of x1 alone, with x2 a noisy copy of x1. Marginal XPER gives
// x2 nothing (the model never reads it); the conditional one credits x2 with what it reveals of
// x1, and the two decompositions add up to the same value above their benchmarks' sum.
TEST(ConditionalXper, ACorrelatedFeatureTheModelIgnoresTakesCredit) {
  const std::size_t n = 300;
  const std::vector<double> x = testing::Ar1Rows(n, 3, 0.9, 31, 7, 0.0);
  std::vector<std::vector<double>> cols;
  for (std::size_t j = 0; j < 3; ++j)
    cols.emplace_back(x.begin() + static_cast<std::ptrdiff_t>(j * n),
                      x.begin() + static_cast<std::ptrdiff_t>((j + 1) * n));
  cols[2].assign(n, 0.0);
  RandomStream rng(31, 5);
  for (double& v : cols[2]) v = rng.Normal();  // x3 independent, unused
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i) y[i] = 1.5 * cols[0][i] + 0.3 * rng.Normal();
  const Dataset d({"x1", "x2", "x3"}, std::move(cols), std::move(y), "y");
  const auto linear = MakeGlm(Link::kIdentity, {0.0, 1.5, 0.0, 0.0}, false);
  XperOptions marginal;
  marginal.metric = "r2";
  const XperResult m = ExplainXper(*linear, d, marginal);
  const XperResult c = ExplainXper(*linear, d, ConditionalOptions("r2", 500, 6));
  EXPECT_EQ(m.phi[1], 0.0);
  EXPECT_GT(c.phi[1], 0.2 * c.phi[0]);
  EXPECT_LT(c.phi[0], m.phi[0]);
  EXPECT_NEAR(c.phi[2], 0.0, 4.0 * c.phi_se[2] + 0.01);
  EXPECT_NEAR(c.value, m.value, 1e-12);
}

TEST(ConditionalXper, SameValuesAtAnyThreadCountAndSolver) {
  const Dataset d = CorrelatedSample(50, false, 9);
  const BendModel model(true);
  std::vector<XperResult> r;
  for (int threads : {1, 2, 4}) {
    XperOptions o = ConditionalOptions("auc", 50, 2);
    o.execution.threads = threads;
    r.push_back(ExplainXper(model, d, o));
    o.solver = "permutation";
    o.sampling.budget = 60;
    r.push_back(ExplainXper(model, d, o));
  }
  for (std::size_t t = 2; t < r.size(); ++t) {
    EXPECT_EQ(r[t].phi, r[t % 2].phi) << t;
    EXPECT_EQ(r[t].phi_se, r[t % 2].phi_se) << t;
    EXPECT_EQ(r[t].individual_phi, r[t % 2].individual_phi) << t;
  }
}

// The interaction values of the global value under a conditional value function: each row adds
// up to the feature's XPER value (the same conditional game, the groups averaged), with a
// standard error from the groups' spread.
TEST(ConditionalXper, InteractionRowsAddUpToTheConditionalValues) {
  const Dataset d = CorrelatedSample(40, false, 5);
  const BendModel model(true);
  for (const ShapConditional kind : {ShapConditional::kGaussian, ShapConditional::kEmpirical}) {
    XperOptions o = ConditionalOptions("auc", 100, 3);
    o.conditional = kind;
    o.interactions = true;
    const XperResult r = ExplainXper(model, d, o);
    const char* solver = ShapConditionalName(kind);
    const std::size_t p = r.phi.size();
    ASSERT_EQ(r.interactions.size(), p * p);
    ASSERT_EQ(r.interactions_se.size(), p * p);
    for (std::size_t i = 0; i < p; ++i) {
      double sum = 0.0;
      for (std::size_t j = 0; j < p; ++j) sum += r.interactions[i * p + j];
      EXPECT_NEAR(sum, r.phi[i], 1e-10) << solver << " feature " << i;
      EXPECT_GT(r.interactions_se[i * p + (i + 1) % p], 0.0) << solver;
    }
  }
}

TEST(ConditionalXper, BadInputIsAOneLineErrorNamingTheOption) {
  const Dataset d = CorrelatedSample(30, false, 2);
  const BendModel model(true);
  XperOptions o = ConditionalOptions("auc", 100, 1);
  o.conditional = ShapConditional::kRegression;
  testing::ExpectError<InvalidArgument>([&] { (void)ExplainXper(model, d, o); },
                                        {"regression", "gives no draws"}, "conditional");
  o.conditional = ShapConditional::kCtree;
  o.permutation = {1, 0, 2};
  testing::ExpectError<InvalidArgument>([&] { (void)ExplainXper(model, d, o); }, {"permutation"},
                                        "permutation");
  o.permutation.clear();
  const std::vector<double> narrow(20, 0.0);
  testing::ExpectError<InvalidArgument>(
      [&] {
        (void)ExplainXper(model, d, o, ColumnMatrix{narrow, 10});
      },
      {"background"}, "background");
  o.conditional_samples = 5;
  testing::ExpectError<InvalidArgument>([&] { (void)ExplainXper(model, d, o); }, {"draws"},
                                        "conditional_samples");
}

}  // namespace
}  // namespace v0
}  // namespace perfshap
