// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Models saved by XGBoost 3.4.1 (tests/fixtures/xgboost3, written by make_fixtures.py there with
// the peer in shared/peers; the tests read the committed files only): base_score as a per-output
// vector in a string ("[7.06E-3,1.92E-1,-1.99E-1]"), a user's base_score repeated per class, a
// slice of an early-stopped booster. TreeSHAP equals that version's pred_contribs, the margin its
// output_margin, to 1e-5.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "perfshap/blocks/trees.hpp"
#include "perfshap/treeshap.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using Json = nlohmann::json;

Json ReadJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

/** Rows of `e["x"]` column-major (NaN for null). */
std::vector<double> Rows(const Json& e, std::size_t F) {
  const std::size_t n = e.at("x").size();
  std::vector<double> x(n * F);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t j = 0; j < F; ++j) {
      const Json& v = e["x"][r][j];
      x[j * n + r] = v.is_null() ? std::numeric_limits<double>::quiet_NaN() : v.get<double>();
    }
  return x;
}

/** Value (r, o, j) of XGBoost's (rows, [classes,] k) output. */
double At(const Json& a, std::size_t r, std::size_t o, std::size_t j) {
  const Json& row = a.at(r);
  return row.at(0).is_array() ? row.at(o).at(j).get<double>() : row.at(j).get<double>();
}
double AtMargin(const Json& a, std::size_t r, std::size_t o) {
  const Json& row = a.at(r);
  return row.is_array() ? row.at(o).get<double>() : row.get<double>();
}

/** TreeSHAP and the margin of `model` on the expected file's rows against `contribs` and `margin`. */
void ExpectXgboostOutputs(const TreeEnsemble& model, const Json& e, const char* contribs_key, const char* margin_key) {
  const std::size_t F = model.n_features();
  const std::size_t K = model.n_outputs();
  const std::size_t n = e.at("x").size();
  ASSERT_EQ(F, e.at("n_features").get<std::size_t>());
  const std::vector<double> x = Rows(e, F);
  const std::vector<double> phi = TreeShap(model, x, n);
  std::vector<double> margin(n * K);
  model.PredictMargin(x, n, margin);
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t o = 0; o < K; ++o) {
      const double m = AtMargin(e.at(margin_key), r, o);
      EXPECT_LE(std::fabs(margin[o * n + r] - m), 1e-5 * std::max(1.0, std::fabs(m))) << "row " << r << " output " << o;
      for (std::size_t j = 0; j <= F; ++j) {
        const double want = At(e.at(contribs_key), r, o, j);
        const double got = phi[(r * K + o) * (F + 1) + j];
        EXPECT_LE(std::fabs(got - want), 1e-5 * std::max(1.0, std::fabs(want)))
            << "row " << r << " output " << o << (j == F ? " bias" : " feature " + std::to_string(j)) << ": perfshap "
            << got << ", XGBoost 3.4.1 " << want;
      }
    }
}

TEST(Xgboost3Models, BaseScoreVectorsGiveTheValuesOfXgboost341) {
  for (const char* name :
       {"binary_logistic", "binary_base_score", "reg_squarederror", "multi_softprob", "multi_base_score"}) {
    SCOPED_TRACE(name);
    const Json e = ReadJson(testing::FixturePath(std::string("xgboost3/") + name + "_expected.json"));
    ASSERT_EQ(e.at("xgboost_version").get<std::string>(), "3.4.1");
    // The vector form is what these files exercise.
    ASSERT_EQ(e.at("base_score_text").get<std::string>().front(), '[');
    const auto model = ReadXgboostModel(testing::FixturePath(std::string("xgboost3/") + name + ".json"));
    ExpectXgboostOutputs(*model, e, "contribs", "margin");
    // Each output's base is XGBoost's own margin with every leaf at 0 (base_margin).
    const Json& base = e.at("base_margin");
    for (std::size_t o = 0; o < model->n_outputs(); ++o) {
      const double want = base.is_array() ? base.at(o).get<double>() : base.get<double>();
      EXPECT_NEAR(model->info().base_margin[o], want, 1e-5 * std::max(1.0, std::fabs(want))) << "output " << o;
    }
  }
  // The per-class default differs by class: one number for every class would be wrong.
  const auto multi = ReadXgboostModel(testing::FixturePath("xgboost3/multi_softprob.json"));
  EXPECT_NE(multi->info().base_margin[0], multi->info().base_margin[1]);
}

TEST(Xgboost3Models, SlicesAndEarlyStoppingAsXgboost341) {
  // booster[0:5] of a 7-round model early-stopped at round 2: every tree the slice holds.
  const Json s = ReadJson(testing::FixturePath("xgboost3/sliced_expected.json"));
  const auto slice = ReadXgboostModel(testing::FixturePath("xgboost3/sliced.json"));
  EXPECT_EQ(static_cast<std::int64_t>(slice->trees().size()), s.at("n_trees").get<std::int64_t>());
  ExpectXgboostOutputs(*slice, s, "contribs", "margin");
  // The early-stopped parent: up to best_iteration by default, every round when asked.
  const Json e = ReadJson(testing::FixturePath("xgboost3/early_stopped_expected.json"));
  const auto best = ReadXgboostModel(testing::FixturePath("xgboost3/early_stopped.json"));
  EXPECT_EQ(best->info().rounds.best_iteration, e.at("best_iteration").get<std::int64_t>());
  ExpectXgboostOutputs(*best, e, "contribs", "margin");
  XgboostReadOptions all;
  all.iteration_range = IterationRange{0, 0};
  ExpectXgboostOutputs(*ReadXgboostModel(testing::FixturePath("xgboost3/early_stopped.json"), all), e, "contribs_all",
                       "margin_all");
}

}  // namespace
}}  // namespace perfshap
