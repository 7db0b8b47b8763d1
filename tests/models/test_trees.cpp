// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// CART trees and random forests (perfshap/blocks/tree_learners.hpp) against scikit-learn 1.2.1, and the
// "tree" and "forest" learners.
//
// Reference numbers: tests/fixtures/trees/cart_sklearn.json and forest_sklearn.json, written by
// /usr/bin/python3 tests/fixtures/trees/make_tree_fixtures.py (the script holds every library
// call): DecisionTreeClassifier / DecisionTreeRegressor(random_state=0, ...) on all rows of a
// data set, in configurations whose tree sklearn grows alike for random_state 0..19 (no tie
// between two different partitions); RandomForestClassifier(n_estimators=100,
// random_state=seed) test accuracies on stratified 70/30 splits, seeds 0..9, and the splits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/blocks/trees.hpp"
#include "support/expect_error.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

nlohmann::json ReadJson(const std::string& name) {
  std::ifstream in(testing::FixturePath(name));
  return nlohmann::json::parse(in);
}

// Raw labels (class values 1, 2, 3 kept as they are; 0/1 stays 0/1).
Dataset Load(const std::string& name, const std::string& label) {
  CsvOptions o;
  o.label = label;
  o.regression = true;
  return ReadCsv(testing::FixturePath(name), o);
}

std::vector<std::size_t> Iota(std::size_t n) {
  std::vector<std::size_t> v(n);
  std::iota(v.begin(), v.end(), std::size_t{0});
  return v;
}

std::vector<std::size_t> Columns(const Dataset& data, const std::vector<std::string>& names) {
  std::vector<std::size_t> c;
  for (const std::string& n : names) c.push_back(data.FeatureIndex(n));
  return c;
}

// Rows x columns of data as the column-major block Model::Predict takes.
std::vector<double> Gather(const Dataset& data, std::span<const std::size_t> rows,
                           std::span<const std::size_t> columns) {
  std::vector<double> x;
  x.reserve(rows.size() * columns.size());
  for (std::size_t c : columns)
    for (std::size_t r : rows) x.push_back(data.column(c)[r]);
  return x;
}

std::vector<double> Predict(const Model& model, const Dataset& data, std::span<const std::size_t> rows,
                            std::span<const std::size_t> columns) {
  std::vector<double> out(rows.size() * model.n_outputs());
  model.Predict(Gather(data, rows, columns), rows.size(), out);
  return out;
}

// The class each row is predicted to be (the first of equal largest probabilities, as numpy's
// argmax), as a label value.
std::vector<double> PredictClass(const TreeEnsemble& model, const Dataset& data,
                                 std::span<const std::size_t> rows, std::span<const std::size_t> columns) {
  const std::vector<double> p = Predict(model, data, rows, columns);
  std::vector<double> classes;
  for (const std::string& name : model.info().class_names) classes.push_back(std::stod(name));
  const std::size_t n = rows.size();
  std::vector<double> out(n);
  for (std::size_t r = 0; r < n; ++r) {
    if (model.n_outputs() == 1) {
      out[r] = p[r] > 0.5 ? classes.back() : classes.front();
      continue;
    }
    std::size_t best = 0;
    for (std::size_t o = 1; o < model.n_outputs(); ++o)
      if (p[o * n + r] > p[best * n + r]) best = o;
    out[r] = classes[best];
  }
  return out;
}

std::string Fixed(double v, int digits = 4) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

// The training rows of a split whose sorted test rows are given: the others, increasing.
std::vector<std::size_t> Complement(std::size_t n, const std::vector<std::size_t>& test) {
  std::vector<std::size_t> train;
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (k < test.size() && test[k] == i) {
      ++k;
    } else {
      train.push_back(i);
    }
  }
  return train;
}

void ExpectSameTrees(const TreeEnsemble& a, const TreeEnsemble& b, const std::string& what) {
  ASSERT_EQ(a.trees().size(), b.trees().size()) << what;
  for (std::size_t t = 0; t < a.trees().size(); ++t) {
    const Tree& x = a.trees()[t];
    const Tree& y = b.trees()[t];
    EXPECT_TRUE(x.feature == y.feature && x.threshold == y.threshold && x.left == y.left &&
                x.right == y.right && x.default_left == y.default_left && x.cover == y.cover &&
                x.value == y.value)
        << what << ": tree " << t << " differs";
  }
}

// ---------------------------------------------------------------------------------------------
// (a) One tree against sklearn's.

TreeOptions OptionsOf(const nlohmann::json& c) {
  TreeOptions o;
  o.regression = c["regression"].get<bool>();
  const auto& p = c["params"];
  if (p.contains("criterion")) o.criterion = p["criterion"].get<std::string>();
  if (p.contains("max_depth")) o.max_depth = p["max_depth"].get<int>();
  if (p.contains("min_samples_leaf")) o.min_samples_leaf = p["min_samples_leaf"].get<int>();
  if (p.contains("min_samples_split")) o.min_samples_split = p["min_samples_split"].get<int>();
  return o;
}

// Node by node: the same numbering, children, sizes (covers), values; the same split feature
// and a threshold within float32 rounding (sklearn's midpoints are of float32 inputs) where
// sklearn's split is unique; the same predictions for every row.
void CheckAgainstSklearn(const nlohmann::json& c) {
  const std::string name = c["name"];
  const Dataset data = Load(c["data"], c["label"]);
  const auto columns = Columns(data, c["features"].get<std::vector<std::string>>());
  const auto rows = Iota(data.n_rows());
  const auto model = FitTree(OptionsOf(c), data, rows, columns);
  ASSERT_EQ(model->trees().size(), 1U);
  const Tree& t = model->trees()[0];
  const bool regression = c["regression"].get<bool>();
  const std::size_t n_nodes = c["node_count"];
  ASSERT_EQ(t.n_nodes(), n_nodes) << name;
  const auto feature = c["feature"].get<std::vector<int>>();
  const auto threshold = c["threshold"].get<std::vector<double>>();
  const auto left = c["left"].get<std::vector<int>>();
  const auto right = c["right"].get<std::vector<int>>();
  const auto cover = c["weighted_n_node_samples"].get<std::vector<double>>();
  const auto stable = c["stable"].get<std::vector<bool>>();
  const auto value = c["value"].get<std::vector<double>>();
  const auto width = static_cast<std::size_t>(t.width);
  ASSERT_EQ(value.size(), n_nodes * width) << name;
  double max_threshold_diff = 0.0;
  double max_value_diff = 0.0;
  std::size_t same_bits = 0;
  for (std::size_t i = 0; i < n_nodes; ++i) {
    const std::string node = name + ", node " + std::to_string(i);
    EXPECT_EQ(t.left[i], std::max(left[i], -1)) << node;
    EXPECT_EQ(t.right[i], std::max(right[i], -1)) << node;
    EXPECT_EQ(t.cover[i], cover[i]) << node;
    if (t.left[i] >= 0 && stable[i]) {
      EXPECT_EQ(t.feature[i], feature[i]) << node;
      const double d = std::abs(t.threshold[i] - threshold[i]);
      max_threshold_diff = std::max(max_threshold_diff, d / std::max(1.0, std::abs(threshold[i])));
      EXPECT_LE(d, 1e-6 * std::max(1.0, std::abs(threshold[i]))) << node;
    }
    for (std::size_t w = 0; w < width; ++w) {
      const double ours = t.value[i * width + w];
      const double theirs = value[i * width + w];
      same_bits += ours == theirs ? 1 : 0;
      max_value_diff = std::max(max_value_diff, std::abs(ours - theirs));
      if (!regression) {
        EXPECT_EQ(ours, theirs) << node;  // class fractions: counts over counts
      }
    }
  }
  // Regression leaf means: the same rows, summed in another order (sklearn's own differ with
  // random_state by as much).
  if (regression) {
    EXPECT_LE(max_value_diff, 1e-14) << name;
  }
  const auto predict = c["predict"].get<std::vector<double>>();
  const std::vector<double> ours = Predict(*model, data, rows, columns);
  ASSERT_EQ(predict.size(), ours.size()) << name;
  std::size_t equal = 0;
  double max_predict_diff = 0.0;
  const std::size_t n = rows.size();
  for (std::size_t r = 0; r < n; ++r) {
    for (std::size_t o = 0; o < model->n_outputs(); ++o) {
      const double theirs = predict[r * model->n_outputs() + o];  // sklearn: row-major
      const double mine = ours[o * n + r];
      equal += mine == theirs ? 1 : 0;
      max_predict_diff = std::max(max_predict_diff, std::abs(mine - theirs));
      if (!regression) {
        EXPECT_EQ(mine, theirs) << name << ", row " << r << ", output " << o;
      }
    }
  }
  if (regression) {
    EXPECT_LE(max_predict_diff, 1e-14) << name;
  }
  ::testing::Test::RecordProperty(name + "_nodes", std::to_string(n_nodes));
  ::testing::Test::RecordProperty(name + "_bitwise_predictions",
                                  std::to_string(equal) + "/" + std::to_string(ours.size()));
  ::testing::Test::RecordProperty(name + "_max_threshold_rel_diff",
                                  Fixed(max_threshold_diff * 1e9, 3) + "e-9");
  ::testing::Test::RecordProperty(name + "_bitwise_node_values",
                                  std::to_string(same_bits) + "/" + std::to_string(value.size()));
}

TEST(CartSklearn, ClassifiersMatchDecisionTreeClassifier) {
  const auto fixture = ReadJson("trees/cart_sklearn.json");
  int checked = 0;
  for (const auto& c : fixture["cases"]) {
    if (c["regression"].get<bool>()) continue;
    CheckAgainstSklearn(c);
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

TEST(CartSklearn, RegressorsMatchDecisionTreeRegressor) {
  const auto fixture = ReadJson("trees/cart_sklearn.json");
  int checked = 0;
  for (const auto& c : fixture["cases"]) {
    if (!c["regression"].get<bool>()) continue;
    CheckAgainstSklearn(c);
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// The class fractions and the outputs: two classes give one output (the larger class), more
// give one per class; the names are the label values.
TEST(CartTree, OutputsFollowTheClasses) {
  const Dataset wine = Load("data/wine.csv", "label");
  const auto rows = Iota(wine.n_rows());
  const auto columns = Iota(wine.n_features());
  const auto multi = FitTree({}, wine, rows, columns);
  EXPECT_EQ(multi->n_outputs(), 3U);
  EXPECT_EQ(multi->info().class_names, (std::vector<std::string>{"1", "2", "3"}));
  EXPECT_TRUE(multi->is_classifier());
  EXPECT_EQ(multi->trees()[0].width, 3);
  // Grown until pure: every training row predicted with certainty, as its own class.
  const auto classes = PredictClass(*multi, wine, rows, columns);
  for (std::size_t r = 0; r < rows.size(); ++r) EXPECT_EQ(classes[r], wine.label()[r]);
  const Dataset banknote = Load("data/banknote.csv", "label");
  const auto binary = FitTree({}, banknote, Iota(banknote.n_rows()), Iota(4));
  EXPECT_EQ(binary->n_outputs(), 1U);
  EXPECT_EQ(binary->info().class_names, (std::vector<std::string>{"0", "1"}));
  EXPECT_EQ(binary->trees()[0].value[0], 610.0 / 1372.0);  // the root: P(y = 1)
  TreeOptions reg;
  reg.regression = true;
  const auto regressor = FitTree(reg, wine, rows, columns);
  EXPECT_FALSE(regressor->is_classifier());
  EXPECT_TRUE(regressor->info().class_names.empty());
  double mean = 0.0;
  for (double v : wine.label()) mean += v;
  EXPECT_EQ(regressor->trees()[0].value[0], mean / static_cast<double>(wine.n_rows()));
}

// (e) Covers add up, values are the rows' fractions (means), every leaf's fractions sum to 1;
// min_samples_leaf and max_depth hold.
void CheckCoversAndValues(const TreeEnsemble& model, double root_cover, int min_leaf, int max_depth) {
  for (std::size_t k = 0; k < model.trees().size(); ++k) {
    const Tree& t = model.trees()[k];
    const auto w = static_cast<std::size_t>(t.width);
    EXPECT_EQ(t.cover[0], root_cover) << "tree " << k;
    if (max_depth > 0) {
      EXPECT_LE(t.depth(), max_depth);
    }
    for (std::size_t i = 0; i < t.n_nodes(); ++i) {
      if (t.is_leaf(i)) {
        if (model.is_classifier()) {
          double sum = 0.0;
          for (std::size_t o = 0; o < w; ++o) {
            EXPECT_GE(t.value[i * w + o], 0.0);
            EXPECT_LE(t.value[i * w + o], 1.0);
            sum += t.value[i * w + o];
          }
          if (w > 1) {
            EXPECT_NEAR(sum, 1.0, 1e-12) << "tree " << k << ", leaf " << i;
          }
        }
        EXPECT_GE(t.cover[i], static_cast<double>(min_leaf));
        continue;
      }
      const auto l = static_cast<std::size_t>(t.left[i]);
      const auto r = static_cast<std::size_t>(t.right[i]);
      EXPECT_EQ(t.cover[i], t.cover[l] + t.cover[r]) << "tree " << k << ", node " << i;
      EXPECT_EQ(t.default_left[i] != 0, t.cover[l] >= t.cover[r]);
      for (std::size_t o = 0; o < w; ++o) {
        const double mixed = (t.cover[l] * t.value[l * w + o] + t.cover[r] * t.value[r * w + o]) / t.cover[i];
        EXPECT_NEAR(t.value[i * w + o], mixed, 1e-12) << "tree " << k << ", node " << i;
      }
    }
  }
}

TEST(CartTree, CoversAddUpAndLeafFractionsSumToOne) {
  const Dataset glass = Load("data/glass.csv", "label");
  const auto rows = Iota(glass.n_rows());
  const auto columns = Iota(glass.n_features());
  TreeOptions o;
  o.min_samples_leaf = 3;
  CheckCoversAndValues(*FitTree(o, glass, rows, columns), 214.0, 3, 0);
  o.criterion = "entropy";
  o.max_depth = 5;
  CheckCoversAndValues(*FitTree(o, glass, rows, columns), 214.0, 3, 5);
  TreeOptions reg;
  reg.regression = true;
  reg.min_samples_leaf = 4;
  CheckCoversAndValues(*FitTree(reg, glass, rows, columns), 214.0, 4, 0);
}

TEST(ForestTree, CoversAreBootstrapCounts) {
  const Dataset wine = Load("data/wine.csv", "label");
  ForestOptions o;
  o.n_estimators = 10;
  o.seed = 3;
  const auto forest = FitForest(o, wine, Iota(wine.n_rows()), Iota(wine.n_features()));
  EXPECT_EQ(forest->info().tree_scale, 1.0 / 10.0);
  // n draws with replacement: the root's cover is n; a row drawn twice counts twice.
  CheckCoversAndValues(*forest, 178.0, 1, 0);
  o.regression = true;
  o.min_samples_leaf = 2;
  CheckCoversAndValues(*FitForest(o, wine, Iota(wine.n_rows()), Iota(wine.n_features())), 178.0, 2, 0);
}

// A forest of one tree without bootstrap is FitTree with the same seed; the seed matters once
// there are fewer candidates than features.
TEST(CartTree, SeedsAndMaxFeatures) {
  const Dataset sonar = Load("data/sonar.csv", "label");
  const auto rows = Iota(sonar.n_rows());
  const auto columns = Iota(sonar.n_features());
  TreeOptions t;
  t.max_features = "sqrt";
  t.seed = 11;
  ForestOptions f;
  static_cast<TreeOptions&>(f) = t;
  f.n_estimators = 1;
  f.bootstrap = false;
  ExpectSameTrees(*FitTree(t, sonar, rows, columns), *FitForest(f, sonar, rows, columns), "forest of one");
  const auto a = FitTree(t, sonar, rows, columns);
  t.seed = 12;
  const auto b = FitTree(t, sonar, rows, columns);
  EXPECT_NE(a->trees()[0].feature, b->trees()[0].feature);
  // All features (every spelling): the draws only order the candidates, so where no two
  // partitions tie (banknote at depth 4, see cart_sklearn.json) the seed changes no node's rows.
  const Dataset banknote = Load("data/banknote.csv", "label");
  const auto all_rows = Iota(banknote.n_rows());
  TreeOptions d;
  d.max_depth = 4;
  d.seed = 1;
  const auto reference = FitTree(d, banknote, all_rows, Iota(4));
  for (const char* spelling : {"", "all", "1.0", "4", "100"}) {
    d.max_features = spelling;
    d.seed = 2;
    const auto other = FitTree(d, banknote, all_rows, Iota(4));
    EXPECT_EQ(other->trees()[0].cover, reference->trees()[0].cover) << spelling;
    EXPECT_EQ(other->trees()[0].value, reference->trees()[0].value) << spelling;
    EXPECT_EQ(Predict(*other, banknote, all_rows, Iota(4)), Predict(*reference, banknote, all_rows, Iota(4)))
        << spelling;
  }
}

TEST(CartTree, BadInputsAreOneLineErrors) {
  const Dataset banknote = Load("data/banknote.csv", "label");
  const auto rows = Iota(banknote.n_rows());
  const auto columns = Iota(4);
  const auto fit = [&](TreeOptions o) {
    return [&banknote, &rows, &columns, o] { FitTree(o, banknote, rows, columns); };
  };
  TreeOptions o;
  o.max_depth = -1;
  testing::ExpectError<InvalidArgument>(fit(o), {"max_depth", "-1"}, "max_depth");
  o = {};
  o.criterion = "mse";
  testing::ExpectError<InvalidArgument>(fit(o), {"criterion", "mse"}, "criterion");
  o.regression = true;
  o.criterion = "gini";
  testing::ExpectError<InvalidArgument>(fit(o), {"criterion", "squared_error"}, "criterion");
  o = {};
  o.min_samples_split = 1;
  testing::ExpectError<InvalidArgument>(fit(o), {"min_samples_split"}, "min_samples_split");
  o = {};
  o.min_samples_leaf = 0;
  testing::ExpectError<InvalidArgument>(fit(o), {"min_samples_leaf"}, "min_samples_leaf");
  for (const char* bad : {"0", "1.5", "0.0", "half", "-2"}) {
    o = {};
    o.max_features = bad;
    testing::ExpectError<InvalidArgument>(fit(o), {"max_features", bad}, "max_features");
  }
  testing::ExpectError<InvalidArgument>([&] { FitTree({}, banknote, {}, columns); }, {"training row"});
  testing::ExpectError<InvalidArgument>([&] { FitTree({}, banknote, rows, {}); }, {"feature column"});
  const std::vector<std::size_t> out_of_range{7};
  testing::ExpectError<InvalidArgument>([&] { FitTree({}, banknote, rows, out_of_range); }, {"out of range"});
  ForestOptions f;
  f.n_estimators = 0;
  testing::ExpectError<InvalidArgument>([&] { FitForest(f, banknote, rows, columns); }, {"n_estimators"},
                                        "n_estimators");
  const Dataset nan({"a"}, {{1.0, std::nan(""), 3.0}}, {0.0, 1.0, 0.0});
  testing::ExpectDataError([&] { FitTree({}, nan, Iota(3), Iota(1)); }, {"'a'", "missing value", "row 1"});
  const Dataset unlabeled({"a"}, {{1.0, 2.0, 3.0}}, {});
  testing::ExpectDataError([&] { FitTree({}, unlabeled, Iota(3), Iota(1)); }, {"no label"}, "label");
}

// ---------------------------------------------------------------------------------------------
// (b) Forests against sklearn's on the same splits.

struct ForestScore {
  double ours = 0.0;
  double sklearn = 0.0;
};

ForestScore ScoreForests(const nlohmann::json& c) {
  const Dataset data = Load(c["data"], c["label"]);
  const auto columns = Columns(data, c["features"].get<std::vector<std::string>>());
  const bool regression = c["regression"].get<bool>();
  ForestScore s;
  const auto& splits = c["splits"];
  for (const auto& split : splits) {
    const auto test = split["test"].get<std::vector<std::size_t>>();
    const auto train = Complement(data.n_rows(), test);
    ForestOptions o;
    o.regression = regression;
    o.n_estimators = 100;
    o.seed = split["seed"].get<std::uint64_t>();
    const auto forest = FitForest(o, data, train, columns);
    double score = 0.0;
    if (regression) {
      const auto p = Predict(*forest, data, test, columns);
      double mean = 0.0;
      for (std::size_t r : test) mean += data.label()[r];
      mean /= static_cast<double>(test.size());
      double ss_res = 0.0;
      double ss_tot = 0.0;
      for (std::size_t i = 0; i < test.size(); ++i) {
        const double y = data.label()[test[i]];
        ss_res += (y - p[i]) * (y - p[i]);
        ss_tot += (y - mean) * (y - mean);
      }
      score = 1.0 - ss_res / ss_tot;
    } else {
      const auto predicted = PredictClass(*forest, data, test, columns);
      std::size_t right = 0;
      for (std::size_t i = 0; i < test.size(); ++i) right += predicted[i] == data.label()[test[i]] ? 1 : 0;
      score = static_cast<double>(right) / static_cast<double>(test.size());
    }
    s.ours += score;
    s.sklearn += split["score"].get<double>();
  }
  s.ours /= static_cast<double>(splits.size());
  s.sklearn /= static_cast<double>(splits.size());
  return s;
}

// The splits are stratified 70/30: each class's test share within one row of 30%.
TEST(ForestSklearn, SplitsAreStratifiedSeventyThirty) {
  const auto fixture = ReadJson("trees/forest_sklearn.json");
  for (const auto& c : fixture["cases"]) {
    if (c["regression"].get<bool>()) continue;
    const Dataset data = Load(c["data"], c["label"]);
    ASSERT_EQ(c["splits"].size(), 10U);
    for (const auto& split : c["splits"]) {
      const auto test = split["test"].get<std::vector<std::size_t>>();
      EXPECT_NEAR(static_cast<double>(test.size()), 0.3 * static_cast<double>(data.n_rows()), 1.0);
      std::vector<double> labels(data.label().begin(), data.label().end());
      std::sort(labels.begin(), labels.end());
      labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
      for (double y : labels) {
        double all = 0.0;
        double in_test = 0.0;
        for (std::size_t r = 0; r < data.n_rows(); ++r) all += data.label()[r] == y ? 1.0 : 0.0;
        for (std::size_t r : test) in_test += data.label()[r] == y ? 1.0 : 0.0;
        EXPECT_NEAR(in_test, 0.3 * all, 1.0) << c["data"] << " class " << y;
      }
    }
  }
}

TEST(ForestSklearn, AccuracyWithinTwoPointsOfRandomForestClassifier) {
  const auto fixture = ReadJson("trees/forest_sklearn.json");
  int checked = 0;
  for (const auto& c : fixture["cases"]) {
    if (c["regression"].get<bool>()) continue;
    const ForestScore s = ScoreForests(c);
    const std::string name = c["data"];
    EXPECT_NEAR(s.ours, s.sklearn, 0.02) << name;
    EXPECT_NEAR(s.sklearn, c["mean_score"].get<double>(), 1e-12) << name;
    ::testing::Test::RecordProperty(name + "_accuracy",
                                    Fixed(s.ours) + " (sklearn " + Fixed(s.sklearn) + ")");
    std::printf("  %s: mean accuracy %s, sklearn %s\n", name.c_str(), Fixed(s.ours).c_str(),
                Fixed(s.sklearn).c_str());
    ++checked;
  }
  EXPECT_EQ(checked, 4);
}

TEST(ForestSklearn, RegressionRSquaredCloseToRandomForestRegressor) {
  const auto fixture = ReadJson("trees/forest_sklearn.json");
  int checked = 0;
  for (const auto& c : fixture["cases"]) {
    if (!c["regression"].get<bool>()) continue;
    const ForestScore s = ScoreForests(c);
    const std::string name = c["data"];
    EXPECT_NEAR(s.ours, s.sklearn, 0.03) << name;
    ::testing::Test::RecordProperty(name + "_r2", Fixed(s.ours) + " (sklearn " + Fixed(s.sklearn) + ")");
    std::printf("  %s: mean R^2 %s, sklearn %s\n", name.c_str(), Fixed(s.ours).c_str(),
                Fixed(s.sklearn).c_str());
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}

// (c) The same forest, bit for bit, at any thread count.
TEST(ForestDeterminism, SameForestAtOneTwoAndFourThreads) {
  const Dataset glass = Load("data/glass.csv", "label");
  const auto rows = Iota(glass.n_rows());
  const auto columns = Iota(glass.n_features());
  for (bool regression : {false, true}) {
    ForestOptions o;
    o.n_estimators = 37;  // blocks of unequal size
    o.seed = 5;
    o.regression = regression;
    o.execution.threads = 1;
    const auto one = FitForest(o, glass, rows, columns);
    const auto p1 = Predict(*one, glass, rows, columns);
    for (int threads : {2, 4}) {
      o.execution.threads = threads;
      const auto many = FitForest(o, glass, rows, columns);
      ExpectSameTrees(*one, *many, std::to_string(threads) + " threads");
      EXPECT_EQ(p1, Predict(*many, glass, rows, columns));
    }
    o.seed = 6;
    EXPECT_NE(p1, Predict(*FitForest(o, glass, rows, columns), glass, rows, columns));
  }
}

// ---------------------------------------------------------------------------------------------
// (d) The learners.

struct LearnerCase {
  Dataset data;
  Split split;
};

LearnerCase Banknote() {
  Dataset data = Load("data/banknote.csv", "label");
  Split split = HoldoutSplit(data.n_rows(), 0.3, 2, data.label());
  return {std::move(data), std::move(split)};
}

// Every coalition: ScoreTest equals MakeModel()->Predict on the coalition's columns bit for
// bit, and the empty coalition predicts the training prior.
void CheckEveryCoalition(const Learner& learner, const Dataset& data, const Split& split, std::size_t p) {
  const auto columns = Iota(p);
  const auto prepared =
      learner.Prepare(data, SingleColumnPlayers(data, columns), split.train, split.test, "the split");
  const auto fitter = prepared->MakeFitter();
  std::vector<double> scores(split.test.size());
  double prior = 0.0;
  for (std::size_t r : split.train) prior += data.label()[r];
  prior /= static_cast<double>(split.train.size());
  for (Coalition s = 0; s < (Coalition{1} << p); ++s) {
    fitter->Score(s, scores);
    const auto model = fitter->MakeModel();
    std::vector<std::size_t> members;
    for (std::size_t j = 0; j < p; ++j)
      if ((s >> j & 1U) != 0) members.push_back(j);
    ASSERT_EQ(model->n_features(), members.size());
    EXPECT_EQ(model->is_classifier(), learner.is_classifier());
    const auto predicted = Predict(*model, data, split.test, members);
    EXPECT_EQ(predicted, scores) << learner.name() << ", coalition " << s;
    if (s == 0) {
      for (double v : scores) EXPECT_EQ(v, prior) << learner.name();
    }
  }
  // Scores on the index scale are the probabilities.
  std::vector<double> index(split.test.size());
  fitter->Score(Coalition{3}, scores);
  fitter->Score(Coalition{3}, index, ScoreScale::kIndex);
  EXPECT_EQ(scores, index);
}

TEST(CartLearner, EveryCoalitionScoresAsItsModel) {
  const LearnerCase c = Banknote();
  CheckEveryCoalition(*MakeLearner("tree"), c.data, c.split, 4);
  CheckEveryCoalition(*MakeLearner("tree", {{"criterion", "entropy"}, {"max_depth", "3"}}), c.data, c.split,
                      4);
  const Dataset reg = Load("refs/xper/test_set_regression.csv", "y_cont");
  const Split split = HoldoutSplit(reg.n_rows(), 0.3, 1);
  const auto regressor = MakeLearner("tree", {{"regression", "true"}, {"min_samples_leaf", "3"}});
  EXPECT_FALSE(regressor->is_classifier());
  CheckEveryCoalition(*regressor, reg, split, 3);
}

TEST(ForestLearner, EveryCoalitionScoresAsItsModel) {
  const LearnerCase c = Banknote();
  const auto forest = MakeLearner("forest", {{"n_estimators", "20"}});
  EXPECT_TRUE(forest->is_classifier());
  CheckEveryCoalition(*forest, c.data, c.split, 4);
  const Dataset reg = Load("refs/xper/test_set_regression.csv", "y_cont");
  CheckEveryCoalition(*MakeLearner("forest", {{"n_estimators", "10"}, {"regression", "true"}}), reg,
                      HoldoutSplit(reg.n_rows(), 0.3, 1), 3);
}

// A coalition trains on its players' columns in player order: the same trees as FitTree /
// FitForest on those columns; fitting coalitions in another order changes nothing.
TEST(ForestLearner, CoalitionTrainsOnThePlayersColumnsInPlayerOrder) {
  const LearnerCase c = Banknote();
  const std::vector<Player> players{{"p", {3, 1}, {}}, {"q", {0}, {}}, {"r", {2}, {}}};
  ForestOptions o;
  o.n_estimators = 8;
  o.seed = 9;
  const auto learner = MakeForestLearner(o);
  const auto split = learner->Prepare(c.data, players, c.split.train, c.split.test, "the split");
  const auto fitter = split->MakeFitter();
  std::vector<double> first(c.split.test.size());
  std::vector<double> again(c.split.test.size());
  fitter->Fit(Coalition{0b011});
  fitter->ScoreTest(first);
  const auto model = fitter->MakeModel();
  const std::vector<std::size_t> columns{3, 1, 0};
  const auto direct = FitForest(o, c.data, c.split.train, columns);
  const auto* ensemble = dynamic_cast<const TreeEnsemble*>(model.get());
  ASSERT_NE(ensemble, nullptr);
  ExpectSameTrees(*ensemble, *direct, "coalition {p, q}");
  EXPECT_EQ(first, Predict(*direct, c.data, c.split.test, columns));
  EXPECT_EQ(ensemble->info().feature_names, (std::vector<std::string>{"entropy", "skewness", "variance"}));
  fitter->Fit(Coalition{0b100});
  fitter->Fit(Coalition{0b111});
  fitter->Reset();
  fitter->Fit(Coalition{0b011});
  fitter->ScoreTest(again);
  EXPECT_EQ(first, again);
  // A fitter rebinds to another split of a tree learner, not to another learner's.
  const auto tree_split =
      MakeLearner("tree")->Prepare(c.data, players, c.split.train, c.split.test, "the split");
  EXPECT_TRUE(fitter->Rebind(*tree_split));
  const auto gnb_split =
      MakeLearner("gnb")->Prepare(c.data, players, c.split.train, c.split.test, "the split");
  EXPECT_FALSE(fitter->Rebind(*gnb_split));
}

TEST(CartLearner, RegisteredWithTheirOptions) {
  std::vector<std::string> names;
  for (const LearnerEntry& e : RegisteredLearners()) names.push_back(e.name);
  EXPECT_NE(std::find(names.begin(), names.end(), "tree"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "forest"), names.end());
  for (const LearnerEntry& e : RegisteredLearners()) {
    if (e.name == "tree") {
      EXPECT_EQ(e.options.size(), 7U);
    }
    if (e.name == "forest") {
      EXPECT_EQ(e.options.size(), 9U);
    }
  }
  const auto tree = MakeLearner("tree");
  EXPECT_EQ(tree->text_columns(), TextColumns::kCodes);
  EXPECT_EQ(tree->params().at("criterion"), "gini");
  EXPECT_EQ(tree->params().at("max_features"), "all");
  EXPECT_EQ(tree->params().count("n_estimators"), 0U);
  const auto forest = MakeLearner("forest", {{"n_estimators", "20"}, {"seed", "18446744073709551615"}});
  EXPECT_EQ(forest->params().at("n_estimators"), "20");
  EXPECT_EQ(forest->params().at("max_features"), "sqrt");
  EXPECT_EQ(forest->params().at("bootstrap"), "true");
  EXPECT_EQ(forest->params().at("seed"), "18446744073709551615");
  EXPECT_EQ(MakeLearner("forest", {{"regression", "true"}})->params().at("max_features"), "all");
  EXPECT_EQ(MakeLearner("forest", {{"regression", "true"}})->params().at("criterion"), "squared_error");
  EXPECT_EQ(MakeLearner("tree", {{"max_features", "0.5"}})->params().at("max_features"), "0.5");
  EXPECT_EQ(MakeLearner("tree", {{"max_features", "1.0"}})->params().at("max_features"), "1.0");
  EXPECT_EQ(MakeLearner("tree", {{"max_features", "3"}})->params().at("max_features"), "3");
  // params() reads back to the same learner.
  const auto again = MakeLearner("forest", forest->params());
  EXPECT_EQ(again->params(), forest->params());
  // The registry's Train gives the fitted ensemble.
  const LearnerCase c = Banknote();
  const auto model = Train("forest", c.data, c.split.train, Iota(4), {{"n_estimators", "5"}});
  const auto* ensemble = dynamic_cast<const TreeEnsemble*>(model.get());
  ASSERT_NE(ensemble, nullptr);
  EXPECT_EQ(ensemble->trees().size(), 5U);
  EXPECT_EQ(ensemble->n_features(), 4U);
}

TEST(CartLearner, BadOptionsAreOneLineInvalidArguments) {
  const auto bad = [](const std::string& name, const LearnerParams& params,
                      std::initializer_list<std::string> parts, const std::string& option) {
    testing::ExpectError<InvalidArgument>([&] { MakeLearner(name, params); }, parts, option);
  };
  bad("tree", {{"n_estimators", "20"}}, {"learner tree has no option n_estimators", "max_features"},
      "n_estimators");
  bad("forest", {{"C", "1"}}, {"learner forest has no option C", "bootstrap"}, "C");
  bad("tree", {{"max_depth", "-1"}}, {"max_depth", "-1"}, "max_depth");
  bad("tree", {{"max_depth", "two"}}, {"max_depth", "'two' is not an integer"}, "max_depth");
  bad("forest", {{"n_estimators", "0"}}, {"n_estimators", ">= 1"}, "n_estimators");
  bad("forest", {{"bootstrap", "maybe"}}, {"bootstrap", "not true or false"}, "bootstrap");
  bad("forest", {{"criterion", "squared_error"}}, {"criterion", "regression"}, "criterion");
  bad("tree", {{"regression", "true"}, {"criterion", "entropy"}}, {"criterion", "squared_error"},
      "criterion");
  bad("tree", {{"max_features", "zero"}}, {"max_features", "'zero'"}, "max_features");
  bad("tree", {{"min_samples_leaf", "0"}}, {"min_samples_leaf"}, "min_samples_leaf");
  bad("tree", {{"seed", "-3"}}, {"seed", "'-3'"}, "seed");
}

TEST(CartLearner, PrepareChecksTheLabelAndTheCells) {
  const Dataset wine = Load("data/wine.csv", "label");
  const auto columns = Iota(wine.n_features());
  const auto rows = Iota(wine.n_rows());
  const auto players = SingleColumnPlayers(wine, columns);
  // A classifier learner needs a 0/1 label (the regression option takes any number).
  testing::ExpectDataError([&] { MakeLearner("forest")->Prepare(wine, players, rows, {}, "the rows"); },
                           {"0/1 label"}, "positive");
  EXPECT_NO_THROW(
      MakeLearner("tree", {{"regression", "true"}})->Prepare(wine, players, rows, {}, "the rows"));
  const Dataset nan({"a", "b"}, {{1.0, 2.0, 3.0, 4.0}, {1.0, std::nan(""), 0.0, 1.0}}, {0.0, 1.0, 0.0, 1.0});
  testing::ExpectDataError(
      [&] { MakeLearner("tree")->Prepare(nan, SingleColumnPlayers(nan, Iota(2)), Iota(4), {}, "the rows"); },
      {"'b'", "missing value", "row 1"});
  // A constant player is no error for a tree: it is never split on.
  const Dataset constant({"a", "b"}, {{1.0, 2.0, 3.0, 4.0}, {5.0, 5.0, 5.0, 5.0}}, {0.0, 1.0, 0.0, 1.0});
  const auto split = MakeLearner("tree")->Prepare(constant, SingleColumnPlayers(constant, Iota(2)), Iota(4),
                                                  Iota(4), "the rows");
  const auto fitter = split->MakeFitter();
  std::vector<double> scores(4);
  fitter->Score(Coalition{0b10}, scores);
  EXPECT_EQ(scores, std::vector<double>(4, 0.5));
  fitter->Score(Coalition{0b11}, scores);
  EXPECT_EQ(scores, (std::vector<double>{0.0, 1.0, 0.0, 1.0}));
}

}  // namespace
}}  // namespace perfshap
