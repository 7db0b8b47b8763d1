// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "solvers/coalition_trees.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>
#include <vector>

#include "perfshap/blocks/coalition.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

bool Has(std::span<const std::uint64_t> words, int i) {
  return ((words[static_cast<std::size_t>(i) / 64] >> (static_cast<unsigned>(i) % 64)) & 1U) != 0;
}

double Binomial(int n, int k) {
  double c = 1.0;
  for (int t = 1; t <= k; ++t) c = c * (n - k + t) / t;
  return c;
}

}  // namespace

// The sums a node's split search reads: over its samples, and per player over those holding it.
struct CoalitionTrees::NodeSums {
  double w = 0, r = 0;
  std::size_t c = 0;
  std::vector<double> in_w, in_r;
  std::vector<std::size_t> in_c;
  void Reset(std::size_t n) {
    w = r = 0;
    c = 0;
    in_w.assign(n, 0.0);
    in_r.assign(n, 0.0);
    in_c.assign(n, 0);
  }
  // this = parent - sibling (the larger child's sums, without a pass over its samples).
  void Difference(const NodeSums& parent, const NodeSums& sibling) {
    w = parent.w - sibling.w;
    r = parent.r - sibling.r;
    c = parent.c - sibling.c;
    in_w.resize(parent.in_w.size());
    in_r.resize(parent.in_r.size());
    in_c.resize(parent.in_c.size());
    for (std::size_t j = 0; j < in_w.size(); ++j) {
      in_w[j] = parent.in_w[j] - sibling.in_w[j];
      in_r[j] = parent.in_r[j] - sibling.in_r[j];
      in_c[j] = parent.in_c[j] - sibling.in_c[j];
    }
  }
  // Adds one sample: its coalition (n_words words), weight wi and weighted residual ri.
  void Add(const std::uint64_t* words, std::size_t n_words, double wi, double ri) {
    w += wi;
    r += ri;
    ++c;
    for (std::size_t q = 0; q < n_words; ++q)
      for (std::uint64_t rest = words[q]; rest != 0; rest &= rest - 1) {
        const std::size_t j = q * 64 + static_cast<std::size_t>(std::countr_zero(rest));
        in_w[j] += wi;
        in_r[j] += ri;
        ++in_c[j];
      }
  }
  // The player whose split most reduces the weighted squared residual, leaving min_leaf samples
  // or more on each side; -1 when no split gains.
  int BestSplit(std::size_t min_leaf) const {
    if (c < 2 * min_leaf || !(w > 0.0)) return -1;
    const double base = r * r / w;
    double best = 0.0;
    int player = -1;
    for (std::size_t j = 0; j < in_c.size(); ++j) {
      const std::size_t c1 = in_c[j];
      if (c1 < min_leaf || c - c1 < min_leaf) continue;
      const double w1 = in_w[j];
      const double w0 = w - w1;
      if (!(w1 > 0.0) || !(w0 > 0.0)) continue;
      const double r1 = in_r[j];
      const double r0 = r - r1;
      const double gain = r1 * r1 / w1 + r0 * r0 / w0 - base;
      if (gain > best) {
        best = gain;
        player = static_cast<int>(j);
      }
    }
    return player;
  }
};

namespace {

// Fit's steps over the trees' nodes. Templates over the node (and sums) type only because
// CoalitionTrees keeps those types private; Nodes is its std::vector<Node>.

// Splits every open node of `level` on its best player: appends the two children (in-child
// first) to `nodes` and to `next`; returns how many children were made.
template <class Nodes, class Sums>
std::size_t SplitLevel(Nodes& nodes, const std::vector<std::size_t>& level, const std::vector<Sums>& sums,
                       std::size_t min_leaf, std::vector<std::size_t>& next) {
  next.clear();
  std::size_t children = 0;
  for (std::size_t a = 0; a < level.size(); ++a) {
    const int player = sums[a].BestSplit(min_leaf);
    if (player < 0) continue;
    const std::size_t parent = level[a];
    const std::size_t in_child = nodes.size();
    nodes.push_back({});
    nodes.push_back({});
    nodes[parent].player = player;
    nodes[parent].in = static_cast<int>(in_child);
    nodes[parent].out = static_cast<int>(in_child + 1);
    next.push_back(in_child);
    next.push_back(in_child + 1);
    children += 2;
  }
  return children;
}

// Moves the samples of split nodes to their children (`at`: each sample's node).
template <class Nodes>
void MoveSamples(const Nodes& nodes, std::span<const std::uint64_t> coalitions, std::size_t n_words,
                 std::vector<std::size_t>& at) {
  for (std::size_t i = 0; i < at.size(); ++i) {
    const auto& node = nodes[at[i]];
    if (node.player < 0) continue;
    const bool in = Has(std::span<const std::uint64_t>(coalitions.data() + i * n_words, n_words), node.player);
    at[i] = static_cast<std::size_t>(in ? node.in : node.out);
  }
}

// Leaf values of the tree rooted at `root` (its nodes are the last ones): the shrunk weighted
// mean residual; then the residuals move and the fitted values take the leaves' values.
template <class Nodes>
void FitLeaves(Nodes& nodes, std::size_t root, const std::vector<std::size_t>& at, std::span<const double> w,
               double learning_rate, std::vector<double>& residual, std::vector<double>& fitted) {
  const std::size_t m = at.size();
  std::vector<double> leaf_w(nodes.size() - root, 0.0);
  std::vector<double> leaf_r(leaf_w.size(), 0.0);
  for (std::size_t i = 0; i < m; ++i) {
    leaf_w[at[i] - root] += w[i];
    leaf_r[at[i] - root] += w[i] * residual[i];
  }
  for (std::size_t l = 0; l < leaf_w.size(); ++l) {
    auto& node = nodes[root + l];
    if (node.player < 0) node.value = leaf_w[l] > 0.0 ? learning_rate * leaf_r[l] / leaf_w[l] : 0.0;
  }
  for (std::size_t i = 0; i < m; ++i) {
    residual[i] -= nodes[at[i]].value;
    fitted[i] += nodes[at[i]].value;  // the sum Predict forms, in its order
  }
}

}  // namespace

void CoalitionTrees::Fit(int n, std::span<const std::uint64_t> coalitions, std::span<const double> y,
                         std::span<const double> w, const CoalitionTreeOptions& options) {
  n_ = n;
  words_ = CoalitionWords(n);
  const std::size_t m = y.size();
  PERFSHAP_CHECK(coalitions.size() == m * words_ && w.size() == m, "CoalitionTrees: samples of unequal lengths");
  nodes_.clear();
  roots_.clear();
  const auto np = static_cast<std::size_t>(n);
  const std::size_t min_leaf = std::max<std::size_t>(1, options.min_leaf);
  std::vector<double> residual(y.begin(), y.end());
  fitted_.assign(m, 0.0);
  std::vector<std::size_t> at(m);  // each sample's node (absolute index into nodes_)
  // The open nodes of a level, their sums, and which of them a pass over the samples fills
  // (a split's smaller child; the larger one is its parent's sums minus its sibling's).
  std::vector<std::size_t> level, next;
  std::vector<NodeSums> sums, next_sums;
  std::vector<int> slot_of;  // node -> its slot in the level when a pass fills it, else -1
  const auto accumulate = [&](NodeSums& into, std::size_t i) {
    const double wi = w[i];
    into.Add(coalitions.data() + i * words_, words_, wi, wi * residual[i]);
  };
  for (int t = 0; t < options.trees; ++t) {
    const std::size_t root = nodes_.size();
    roots_.push_back(root);
    nodes_.push_back({});
    std::fill(at.begin(), at.end(), root);
    level.assign(1, root);
    sums.resize(1);
    sums[0].Reset(np);
    for (std::size_t i = 0; i < m; ++i) accumulate(sums[0], i);
    for (int d = 0; d < options.depth && !level.empty(); ++d) {
      // The best split of each open node: the largest drop of the weighted squared residual.
      const std::size_t children = SplitLevel(nodes_, level, sums, min_leaf, next);
      MoveSamples(nodes_, coalitions, words_, at);
      if (d + 1 == options.depth || children == 0) break;
      // The children's sums: one pass fills each split's smaller child.
      next_sums.resize(children);
      slot_of.assign(nodes_.size(), -1);
      for (std::size_t c = 0; c < children; c += 2) {
        const std::size_t parent_slot = static_cast<std::size_t>(
            std::find_if(level.begin(), level.end(),
                         [&](std::size_t node) { return nodes_[node].in == static_cast<int>(next[c]); }) -
            level.begin());
        const NodeSums& parent = sums[parent_slot];
        const std::size_t in_count = parent.in_c[static_cast<std::size_t>(nodes_[level[parent_slot]].player)];
        const std::size_t small = in_count <= parent.c - in_count ? c : c + 1;
        next_sums[small].Reset(np);
        slot_of[next[small]] = static_cast<int>(small);
      }
      for (std::size_t i = 0; i < m; ++i)
        if (const int slot = slot_of[at[i]]; slot >= 0) accumulate(next_sums[static_cast<std::size_t>(slot)], i);
      std::size_t p = 0;
      for (std::size_t a = 0; a < level.size(); ++a) {
        if (nodes_[level[a]].player < 0) continue;
        const std::size_t c = 2 * p++;
        if (slot_of[next[c]] >= 0) {
          next_sums[c + 1].Difference(sums[a], next_sums[c]);
        } else {
          next_sums[c].Difference(sums[a], next_sums[c + 1]);
        }
      }
      std::swap(level, next);
      std::swap(sums, next_sums);
    }
    FitLeaves(nodes_, root, at, w, options.learning_rate, residual, fitted_);
  }
}

double CoalitionTrees::Predict(std::span<const std::uint64_t> words) const {
  double g = 0.0;
  for (std::size_t root : roots_) {
    std::size_t at = root;
    while (nodes_[at].player >= 0)
      at = static_cast<std::size_t>(Has(words, nodes_[at].player) ? nodes_[at].in : nodes_[at].out);
    g += nodes_[at].value;
  }
  return g;
}

std::vector<double> CoalitionTrees::Shapley() const {
  std::vector<double> phi(static_cast<std::size_t>(n_), 0.0);
  std::vector<int> in, out;
  // Depth first over each tree, with the players required in and out on the path; an explicit
  // stack (node, sides done) instead of recursion, so that the depth of a tree never meets the
  // thread's stack. Leaves are met in the order of the recursive walk: in-child first.
  std::vector<std::pair<std::size_t, int>> stack;
  const auto leaf = [&](const Node& node) {
    const int a = static_cast<int>(in.size());
    const int b = static_cast<int>(out.size());
    if (a + b == 0 || node.value == 0.0) return;
    if (a > 0) {
      const double share = node.value / (a * Binomial(a + b, a));
      for (int i : in) phi[static_cast<std::size_t>(i)] += share;
    }
    if (b > 0) {
      const double share = node.value / (b * Binomial(a + b, b));
      for (int i : out) phi[static_cast<std::size_t>(i)] -= share;
    }
  };
  for (std::size_t root : roots_) {
    stack.assign(1, {root, 0});
    while (!stack.empty()) {
      auto& [at, done] = stack.back();
      const Node& node = nodes_[at];
      if (node.player < 0) {
        leaf(node);
        stack.pop_back();
      } else if (done == 0) {
        done = 1;
        in.push_back(node.player);
        stack.emplace_back(static_cast<std::size_t>(node.in), 0);
      } else if (done == 1) {
        done = 2;
        in.pop_back();
        out.push_back(node.player);
        stack.emplace_back(static_cast<std::size_t>(node.out), 0);
      } else {
        out.pop_back();
        stack.pop_back();
      }
    }
  }
  return phi;
}

}}}  // namespace perfshap::detail
