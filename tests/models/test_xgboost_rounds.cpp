// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Boosting rounds of XGBoost models (issue 20): an early-stopped model is predicted and
// explained up to its best_iteration by default, as XGBoost's scikit-learn predict and shap do,
// and XgboostReadOptions::iteration_range overrides that. Checked against XGBoost 1.7.4's own
// margins and pred_contribs (tests/fixtures/xgboost/early_stopped*.json, a 3-class model with 2
// parallel trees per class: 6 trees a round), to the 1e-5 of the other XGBoost tests.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/treeshap.hpp"
#include "support/expect_error.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using Json = nlohmann::json;

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::string& ModelText() {
  static const std::string text = ReadText(testing::FixturePath("xgboost/early_stopped.json"));
  return text;
}

const Json& Expected() {
  static const Json e = Json::parse(ReadText(testing::FixturePath("xgboost/early_stopped_expected.json")));
  return e;
}

/** The expected rows, column-major. */
std::vector<double> Rows(std::size_t& n, std::size_t& F) {
  const Json& e = Expected();
  n = e.at("x").size();
  F = e.at("n_features").get<std::size_t>();
  std::vector<double> x(n * F);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t j = 0; j < F; ++j) {
      const Json& v = e["x"][r][j];
      x[j * n + r] = v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
    }
  return x;
}

void ExpectClose(double actual, double expected, const std::string& what) {
  EXPECT_LE(std::fabs(actual - expected), 1e-5 * std::max(1.0, std::fabs(expected)))
      << what << ": perfshap " << actual << ", XGBoost " << expected;
}

/** The model's margins (when `margin_key` is not empty) and TreeSHAP equal XGBoost's. */
void ExpectXgboost(const TreeEnsemble& model, const std::string& margin_key, const std::string& contribs_key) {
  std::size_t n = 0;
  std::size_t F = 0;
  const auto x = Rows(n, F);
  const std::size_t K = model.n_outputs();
  ASSERT_EQ(K, 3u);
  const Json& e = Expected();
  if (!margin_key.empty()) {
    std::vector<double> margin(K * n);
    model.PredictMargin(x, n, margin);
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t o = 0; o < K; ++o)
        ExpectClose(margin[o * n + r], e[margin_key][r][o].get<double>(),
                    margin_key + " row " + std::to_string(r) + " class " + std::to_string(o));
  }
  const auto phi = TreeShap(model, x, n);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t o = 0; o < K; ++o)
      for (std::size_t j = 0; j <= F; ++j)
        ExpectClose(phi[(r * K + o) * (F + 1) + j], e[contribs_key][r][o][j].get<double>(),
                    contribs_key + " row " + std::to_string(r) + " class " + std::to_string(o) + " feature " +
                        std::to_string(j));
}

TEST(XgboostRounds, EarlyStoppedModelStopsAtBestIteration) {
  const Json& e = Expected();
  const auto best = e["best_iteration"].get<std::int64_t>();
  const auto total = e["rounds"].get<std::int64_t>();
  ASSERT_LT(best + 1, total) << "the fixture did not stop after its best round";
  const auto model = ParseXgboostModel(ModelText(), "early_stopped.json");
  const BoostingRounds& r = model->info().rounds;
  EXPECT_EQ(r.total, total);
  EXPECT_EQ(r.begin, 0);
  EXPECT_EQ(r.end, best + 1);
  EXPECT_EQ(r.best_iteration, best);
  EXPECT_EQ(r.first_tree, 0);
  EXPECT_FALSE(r.explicit_range);
  EXPECT_EQ(model->trees().size(), static_cast<std::size_t>(6 * (best + 1)));  // 3 classes x 2 parallel trees
  EXPECT_NE(model->Describe().find(", rounds [0, " + std::to_string(best + 1) + ") of " + std::to_string(total) +
                                   " (best_iteration " + std::to_string(best) + ")"),
            std::string::npos)
      << model->Describe();
  ExpectXgboost(*model, "margin", "contribs");
}

TEST(XgboostRounds, AnIterationRangeOverridesBestIteration) {
  XgboostReadOptions all;
  all.iteration_range = IterationRange{0, 0};
  const auto whole = ParseXgboostModel(ModelText(), "early_stopped.json", all);
  EXPECT_EQ(whole->trees().size(), Expected()["n_trees"].get<std::size_t>());
  EXPECT_TRUE(whole->info().rounds.explicit_range);
  EXPECT_EQ(whole->info().rounds.end, Expected()["rounds"].get<std::int64_t>());
  EXPECT_NE(whole->Describe().find("all 13 rounds (best_iteration 9 not applied)"), std::string::npos)
      << whole->Describe();
  ExpectXgboost(*whole, "margin_all", "contribs_all");

  XgboostReadOptions some;
  some.iteration_range = IterationRange{2, 7};
  const auto range = ParseXgboostModel(ModelText(), "early_stopped.json", some);
  EXPECT_EQ(range->trees().size(), 30u);
  EXPECT_EQ(range->info().rounds.first_tree, 12);
  EXPECT_NE(range->Describe().find("rounds [2, 7) of 13"), std::string::npos) << range->Describe();
  ExpectXgboost(*range, "margin_range", "contribs_range");
}

// XGBoost 1.x wrote best_ntree_limit = (best_iteration + 1) x num_parallel_tree too, and older
// files only that.
TEST(XgboostRounds, BestNtreeLimitAloneGivesTheSameRounds) {
  Json json = Json::parse(ModelText());
  Json& attributes = json["learner"]["attributes"];
  ASSERT_EQ(attributes["best_ntree_limit"].get<std::string>(),
            std::to_string(2 * (Expected()["best_iteration"].get<int>() + 1)));
  attributes.erase("best_iteration");
  const auto model = ParseXgboostModel(json.dump(), "limit.json");
  EXPECT_EQ(model->info().rounds.end, Expected()["best_iteration"].get<std::int64_t>() + 1);
  EXPECT_EQ(model->info().rounds.best_iteration, Expected()["best_iteration"].get<std::int64_t>());
  ExpectXgboost(*model, "margin", "contribs");
}

// XGBoost 1.7's train() writes best_iteration = the last round even without early stopping:
// every round is used and the description is as before.
TEST(XgboostRounds, ABestIterationAtTheLastRoundUsesEveryRound) {
  const std::string text = ReadText(testing::FixturePath("xgboost/binary_logistic.json"));
  const auto model = ParseXgboostModel(text, "binary_logistic.json");
  EXPECT_EQ(model->info().rounds.total, 20);
  EXPECT_EQ(model->info().rounds.end, 20);
  EXPECT_EQ(model->info().rounds.best_iteration, 19);
  EXPECT_EQ(model->Describe(), "XGBoost binary:logistic, 20 trees, depth <= 4");
  Json json = Json::parse(text);
  json["learner"].erase("attributes");
  EXPECT_EQ(ParseXgboostModel(json.dump(), "none.json")->info().rounds.best_iteration, -1);
  XgboostReadOptions first;
  first.iteration_range = IterationRange{0, 5};
  const auto five = ParseXgboostModel(text, "binary_logistic.json", first);
  ASSERT_EQ(five->trees().size(), 5u);
  for (std::size_t t = 0; t < 5; ++t) {
    EXPECT_EQ(five->trees()[t].threshold, model->trees()[t].threshold);
    EXPECT_EQ(five->trees()[t].value, model->trees()[t].value);
  }
}

TEST(XgboostRounds, RefusesRangesOutsideTheRoundsAndBadAttributes) {
  for (const IterationRange r : {IterationRange{5, 3}, IterationRange{4, 4}, IterationRange{0, 14},
                                 IterationRange{13, 0}, IterationRange{-1, 2}}) {
    XgboostReadOptions o;
    o.iteration_range = r;
    testing::ExpectError<InvalidArgument>(
        [&] { ParseXgboostModel(ModelText(), "early_stopped.json", o); },
        {"early_stopped.json", "iteration range [" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")",
         "13 rounds", "0 <= begin < end <= 13"},
        "iteration_range");
  }
  Json json = Json::parse(ModelText());
  // best_iteration past the rounds held: a slice (booster[0:13] of a longer model) that kept its
  // parent's attribute. Every tree it holds is explained, and the description says why.
  json["learner"]["attributes"]["best_iteration"] = "13";
  const auto slice = ParseXgboostModel(json.dump(), "beyond.json");
  EXPECT_EQ(slice->trees().size(), 78u);
  EXPECT_EQ(slice->info().rounds.best_iteration, -1);
  EXPECT_EQ(slice->info().rounds.sliced_best_iteration, 13);
  EXPECT_NE(slice->Describe().find("all 13 rounds (a slice: the best_iteration 13 it keeps is its parent's)"),
            std::string::npos)
      << slice->Describe();
  // An explicit range needs no usable best_iteration.
  XgboostReadOptions all;
  all.iteration_range = IterationRange{0, 0};
  EXPECT_EQ(ParseXgboostModel(json.dump(), "beyond.json", all)->trees().size(), 78u);
  json["learner"]["attributes"]["best_iteration"] = "nine";
  testing::ExpectDataError([&] { ParseXgboostModel(json.dump(), "words.json"); },
                           {"words.json", "learner.attributes.best_iteration is \"nine\", not a count"});
}

}  // namespace
}}  // namespace perfshap
