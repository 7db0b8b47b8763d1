// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "data/message_text.hpp"
#include "models/trees/tree_checks.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 {

std::int32_t Tree::AddNode(std::int32_t split_feature, double split_threshold, bool missing_left, double node_cover,
                           std::span<const double> values) {
  const auto id = static_cast<std::int32_t>(feature.size());
  feature.push_back(split_feature);
  threshold.push_back(split_threshold);
  left.push_back(-1);
  right.push_back(-1);
  default_left.push_back(missing_left ? 1 : 0);
  cover.push_back(node_cover);
  value.insert(value.end(), values.begin(), values.end());
  return id;
}

std::size_t Tree::Leaf(std::span<const double> x, SplitRule rule) const noexcept {
  std::size_t i = 0;
  while (left[i] >= 0) {
    const double v = x[static_cast<std::size_t>(feature[i])];
    bool go_left;
    if (std::isnan(v)) {
      go_left = default_left[i] != 0;
    } else if (rule == SplitRule::kLessEqual) {
      go_left = v <= threshold[i];
    } else {
      go_left = RoundToFloat(v) < threshold[i];
    }
    i = static_cast<std::size_t>(go_left ? left[i] : right[i]);
  }
  return i;
}

int Tree::depth() const {
  // Nodes are checked to form a tree by TreeEnsemble; an explicit stack keeps deep trees safe.
  int deepest = 0;
  std::vector<std::pair<std::int32_t, int>> stack{{0, 0}};
  while (!stack.empty()) {
    const auto [node, d] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, d);
    if (left[static_cast<std::size_t>(node)] >= 0) {
      stack.emplace_back(left[static_cast<std::size_t>(node)], d + 1);
      stack.emplace_back(right[static_cast<std::size_t>(node)], d + 1);
    }
  }
  return deepest;
}

namespace detail {

void CheckFeatureNames(const std::vector<std::string>& names, const std::string& what) {
  std::unordered_map<std::string, std::size_t> first;  // name -> its first feature
  first.reserve(names.size());
  for (std::size_t j = 0; j < names.size(); ++j) {
    PERFSHAP_CHECK(!names[j].empty(),
                   what + ": feature " + std::to_string(j) + " has an empty name; give every feature a name");
    const auto [it, inserted] = first.emplace(names[j], j);
    PERFSHAP_CHECK(inserted, what + " names two features " + Quoted(names[j]) + " (features " +
                                 std::to_string(it->second) + " and " + std::to_string(j) +
                                 "); give each feature its own name");
  }
}

}  // namespace detail

namespace {

void CheckTree(const Tree& t, std::size_t index, const TreeEnsembleInfo& info) {
  const std::string where = "tree " + std::to_string(index);
  const std::size_t n = t.n_nodes();
  PERFSHAP_CHECK(n > 0, where + " has no node");
  PERFSHAP_CHECK(t.threshold.size() == n && t.left.size() == n && t.right.size() == n &&
                     t.default_left.size() == n && t.cover.size() == n,
                 where + ": its node arrays differ in length");
  PERFSHAP_CHECK(t.width >= 1 && t.output >= 0 &&
                     static_cast<std::size_t>(t.output) + static_cast<std::size_t>(t.width) <= info.n_outputs,
                 where + " adds to outputs " + std::to_string(t.output) + ".." +
                     std::to_string(t.output + t.width - 1) + " of a model with " +
                     std::to_string(info.n_outputs) + " outputs");
  PERFSHAP_CHECK(t.value.size() == n * static_cast<std::size_t>(t.width),
                 where + ": its values do not hold " + std::to_string(t.width) + " per node");
  // Every node but the root has exactly one parent and is reachable from the root.
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<std::int32_t> stack{0};
  seen[0] = 1;
  std::size_t reached = 0;
  while (!stack.empty()) {
    const auto i = static_cast<std::size_t>(stack.back());
    stack.pop_back();
    ++reached;
    const std::string node = where + ", node " + std::to_string(i);
    PERFSHAP_CHECK(std::isfinite(t.cover[i]) && t.cover[i] >= 0.0, node + " has cover " + std::to_string(t.cover[i]) +
                                                                        ": a cover must be finite and >= 0");
    if (t.left[i] < 0 || t.right[i] < 0) {
      // A leaf: -1 for both children. Anything else negative (a node with one child, a
      // child -2) is no tree: reading it as a leaf would predict with a split's value.
      PERFSHAP_CHECK(t.left[i] == -1 && t.right[i] == -1,
                     node + " has children " + std::to_string(t.left[i]) + " and " + std::to_string(t.right[i]) +
                         ": a leaf has -1 for both, a split two nodes of the tree");
      for (int w = 0; w < t.width; ++w)
        PERFSHAP_CHECK(std::isfinite(t.value[i * static_cast<std::size_t>(t.width) + static_cast<std::size_t>(w)]),
                       node + " is a leaf with a value that is not finite");
      continue;
    }
    PERFSHAP_CHECK(t.feature[i] >= 0 && static_cast<std::size_t>(t.feature[i]) < info.n_features,
                   node + " splits on feature " + std::to_string(t.feature[i]) + " of a model with " +
                       std::to_string(info.n_features) + " features");
    PERFSHAP_CHECK(std::isfinite(t.threshold[i]), node + " has a threshold that is not a finite number");
    for (const std::int32_t c : {t.left[i], t.right[i]}) {
      PERFSHAP_CHECK(c > 0 && static_cast<std::size_t>(c) < n && seen[static_cast<std::size_t>(c)] == 0,
                     node + " has child " + std::to_string(c) + ", which is not a new node of the tree");
      seen[static_cast<std::size_t>(c)] = 1;
      stack.push_back(c);
    }
  }
  PERFSHAP_CHECK(reached == n, where + " has " + std::to_string(n - reached) + " nodes no path from the root reaches");
}

}  // namespace

TreeEnsemble::TreeEnsemble(std::vector<Tree> trees, TreeEnsembleInfo info) : trees_(std::move(trees)), info_(std::move(info)) {
  PERFSHAP_CHECK(info_.n_features >= 1, "a tree model needs at least one feature");
  PERFSHAP_CHECK(info_.n_outputs >= 1, "a tree model needs at least one output");
  PERFSHAP_CHECK(info_.feature_names.empty() || info_.feature_names.size() == info_.n_features,
                 "a tree model has " + std::to_string(info_.feature_names.size()) + " feature names for " +
                     std::to_string(info_.n_features) + " features");
  PERFSHAP_CHECK(info_.base_margin.empty() || info_.base_margin.size() == info_.n_outputs,
                 "a tree model's base margin has " + std::to_string(info_.base_margin.size()) + " values for " +
                     std::to_string(info_.n_outputs) + " outputs");
  PERFSHAP_CHECK((info_.transform != TreeTransform::kLogistic && info_.transform != TreeTransform::kStep) ||
                     info_.n_outputs == 1,
                 "a logistic or step tree model has one output");
  PERFSHAP_CHECK(std::isfinite(info_.tree_scale) && info_.tree_scale > 0.0, "a tree model's tree scale must be > 0");
  // Names are how data columns are matched to the model's features: two features of one name
  // would take the same column (and xper's players would collide), an empty one none.
  detail::CheckFeatureNames(info_.feature_names, "a tree model");
  // Trees are numbered as the model file numbers them (a range of rounds starts past tree 0).
  const auto first_tree = static_cast<std::size_t>(std::max<std::int64_t>(0, info_.rounds.first_tree));
  for (std::size_t t = 0; t < trees_.size(); ++t) {
    CheckTree(trees_[t], first_tree + t, info_);
    max_depth_ = std::max(max_depth_, trees_[t].depth());
  }
}

void TreeEnsemble::PredictMargin(std::span<const double> x, std::size_t n_rows, std::span<double> out) const {
  const std::size_t K = info_.n_outputs;
  PERFSHAP_CHECK(x.size() == info_.n_features * n_rows && out.size() == K * n_rows,
                 "TreeEnsemble::PredictMargin: wrong sizes");
  // Trees outer, rows inner, reading the column-major rows in place (nothing allocated): each
  // row's leaves are summed in tree order, then scaled and added to the base margin.
  std::fill(out.begin(), out.end(), 0.0);
  const bool to_float = info_.rule == SplitRule::kLessFloat;
  for (const Tree& t : trees_) {
    const auto w = static_cast<std::size_t>(t.width);
    for (std::size_t r = 0; r < n_rows; ++r) {
      std::size_t i = 0;
      while (t.left[i] >= 0) {
        const double v = x[static_cast<std::size_t>(t.feature[i]) * n_rows + r];
        bool go_left;
        if (std::isnan(v)) {
          go_left = t.default_left[i] != 0;
        } else if (to_float) {
          go_left = RoundToFloat(v) < t.threshold[i];
        } else {
          go_left = v <= t.threshold[i];
        }
        i = static_cast<std::size_t>(go_left ? t.left[i] : t.right[i]);
      }
      for (std::size_t k = 0; k < w; ++k) out[(static_cast<std::size_t>(t.output) + k) * n_rows + r] += t.value[i * w + k];
    }
  }
  for (std::size_t o = 0; o < K; ++o)
    for (std::size_t r = 0; r < n_rows; ++r) out[o * n_rows + r] = base_margin(o) + info_.tree_scale * out[o * n_rows + r];
}

void TreeEnsemble::TransformMargins(std::span<double> m, std::size_t n_rows) const {
  const std::size_t K = info_.n_outputs;
  switch (info_.transform) {
    case TreeTransform::kIdentity:
      return;
    case TreeTransform::kLogistic:
      for (std::size_t r = 0; r < n_rows; ++r) m[r] = Expit(m[r]);
      return;
    case TreeTransform::kSoftmax:
      for (std::size_t r = 0; r < n_rows; ++r) {
        double top = m[r];
        for (std::size_t o = 1; o < K; ++o) top = std::max(top, m[o * n_rows + r]);
        double total = 0.0;
        for (std::size_t o = 0; o < K; ++o) {
          m[o * n_rows + r] = std::exp(m[o * n_rows + r] - top);
          total += m[o * n_rows + r];
        }
        for (std::size_t o = 0; o < K; ++o) m[o * n_rows + r] /= total;
      }
      return;
    case TreeTransform::kExp:
      for (std::size_t t = 0; t < n_rows * K; ++t) m[t] = std::exp(m[t]);
      return;
    case TreeTransform::kStep:
      for (std::size_t r = 0; r < n_rows; ++r) m[r] = m[r] > 0.0 ? 1.0 : 0.0;
      return;
  }
}

void TreeEnsemble::Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const {
  PredictMargin(x, n_rows, out);
  TransformMargins(out, n_rows);
}

std::string TreeEnsemble::Describe() const {
  if (!info_.description.empty()) return info_.description;
  return std::to_string(trees_.size()) + " trees, " + std::to_string(info_.n_features) + " features";
}

}}  // namespace perfshap
