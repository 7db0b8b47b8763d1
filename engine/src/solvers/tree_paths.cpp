// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "solvers/tree_paths.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "perfshap/error.hpp"
#include "perfshap/blocks/solver.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

struct PathElement {
  std::int32_t feature;
  double lo;
  double hi;
  bool missing_ok;
  double zero;
};

std::string Number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

class PathBuilder {
 public:
  PathBuilder(const TreeEnsemble& model, bool need_covers, bool scaled) : need_covers_(need_covers) {
    set_.rule = model.info().rule;
    set_.n_features = model.n_features();
    set_.n_outputs = model.n_outputs();
    const double scale = scaled ? model.info().tree_scale : 1.0;
    for (std::size_t t = 0; t < model.trees().size(); ++t) {
      tree_ = &model.trees()[t];
      tree_index_ = t;
      scale_ = scale;
      path_.clear();
      Walk();
      set_.tree_begin.push_back(static_cast<std::uint32_t>(set_.n_paths()));
    }
  }
  PathSet Take() { return std::move(set_); }

 private:
  /** An internal node on the way down: which side is being walked and how its split changed
   *  the path (to undo it when the side is done). */
  struct Frame {
    std::size_t node;
    int side;
    std::size_t element;
    bool merged;
    PathElement saved;
  };

  /**
   * Depth first, left before right, with an explicit stack of frames rather than recursion: a
   * tree may be thousands of levels deep (a CART tree grown on an id column, an XGBoost file
   * written by anyone) and the walk must not depend on the thread's stack size. The leaves come
   * out in the order the recursive walk gave them, with the same paths.
   */
  void Walk() {
    const Tree& t = *tree_;
    frames_.clear();
    std::size_t node = 0;
    for (;;) {
      while (!t.is_leaf(node)) {
        const double cover = t.cover[node];
        if (need_covers_ && !(cover > 0.0))
          throw InvalidArgument("tree " + std::to_string(tree_index_) + ", node " + std::to_string(node) +
                                " has no training cover: path-dependent TreeSHAP weighs branches by their cover; "
                                "explain against a background sample instead (interventional)");
        if (need_covers_) CheckChildCovers(node);
        frames_.push_back(Frame{node, 0, 0, false, {}});
        node = Descend(frames_.back());
      }
      AddLeaf(node);
      // Up past the nodes whose right side is done, then into the right side of the next one.
      while (!frames_.empty() && frames_.back().side == 1) {
        Undo(frames_.back());
        frames_.pop_back();
      }
      if (frames_.empty()) return;
      Frame& f = frames_.back();
      Undo(f);
      f.side = 1;
      node = Descend(f);
    }
  }

  /**
   * A child holds part of its parent's training rows, so its cover is at most the parent's (up
   * to the rounding of covers summed and stored in float). A larger one, from a model file
   * edited or written by hand, makes a zero fraction above 1: the weights of the game then grow
   * as products of such fractions and its values, though they add up in exact arithmetic, lose
   * every digit to cancellation. Refused, naming the node.
   */
  void CheckChildCovers(std::size_t node) const {
    constexpr double kSlack = 1e-6;
    const Tree& t = *tree_;
    const double cover = t.cover[node];
    for (const std::int32_t child : {t.left[node], t.right[node]}) {
      const double c = t.cover[static_cast<std::size_t>(child)];
      if (std::isfinite(cover) && c >= 0.0 && c <= cover * (1.0 + kSlack)) continue;
      throw InvalidArgument("tree " + std::to_string(tree_index_) + ", node " + std::to_string(child) + " has a cover of " +
                            Number(c) + ", outside [0, " + Number(cover) + "] (its parent node " +
                            std::to_string(node) + "'s): path-dependent TreeSHAP weighs branches by the share of "
                            "their parent's training cover they hold; fix the model's covers (sum_hessian) or "
                            "explain against a background sample instead (interventional)");
    }
  }

  /** Applies frame f's split on its side to the path; returns the child on that side. */
  std::size_t Descend(Frame& f) {
    const Tree& t = *tree_;
    const std::size_t node = f.node;
    const bool is_left = f.side == 0;
    const auto child = static_cast<std::size_t>(is_left ? t.left[node] : t.right[node]);
    const double ratio = need_covers_ ? t.cover[child] / t.cover[node] : 0.0;
    const bool missing_follows = (t.default_left[node] != 0) == is_left;
    const std::int32_t feature = t.feature[node];
    const double threshold = t.threshold[node];
    auto it = std::find_if(path_.begin(), path_.end(), [feature](const PathElement& e) { return e.feature == feature; });
    f.merged = it != path_.end();
    if (f.merged) {
      f.saved = *it;
    } else {
      path_.push_back({feature, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                       true, 1.0});
      it = path_.end() - 1;
    }
    // Left: values up to the threshold; right: values beyond it (the rule decides which side
    // holds the threshold itself: see Follows).
    if (is_left) {
      it->hi = std::min(it->hi, threshold);
    } else {
      it->lo = std::max(it->lo, threshold);
    }
    it->missing_ok = it->missing_ok && missing_follows;
    it->zero *= ratio;
    f.element = static_cast<std::size_t>(it - path_.begin());
    return child;
  }

  /** Undoes what Descend(f) did to the path. */
  void Undo(const Frame& f) {
    if (f.merged) {
      path_[f.element] = f.saved;
    } else {
      path_.pop_back();
    }
  }

  void AddLeaf(std::size_t node) {
    const Tree& t = *tree_;
    PERFSHAP_CHECK(static_cast<int>(path_.size()) <= kMaxPathFeatures,
                   "tree " + std::to_string(tree_index_) + " has a leaf reached through splits on " +
                       std::to_string(path_.size()) + " distinct features; TreeSHAP takes at most " +
                       std::to_string(kMaxPathFeatures) + ": limit the trees' depth");
    for (const PathElement& e : path_) {
      set_.feature.push_back(e.feature);
      set_.lo.push_back(e.lo);
      set_.hi.push_back(e.hi);
      set_.missing_ok.push_back(e.missing_ok ? 1 : 0);
      set_.zero.push_back(e.zero);
    }
    set_.elem_begin.push_back(static_cast<std::uint32_t>(set_.feature.size()));
    set_.output.push_back(static_cast<std::uint32_t>(t.output));
    set_.width.push_back(static_cast<std::uint32_t>(t.width));
    set_.value_begin.push_back(static_cast<std::uint32_t>(set_.values.size()));
    const auto w = static_cast<std::size_t>(t.width);
    for (std::size_t k = 0; k < w; ++k) set_.values.push_back(scale_ * t.value[node * w + k]);
    set_.max_elements = std::max(set_.max_elements, static_cast<int>(path_.size()));
  }

  bool need_covers_;
  const Tree* tree_ = nullptr;
  std::size_t tree_index_ = 0;
  double scale_ = 1.0;
  std::vector<PathElement> path_;
  std::vector<Frame> frames_;
  PathSet set_;
};

/** w(s, D) = s! (D - 1 - s)! / D! for s < D, D = 1..kMaxPathFeatures: weights[D][s]. */
std::vector<std::vector<double>> ShapleyWeightTable() {
  std::vector<std::vector<double>> w(kMaxPathFeatures + 1);
  for (int d = 1; d <= kMaxPathFeatures; ++d) {
    w[static_cast<std::size_t>(d)].resize(static_cast<std::size_t>(d));
    for (int s = 0; s < d; ++s) w[static_cast<std::size_t>(d)][static_cast<std::size_t>(s)] = ShapleyWeight(d, s);
  }
  return w;
}

}  // namespace

const std::vector<std::vector<double>>& ShapleyWeights() {
  static const std::vector<std::vector<double>> table = ShapleyWeightTable();
  return table;
}

void PathWeights(int d, const double* z, std::uint64_t bits, double* q, double* out) noexcept {
  const double* w = ShapleyWeights()[static_cast<std::size_t>(d)].data();
  int degree = 0;
  q[0] = 1.0;
  for (int e = 0; e < d; ++e) {
    const double ze = z[e];
    if (((bits >> e) & 1U) != 0) {
      q[degree + 1] = q[degree];
      for (int k = degree; k >= 1; --k) q[k] = ze * q[k] + q[k - 1];
      q[0] *= ze;
      ++degree;
    } else {
      for (int k = 0; k <= degree; ++k) q[k] *= ze;
    }
  }
  double off = 0.0;  // the weight of every element not followed (there is none when degree == d)
  if (degree < d)
    for (int s = 0; s <= degree; ++s) off += w[s] * q[s];
  for (int e = 0; e < d; ++e) {
    if (((bits >> e) & 1U) == 0) {
      out[e] = -off;
      continue;
    }
    // P = Q / (z_e + t), from the top: P_{deg-1} = Q_deg, P_{k-1} = Q_k - z_e P_k.
    const double ze = z[e];
    double p = q[degree];
    double sum = w[degree - 1] * p;
    for (int k = degree - 1; k >= 1; --k) {
      p = q[k] - ze * p;
      sum += w[k - 1] * p;
    }
    out[e] = (1.0 - ze) * sum;
  }
}

PathSet BuildPaths(const TreeEnsemble& model, bool need_covers, bool scaled) {
  return PathBuilder(model, need_covers, scaled).Take();
}

void AddTreeShap(const PathSet& s, std::size_t tree, const double* row, double weight, double* q, double* w,
                 double* out) noexcept {
  const std::size_t F = s.n_features;
  for (std::size_t p = s.tree_begin[tree]; p < s.tree_begin[tree + 1]; ++p) {
    const int d = s.elements(p);
    if (d == 0) continue;
    const std::size_t begin = s.elem_begin[p];
    const std::uint64_t bits = s.rule == SplitRule::kLessEqual ? Pattern<SplitRule::kLessEqual>(s, begin, d, row)
                                                               : Pattern<SplitRule::kLessFloat>(s, begin, d, row);
    PathWeights(d, s.zero.data() + begin, bits, q, w);
    for (std::size_t k = 0; k < s.width[p]; ++k) {
      const double v = weight * s.values[s.value_begin[p] + k];
      double* o = out + (s.output[p] + k) * F;
      for (int e = 0; e < d; ++e) o[s.feature[begin + static_cast<std::size_t>(e)]] += w[e] * v;
    }
  }
}

}}}  // namespace perfshap::detail
