// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "solvers/coalition_trees.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "perfshap/coalition.hpp"
#include "perfshap/error.hpp"

namespace perfshap::detail {

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

void CoalitionTrees::Fit(int n, std::span<const std::uint64_t> coalitions, std::span<const double> y,
                         std::span<const double> w, const CoalitionTreeOptions& options) {
  n_ = n;
  words_ = CoalitionWords(n);
  const std::size_t m = y.size();
  PERFSHAP_CHECK(coalitions.size() == m * words_ && w.size() == m, "CoalitionTrees: samples of unequal lengths");
  nodes_.clear();
  roots_.clear();
  std::vector<double> residual(y.begin(), y.end());
  std::vector<std::size_t> at(m);  // each sample's node (absolute index into nodes_)
  const auto np = static_cast<std::size_t>(n);
  // Per open node of a level: sums over its samples, and per player over those that hold it.
  std::vector<double> total_w, total_r, in_w, in_r;
  std::vector<std::size_t> total_c, in_c;
  std::vector<int> slot_of;                  // node -> its slot in the level, or -1
  std::vector<std::size_t> level, next;     // the level's open nodes
  for (int t = 0; t < options.trees; ++t) {
    const std::size_t root = nodes_.size();
    roots_.push_back(root);
    nodes_.push_back({});
    std::fill(at.begin(), at.end(), root);
    level.assign(1, root);
    for (int d = 0; d < options.depth && !level.empty(); ++d) {
      const std::size_t open = level.size();
      slot_of.assign(nodes_.size(), -1);
      for (std::size_t a = 0; a < open; ++a) slot_of[level[a]] = static_cast<int>(a);
      total_w.assign(open, 0.0);
      total_r.assign(open, 0.0);
      total_c.assign(open, 0);
      in_w.assign(open * np, 0.0);
      in_r.assign(open * np, 0.0);
      in_c.assign(open * np, 0);
      for (std::size_t i = 0; i < m; ++i) {
        const int slot = slot_of[at[i]];
        if (slot < 0) continue;  // in a leaf already
        const auto a = static_cast<std::size_t>(slot);
        const double wi = w[i];
        const double ri = wi * residual[i];
        total_w[a] += wi;
        total_r[a] += ri;
        ++total_c[a];
        const std::uint64_t* words = coalitions.data() + i * words_;
        for (std::size_t q = 0; q < words_; ++q)
          for (std::uint64_t rest = words[q]; rest != 0; rest &= rest - 1) {
            const std::size_t j = q * 64 + static_cast<std::size_t>(std::countr_zero(rest));
            in_w[a * np + j] += wi;
            in_r[a * np + j] += ri;
            ++in_c[a * np + j];
          }
      }
      // The best split of each open node (the largest drop of the weighted squared residual);
      // its children are the next level's open nodes.
      next.clear();
      for (std::size_t a = 0; a < open; ++a) {
        if (total_c[a] < 2 || !(total_w[a] > 0.0)) continue;
        const double base = total_r[a] * total_r[a] / total_w[a];
        double best = 0.0;
        int player = -1;
        for (std::size_t j = 0; j < np; ++j) {
          const std::size_t c1 = in_c[a * np + j];
          if (c1 == 0 || c1 == total_c[a]) continue;
          const double w1 = in_w[a * np + j];
          const double w0 = total_w[a] - w1;
          if (!(w1 > 0.0) || !(w0 > 0.0)) continue;
          const double r1 = in_r[a * np + j];
          const double r0 = total_r[a] - r1;
          const double gain = r1 * r1 / w1 + r0 * r0 / w0 - base;
          if (gain > best) {
            best = gain;
            player = static_cast<int>(j);
          }
        }
        if (player < 0) continue;
        const std::size_t parent = level[a];
        const std::size_t in_child = nodes_.size();
        nodes_.push_back({});
        nodes_.push_back({});
        nodes_[parent].player = player;
        nodes_[parent].in = static_cast<int>(in_child);
        nodes_[parent].out = static_cast<int>(in_child + 1);
        next.push_back(in_child);
        next.push_back(in_child + 1);
      }
      for (std::size_t i = 0; i < m; ++i) {
        const Node& node = nodes_[at[i]];
        if (node.player < 0 || slot_of[at[i]] < 0) continue;
        const bool in = Has(std::span<const std::uint64_t>(coalitions.data() + i * words_, words_), node.player);
        at[i] = static_cast<std::size_t>(in ? node.in : node.out);
      }
      std::swap(level, next);
    }
    // Leaf values: the shrunk weighted mean residual; then the residuals move.
    std::vector<double> leaf_w(nodes_.size() - root, 0.0);
    std::vector<double> leaf_r(leaf_w.size(), 0.0);
    for (std::size_t i = 0; i < m; ++i) {
      leaf_w[at[i] - root] += w[i];
      leaf_r[at[i] - root] += w[i] * residual[i];
    }
    for (std::size_t l = 0; l < leaf_w.size(); ++l) {
      Node& node = nodes_[root + l];
      if (node.player < 0) node.value = leaf_w[l] > 0.0 ? options.learning_rate * leaf_r[l] / leaf_w[l] : 0.0;
    }
    for (std::size_t i = 0; i < m; ++i) residual[i] -= nodes_[at[i]].value;
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
  // Depth first over each tree, with the players required in and out on the path.
  const auto visit = [&](const auto& self, std::size_t at) -> void {
    const Node& node = nodes_[at];
    if (node.player >= 0) {
      in.push_back(node.player);
      self(self, static_cast<std::size_t>(node.in));
      in.pop_back();
      out.push_back(node.player);
      self(self, static_cast<std::size_t>(node.out));
      out.pop_back();
      return;
    }
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
  for (std::size_t root : roots_) visit(visit, root);
  return phi;
}

}  // namespace perfshap::detail
