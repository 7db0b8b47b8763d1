// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// XGBoost JSON models read into TreeEnsembles: margins and predictions equal XGBoost 1.7.4's own
// (tests/fixtures/xgboost, written by make_fixtures.py there), and every refusal is one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/trees.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"
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

std::string ModelPath(const std::string& name) { return testing::FixturePath("xgboost/" + name + ".json"); }

Json ModelJson(const std::string& name) { return Json::parse(ReadText(ModelPath(name))); }

/** @brief A fixture's expected outputs (make_fixtures.py) with its rows column-major. */
struct Expected {
  Json json;
  std::size_t n_rows = 0;
  std::size_t n_features = 0;
  std::vector<double> x;  // feature j of row r at x[j * n_rows + r], NaN for null cells

  explicit Expected(const std::string& name)
      : json(Json::parse(ReadText(testing::FixturePath("xgboost/" + name + "_expected.json")))) {
    n_rows = json.at("x").size();
    n_features = json.at("n_features").get<std::size_t>();
    x.resize(n_rows * n_features);
    for (std::size_t r = 0; r < n_rows; ++r) {
      const Json& row = json["x"][r];
      EXPECT_EQ(row.size(), n_features);
      for (std::size_t j = 0; j < n_features; ++j)
        x[j * n_rows + r] = row[j].is_null() ? std::numeric_limits<double>::quiet_NaN() : row[j].get<double>();
    }
  }
  /** @brief Rows with a missing cell. */
  std::size_t RowsWithNaN() const {
    std::size_t count = 0;
    for (std::size_t r = 0; r < n_rows; ++r) {
      bool nan = false;
      for (std::size_t j = 0; j < n_features; ++j) nan = nan || std::isnan(x[j * n_rows + r]);
      count += nan ? 1 : 0;
    }
    return count;
  }
  /** @brief Value o of row r of a per-row array: a number (one output) or a list (one per class). */
  static double At(const Json& rows, std::size_t r, std::size_t o) {
    const Json& v = rows.at(r);
    return v.is_array() ? v.at(o).get<double>() : v.get<double>();
  }
};

/** @brief |actual - expected| <= 1e-5, relative to |expected| beyond 1. */
void ExpectClose(double actual, double expected, const std::string& what) {
  EXPECT_LE(std::fabs(actual - expected), 1e-5 * std::max(1.0, std::fabs(expected)))
      << what << ": perfshap " << actual << ", XGBoost " << expected;
}

/** @brief The model's margins and predictions on the expected rows equal XGBoost's. */
void ExpectSameOutputs(const TreeEnsemble& model, const Expected& e, const std::string& name) {
  ASSERT_EQ(model.n_features(), e.n_features) << name;
  const std::size_t n = e.n_rows;
  const std::size_t k = model.n_outputs();
  std::vector<double> margin(n * k), prediction(n * k);
  model.PredictMargin(e.x, n, margin);
  model.Predict(e.x, n, prediction);
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t o = 0; o < k; ++o) {
      const std::string where = name + " row " + std::to_string(r) + " output " + std::to_string(o);
      ExpectClose(margin[o * n + r], Expected::At(e.json["margin"], r, o), where + " margin");
      ExpectClose(prediction[o * n + r], Expected::At(e.json["prediction"], r, o), where + " prediction");
    }
  }
}

struct Case {
  const char* name;
  std::size_t n_outputs;
  bool classifier;
  TreeTransform transform;
  std::size_t n_trees;
};

constexpr Case kCases[] = {
    {"binary_logistic", 1, true, TreeTransform::kLogistic, 20},
    {"binary_logistic_100x6", 1, true, TreeTransform::kLogistic, 100},
    {"reg_squarederror", 1, false, TreeTransform::kIdentity, 15},
    {"multi_softprob", 3, true, TreeTransform::kSoftmax, 30},
};

TEST(XgboostModel, MarginsAndPredictionsEqualXgboost) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    const auto model = ReadXgboostModel(ModelPath(c.name));
    const Expected e(c.name);
    EXPECT_GE(e.n_rows, 40u);
    EXPECT_GT(e.RowsWithNaN(), 0u) << "the expected rows take no default direction";
    EXPECT_EQ(model->n_outputs(), c.n_outputs);
    EXPECT_EQ(model->is_classifier(), c.classifier);
    EXPECT_EQ(model->info().transform, c.transform);
    EXPECT_EQ(model->info().rule, SplitRule::kLessFloat);
    EXPECT_EQ(model->trees().size(), c.n_trees);
    EXPECT_EQ(model->trees().size(), e.json["n_trees"].get<std::size_t>());
    EXPECT_EQ(model->info().feature_names, e.json["feature_names"].get<std::vector<std::string>>());
    EXPECT_EQ(model->info().tree_scale, 1.0);
    EXPECT_NE(model->Describe().find("XGBoost " + e.json["objective"].get<std::string>() + ", "), std::string::npos)
        << model->Describe();
    EXPECT_NE(model->Describe().find(std::to_string(c.n_trees) + " trees, depth <= "), std::string::npos)
        << model->Describe();
    ExpectSameOutputs(*model, e, c.name);
  }
}

TEST(XgboostModel, DescribesObjectiveTreesAndDepth) {
  EXPECT_EQ(ReadXgboostModel(ModelPath("binary_logistic"))->Describe(),
            "XGBoost binary:logistic, 20 trees, depth <= 4");
  EXPECT_EQ(ReadXgboostModel(ModelPath("binary_logistic_100x6"))->Describe(),
            "XGBoost binary:logistic, 100 trees, depth <= 6");
  EXPECT_EQ(ReadXgboostModel(ModelPath("reg_squarederror"))->Describe(),
            "XGBoost reg:squarederror, 15 trees, depth <= 3");
  EXPECT_EQ(ReadXgboostModel(ModelPath("multi_softprob"))->Describe(),
            "XGBoost multi:softprob, 3 classes, 30 trees, depth <= 3");
  const auto model = ReadXgboostModel(ModelPath("binary_logistic_100x6"));
  EXPECT_EQ(model->max_depth(), 6);
}

TEST(XgboostModel, FeatureNamesAreTheModelsOrNone) {
  const auto bc = ReadXgboostModel(ModelPath("binary_logistic"));
  ASSERT_EQ(bc->info().feature_names.size(), 30u);
  EXPECT_EQ(bc->info().feature_names.front(), "mean_radius");
  EXPECT_EQ(bc->info().feature_names.back(), "worst_fractal_dimension");
  const auto pima = ReadXgboostModel(ModelPath("reg_squarederror"));
  EXPECT_EQ(pima->info().feature_names,
            (std::vector<std::string>{"pregnancies", "blood_pressure", "skin_thickness", "insulin", "bmi",
                                      "diabetes_pedigree_function", "age", "label"}));
  const auto wine = ReadXgboostModel(ModelPath("multi_softprob"));
  EXPECT_TRUE(wine->info().feature_names.empty());  // trained without names
  EXPECT_EQ(wine->n_features(), 13u);
}

// base_score moves to the margin as XGBoost's objective does: binary:logistic's logit(0.3),
// reg:squarederror's 120 and multi:softprob's 0.5 as they are.
TEST(XgboostModel, BaseScoreIsOnTheMarginScale) {
  const auto bc = ReadXgboostModel(ModelPath("binary_logistic"));
  EXPECT_NEAR(bc->base_margin(0), std::log(0.3 / 0.7), 1e-7);
  const auto pima = ReadXgboostModel(ModelPath("reg_squarederror"));
  EXPECT_EQ(pima->base_margin(0), 120.0);
  const auto wine = ReadXgboostModel(ModelPath("multi_softprob"));
  for (std::size_t o = 0; o < 3; ++o) EXPECT_EQ(wine->base_margin(o), 0.5);
  // The trees of a multi-class model take turns over the classes (tree_info).
  for (std::size_t t = 0; t < wine->trees().size(); ++t) EXPECT_EQ(wine->trees()[t].output, static_cast<int>(t % 3));
}

// XGBoost compares float32(x) < threshold: a value just below a threshold in double that rounds
// to it goes right, as the threshold itself (the last six rows of binary_logistic_expected.json).
TEST(XgboostModel, SplitsCompareInFloat) {
  const auto model = ReadXgboostModel(ModelPath("binary_logistic"));
  const Expected e("binary_logistic");
  const std::size_t n = e.n_rows;
  ASSERT_GE(n, 6u);
  for (std::size_t t = 0; t < 3; ++t) {
    const Tree& tree = model->trees()[t];
    const auto f = static_cast<std::size_t>(tree.feature[0]);
    const std::size_t at = n - 6 + 2 * t;
    const double threshold = e.x[f * n + at];
    const double below = e.x[f * n + at + 1];
    EXPECT_EQ(threshold, tree.threshold[0]);
    EXPECT_LT(below, threshold);
    EXPECT_EQ(static_cast<float>(below), static_cast<float>(threshold));
    EXPECT_EQ(Expected::At(e.json["margin"], at, 0), Expected::At(e.json["margin"], at + 1, 0));
    // Both go right at the root, as in XGBoost.
    std::vector<double> row(e.n_features);
    for (std::size_t j = 0; j < e.n_features; ++j) row[j] = e.x[j * n + at + 1];
    const std::size_t leaf = tree.Leaf(row, SplitRule::kLessFloat);
    std::size_t i = static_cast<std::size_t>(tree.right[0]);
    bool under_right = false;
    // The leaf lies below the root's right child.
    std::vector<std::size_t> stack{i};
    while (!stack.empty()) {
      i = stack.back();
      stack.pop_back();
      if (i == leaf) under_right = true;
      if (!tree.is_leaf(i)) {
        stack.push_back(static_cast<std::size_t>(tree.left[i]));
        stack.push_back(static_cast<std::size_t>(tree.right[i]));
      }
    }
    EXPECT_TRUE(under_right) << "tree " << t;
  }
}

// tree_method "exact" with gamma leaves pruned nodes in the arrays: they are dropped.
TEST(XgboostModel, DropsThePrunedNodes) {
  const Json json = ModelJson("reg_squarederror");
  const auto model = ReadXgboostModel(ModelPath("reg_squarederror"));
  const Json& trees = json["learner"]["gradient_booster"]["model"]["trees"];
  std::size_t deleted = 0;
  for (std::size_t t = 0; t < trees.size(); ++t) {
    const auto num_nodes = std::stoul(trees[t]["tree_param"]["num_nodes"].get<std::string>());
    const auto num_deleted = std::stoul(trees[t]["tree_param"]["num_deleted"].get<std::string>());
    EXPECT_EQ(model->trees()[t].n_nodes(), num_nodes - num_deleted) << "tree " << t;
    deleted += num_deleted;
  }
  EXPECT_GT(deleted, 0u) << "the fixture has no pruned node to drop";
  // Covers are the hessian sums, float32 as XGBoost keeps them; internal nodes hold the
  // cover-weighted mean of their children's values.
  const Tree& tree = model->trees()[0];
  EXPECT_EQ(tree.cover[0], static_cast<double>(trees[0]["sum_hessian"][0].get<float>()));
  for (std::size_t i = 0; i < tree.n_nodes(); ++i) {
    if (tree.is_leaf(i)) continue;
    const auto a = static_cast<std::size_t>(tree.left[i]);
    const auto b = static_cast<std::size_t>(tree.right[i]);
    EXPECT_NEAR(tree.value[i], (tree.value[a] * tree.cover[a] + tree.value[b] * tree.cover[b]) / tree.cover[i],
                1e-12 * std::max(1.0, std::fabs(tree.value[i])));
  }
}

// multi:softmax has multi:softprob's margins; perfshap predicts the class probabilities of both
// (XGBoost's predict gives the class index for softmax).
TEST(XgboostModel, MultiSoftmaxReadsAsSoftprob) {
  Json json = ModelJson("multi_softprob");
  json["learner"]["objective"]["name"] = "multi:softmax";
  const auto model = ParseXgboostModel(json.dump(), "softmax.json");
  EXPECT_EQ(model->info().transform, TreeTransform::kSoftmax);
  EXPECT_TRUE(model->is_classifier());
  ExpectSameOutputs(*model, Expected("multi_softprob"), "multi:softmax");
}

// Other spellings XGBoost versions use: booleans for default_left, numbers for the counts,
// reg:linear for reg:squarederror, base_score as a list ("[1.2E2]", XGBoost 3).
TEST(XgboostModel, ReadsOtherSpellingsOfTheSameModel) {
  Json json = ModelJson("reg_squarederror");
  Json& learner = json["learner"];
  learner["learner_model_param"]["num_feature"] = 8;
  learner["learner_model_param"]["num_class"] = 0;
  learner["learner_model_param"]["base_score"] = "[1.2E2]";
  learner["objective"]["name"] = "reg:linear";
  for (Json& tree : learner["gradient_booster"]["model"]["trees"]) {
    for (Json& d : tree["default_left"]) d = d.get<int>() != 0;
    tree["tree_param"]["num_nodes"] = std::stoi(tree["tree_param"]["num_nodes"].get<std::string>());
  }
  const auto model = ParseXgboostModel(json.dump(), "spelt.json");
  ExpectSameOutputs(*model, Expected("reg_squarederror"), "reg:linear");
}

// A best_iteration short of the last round stops the model there by default (as XGBoost's
// scikit-learn predict and shap do; tests/models/test_xgboost_rounds.cpp checks the numbers);
// the iteration range {0, 0} takes every tree, as Booster.predict does.
TEST(XgboostModel, StopsAtABestIterationBeforeTheLastRound) {
  Json json = ModelJson("binary_logistic");
  json["learner"]["attributes"]["best_iteration"] = "5";
  const auto model = ParseXgboostModel(json.dump(), "early.json");
  EXPECT_EQ(model->trees().size(), 6u);
  EXPECT_NE(model->Describe().find("rounds [0, 6) of 20 (best_iteration 5)"), std::string::npos) << model->Describe();
  XgboostReadOptions all;
  all.iteration_range = IterationRange{0, 0};
  const auto whole = ParseXgboostModel(json.dump(), "early.json", all);
  EXPECT_EQ(whole->trees().size(), 20u);
  EXPECT_NE(whole->Describe().find("all 20 rounds (best_iteration 5 not applied)"), std::string::npos)
      << whole->Describe();
  ExpectSameOutputs(*whole, Expected("binary_logistic"), "best_iteration");
}

// Every other gbtree objective of XGBoost 1.7 (make_fixtures.py's OBJECTIVES): the margins and the
// predictions on the output scale equal XGBoost's, base_score moved to the margin by the
// objective's link (identity, logit or log).
TEST(XgboostModel, EveryObjectiveEqualsXgboostOnBothScales) {
  struct Objective {
    const char* name;
    bool classifier;
    TreeTransform transform;
  };
  constexpr Objective kObjectives[] = {
      {"binary_logitraw", true, TreeTransform::kLogistic},  {"binary_hinge", true, TreeTransform::kStep},
      {"reg_logistic", false, TreeTransform::kLogistic},    {"reg_squaredlogerror", false, TreeTransform::kIdentity},
      {"reg_pseudohubererror", false, TreeTransform::kIdentity},
      {"reg_absoluteerror", false, TreeTransform::kIdentity},
      {"count_poisson", false, TreeTransform::kExp},        {"reg_gamma", false, TreeTransform::kExp},
      {"reg_tweedie", false, TreeTransform::kExp},          {"survival_cox", false, TreeTransform::kExp},
      {"survival_aft", false, TreeTransform::kExp},         {"rank_pairwise", false, TreeTransform::kIdentity},
      {"rank_ndcg", false, TreeTransform::kIdentity},       {"rank_map", false, TreeTransform::kIdentity},
  };
  for (const Objective& c : kObjectives) {
    SCOPED_TRACE(c.name);
    const auto model = ReadXgboostModel(ModelPath(c.name));
    const Expected e(c.name);
    EXPECT_GT(e.RowsWithNaN(), 0u);
    EXPECT_EQ(model->is_classifier(), c.classifier);
    EXPECT_EQ(model->info().transform, c.transform);
    EXPECT_EQ(model->n_outputs(), 1u);
    EXPECT_NE(model->Describe().find("XGBoost " + e.json["objective"].get<std::string>() + ", 8 trees"),
              std::string::npos)
        << model->Describe();
    const std::size_t n = e.n_rows;
    std::vector<double> margin(n), prediction(n);
    model->PredictMargin(e.x, n, margin);
    model->Predict(e.x, n, prediction);
    std::size_t distinct = 0;
    for (std::size_t r = 0; r < n; ++r) {
      const double m = Expected::At(e.json["margin"], r, 0);
      ExpectClose(margin[r], m, "row " + std::to_string(r) + " margin");
      // XGBoost's predict() of binary:logitraw is its margin; perfshap, for a classifier,
      // predicts the probability: the logistic of that margin.
      const double p = std::string(c.name) == "binary_logitraw" ? 1.0 / (1.0 + std::exp(-m))
                                                                : Expected::At(e.json["prediction"], r, 0);
      ExpectClose(prediction[r], p, "row " + std::to_string(r) + " prediction");
      distinct += r > 0 && margin[r] != margin[0] ? 1 : 0;
    }
    EXPECT_GT(distinct, 0u) << "the trees do not split the expected rows";
  }
}

TEST(XgboostModel, RefusesOtherBoostersAndObjectives) {
  testing::ExpectDataError([] { ReadXgboostModel(ModelPath("gblinear")); },
                           {"XGBoost model ", "gblinear.json", "'gblinear'", "gbtree", "booster=\"gbtree\""});
  testing::ExpectDataError([] { ReadXgboostModel(ModelPath("dart")); },
                           {"dart.json", "'dart'", "gbtree models only", "booster=\"gbtree\""});
  // An objective XGBoost 1.7 does not have (2.0's quantile regression, which may hold several
  // quantiles), written into a model perfshap reads otherwise.
  Json model = ModelJson("binary_hinge");
  model["learner"]["objective"]["name"] = "reg:quantileerror";
  testing::ExpectDataError([&] { ParseXgboostModel(model.dump(), "quantile.json"); },
                           {"quantile.json", "'reg:quantileerror'", "binary:logistic", "reg:squarederror",
                            "count:poisson", "rank:pairwise", "multi:softprob", "multi:softmax"});
  // A log-link objective needs a positive base_score.
  Json poisson = ModelJson("count_poisson");
  poisson["learner"]["learner_model_param"]["base_score"] = "0E0";
  testing::ExpectDataError([&] { ParseXgboostModel(poisson.dump(), "poisson.json"); },
                           {"poisson.json", "base_score", "count:poisson", "positive"});
}

TEST(XgboostModel, RefusesCategoricalSplitsAndVectorLeaves) {
  testing::ExpectDataError([] { ReadXgboostModel(ModelPath("categorical")); },
                           {"categorical.json", "tree 0, node 1 is a categorical split", "one-hot"});
  // XGBoost writes a categorical split's condition as NaN, a word JSON lacks: the file is read
  // nonetheless. A categorical split listed only in categories_nodes (no split_type) is found too.
  const std::string text = ReadText(ModelPath("categorical"));
  ASSERT_NE(text.find(",NaN,"), std::string::npos);
  const std::string no_split_type = std::regex_replace(text, std::regex("\"split_type\":\\[[^\\]]*\\],"), "");
  ASSERT_EQ(no_split_type.find("split_type"), std::string::npos);
  testing::ExpectDataError([&] { ParseXgboostModel(no_split_type, "nosplittype.json"); },
                           {"nosplittype.json", "tree 0, node 1 is a categorical split"});
  Json json = ModelJson("binary_logistic");
  json["learner"]["gradient_booster"]["model"]["trees"][3]["tree_param"]["size_leaf_vector"] = "3";
  testing::ExpectDataError([&] { ParseXgboostModel(json.dump(), "vector.json"); },
                           {"vector.json", "tree 3 has vector leaves (size_leaf_vector 3)", "multi_strategy"});
  json = ModelJson("binary_logistic");
  json["learner"]["learner_model_param"]["num_target"] = "2";
  testing::ExpectDataError([&] { ParseXgboostModel(json.dump(), "targets.json"); }, {"targets.json", "2 targets"});
}

TEST(XgboostModel, RefusesFilesThatAreNotModels) {
  testing::ExpectDataError([] { ReadXgboostModel(ModelPath("truncated")); },
                           {"truncated.json", "ends early", "seems truncated", "save the model again"});
  const std::string garbage = testing::WriteTempFile("garbage.json", "this is\nnot JSON\x01\xff at all\n");
  // Its 0xFF is not UTF-8: refused while reading, naming where.
  testing::ExpectDataError([&] { ReadXgboostModel(garbage); }, {"garbage.json", "line 2, column 10", "not UTF-8"});
  const std::string words = testing::WriteTempFile("words.json", "this is\nnot JSON\x01 at all\n");
  testing::ExpectDataError([&] { ReadXgboostModel(words); }, {"words.json", "not JSON", "byte 2"});
  const std::string empty = testing::WriteTempFile("empty.json", " \n");
  testing::ExpectDataError([&] { ReadXgboostModel(empty); }, {"empty.json", "the file is empty"});
  const std::string other = testing::WriteTempFile("other.json", "{\"train\": [1, 2]}");
  testing::ExpectDataError([&] { ReadXgboostModel(other); }, {"other.json", "not an XGBoost model", "learner"});
  const std::string dump = testing::WriteTempFile("dump.json", "[{\"nodeid\": 0, \"leaf\": 0.5}]");
  testing::ExpectDataError([&] { ReadXgboostModel(dump); }, {"dump.json", "tree dump", "save_model"});
  const std::string missing = testing::FixtureDir() + "/xgboost/no_such_model.json";
  testing::ExpectDataError([&] { ReadXgboostModel(missing); }, {"no_such_model.json", "no such file"});
  testing::ExpectDataError([] { ReadXgboostModel(testing::FixtureDir() + "/xgboost"); }, {"is a directory"});
  // UBJSON (Booster.save_model("m.ubj")) is recognised and sent back to JSON.
  const std::vector<std::uint8_t> ubj = Json::to_ubjson(ModelJson("binary_logistic"));
  const std::string ubj_text(ubj.begin(), ubj.end());
  testing::ExpectDataError([&] { ParseXgboostModel(ubj_text, "m.ubj"); }, {"m.ubj", "UBJSON", ".json"});
}

TEST(XgboostModel, RefusesInconsistentTreesNamingThem) {
  const auto expect_bad = [](const std::function<void(Json&)>& edit, std::initializer_list<std::string> parts) {
    Json json = ModelJson("binary_logistic");
    edit(json);
    testing::ExpectDataError([&] { ParseXgboostModel(json.dump(), "edited.json"); }, parts);
  };
  const auto tree = [](Json& json, std::size_t t) -> Json& {
    return json["learner"]["gradient_booster"]["model"]["trees"][t];
  };
  expect_bad([&](Json& j) { tree(j, 2)["left_children"].erase(0); },
             {"edited.json", "tree 2.left_children has", "values for", "inconsistent"});
  expect_bad([&](Json& j) { tree(j, 1)["left_children"][0] = 999; }, {"tree 1, node 0 has child 999", "inconsistent"});
  expect_bad([&](Json& j) { tree(j, 1)["right_children"][0] = tree(j, 1)["left_children"][0]; },
             {"tree 1, node 0 has child", "not a new node"});
  expect_bad([&](Json& j) { tree(j, 4)["split_indices"][0] = 40; },
             {"edited.json", "tree 4, node 0 splits on feature 40 of a model with 30 features"});
  expect_bad([&](Json& j) { tree(j, 0)["sum_hessian"][0] = -1.0; }, {"tree 0, node 0 has cover"});
  expect_bad([&](Json& j) { tree(j, 0).erase("sum_hessian"); }, {"tree 0.sum_hessian is missing"});
  expect_bad([&](Json& j) { tree(j, 0)["split_conditions"][1] = "x"; },
             {"tree 0.split_conditions[1] is \"x\", not a number"});
  expect_bad([&](Json& j) { j["learner"]["gradient_booster"]["model"]["tree_info"].erase(0); },
             {"tree_info has 19 entries for 20 trees"});
  expect_bad([&](Json& j) { j["learner"]["gradient_booster"]["model"]["tree_info"][7] = 1; },
             {"tree 7 adds to output group 1 of a model with 1 outputs"});
  expect_bad([&](Json& j) { j["learner"]["feature_names"].erase(0); }, {"29 names for 30 features"});
  expect_bad([&](Json& j) { j["learner"]["learner_model_param"]["base_score"] = "1E0"; },
             {"base_score is 1.0", "binary:logistic needs a probability in (0, 1)"});
  expect_bad([&](Json& j) { j["learner"]["learner_model_param"]["num_class"] = "3"; },
             {"binary:logistic has one output but num_class is 3"});
  expect_bad([&](Json& j) { j["learner"]["learner_model_param"]["num_feature"] = "many"; },
             {"learner.learner_model_param.num_feature is \"many\", not a count"});
  expect_bad([&](Json& j) { j["learner"].erase("gradient_booster"); }, {"learner.gradient_booster is missing"});
  expect_bad([&](Json& j) { j["learner"]["gradient_booster"]["model"]["trees"] = 3; },
             {"trees and .tree_info must be arrays"});
}

// XGBoost writes non-finite floats as NaN, Infinity and -Infinity, which JSON lacks; in strings
// the words stay as they are.
TEST(XgboostModel, ReadsTheNonFiniteWordsXgboostWrites) {
  std::string text = ReadText(ModelPath("binary_logistic"));
  const auto loss = text.find("\"loss_changes\":[");
  ASSERT_NE(loss, std::string::npos);
  const auto first = loss + std::string("\"loss_changes\":[").size();
  text.replace(first, text.find(',', first) - first, "Infinity");
  const auto second = text.find("\"loss_changes\":[", first);
  const auto value = second + std::string("\"loss_changes\":[").size();
  text.replace(value, text.find(',', value) - value, "-Infinity");
  const auto name = text.find("\"mean_radius\"");
  ASSERT_NE(name, std::string::npos);
  text.replace(name, std::string("\"mean_radius\"").size(), "\"NaN Infinity\"");
  const auto model = ParseXgboostModel(text, "words.json");
  EXPECT_EQ(model->info().feature_names.front(), "NaN Infinity");
  ExpectSameOutputs(*model, Expected("binary_logistic"), "words");
  // A leaf value NaN is refused, naming the tree and node.
  std::string leaf = ReadText(ModelPath("binary_logistic"));
  const auto conditions = leaf.find("\"split_conditions\":[");
  const auto leaves = ModelJson("binary_logistic")["learner"]["gradient_booster"]["model"]["trees"][0];
  std::size_t k = 0;
  while (leaves["left_children"][k].get<int>() >= 0) ++k;
  std::size_t at = conditions + std::string("\"split_conditions\":[").size();
  for (std::size_t i = 0; i < k; ++i) at = leaf.find(',', at) + 1;
  leaf.replace(at, leaf.find_first_of(",]", at) - at, "NaN");
  testing::ExpectDataError(
      [&] { ParseXgboostModel(leaf, "nan.json"); },
      {"nan.json", "tree 0, node " + std::to_string(k) + " is a leaf with a value that is not finite"});
}

// The source given to ParseXgboostModel names the model in every message, escaped to one line.
TEST(XgboostModel, MessagesNameTheSourceOnOneLine) {
  testing::ExpectDataError([] { ParseXgboostModel("{", "two\nlines.json"); }, {"two\\nlines.json", "truncated"});
}

}  // namespace
}}  // namespace perfshap
