// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Path-dependent TreeSHAP by quadrature over the tree (in the spirit of Quadrature TreeSHAP,
// Wettenstein et al. 2026). tree_interactions.cpp shows that leaf l adds to feature f
//   (o_f - z_f) integral_0^1 v_l prod_{e in P_l, e != f} g_e(t) dt,  g_e(t) = z_e (1 - t) + o_e t,
// exactly a Gauss-Legendre sum over the n = ceil(D / 2) nodes t_k (weights w_k) of the tree's
// longest path of D features. Let P_l(t_k) = w_k prod_{e in P_l} g_e(t_k): a running product from
// the root down (each split multiplies in its element's factor; a feature split again replaces
// its element's factor by the merged one's). Then leaf l adds (o_f - z_f) sum_k v_l P_l(t_k) /
// g_f(t_k), and the leaves that share f's element are exactly those below the child where that
// element took its final form and not below a later split on f: so with S_c(t_k) = sum over the
// leaves below c of v_l P_l(t_k), summed from the leaves up, the split at u on f adds for each
// child c
//   (o_c - z_c) sum_k (S_c(t_k) - H_c(t_k)) / g_c(t_k),
// H_c the part of S_c below later splits on f (their own children count it). O(n) per node and
// row, O(nodes x D / 2) per tree, against O(leaves x D) for the leaf paths with their tables and
// O(leaves x D^2) without (treeshap.cpp, the reference the tests compare with). Every factor
// that does not depend on the row (g, its inverse, the merged factor's ratio to the one it
// replaces) is computed once per node.
#include "solvers/quadrature_treeshap.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <vector>

#include "solvers/path_interactions.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

struct Preparer {
  const Tree& tree;
  QuadratureTree& q;
  std::vector<double>& zero_before;
  std::vector<std::int32_t> path;  // the features on the path
  int most_features = 0;

  void Walk(std::size_t node) {
    if (tree.is_leaf(node)) {
      most_features = std::max(most_features, static_cast<int>(path.size()));
      return;
    }
    const std::int32_t f = tree.feature[node];
    const bool repeat = std::find(path.begin(), path.end(), f) != path.end();
    if (!repeat) path.push_back(f);
    for (const std::int32_t child : {tree.left[node], tree.right[node]}) {
      const auto c = static_cast<std::size_t>(child);
      q.repeat[c] = repeat ? 1 : 0;
      // The merged zero fraction of f's element: the one above (at the nearest ancestor edge
      // splitting on f) times this split's ratio.
      zero_before[c] = repeat ? ZeroAbove(node, f) : 1.0;
      q.zero[c] = zero_before[c] * (tree.cover[c] / tree.cover[node]);
      parent_[c] = node;
      Walk(c);
    }
    if (!repeat) path.pop_back();
  }

  /** The zero fraction of f's element entering `node` (node is below a split on f). */
  double ZeroAbove(std::size_t node, std::int32_t f) const {
    std::size_t c = node;
    while (c != 0) {
      const std::size_t u = parent_[c];
      if (tree.feature[u] == f) return q.zero[c];
      c = u;
    }
    return 1.0;
  }

  std::vector<std::size_t> parent_;
};

}  // namespace

QuadratureTree PrepareQuadratureTree(const Tree& tree, double tree_scale) {
  const int depth = tree.depth();
  if (depth > kMaxQuadratureDepth) return QuadratureTree{};
  QuadratureTree q;
  q.tree = &tree;
  q.depth = depth;
  const std::size_t N = tree.n_nodes();
  q.zero.assign(N, 1.0);
  q.repeat.assign(N, 0);
  std::vector<double> zero_before(N, 1.0);
  Preparer p{tree, q, zero_before, {}, 0, std::vector<std::size_t>(N, 0)};
  p.Walk(0);
  if (p.most_features > 2 * kMaxQuadratureNodes - 1) return QuadratureTree{};
  q.n = std::max(1, (p.most_features + 1) / 2);
  const QuadratureRule rule = GaussLegendre01(q.n);
  const auto n = static_cast<std::size_t>(q.n);
  q.weights.assign(rule.w, rule.w + n);
  q.multiplier.assign(N * 3 * n, 0.0);
  q.inverse.assign(N * 2 * n, 0.0);
  for (std::size_t c = 1; c < N; ++c) {
    const double z = q.zero[c];
    const double zb = zero_before[c];
    for (std::size_t k = 0; k < n; ++k) {
      const double t = rule.t[k];
      const double g1 = z * (1.0 - t) + t;
      const double g0 = z * (1.0 - t);
      q.inverse[(c * 2 + 0) * n + k] = 1.0 / g1;
      q.inverse[(c * 2 + 1) * n + k] = g0 != 0.0 ? 1.0 / g0 : 0.0;
      double* m = q.multiplier.data() + c * 3 * n;
      if (q.repeat[c] == 0) {
        m[0 * n + k] = g1;
        m[1 * n + k] = g0;
      } else {
        // The merged factor over the one it replaces (followed after followed, not after
        // followed, not after not); a replaced factor of 0 left the product 0 already.
        const double b1 = zb * (1.0 - t) + t;
        const double b0 = zb * (1.0 - t);
        m[0 * n + k] = g1 / b1;
        m[1 * n + k] = g0 / b1;
        m[2 * n + k] = b0 != 0.0 ? g0 / b0 : 0.0;
      }
    }
  }
  const auto W = static_cast<std::size_t>(tree.width);
  q.values.resize(tree.value.size());
  for (std::size_t i = 0; i < N * W; ++i) q.values[i] = tree_scale * tree.value[i];
  return q;
}

void QuadratureScratch::Reserve(int depth, int n, std::size_t n_features) {
  const std::size_t block = static_cast<std::size_t>(n) * kQuadratureLanes;
  const auto levels = static_cast<std::size_t>(depth) + 2;
  if (products.size() < levels * block) products.resize(levels * block);
  if (sums.size() < levels * block) sums.resize(levels * block);
  if (hidden.size() < levels * block) hidden.resize(levels * block);
  if (element_of.size() < n_features) element_of.assign(n_features, -1);
  if (followed.size() < levels * kQuadratureLanes) followed.resize(levels * kQuadratureLanes);
  if (hidden_set.size() < levels) hidden_set.resize(levels);
}

namespace {

/**
 * The walk for kQuadratureLanes rows at once and one value column of the leaves, with rules of N
 * nodes (N = 0: q.n, known at run time): each level holds every lane's running product and leaf
 * sums, lane innermost, so that a node's work is a few loops over the lanes the compiler
 * vectorizes, and the walk's own cost is shared by the rows. What does not depend on the row
 * (which element a feature's split replaces, whether a later split hid part of an element's
 * leaves) is the same for every lane. Each level's sums are written, not accumulated (no
 * zeroing); an element's hidden part only once a later split on its feature sets it.
 */
template <SplitRule R, int N>
struct LaneWalker {
  static constexpr std::size_t L = kQuadratureLanes;
  const QuadratureTree& q;
  const Tree& t;
  const double* const* rows;
  QuadratureScratch& s;
  double* const* outs;
  std::size_t n;
  std::size_t column;

  std::size_t Nodes() const {
    if constexpr (N > 0) {
      return static_cast<std::size_t>(N);
    } else {
      return n;
    }
  }

  void Visit(std::size_t node, std::size_t level) {
    const std::size_t nn = Nodes();
    const std::size_t block = nn * L;
    const double* __restrict P = s.products.data() + level * block;
    double* __restrict S = s.sums.data() + level * block;
    if (t.is_leaf(node)) {
      const double v = q.values[node * static_cast<std::size_t>(t.width) + column];
      for (std::size_t i = 0; i < block; ++i) S[i] = P[i] * v;
      return;
    }
    const auto f = static_cast<std::size_t>(t.feature[node]);
    const double threshold = t.threshold[node];
    const bool default_left = t.default_left[node] != 0;
    bool go_left[L];
    for (std::size_t l = 0; l < L; ++l) {
      const double x = rows[l][f];
      if (std::isnan(x)) {
        go_left[l] = default_left;
      } else if constexpr (R == SplitRule::kLessEqual) {
        go_left[l] = x <= threshold;
      } else {
        go_left[l] = x < threshold;
      }
    }
    const std::int32_t before = s.element_of[f];
    const std::uint8_t* followed_before =
        before < 0 ? nullptr : s.followed.data() + static_cast<std::size_t>(before) * L;
    const std::size_t next = level + 1;
    double* __restrict Pc = s.products.data() + next * block;
    const double* __restrict Sc = s.sums.data() + next * block;
    const double* __restrict Hc = s.hidden.data() + next * block;
    std::uint8_t* followed = s.followed.data() + next * L;
    for (int side = 0; side < 2; ++side) {
      const auto c = static_cast<std::size_t>(side == 0 ? t.left[node] : t.right[node]);
      const double* mc = q.multiplier.data() + c * 3 * nn;
      const double* ic = q.inverse.data() + c * 2 * nn;
      const bool repeat = q.repeat[c] != 0;
      // Per lane: whether it follows the element, and which multiplier it takes (selected, not
      // blended, so that every lane gets the single-row walk's factors exactly).
      bool fo[L];
      alignas(64) std::uint64_t mask[L];  // all ones where the lane follows the element
      alignas(64) double weight[L];
      for (std::size_t l = 0; l < L; ++l) {
        const bool fb = followed_before == nullptr || followed_before[l] != 0;
        fo[l] = (side == 0) == go_left[l] && fb;
        mask[l] = fo[l] ? ~std::uint64_t{0} : 0;
        followed[l] = fo[l] ? 1 : 0;
        weight[l] = (fo[l] ? 1.0 : 0.0) - q.zero[c];
      }
      if (!repeat) {
        for (std::size_t k = 0; k < nn; ++k) {
          const auto a = std::bit_cast<std::uint64_t>(mc[k]);
          const auto b = std::bit_cast<std::uint64_t>(mc[nn + k]);
          for (std::size_t l = 0; l < L; ++l)
            Pc[k * L + l] = P[k * L + l] * std::bit_cast<double>((mask[l] & a) | (~mask[l] & b));
        }
      } else {
        for (std::size_t l = 0; l < L; ++l) {
          const bool fb = followed_before == nullptr || followed_before[l] != 0;
          const double* m = mc + (fb ? (fo[l] ? 0 : 1) : 2) * nn;
          for (std::size_t k = 0; k < nn; ++k) Pc[k * L + l] = P[k * L + l] * m[k];
        }
      }
      s.hidden_set[next] = 0;
      s.element_of[f] = static_cast<std::int32_t>(next);
      Visit(c, next);
      s.element_of[f] = before;
      alignas(64) double sum[L] = {};
      const bool hidden = s.hidden_set[next] != 0;
      for (std::size_t k = 0; k < nn; ++k) {
        const auto a = std::bit_cast<std::uint64_t>(ic[k]);
        const auto b = std::bit_cast<std::uint64_t>(ic[nn + k]);
        if (hidden) {
          for (std::size_t l = 0; l < L; ++l)
            sum[l] += (Sc[k * L + l] - Hc[k * L + l]) * std::bit_cast<double>((mask[l] & a) | (~mask[l] & b));
        } else {
          for (std::size_t l = 0; l < L; ++l)
            sum[l] += Sc[k * L + l] * std::bit_cast<double>((mask[l] & a) | (~mask[l] & b));
        }
      }
      for (std::size_t l = 0; l < L; ++l)
        if (weight[l] != 0.0) outs[l][f] += weight[l] * sum[l];
      if (side == 0) {
        for (std::size_t i = 0; i < block; ++i) S[i] = Sc[i];
      } else {
        for (std::size_t i = 0; i < block; ++i) S[i] += Sc[i];
      }
    }
    if (before >= 0) {
      const auto b = static_cast<std::size_t>(before);
      double* H = s.hidden.data() + b * block;
      if (s.hidden_set[b] != 0) {
        for (std::size_t i = 0; i < block; ++i) H[i] += S[i];
      } else {
        for (std::size_t i = 0; i < block; ++i) H[i] = S[i];
        s.hidden_set[b] = 1;
      }
    }
  }
};

template <SplitRule R, int N>
void WalkLanes(const QuadratureTree& q, const double* const* rows, QuadratureScratch& s, double* const* outs,
               std::size_t column) {
  constexpr std::size_t L = kQuadratureLanes;
  for (int k = 0; k < q.n; ++k)
    for (std::size_t l = 0; l < L; ++l)
      s.products[static_cast<std::size_t>(k) * L + l] = q.weights[static_cast<std::size_t>(k)];
  LaneWalker<R, N>{q, *q.tree, rows, s, outs, static_cast<std::size_t>(q.n), column}.Visit(0, 0);
}

}  // namespace

template <SplitRule R>
void QuadratureTreeShapLanes(const QuadratureTree& q, const double* const* rows, QuadratureScratch& scratch,
                             double* const* outs, std::size_t column) {
  switch (q.n) {
    case 1:
      return WalkLanes<R, 1>(q, rows, scratch, outs, column);
    case 2:
      return WalkLanes<R, 2>(q, rows, scratch, outs, column);
    case 3:
      return WalkLanes<R, 3>(q, rows, scratch, outs, column);
    case 4:
      return WalkLanes<R, 4>(q, rows, scratch, outs, column);
    case 5:
      return WalkLanes<R, 5>(q, rows, scratch, outs, column);
    case 6:
      return WalkLanes<R, 6>(q, rows, scratch, outs, column);
    case 7:
      return WalkLanes<R, 7>(q, rows, scratch, outs, column);
    case 8:
      return WalkLanes<R, 8>(q, rows, scratch, outs, column);
    default:
      return WalkLanes<R, 0>(q, rows, scratch, outs, column);
  }
}

template void QuadratureTreeShapLanes<SplitRule::kLessEqual>(const QuadratureTree&, const double* const*,
                                                             QuadratureScratch&, double* const*, std::size_t);
template void QuadratureTreeShapLanes<SplitRule::kLessFloat>(const QuadratureTree&, const double* const*,
                                                             QuadratureScratch&, double* const*, std::size_t);

}}}  // namespace perfshap::detail
