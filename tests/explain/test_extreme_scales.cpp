// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Every method on a feature scaled by 1e154 (squares overflow a double) and by 1e306 (sums
// overflow) (issue 20: the logistic fit overflowed and that feature's phi was exactly 0, or
// every value was NaN): with the standardised logistic learner, whose fit is invariant to a
// feature's scale, the values equal the unscaled data's up to rounding; with Gaussian naive
// Bayes, beyond a double's range, a one-line error names the feature. And the guards behind:
// a model or a game that yields NaN is named as such, never solved into NaN values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "perfshap/chains.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/xper.hpp"
#include "support/expect_error.hpp"
#include "support/synthetic_games.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

constexpr std::size_t kScaled = 0;  // pima's 'pregnancies', 0..17: times 1e306 still finite
const double kFactors[] = {1e154, 1e306};
const std::vector<std::size_t> kColumns{0, 1, 5, 6};  // pregnancies, glucose, bmi, pedigree

/** pima's kColumns (the first one times `factor`) and its label. */
Dataset Pima(double factor = 1.0) {
  CsvOptions options;
  options.label = "label";
  const Dataset full = ReadCsv(testing::FixturePath("data/pima.csv"), options);
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;
  for (std::size_t c : kColumns) {
    names.push_back(full.feature_names()[c]);
    columns.emplace_back(full.column(c).begin(), full.column(c).end());
    if (c == kScaled)
      for (double& v : columns.back()) v *= factor;
  }
  Dataset out(names, std::move(columns), std::vector<double>(full.label().begin(), full.label().end()),
              "label");
  out.set_source("pima");
  return out;
}

void ExpectClose(const std::vector<double>& got, const std::vector<double>& want, double tolerance,
                 const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    ASSERT_TRUE(std::isfinite(got[i])) << what << " " << i;
    if (!(std::abs(got[i] - want[i]) <= tolerance) && bad++ < 5)
      ADD_FAILURE() << what << " " << i << ": " << got[i] << " vs " << want[i];
  }
}

/** Column-major values of `rows` of every column of `d`. */
std::vector<double> Rows(const Dataset& d, const std::vector<std::size_t>& rows) {
  std::vector<double> x;
  for (std::size_t c = 0; c < d.n_features(); ++c)
    for (std::size_t r : rows) x.push_back(d.column(c)[r]);
  return x;
}

std::vector<std::size_t> Range(std::size_t first, std::size_t count) {
  std::vector<std::size_t> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = first + i;
  return v;
}

TEST(ExtremeScales, RobustnessOfLogisticEqualsTheUnscaledAndGnbNamesTheFeature) {
  const Dataset plain = Pima();
  const SplitPlan plan = KFoldSplits(plain.n_rows(), 3, 7, plain.label());
  RobustnessOptions options;
  options.learner = MakeLearner("logistic");
  options.execution.threads = 2;
  const RobustnessResult want = ExplainRobustness(plain, plan, options);
  for (double factor : kFactors) {
    SCOPED_TRACE(factor);
    const RobustnessResult got = ExplainRobustness(Pima(factor), plan, options);
    ExpectClose(got.phi_auc_mean, want.phi_auc_mean, 1e-9, "phi of the AUC");
    ExpectClose(got.shap_roc_mean, want.shap_roc_mean, 1e-9, "ShapROC");
    EXPECT_NEAR(got.auc_mean, want.auc_mean, 1e-12);
    EXPECT_NE(got.phi_auc_mean[0], 0.0);
  }
  RobustnessOptions gnb = options;
  gnb.learner = MakeLearner("gnb");
  for (double factor : kFactors)
    testing::ExpectDataError([&] { ExplainRobustness(Pima(factor), plan, gnb); },
                             {"feature 'pregnancies'", "overflow", "scale it", "or drop it"});
}

// XPER of a logistic model fitted on each scale, by the additive fast path and by the generic
// (model calls) path.
TEST(ExtremeScales, XperOfLogisticEqualsTheUnscaled) {
  const auto learner = MakeLearner("logistic");
  const std::vector<std::size_t> train = Range(0, 500), test = Range(500, 200);
  const std::vector<std::size_t> all{0, 1, 2, 3};
  const Dataset plain = Pima();
  for (bool additive : {true, false}) {
    XperOptions options;
    options.comparator = XperComparator::kFull;
    options.use_additive_terms = additive;
    const auto plain_model = learner->Train(plain, train, all);
    const XperResult want = ExplainXper(*plain_model, plain.SelectRows(test), options);
    for (double factor : kFactors) {
      SCOPED_TRACE(std::to_string(factor) + (additive ? " additive" : " generic"));
      const Dataset scaled = Pima(factor);
      const auto model = learner->Train(scaled, train, all);
      const XperResult got = ExplainXper(*model, scaled.SelectRows(test), options);
      ExpectClose(got.phi, want.phi, 1e-9, "phi");
      ExpectClose(got.individual_phi, want.individual_phi, 1e-9, "individual phi");
      EXPECT_NEAR(got.value, want.value, 1e-12);
    }
  }
}

// Interventional SHAP of a logistic model (probabilities and margins; additive path) and SHAP by
// retraining, on each scale.
TEST(ExtremeScales, ShapOfLogisticEqualsTheUnscaled) {
  const auto learner = MakeLearner("logistic");
  const std::vector<std::size_t> train = Range(0, 600), explain = Range(600, 30), background = Range(0, 50);
  const std::vector<std::size_t> all{0, 1, 2, 3};
  const Dataset plain = Pima();
  for (ShapOutputScale scale : {ShapOutputScale::kPrediction, ShapOutputScale::kMargin}) {
    ShapOptions options;
    options.output = scale;
    options.solver = "exact";
    const auto plain_model = learner->Train(plain, train, all);
    const std::vector<double> x = Rows(plain, explain), b = Rows(plain, background);
    const ShapExplanation want =
        ExplainInterventional(*plain_model, {x, explain.size()}, {b, background.size()}, {}, {}, options);
    const ShapExplanation want_retrain =
        ExplainByRetraining(*learner, plain, train, plain, explain, {}, options);
    for (double factor : kFactors) {
      SCOPED_TRACE(factor);
      const Dataset scaled = Pima(factor);
      const auto model = learner->Train(scaled, train, all);
      const std::vector<double> xs = Rows(scaled, explain), bs = Rows(scaled, background);
      const ShapExplanation got =
          ExplainInterventional(*model, {xs, explain.size()}, {bs, background.size()}, {}, {}, options);
      ExpectClose(got.phi, want.phi, 1e-9, "interventional phi");
      ExpectClose(got.base, want.base, 1e-9, "base");
      const ShapExplanation retrain =
          ExplainByRetraining(*learner, scaled, train, scaled, explain, {}, options);
      ExpectClose(retrain.phi, want_retrain.phi, 1e-8, "retrain phi");
    }
  }
}

// A classifier chain whose links are logistic, one feature scaled.
TEST(ExtremeScales, ShapleyChainsOfLogisticEqualTheUnscaled) {
  const auto chain_of = [](double factor) {
    MultiOutputData m;
    const Dataset pima = Pima(factor);
    m.features = pima;
    m.output_names = {"diabetes", "heavy"};
    m.outputs.emplace_back(pima.label().begin(), pima.label().end());
    std::vector<double> heavy;
    for (double bmi : pima.column(2)) heavy.push_back(bmi > 32.0 ? 1.0 : 0.0);
    m.outputs.push_back(heavy);
    return m;
  };
  const auto learner = MakeLearner("logistic");
  ChainOptions options;
  options.background = 40;
  options.shap.solver = "exact";
  const std::vector<std::size_t> train = Range(0, 600), explain = Range(600, 20);
  const ChainOrderExplanation want = ExplainChain(*learner, chain_of(1.0), {0, 1}, train, explain, options);
  for (double factor : kFactors) {
    SCOPED_TRACE(factor);
    const ChainOrderExplanation got =
        ExplainChain(*learner, chain_of(factor), {0, 1}, train, explain, options);
    for (std::size_t j = 0; j < 2; ++j) {
      ExpectClose(got.direct[j], want.direct[j], 1e-9, "direct");
      ExpectClose(got.indirect[j], want.indirect[j], 1e-9, "indirect");
    }
  }
}

/** A model whose prediction is NaN for rows whose first feature is above `cut`. */
class NanAboveModel final : public Model {
 public:
  explicit NanAboveModel(double cut) : cut_(cut) {}
  std::size_t n_features() const override { return 2; }
  bool is_classifier() const override { return true; }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    for (std::size_t r = 0; r < n; ++r)
      out[r] = x[r] > cut_ ? std::numeric_limits<double>::quiet_NaN() : 0.5 + 0.1 * std::tanh(x[n + r]);
  }
  std::string Describe() const override { return "a model with NaN predictions"; }

 private:
  double cut_;
};

// The model prediction step: a NaN prediction is named where it appears (the explained row),
// for the exact and the sampled solvers, and never solved into the values.
TEST(NonFiniteGuards, ANanPredictionIsNamedNotSolved) {
  const NanAboveModel model(2.5);
  const std::vector<double> x{1.0, 3.0, 0.2, 0.4};  // row 1 has feature 0 above the cut
  const std::vector<double> b{0.0, 1.0, 0.5, 0.1};
  for (const char* solver : {"exact", "permutation", "kernel"}) {
    SCOPED_TRACE(solver);
    ShapOptions options;
    options.solver = solver;
    options.solver_options.budget = 200;
    testing::ExpectDataError(
        [&] {
          ExplainInterventional(model, {x, 2}, {b, 2}, {}, {}, options);
        },
        {"explained row 1 is not finite", "scale the features"});
  }
  XperOptions xo;
  xo.metric = "brier";
  const std::vector<double> label{0.0, 1.0, 1.0, 0.0};
  Dataset sample({"a", "b"}, {{1.0, 3.0, 0.0, 2.0}, {0.2, 0.4, 0.1, 0.3}}, label, "y");
  testing::ExpectDataError([&] { ExplainXper(model, sample, xo); }, {"XPER", "non-finite"});
}

// The solvers' last check: a game (a host's own) whose value is NaN or infinite never has its
// values handed on.
TEST(NonFiniteGuards, SolversRefuseNonFiniteValues) {
  const testing::FunctionGame nan_game(3, 2, [](Coalition s, std::span<double> out) {
    out[0] = static_cast<double>(s);
    out[1] = s == 5 ? std::numeric_limits<double>::quiet_NaN() : 1.0;
  });
  const testing::FunctionGame inf_game(3, 1, [](Coalition s, std::span<double> out) {
    out[0] = s == 3 ? std::numeric_limits<double>::infinity() : 1.0;
  });
  for (const char* solver : {"exact", "permutation", "kernel"}) {
    SCOPED_TRACE(solver);
    SolverOptions options;
    options.budget = 64;
    for (const Game* game : {static_cast<const Game*>(&nan_game), static_cast<const Game*>(&inf_game)})
      testing::ExpectDataError([&] { MakeSolver(solver, options)->Solve(*game); },
                               {"the Shapley values are not finite", "scale the features"});
  }
}

}  // namespace
}}  // namespace perfshap
