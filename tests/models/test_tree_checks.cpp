// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// What a tree model must be before it is used (issue 20): the nodes form a tree (a leaf has -1
// for both children, a split two nodes nothing else links to, every node reached from the
// root, no cycle), covers and leaves are finite, and feature names are distinct and not empty.
// Each refusal is one line naming the tree and node (or the feature), from TreeEnsemble and
// from the XGBoost reader, which used to read a negative child index as a leaf and print wrong
// numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
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

/** A tree of 5 nodes: 0 splits on feature 0 into 1 and 2, 2 splits on feature 1 into 3 and 4. */
Tree Small() {
  Tree t;
  const double v[1] = {0.0};
  t.AddNode(0, 0.5, true, 10.0, v);
  const double a[1] = {1.0};
  t.AddNode(-1, 0.0, false, 4.0, a);
  t.AddNode(1, 1.5, false, 6.0, v);
  const double b[1] = {-1.0};
  t.AddNode(-1, 0.0, false, 2.0, b);
  const double c[1] = {2.0};
  t.AddNode(-1, 0.0, false, 4.0, c);
  t.left = {1, -1, 3, -1, -1};
  t.right = {2, -1, 4, -1, -1};
  return t;
}

TreeEnsembleInfo Info() {
  TreeEnsembleInfo info;
  info.n_features = 2;
  return info;
}

void ExpectRefused(const std::function<void(Tree&)>& edit, std::initializer_list<std::string> parts) {
  Tree t = Small();
  edit(t);
  testing::ExpectError<InvalidArgument>([&] { TreeEnsemble({t}, Info()); }, parts);
}

TEST(TreeChecks, TheSmallTreeIsATree) { EXPECT_EQ(TreeEnsemble({Small()}, Info()).max_depth(), 2); }

TEST(TreeChecks, NodesMustFormATree) {
  // A leaf has -1 for both children: one child, or a child -2, is no tree.
  ExpectRefused([](Tree& t) { t.left[2] = -1; }, {"tree 0, node 2 has children -1 and 4", "a leaf has -1 for both"});
  ExpectRefused([](Tree& t) { t.right[2] = -1; }, {"tree 0, node 2 has children 3 and -1"});
  ExpectRefused([](Tree& t) { t.left[2] = -2; }, {"tree 0, node 2 has children -2 and 4"});
  ExpectRefused([](Tree& t) { t.right[1] = 3; }, {"tree 0, node 1 has children -1 and 3"});
  ExpectRefused([](Tree& t) { t.left[3] = -7; }, {"tree 0, node 3 has children -7 and -1"});
  // Children: nodes of the tree, each linked once, never the root (a cycle back to it).
  ExpectRefused([](Tree& t) { t.right[2] = 5; }, {"tree 0, node 2 has child 5", "not a new node"});
  ExpectRefused([](Tree& t) { t.right[2] = 0; }, {"tree 0, node 2 has child 0", "not a new node"});
  ExpectRefused([](Tree& t) { t.right[2] = 1; }, {"has child 1", "not a new node"});
  ExpectRefused([](Tree& t) { t.right[2] = 2; }, {"tree 0, node 2 has child 2", "not a new node"});
  // A node no path reaches.
  ExpectRefused(
      [](Tree& t) {
        t.left[2] = -1;
        t.right[2] = -1;
      },
      {"tree 0 has 2 nodes no path from the root reaches"});
}

TEST(TreeChecks, CoversLeavesAndThresholdsMustBeFinite) {
  ExpectRefused([](Tree& t) { t.cover[3] = std::numeric_limits<double>::quiet_NaN(); },
                {"tree 0, node 3 has cover", "finite"});
  ExpectRefused([](Tree& t) { t.cover[0] = std::numeric_limits<double>::infinity(); }, {"tree 0, node 0 has cover"});
  ExpectRefused([](Tree& t) { t.value[4] = std::numeric_limits<double>::infinity(); },
                {"tree 0, node 4 is a leaf with a value that is not finite"});
  ExpectRefused([](Tree& t) { t.threshold[2] = std::numeric_limits<double>::quiet_NaN(); },
                {"tree 0, node 2 has a threshold that is not a finite number"});
}

TEST(TreeChecks, FeatureNamesAreDistinctAndNotEmpty) {
  TreeEnsembleInfo info = Info();
  info.feature_names = {"age", "age"};
  testing::ExpectError<InvalidArgument>([&] { TreeEnsemble({Small()}, info); },
                                        {"names two features 'age' (features 0 and 1)", "its own name"});
  info.feature_names = {"age", ""};
  testing::ExpectError<InvalidArgument>([&] { TreeEnsemble({Small()}, info); },
                                        {"feature 1 has an empty name", "give every feature a name"});
  info.feature_names = {"age", "income"};
  EXPECT_EQ(TreeEnsemble({Small()}, info).info().feature_names[1], "income");
}

// ---------------------------------------------------------------------------------------------
// The XGBoost reader.

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Json Model(const std::string& name) {
  return Json::parse(ReadText(testing::FixturePath("xgboost/" + name + ".json")));
}

Json& TreeOf(Json& model, std::size_t t) { return model["learner"]["gradient_booster"]["model"]["trees"][t]; }

/** The first internal node of tree t whose left child is a leaf. */
std::size_t SplitAboveALeaf(const Json& tree) {
  const Json& left = tree["left_children"];
  for (std::size_t i = 0; i < left.size(); ++i) {
    const int l = left[i].get<int>();
    if (l > 0 && left[static_cast<std::size_t>(l)].get<int>() == -1) return i;
  }
  return 0;
}

void ExpectModelRefused(const Json& model, std::initializer_list<std::string> parts) {
  testing::ExpectDataError([&] { ParseXgboostModel(model.dump(), "edited.json"); }, parts);
}

// XGBoost crashes on a negative child index; perfshap read the node as a leaf (its split's
// threshold taken for a leaf value) and printed wrong numbers with exit 0.
TEST(XgboostTreeChecks, RefusesNegativeAndOneSidedChildren) {
  Json json = Model("binary_logistic");
  const std::size_t i = SplitAboveALeaf(TreeOf(json, 3));
  ASSERT_GT(i, 0u);
  const std::string node = "tree 3, node " + std::to_string(i);
  const int right = TreeOf(json, 3)["right_children"][i].get<int>();

  Json edited = json;
  TreeOf(edited, 3)["left_children"][i] = -2;
  TreeOf(edited, 3)["right_children"][i] = -2;
  ExpectModelRefused(edited, {"edited.json", node + " has children -2 and -2", "a leaf has -1 for both"});
  edited = json;
  TreeOf(edited, 3)["left_children"][i] = -5;
  ExpectModelRefused(edited, {node + " has children -5 and " + std::to_string(right)});
  edited = json;
  TreeOf(edited, 3)["left_children"][i] = -1;
  ExpectModelRefused(edited, {node + " has children -1 and " + std::to_string(right)});
  edited = json;
  TreeOf(edited, 3)["right_children"][i] = -1;
  ExpectModelRefused(edited, {node + " has children", " and -1"});
  // A leaf whose right child is set.
  const int leaf = TreeOf(json, 3)["left_children"][i].get<int>();
  edited = json;
  TreeOf(edited, 3)["right_children"][static_cast<std::size_t>(leaf)] = right;
  ExpectModelRefused(edited, {"tree 3, node " + std::to_string(leaf) + " has children -1 and " +
                              std::to_string(right)});
  // A child that is the root (a cycle) or a fraction.
  edited = json;
  TreeOf(edited, 3)["right_children"][i] = 0;
  ExpectModelRefused(edited, {node + " has child 0", "not a new node"});
  edited = json;
  TreeOf(edited, 3)["right_children"][i] = 2.5;
  ExpectModelRefused(edited, {node + " has child 2.5"});
}

TEST(XgboostTreeChecks, RefusesDuplicateAndEmptyFeatureNames) {
  Json json = Model("binary_logistic");
  json["learner"]["feature_names"][7] = json["learner"]["feature_names"][2];
  const std::string name = json["learner"]["feature_names"][2].get<std::string>();
  ExpectModelRefused(json, {"edited.json", "learner.feature_names names two features '" + name + "' (features 2 and 7)"});
  json = Model("binary_logistic");
  json["learner"]["feature_names"][4] = "";
  ExpectModelRefused(json, {"edited.json", "feature 4 has an empty name"});
}

/** An XGBoost model whose only tree is a chain `depth` splits deep (node 2k splits on feature
 *  k % 3, its left child 2k + 1 a leaf, its right child 2k + 2). */
std::string DeepModel(int depth) {
  Json json = Model("binary_logistic");
  Json& learner = json["learner"];
  learner["learner_model_param"]["num_feature"] = "3";
  learner["feature_names"] = {"a", "b", "c"};
  learner["feature_types"] = {"float", "float", "float"};
  learner.erase("attributes");  // best_iteration 19 of the 20 rounds it had
  Json& model = learner["gradient_booster"]["model"];
  const std::size_t n = 2 * static_cast<std::size_t>(depth) + 1;
  std::vector<int> left(n, -1), right(n, -1), split(n, 0), default_left(n, 0), split_type(n, 0);
  std::vector<double> condition(n, 0.0), hessian(n, 1.0);
  for (int k = 0; k < depth; ++k) {
    const auto i = static_cast<std::size_t>(2 * k);
    left[i] = 2 * k + 1;
    right[i] = 2 * k + 2;
    split[i] = k % 3;
    condition[i] = static_cast<double>((k * 5) % 7) - 3.0;
    default_left[i] = k % 2;
    hessian[i] = static_cast<double>(depth - k + 1);
    condition[i + 1] = 0.01 * static_cast<double>(k % 11) - 0.05;
  }
  condition[n - 1] = 0.02;
  Json tree = TreeOf(json, 0);
  tree["left_children"] = left;
  tree["right_children"] = right;
  tree["parents"] = std::vector<int>(n, 0);
  tree["split_indices"] = split;
  tree["split_conditions"] = condition;
  tree["split_type"] = split_type;
  tree["default_left"] = default_left;
  tree["sum_hessian"] = hessian;
  tree["base_weights"] = std::vector<double>(n, 0.0);
  tree["loss_changes"] = std::vector<double>(n, 0.0);
  tree["tree_param"]["num_nodes"] = std::to_string(n);
  tree["tree_param"]["num_feature"] = "3";
  tree["id"] = 0;
  model["trees"] = Json::array({tree});
  model["tree_info"] = {0};
  model["gbtree_model_param"]["num_trees"] = "1";
  return json.dump();
}

// The XGBoost model with a tree some 17,000 levels deep: read and explained.
TEST(XgboostTreeChecks, ReadsAndExplainsATree17000LevelsDeep) {
  const auto model = ParseXgboostModel(DeepModel(17000), "deep.json");
  EXPECT_EQ(model->max_depth(), 17000);
  const std::size_t n = 30;
  std::vector<double> x(3 * n);
  for (std::size_t k = 0; k < x.size(); ++k) x[k] = static_cast<double>(k % 9) - 4.0 + 0.25;
  const auto phi = TreeShap(*model, x, n);
  std::vector<double> margin(n);
  model->PredictMargin(x, n, margin);
  for (std::size_t r = 0; r < n; ++r) {
    const double sum = std::accumulate(phi.begin() + static_cast<std::ptrdiff_t>(4 * r),
                                       phi.begin() + static_cast<std::ptrdiff_t>(4 * r + 4), 0.0);
    EXPECT_NEAR(sum, margin[r], 1e-9) << "row " << r;
  }
}

}  // namespace
}}  // namespace perfshap
