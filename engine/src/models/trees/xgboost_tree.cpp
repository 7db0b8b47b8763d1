// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// One tree of an XGBoost model saved as JSON (xgboost_model.cpp reads the rest of the model):
// its node arrays, checked, turned into a Tree of the nodes the root reaches.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "models/trees/xgboost_reader.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 { namespace detail::xgboost {

/**
 * @brief Tree `t` of the model: the nodes the root reaches, in the file's order (so that node
 * ids are XGBoost's when the tree has no deleted node); `depth` set to its depth.
 */
Tree ReadTree(const Reader& r, const Json& json, std::size_t t, int output, int& depth) {
  const std::string where = "tree " + std::to_string(t);
  const Json& param = r.Member(json, "tree_param", where);
  const auto n = static_cast<std::size_t>(
      r.Count(r.Member(param, "num_nodes", where + ".tree_param"), where + ".tree_param.num_nodes"));
  if (n == 0) r.Fail(where + " has no node; " + kSaveAgain);
  if (const auto it = param.find("size_leaf_vector"); it != param.end()) {
    const std::int64_t k = r.Count(*it, where + ".tree_param.size_leaf_vector");
    if (k > 1)
      r.Fail(where + " has vector leaves (size_leaf_vector " + std::to_string(k) +
             "), which perfshap does not read: retrain with multi_strategy=\"one_output_per_tree\"");
  }
  const auto left = r.Numbers(json, "left_children", n, where);
  const auto right = r.Numbers(json, "right_children", n, where);
  const auto split = r.Numbers(json, "split_indices", n, where);
  const auto condition = r.Numbers(json, "split_conditions", n, where);
  const auto missing_left = r.Numbers(json, "default_left", n, where);
  const auto hessian = r.Numbers(json, "sum_hessian", n, where);
  std::vector<double> split_type;  // older models have no split_type: all numerical
  if (json.contains("split_type")) split_type = r.Numbers(json, "split_type", n, where);

  // Walk from the root with an explicit stack (a tree may be any number of levels deep): a leaf
  // has -1 for both children, a split two nodes of the tree that no other node links to (so no
  // node is reached twice and there is no cycle: the root is no node's child). Anything else
  // (a child -2, a node with one child) is refused: XGBoost itself crashes or reads past its
  // arrays there, and taking such a node for a leaf would predict with its split's threshold.
  // The nodes no path from the root reaches are left out, not refused: XGBoost's pruning (the
  // exact method with gamma) keeps its deleted nodes in the arrays, unlinked, and XGBoost never
  // reads them; what the root reaches is the whole tree XGBoost predicts with.
  std::vector<std::uint8_t> reached(n, 0);
  std::vector<int> node_depth(n, 0);
  std::vector<std::size_t> stack{0};
  reached[0] = 1;
  depth = 0;
  while (!stack.empty()) {
    const std::size_t i = stack.back();
    stack.pop_back();
    depth = std::max(depth, node_depth[i]);
    const std::string node = where + ", node " + std::to_string(i);
    if (left[i] == -1.0 && right[i] == -1.0) continue;
    if (left[i] < 0 || right[i] < 0)
      r.Fail(node + " has children " + Reader::Index(left[i]) + " and " + Reader::Index(right[i]) +
             ": a leaf has -1 for both, a split two nodes of the tree; the arrays are inconsistent; " + kSaveAgain);
    if (!split_type.empty() && split_type[i] != 0.0)
      r.Fail(node +
             " is a categorical split, which perfshap does not read: retrain with the feature one-hot "
             "encoded (or without enable_categorical)");
    for (const double c : {left[i], right[i]}) {
      if (!(c >= 1 && c < static_cast<double>(n)) || c != std::floor(c) || reached[static_cast<std::size_t>(c)])
        r.Fail(node + " has child " + Reader::Index(c) + ", which is not a new node among the tree's " +
               std::to_string(n) + " nodes: the arrays are inconsistent; " + kSaveAgain);
      reached[static_cast<std::size_t>(c)] = 1;
      node_depth[static_cast<std::size_t>(c)] = node_depth[i] + 1;
      stack.push_back(static_cast<std::size_t>(c));
    }
    if (!(split[i] >= 0 && split[i] <= std::numeric_limits<std::int32_t>::max()) || split[i] != std::floor(split[i]))
      r.Fail(node + " splits on feature " + Reader::Shown(Json(split[i])) + ", not a feature index; " + kSaveAgain);
  }
  // The nodes with categories (a model without split_type lists them here; XGBoost 1.4 and
  // older have neither key and no categorical splits).
  if (const auto nodes = json.find("categories_nodes"); nodes != json.end() && nodes->is_array()) {
    for (const Json& c : *nodes) {
      if (c.is_number_integer() && c.get<std::int64_t>() >= 0 && c.get<std::int64_t>() < static_cast<std::int64_t>(n) &&
          reached[static_cast<std::size_t>(c.get<std::int64_t>())])
        r.Fail(where + ", node " + Reader::Shown(c) +
               " is a categorical split, which perfshap does not read: "
               "retrain with the feature one-hot encoded (or without enable_categorical)");
    }
  }

  std::vector<std::int32_t> id(n, -1);  // new index of each reached node
  std::int32_t next = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (reached[i]) id[i] = next++;
  Tree tree;
  tree.output = output;
  tree.width = 1;
  for (std::size_t i = 0; i < n; ++i) {
    if (!reached[i]) continue;
    const bool leaf = left[i] == -1.0;
    const double v = AsFloat(condition[i]);
    const double value = leaf ? v : 0.0;  // set below for internal nodes
    const std::int32_t node =
        tree.AddNode(leaf ? -1 : static_cast<std::int32_t>(split[i]), leaf ? 0.0 : v, missing_left[i] != 0.0,
                     AsFloat(hessian[i]), std::span<const double>(&value, 1));
    if (!leaf) {
      tree.left[static_cast<std::size_t>(node)] = id[static_cast<std::size_t>(left[i])];
      tree.right[static_cast<std::size_t>(node)] = id[static_cast<std::size_t>(right[i])];
    }
  }
  // An internal node's value: the cover-weighted mean of its children's (the expected leaf value
  // below it, as XGBoost's TreeSHAP computes it: divided by the node's own cover). Children have
  // larger file indices than their parent in XGBoost's trees, but the order is not relied on:
  // nodes are finished in the reverse of a preorder walk, children before parents.
  std::vector<std::int32_t> order;
  order.reserve(tree.n_nodes());
  std::vector<std::int32_t> walk{0};
  while (!walk.empty()) {
    const std::int32_t i = walk.back();
    walk.pop_back();
    order.push_back(i);
    if (tree.left[static_cast<std::size_t>(i)] >= 0) {
      walk.push_back(tree.left[static_cast<std::size_t>(i)]);
      walk.push_back(tree.right[static_cast<std::size_t>(i)]);
    }
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const auto i = static_cast<std::size_t>(*it);
    if (tree.left[i] < 0) continue;
    const auto a = static_cast<std::size_t>(tree.left[i]);
    const auto b = static_cast<std::size_t>(tree.right[i]);
    const double weighted = tree.value[a] * tree.cover[a] + tree.value[b] * tree.cover[b];
    tree.value[i] = tree.cover[i] > 0.0 ? weighted / tree.cover[i] : 0.5 * (tree.value[a] + tree.value[b]);
  }
  return tree;
}

}}}  // namespace perfshap::detail::xgboost
