// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "games/prediction_game.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/treeshap.hpp"
#include "support/expect_error.hpp"
#include "support/shapley_properties.hpp"
#include "support/test_paths.hpp"
#include "support/tree_reference.hpp"

namespace perfshap { inline namespace v0 {
namespace {

nlohmann::json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

Dataset Pima() {
  CsvOptions o;
  o.label = "label";
  return ReadCsv(testing::FixturePath("data/pima.csv"), o);
}

/** Rows `rows` of the data, column-major. */
std::vector<double> Gather(const Dataset& d, const std::vector<std::size_t>& rows) {
  std::vector<double> x(d.n_features() * rows.size());
  for (std::size_t j = 0; j < d.n_features(); ++j)
    for (std::size_t r = 0; r < rows.size(); ++r) x[j * rows.size() + r] = d.column(j)[rows[r]];
  return x;
}

/** The same model without its additive terms: the game must build hybrid rows. */
class Opaque final : public Model {
 public:
  explicit Opaque(const Model& m) : m_(m) {}
  std::size_t n_features() const override { return m_.n_features(); }
  std::size_t n_outputs() const override { return m_.n_outputs(); }
  bool is_classifier() const override { return m_.is_classifier(); }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override { m_.Predict(x, n, out); }
  std::string Describe() const override { return "opaque " + m_.Describe(); }

 private:
  const Model& m_;
};

struct PimaGolden {
  Dataset data = Pima();
  nlohmann::json golden = ReadJson(testing::FixturePath("shap/pima_logistic.json"));
  std::unique_ptr<Model> model = MakeGlm(Link::kLogit, golden["coef"].get<std::vector<double>>(), true);
  std::vector<std::size_t> explained = golden["explained_rows"].get<std::vector<std::size_t>>();
  std::vector<double> x = Gather(data, explained);
  std::vector<double> bg = Gather(data, golden["background_rows"].get<std::vector<std::size_t>>());
  ColumnMatrix rows() const { return {x, explained.size()}; }
  ColumnMatrix background() const { return {bg, 100}; }
};

TEST(PredictionGame, ExactInterventionalShapOfLogisticEqualsNumpy) {
  const PimaGolden g;
  ShapOptions options;
  options.solver = "exact";
  for (const bool additive : {true, false}) {
    SCOPED_TRACE(additive ? "additive terms" : "hybrid rows");
    const Opaque opaque(*g.model);
    const Model& m = additive ? static_cast<const Model&>(*g.model) : opaque;
    const ShapExplanation e = ExplainInterventional(m, g.rows(), g.background(), {}, g.data.feature_names(), options);
    ASSERT_EQ(e.n_rows, g.explained.size());
    ASSERT_EQ(e.n_players, 8U);
    EXPECT_EQ(e.players, g.data.feature_names());
    EXPECT_EQ(e.outputs, std::vector<std::string>{"P(y=1)"});
    std::vector<double> p(e.n_rows);
    g.model->Predict(g.x, e.n_rows, p);
    for (std::size_t r = 0; r < e.n_rows; ++r) {
      EXPECT_NEAR(e.base[r], g.golden["base"].get<double>(), 1e-12);
      double sum = e.base[r];
      for (std::size_t j = 0; j < 8; ++j) {
        EXPECT_NEAR(e(r, 0, j), g.golden["phi"][r][j].get<double>(), 1e-12) << "row " << r << " feature " << j;
        sum += e(r, 0, j);
      }
      EXPECT_NEAR(sum, p[r], 1e-12) << "efficiency";
      EXPECT_NEAR(e.prediction[r], p[r], 1e-12);
    }
  }
}

TEST(PredictionGame, KernelSolverLiesWithinThreeStandardErrorsOfTheExactValues) {
  const PimaGolden g;
  ShapOptions options;
  options.solver = "kernel";
  options.solver_options.budget = 128;  // half of the 2^8 coalitions: the small layers complete, the rest drawn
  options.solver_options.seed = 3;
  const ShapExplanation e = ExplainInterventional(*g.model, g.rows(), g.background(), {}, g.data.feature_names(), options);
  ASSERT_EQ(e.phi_se.size(), e.phi.size());
  std::size_t inside = 0;
  for (std::size_t r = 0; r < e.n_rows; ++r)
    for (std::size_t j = 0; j < 8; ++j) {
      const double exact = g.golden["phi"][r][j].get<double>();
      EXPECT_GT(e.phi_se[r * 8 + j], 0.0);
      if (std::fabs(e(r, 0, j) - exact) <= 3.0 * e.phi_se[r * 8 + j]) ++inside;
    }
  // 320 intervals at 3 se: a handful outside at most.
  EXPECT_GE(inside, 314U) << "of " << e.n_rows * 8;
}

TEST(PredictionGame, MarginOfALogisticModelIsAdditive) {
  // On the log-odds scale a GLM's interventional SHAP is coef_j (x_j - mean_b x_j).
  const PimaGolden g;
  ShapOptions options;
  options.output = ShapOutputScale::kMargin;
  const ShapExplanation e = ExplainInterventional(*g.model, g.rows(), g.background(), {}, {}, options);
  const auto coef = g.golden["coef"].get<std::vector<double>>();
  for (std::size_t j = 0; j < 8; ++j) {
    double mean = 0.0;
    for (std::size_t b = 0; b < 100; ++b) mean += g.bg[j * 100 + b];
    mean /= 100.0;
    for (std::size_t r = 0; r < e.n_rows; ++r)
      EXPECT_NEAR(e(r, 0, j), coef[j + 1] * (g.x[j * e.n_rows + r] - mean), 1e-9);
  }
  EXPECT_EQ(e.players[0], "x0");
  EXPECT_EQ(e.outputs, std::vector<std::string>{"margin"});
}

TEST(PredictionGame, TreeMarginsEqualInterventionalTreeShap) {
  testing::RandomTreeSpec s;
  s.n_features = 6;
  s.n_outputs = 3;
  s.n_trees = 6;
  s.seed = 21;
  const auto model = testing::RandomEnsemble(s);
  const std::size_t n = 7;
  const std::size_t nb = 11;
  const auto x = testing::RandomRows(6, n, 0.1, 1);
  const auto bg = testing::RandomRows(6, nb, 0.1, 2);
  ShapOptions options;
  options.output = ShapOutputScale::kMargin;
  options.row_block = 3;  // blocks of explained rows that do not divide the rows
  const ShapExplanation e = ExplainInterventional(*model, {x, n}, {bg, nb}, {}, {}, options);
  const auto ts = InterventionalTreeShap(*model, x, n, bg, nb);
  ASSERT_EQ(e.n_outputs, 3U);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t o = 0; o < 3; ++o) {
      for (std::size_t j = 0; j < 6; ++j) EXPECT_NEAR(e(r, o, j), ts[(r * 3 + o) * 7 + j], 1e-12);
      EXPECT_NEAR(e.base[r * 3 + o], ts[(r * 3 + o) * 7 + 6], 1e-12);
    }
}

TEST(PredictionGame, GroupsOfFeaturesArePlayers) {
  const PimaGolden g;
  std::vector<Player> players = {{"body", {5, 3}, {}}, {"blood", {1, 2, 4}, {}}, {"rest", {0, 6, 7}, {}}};
  const ShapExplanation e = ExplainInterventional(*g.model, g.rows(), g.background(), players, {});
  EXPECT_EQ(e.players, (std::vector<std::string>{"body", "blood", "rest"}));
  std::vector<double> p(e.n_rows);
  g.model->Predict(g.x, e.n_rows, p);
  for (std::size_t r = 0; r < e.n_rows; ++r) EXPECT_NEAR(e(r, 0, 0) + e(r, 0, 1) + e(r, 0, 2) + e.base[r], p[r], 1e-12);
  // Every feature in exactly one player.
  std::vector<Player> bad = {{"a", {0, 1}, {}}, {"b", {1, 2, 3, 4, 5, 6, 7}, {}}};
  testing::ExpectError<InvalidArgument>([&] { ExplainInterventional(*g.model, g.rows(), g.background(), bad, {}); },
                                        {"feature 1", "two players"});
}

TEST(PredictionGame, RefusesAMarginTheModelDoesNotHave) {
  const PimaGolden g;
  const Opaque opaque(*g.model);
  ShapOptions options;
  options.output = ShapOutputScale::kMargin;
  testing::ExpectError<InvalidArgument>(
      [&] { ExplainInterventional(opaque, g.rows(), g.background(), {}, {}, options); }, {"no margin"}, "output");
  testing::ExpectError<InvalidArgument>([&] { ExplainInterventional(*g.model, g.rows(), {g.bg, 0}, {}, {}); },
                                        {"background"});
}

TEST(RetrainPredictionGame, EqualsModelsTrainedOnEveryCoalition) {
  const Dataset data = Pima();
  std::vector<std::size_t> train;
  for (std::size_t i = 0; i < 600; ++i) train.push_back(i);
  std::vector<std::size_t> explain = {600, 610, 650, 700, 767};
  const std::vector<std::size_t> columns = {0, 1, 5, 7};
  const auto players = SingleColumnPlayers(data, columns);
  ShapOptions options;
  options.solver = "exact";
  for (const std::string learner_name : {"gnb", "logistic"}) {
    SCOPED_TRACE(learner_name);
    const auto learner = MakeLearner(learner_name);
    const ShapExplanation e = ExplainByRetraining(*learner, data, train, data, explain, players, options);
    ASSERT_EQ(e.n_players, 4U);
    ASSERT_EQ(e.n_rows, explain.size());
    // Brute force: a model per coalition, through Learner::Train, then the Shapley formula.
    const int n = 4;
    std::vector<std::vector<double>> value(16, std::vector<double>(explain.size()));
    for (Coalition s = 0; s < 16; ++s) {
      std::vector<std::size_t> cols;
      for (int j = 0; j < n; ++j)
        if (Contains(s, j)) cols.push_back(columns[static_cast<std::size_t>(j)]);
      const auto model = learner->Train(data, train, cols);
      std::vector<double> x(cols.size() * explain.size());
      for (std::size_t c = 0; c < cols.size(); ++c)
        for (std::size_t r = 0; r < explain.size(); ++r) x[c * explain.size() + r] = data.column(cols[c])[explain[r]];
      model->Predict(x, explain.size(), value[s]);
    }
    for (std::size_t r = 0; r < explain.size(); ++r) {
      EXPECT_NEAR(e.base[r], value[0][r], 1e-9);
      for (int j = 0; j < n; ++j) {
        double phi = 0.0;
        for (Coalition s = 0; s < 16; ++s)
          if (!Contains(s, j))
            phi += ShapleyWeight(n, CoalitionSize(s)) * (value[s | (Coalition{1} << j)][r] - value[s][r]);
        EXPECT_NEAR(e(r, 0, static_cast<std::size_t>(j)), phi, 1e-9) << "row " << r << " player " << j;
      }
    }
    EXPECT_EQ(e.approach, "retrain");
  }
}

TEST(PredictionGame, BitwiseIdenticalAtAnyThreadCount) {
  const PimaGolden g;
  ShapOptions options;
  options.solver = "kernel";
  options.solver_options.budget = 128;
  options.solver_options.execution.threads = 1;
  const ShapExplanation a = ExplainInterventional(*g.model, g.rows(), g.background(), {}, {}, options);
  options.solver_options.execution.threads = 3;
  const ShapExplanation b = ExplainInterventional(*g.model, g.rows(), g.background(), {}, {}, options);
  EXPECT_EQ(0, std::memcmp(a.phi.data(), b.phi.data(), a.phi.size() * sizeof(double)));
  EXPECT_EQ(0, std::memcmp(a.phi_se.data(), b.phi_se.data(), a.phi_se.size() * sizeof(double)));
}

}  // namespace
}}  // namespace perfshap
