// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Players as feature groups, end to end: a group trains as its columns do, the two-player
// Shapley values of grouped banknote are the brute-force ones of the coalitions' AUCs, adult's
// text columns become one-hot players (gnb on all 14, logistic on 8 with text among them) with
// efficiency to 1e-12, and XPER of groups sums the same way.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/xper.hpp"
#include "support/learners.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

Dataset Banknote() {
  CsvOptions csv;
  csv.label = "label";
  return ReadCsv(testing::FixturePath("data/banknote.csv"), csv);
}

// AUC of `learner` trained on `columns` of the split's training rows, on its test rows.
double CoalitionAuc(const std::string& learner, const Dataset& data, const Split& split,
                    const std::vector<std::size_t>& columns) {
  if (columns.empty()) return 0.5;
  const auto model = Train(learner, data, split.train, columns);
  std::vector<double> x;
  for (std::size_t c : columns)
    for (std::size_t r : split.test) x.push_back(data.column(c)[r]);
  std::vector<double> p(split.test.size()), y;
  model->Predict(x, split.test.size(), p);
  for (std::size_t r : split.test) y.push_back(data.label()[r]);
  return RocAuc(y, p);
}

// A player of several columns trains exactly as those columns do: the fitter of the grouped
// split scores the test rows bitwise as a one-player-per-column split's fitter does for the same
// columns (cold fits), for every learner.
TEST(GroupedPlayers, AGroupTrainsAsItsColumns) {
  const Dataset data = Banknote();
  const Split split = HoldoutSplit(data.n_rows(), 0.25, 4, data.label());
  const std::vector<Player> groups{{"a", {0, 1}, {}}, {"b", {2, 3}, {}}};
  for (const std::string learner : {"gnb", "logistic", "probit", "linear"}) {
    const auto grouped = MakeLearner(learner)->Prepare(data, groups, split.train, split.test, "the training rows");
    const auto single = testing::PrepareSplit(learner, data, std::vector<std::size_t>{0, 1, 2, 3}, split.train, split.test);
    const auto g = grouped->MakeFitter();
    const auto s = single->MakeFitter();
    std::vector<double> a(split.test.size()), b(split.test.size());
    for (Coalition c = 0; c < 4; ++c) {
      g->Reset();
      s->Reset();
      const Coalition columns = (c & 1 ? Coalition{3} : 0) | (c & 2 ? Coalition{12} : 0);
      g->Score(c, a);
      s->Score(columns, b);
      EXPECT_EQ(a, b) << learner << " coalition " << c;
    }
  }
}

// A column constant on the training rows inside a larger player is left out of the GLMs' fits
// (coefficient 0: the L2 logistic optimum, the minimum-norm least squares), and the player
// still trains; alone it is an error, as a constant feature always was.
TEST(GroupedPlayers, ConstantColumnInsideAGroupIsLeftOutOfTheFit) {
  const Dataset banknote = Banknote();
  std::vector<std::vector<double>> cols;
  for (std::size_t j = 0; j < 4; ++j) cols.emplace_back(banknote.column(j).begin(), banknote.column(j).end());
  cols.emplace_back(banknote.n_rows(), 0.0);  // an indicator never set on the training rows...
  const Split split = HoldoutSplit(banknote.n_rows(), 0.25, 4, banknote.label());
  cols[4][split.test[0]] = 1.0;  // ...but set on one test row
  const Dataset data({"variance", "skewness", "curtosis", "entropy", "rare"}, cols,
                     std::vector<double>(banknote.label().begin(), banknote.label().end()));
  const std::vector<Player> with_rare{{"v", {0}, {}}, {"rest", {1, 2, 3, 4}, {}}};
  const std::vector<Player> without{{"v", {0}, {}}, {"rest", {1, 2, 3}, {}}};
  for (const std::string learner : {"logistic", "probit", "linear"}) {
    const auto a = MakeLearner(learner)->Prepare(data, with_rare, split.train, split.test, "the training rows");
    const auto b = MakeLearner(learner)->Prepare(data, without, split.train, split.test, "the training rows");
    std::vector<double> sa(split.test.size()), sb(split.test.size());
    a->MakeFitter()->Score(3, sa);
    b->MakeFitter()->Score(3, sb);
    EXPECT_EQ(sa, sb) << learner;
    const std::vector<Player> alone{{"rare", {4}, {}}};
    EXPECT_THROW(MakeLearner(learner)->Prepare(data, alone, split.train, split.test, "the training rows"), DataError)
        << learner;
  }
}

// Acceptance: banknote with the groups {variance, skewness} and {curtosis, entropy} on a fixed
// split gives the exact two-player Shapley values of the coalition AUCs:
// phi_1 = (v(1) - v(0) + v(12) - v(2)) / 2, v = AUC - 0.5 of gnb trained on the coalition's columns.
TEST(GroupedPlayers, BanknoteTwoGroupsAreTheTwoPlayerShapleyValuesOfTheAucs) {
  const Dataset data = Banknote();
  const Split split = HoldoutSplit(data.n_rows(), 0.2, 0, data.label());
  RobustnessOptions options;
  options.players = {{"variance+skewness", {0, 1}, {"variance", "skewness"}},
                     {"curtosis+entropy", {2, 3}, {"curtosis", "entropy"}}};
  const RobustnessResult r = ExplainRobustness(data, {split}, options);
  ASSERT_EQ(r.features, (std::vector<std::string>{"variance+skewness", "curtosis+entropy"}));
  const double v1 = CoalitionAuc("gnb", data, split, {0, 1}) - 0.5;
  const double v2 = CoalitionAuc("gnb", data, split, {2, 3}) - 0.5;
  const double v12 = CoalitionAuc("gnb", data, split, {0, 1, 2, 3}) - 0.5;
  EXPECT_NEAR(r.phi_auc_mean[0], 0.5 * (v1 + (v12 - v2)), 1e-15);
  EXPECT_NEAR(r.phi_auc_mean[1], 0.5 * (v2 + (v12 - v1)), 1e-15);
  EXPECT_NEAR(r.phi_auc_mean[0] + r.phi_auc_mean[1], r.auc_mean - 0.5, 1e-12);
  EXPECT_NEAR(r.auc_mean, v12 + 0.5, 1e-15);
  ASSERT_EQ(r.coalition_auc.size(), 4U);
  EXPECT_NEAR(r.coalition_auc[1], v1 + 0.5, 1e-15);
  EXPECT_NEAR(r.coalition_auc[2], v2 + 0.5, 1e-15);
}

Design AdultDesign(std::span<const std::size_t> features = {}) {
  CsvOptions csv;
  csv.label = "label";
  csv.missing = MissingValues::kCategory;
  const Dataset source = ReadCsv(testing::FixturePath("data/adult_head.csv"), csv);
  const DesignEncoder encoder(source, features, {}, TextColumns::kOneHot);
  return encoder.Apply(source);
}

// Acceptance: adult (first 1400 rows; 14 columns, 8 of them text, '?' a category) runs with 14
// players under gnb, and efficiency holds to 1e-12 for every output.
TEST(GroupedPlayers, AdultFourteenPlayersWithGnb) {
  const Design design = AdultDesign();
  ASSERT_EQ(design.players.size(), 14U);
  ASSERT_GT(design.data.n_features(), 40U);
  RobustnessOptions options;
  options.players = design.players;
  options.grid_points = 11;
  const Split split = HoldoutSplit(design.data.n_rows(), 0.25, 1, design.data.label());
  const RobustnessResult r = ExplainRobustness(design.data, {split}, options);
  ASSERT_EQ(r.features.size(), 14U);
  EXPECT_EQ(r.features[1], "workclass");
  double sum = 0, sum_auprc = 0;
  for (std::size_t i = 0; i < 14; ++i) {
    sum += r.phi_auc_mean[i];
    sum_auprc += r.phi_auprc_mean[i];
  }
  EXPECT_NEAR(sum, r.auc_mean - 0.5, 1e-12);
  EXPECT_NEAR(sum_auprc, r.auprc_mean - r.prc_baseline_mean, 1e-12);
  EXPECT_GT(r.auc_mean, 0.75);
  EXPECT_EQ(r.n_trainings, (std::uint64_t{1} << 14) - 1);
}

// Acceptance: logistic on 8 of adult's columns, text ones among them (workclass, education,
// marital_status, sex), 5 Monte-Carlo splits: efficiency to 1e-12 in every split.
TEST(GroupedPlayers, AdultEightColumnsWithTextUnderLogistic) {
  CsvOptions csv;
  csv.label = "label";
  csv.missing = MissingValues::kCategory;
  const Dataset source = ReadCsv(testing::FixturePath("data/adult_head.csv"), csv);
  std::vector<std::size_t> features;
  for (const char* name : {"age", "workclass", "education", "education_num", "marital_status", "sex",
                           "capital_gain", "hours_per_week"})
    features.push_back(source.FeatureIndex(name));
  const Design design = DesignEncoder(source, features, {}, TextColumns::kOneHot).Apply(source);
  ASSERT_EQ(design.players.size(), 8U);
  RobustnessOptions options;
  options.learner = MakeLearner("logistic");
  options.players = design.players;
  options.grid_points = 11;
  const SplitPlan plan = MonteCarloSplits(design.data.n_rows(), 5, 0.25, 2, design.data.label());
  const RobustnessResult r = ExplainRobustness(design.data, plan, options);
  for (std::size_t s = 0; s < plan.size(); ++s) {
    double sum = 0;
    for (std::size_t i = 0; i < 8; ++i) sum += r.phi_auc_by_split[s * 8 + i];
    EXPECT_NEAR(sum, r.auc_by_split[s] - 0.5, 1e-12) << "split " << s;
  }
  EXPECT_EQ(r.features[4], "marital_status");
  ASSERT_EQ(r.players[4].columns.size(), 6U);  // 7 levels in these rows, the first dropped
}

// XPER of groups: the players are the groups, efficiency holds globally and per individual,
// and grouping every column alone gives the ungrouped values bit for bit.
TEST(GroupedPlayers, XperOfGroupsSumsAndSingletonGroupsChangeNothing) {
  const Dataset data = Banknote();
  const std::vector<std::size_t> rows = [&] {
    std::vector<std::size_t> v;
    for (std::size_t r = 0; r < data.n_rows(); r += 7) v.push_back(r);
    return v;
  }();
  const Dataset sample = data.SelectRows(rows);
  const auto model = Train("logistic", data, rows, std::vector<std::size_t>{0, 1, 2, 3});
  for (const char* metric : {"auc", "brier", "accuracy"}) {
    XperOptions plain;
    plain.metric = metric;
    plain.comparator = XperComparator::kFull;
    const XperResult ungrouped = ExplainXper(*model, sample, plain);
    XperOptions singles = plain;
    for (std::size_t j = 0; j < 4; ++j) singles.players.push_back({data.feature_names()[j], {j}, {}});
    const XperResult same = ExplainXper(*model, sample, singles);
    EXPECT_EQ(same.phi, ungrouped.phi) << metric;
    EXPECT_EQ(same.individual_phi, ungrouped.individual_phi) << metric;
    XperOptions grouped = plain;
    grouped.players = {{"vs", {0, 1}, {}}, {"ce", {2, 3}, {}}};
    const XperResult g = ExplainXper(*model, sample, grouped);
    ASSERT_EQ(g.features, (std::vector<std::string>{"vs", "ce"}));
    EXPECT_NEAR(g.base + g.phi[0] + g.phi[1], g.value, 1e-12) << metric;
    EXPECT_EQ(g.value, ungrouped.value) << metric;
    EXPECT_EQ(g.base, ungrouped.base) << metric;
    for (std::size_t i = 0; i < sample.n_rows(); ++i)
      EXPECT_NEAR(g.individual_base[i] + g.individual(i, 0) + g.individual(i, 1), g.individual_value[i], 1e-12);
  }
}

}  // namespace
}}  // namespace perfshap
