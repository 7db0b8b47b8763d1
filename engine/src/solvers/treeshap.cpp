// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// TreeSHAP by leaf paths. Every leaf l of every tree is reached through a path of splits; merge
// the splits on the same feature into one element e (feature f_e, the interval of values that
// follows all of them, whether a missing value follows them, and the zero fraction z_e: the
// product of the cover ratios cover(child) / cover(node) of those splits). Then
//
//   path-dependent:  v_x(S) = sum_l v_l prod_{e in P_l} (f_e in S ? o_e(x) : z_e)
//
// with o_e(x) = 1 when x follows element e, else 0 (this is the EXPVALUE recursion of Lundberg
// et al., unrolled leaf by leaf). Each leaf's term is a product game over its D distinct
// features; its Shapley value for element i is
//
//   W_i = (o_i - z_i) sum_{s=0}^{D-1} w(s, D) [t^s] prod_{j != i} (z_j + o_j t),
//   w(s, D) = s! (D - 1 - s)! / D!,
//
// and players off the path are null in it. With Q(t) = prod_j (z_j + o_j t): an element with
// o_i = 0 gets W_i = -sum_s w(s, D) Q_s (the same for all of them), one with o_i = 1 gets
// (1 - z_i) sum_s w(s, D) P_s where P = Q / (z_i + t), by synthetic division from the top. W
// depends on x only through the path's bit pattern (o_e), so a path of D <= kTableFeatures
// elements keeps a table of W for all 2^D patterns (built once, when the rows to explain are
// at least as many as the patterns) and a row costs D interval tests and D additions per path:
// O(L D) per tree instead of the O(L D^2) of the recursive algorithm (which the tests keep as
// the reference). Longer paths compute W per row, in O(D^2).
//
//   interventional:  v_x(S) = mean_b sum_l v_l prod_{e in P_l} (f_e in S ? o_e(x) : o_e(b))
//
// For one background row b, leaf l's term is v_l 1{A subset of S, S disjoint from B} with
// A = {e: o_e(x) = 1, o_e(b) = 0}, B = {e: o_e(x) = 0, o_e(b) = 1} (and no term when some
// element is followed by neither). Its Shapley values are v_l (|A|-1)! |B|! / (|A|+|B|)! for
// the elements of A and -v_l |A|! (|B|-1)! / (|A|+|B|)! for those of B. The background enters
// only through each path's bit patterns, counted once per distinct pattern.
//
// Every row's values are summed in path order (trees in order, leaves in depth-first order),
// so the result does not depend on the blocking of the rows or the thread count.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/solver.hpp"
#include "perfshap/treeshap.hpp"
#include "schedule/schedule.hpp"

namespace perfshap {
namespace {

/** Distinct features a path may hold (its bit patterns are one 64-bit word, its Shapley weights
 *  ShapleyWeight's). */
constexpr int kMaxPathFeatures = 63;
/** Paths of at most this many elements keep a table of their weights for every bit pattern. */
constexpr int kTableFeatures = 10;
/** Memory all the pattern tables may take together. */
constexpr std::size_t kTableBudgetBytes = std::size_t{256} << 20;
/** Rows per block of work: every path's table is read once per block. */
constexpr std::size_t kRowsPerBlock = 128;

/** The leaf paths of an ensemble. Element arrays are indexed by elem_begin[p] + e. */
struct PathSet {
  SplitRule rule = SplitRule::kLessEqual;
  std::size_t n_features = 0;
  std::size_t n_outputs = 0;
  std::vector<std::uint32_t> elem_begin{0};
  std::vector<std::uint32_t> output;
  std::vector<std::uint32_t> width;
  std::vector<std::uint32_t> value_begin;
  std::vector<double> values;
  std::vector<std::int32_t> feature;
  std::vector<double> lo;
  std::vector<double> hi;
  std::vector<std::uint8_t> missing_ok;
  std::vector<double> zero;
  int max_elements = 0;

  std::size_t n_paths() const noexcept { return output.size(); }
  int elements(std::size_t p) const noexcept { return static_cast<int>(elem_begin[p + 1] - elem_begin[p]); }
};

struct PathElement {
  std::int32_t feature;
  double lo;
  double hi;
  bool missing_ok;
  double zero;
};

class PathBuilder {
 public:
  PathBuilder(const TreeEnsemble& model, bool need_covers) : model_(model), need_covers_(need_covers) {
    set_.rule = model.info().rule;
    set_.n_features = model.n_features();
    set_.n_outputs = model.n_outputs();
    const double scale = model.info().tree_scale;
    for (std::size_t t = 0; t < model.trees().size(); ++t) {
      tree_ = &model.trees()[t];
      tree_index_ = t;
      scale_ = scale;
      path_.clear();
      Walk(0);
    }
  }
  PathSet Take() { return std::move(set_); }

 private:
  void Walk(std::size_t node) {
    const Tree& t = *tree_;
    if (t.is_leaf(node)) {
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
      return;
    }
    const double cover = t.cover[node];
    if (need_covers_ && !(cover > 0.0))
      throw InvalidArgument("tree " + std::to_string(tree_index_) + ", node " + std::to_string(node) +
                            " has no training cover: path-dependent TreeSHAP weighs branches by their cover; "
                            "explain against a background sample instead (interventional)");
    const std::int32_t f = t.feature[node];
    const double threshold = t.threshold[node];
    for (int side = 0; side < 2; ++side) {
      const bool is_left = side == 0;
      const auto child = static_cast<std::size_t>(is_left ? t.left[node] : t.right[node]);
      const double ratio = need_covers_ ? t.cover[child] / cover : 0.0;
      const bool missing_follows = (t.default_left[node] != 0) == is_left;
      auto it = std::find_if(path_.begin(), path_.end(), [f](const PathElement& e) { return e.feature == f; });
      PathElement saved{};
      const bool merged = it != path_.end();
      if (merged) {
        saved = *it;
      } else {
        path_.push_back({f, -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(), true, 1.0});
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
      const std::size_t element = static_cast<std::size_t>(it - path_.begin());
      Walk(child);
      if (merged) {
        path_[element] = saved;
      } else {
        path_.pop_back();
      }
    }
  }

  const TreeEnsemble& model_;
  bool need_covers_;
  const Tree* tree_ = nullptr;
  std::size_t tree_index_ = 0;
  double scale_ = 1.0;
  std::vector<PathElement> path_;
  PathSet set_;
};

/** Whether value x (already rounded to float for kLessFloat) follows element e. */
template <SplitRule R>
inline bool Follows(const PathSet& s, std::size_t e, double x) noexcept {
  if (std::isnan(x)) return s.missing_ok[e] != 0;
  // An infinite bound is no bound (an input rounded to float may itself be infinite).
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if constexpr (R == SplitRule::kLessEqual) {
    return (s.lo[e] == -kInf || x > s.lo[e]) && x <= s.hi[e];
  } else {
    return x >= s.lo[e] && (s.hi[e] == kInf || x < s.hi[e]);
  }
}

template <SplitRule R>
inline std::uint64_t Pattern(const PathSet& s, std::size_t begin, int d, const double* row) noexcept {
  std::uint64_t bits = 0;
  for (int e = 0; e < d; ++e) {
    const std::size_t k = begin + static_cast<std::size_t>(e);
    bits |= static_cast<std::uint64_t>(Follows<R>(s, k, row[s.feature[k]])) << e;
  }
  return bits;
}

/** w(s, D) = s! (D - 1 - s)! / D! for s < D, D = 1..kMaxPathFeatures: weights[D][s]. */
std::vector<std::vector<double>> ShapleyWeightTable() {
  std::vector<std::vector<double>> w(kMaxPathFeatures + 1);
  for (int d = 1; d <= kMaxPathFeatures; ++d) {
    w[static_cast<std::size_t>(d)].resize(static_cast<std::size_t>(d));
    for (int s = 0; s < d; ++s) w[static_cast<std::size_t>(d)][static_cast<std::size_t>(s)] = ShapleyWeight(d, s);
  }
  return w;
}

const std::vector<std::vector<double>>& Weights() {
  static const std::vector<std::vector<double>> table = ShapleyWeightTable();
  return table;
}

/**
 * The Shapley weights W_e of a path of d elements with zero fractions z for the bit pattern
 * `bits` (see the top of the file). q needs d + 1 values of scratch.
 */
void PathWeights(int d, const double* z, std::uint64_t bits, double* q, double* out) noexcept {
  const double* w = Weights()[static_cast<std::size_t>(d)].data();
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

/** Pattern tables of the path-dependent algorithm: table_begin[p] (or -1) into table. */
struct PatternTables {
  std::vector<std::int64_t> begin;
  std::vector<double> table;
};

PatternTables BuildTables(const PathSet& s, std::size_t n_rows, detail::Schedule& schedule) {
  PatternTables t;
  t.begin.assign(s.n_paths(), -1);
  std::size_t size = 0;
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    if (d == 0 || d > kTableFeatures) continue;
    const std::size_t patterns = std::size_t{1} << d;
    if (patterns > 2 * n_rows) continue;  // cheaper per row than to tabulate
    const std::size_t entries = patterns * static_cast<std::size_t>(d);
    if ((size + entries) * sizeof(double) > kTableBudgetBytes) continue;
    t.begin[p] = static_cast<std::int64_t>(size);
    size += entries;
  }
  t.table.resize(size);
  constexpr std::size_t kPathsPerBlock = 256;
  const std::size_t n_blocks = (s.n_paths() + kPathsPerBlock - 1) / kPathsPerBlock;
  schedule.ForEachBlock(n_blocks, 0, [&](std::size_t b) {
    double q[kMaxPathFeatures + 1];
    const std::size_t end = std::min(s.n_paths(), (b + 1) * kPathsPerBlock);
    for (std::size_t p = b * kPathsPerBlock; p < end; ++p) {
      if (t.begin[p] < 0) continue;
      const int d = s.elements(p);
      double* out = t.table.data() + t.begin[p];
      const double* z = s.zero.data() + s.elem_begin[p];
      for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << d); ++bits)
        PathWeights(d, z, bits, q, out + bits * static_cast<std::uint64_t>(d));
    }
  });
  return t;
}

/** Rows of a block, row-major, rounded to float for XGBoost's rule. */
void LoadRows(const PathSet& s, std::span<const double> x, std::size_t n_rows, std::size_t first, std::size_t count,
              std::vector<double>& rows) {
  const std::size_t F = s.n_features;
  rows.resize(count * F);
  for (std::size_t j = 0; j < F; ++j) {
    const double* col = x.data() + j * n_rows + first;
    for (std::size_t r = 0; r < count; ++r) {
      const double v = col[r];
      rows[r * F + j] = s.rule == SplitRule::kLessFloat ? RoundToFloat(v) : v;
    }
  }
}

struct BlockScratch {
  std::vector<double> rows;
  std::vector<double> weights = std::vector<double>(kMaxPathFeatures);
  std::vector<double> q = std::vector<double>(kMaxPathFeatures + 1);
};

template <SplitRule R>
void PathDependentBlock(const PathSet& s, const PatternTables& tables, const double* rows, std::size_t count,
                        BlockScratch& scratch, double* out) {
  const std::size_t F = s.n_features;
  const std::size_t stride = s.n_outputs * (F + 1);
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    if (d == 0) continue;
    const std::size_t begin = s.elem_begin[p];
    const std::int32_t* features = s.feature.data() + begin;
    const double* values = s.values.data() + s.value_begin[p];
    const std::size_t width = s.width[p];
    const std::size_t first_output = s.output[p];
    const std::int64_t table = tables.begin[p];
    for (std::size_t r = 0; r < count; ++r) {
      const std::uint64_t bits = Pattern<R>(s, begin, d, rows + r * F);
      const double* w;
      if (table >= 0) {
        w = tables.table.data() + table + static_cast<std::int64_t>(bits * static_cast<std::uint64_t>(d));
      } else {
        PathWeights(d, s.zero.data() + begin, bits, scratch.q.data(), scratch.weights.data());
        w = scratch.weights.data();
      }
      double* row_out = out + r * stride;
      for (std::size_t k = 0; k < width; ++k) {
        const double v = values[k];
        double* o = row_out + (first_output + k) * (F + 1);
        for (int e = 0; e < d; ++e) o[features[e]] += w[e] * v;
      }
    }
  }
}

void CheckRows(const TreeEnsemble& model, std::span<const double> x, std::size_t n_rows, const char* what) {
  PERFSHAP_CHECK(x.size() == model.n_features() * n_rows,
                 std::string("TreeSHAP: the ") + what + " hold " + std::to_string(x.size()) + " values, not " +
                     std::to_string(model.n_features()) + " features x " + std::to_string(n_rows) + " rows");
}

/** Runs body(first_row, count, scratch, out_rows) over blocks of rows. */
template <class Body>
void ForRowBlocks(detail::Schedule& schedule, std::size_t n_rows, const Body& body) {
  const std::size_t n_blocks = (n_rows + kRowsPerBlock - 1) / kRowsPerBlock;
  schedule.SetProgressTotal(n_rows);
  schedule.ForEachBlock<BlockScratch>(
      n_blocks, kRowsPerBlock, [] { return std::make_unique<BlockScratch>(); },
      [&](std::size_t b, BlockScratch& scratch) {
        const std::size_t first = b * kRowsPerBlock;
        body(first, std::min(kRowsPerBlock, n_rows - first), scratch);
      });
  schedule.FinishProgress();
}

}  // namespace

std::vector<double> TreeShap(const TreeEnsemble& model, std::span<const double> x, std::size_t n_rows,
                             const ExecutionOptions& execution) {
  CheckRows(model, x, n_rows, "rows");
  const PathSet paths = PathBuilder(model, true).Take();
  const std::size_t F = paths.n_features;
  const std::size_t K = paths.n_outputs;
  // The base value: the cover-weighted mean leaf of each tree, E[f] = v(empty).
  std::vector<double> base(K);
  for (std::size_t o = 0; o < K; ++o) base[o] = model.base_margin(o);
  for (std::size_t p = 0; p < paths.n_paths(); ++p) {
    double reach = 1.0;
    for (std::uint32_t e = paths.elem_begin[p]; e < paths.elem_begin[p + 1]; ++e) reach *= paths.zero[e];
    for (std::size_t k = 0; k < paths.width[p]; ++k)
      base[paths.output[p] + k] += reach * paths.values[paths.value_begin[p] + k];
  }
  detail::Schedule schedule(execution);
  const PatternTables tables = BuildTables(paths, n_rows, schedule);
  std::vector<double> out(n_rows * K * (F + 1), 0.0);
  ForRowBlocks(schedule, n_rows, [&](std::size_t first, std::size_t count, BlockScratch& scratch) {
    LoadRows(paths, x, n_rows, first, count, scratch.rows);
    double* block_out = out.data() + first * K * (F + 1);
    if (paths.rule == SplitRule::kLessEqual) {
      PathDependentBlock<SplitRule::kLessEqual>(paths, tables, scratch.rows.data(), count, scratch, block_out);
    } else {
      PathDependentBlock<SplitRule::kLessFloat>(paths, tables, scratch.rows.data(), count, scratch, block_out);
    }
    for (std::size_t r = 0; r < count; ++r)
      for (std::size_t o = 0; o < K; ++o) block_out[(r * K + o) * (F + 1) + F] = base[o];
  });
  return out;
}

namespace {

/** The background's bit patterns of every path: (pattern, count) in order of first appearance. */
struct BackgroundPatterns {
  std::vector<std::uint32_t> begin{0};
  std::vector<std::uint64_t> pattern;
  std::vector<double> count;
};

template <SplitRule R>
BackgroundPatterns CountPatterns(const PathSet& s, const std::vector<double>& rows, std::size_t n_background) {
  BackgroundPatterns bp;
  std::vector<std::uint64_t> seen;
  std::vector<double> counts;
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    seen.clear();
    counts.clear();
    for (std::size_t b = 0; b < n_background; ++b) {
      const std::uint64_t bits = Pattern<R>(s, s.elem_begin[p], d, rows.data() + b * s.n_features);
      const auto it = std::find(seen.begin(), seen.end(), bits);
      if (it == seen.end()) {
        seen.push_back(bits);
        counts.push_back(1.0);
      } else {
        counts[static_cast<std::size_t>(it - seen.begin())] += 1.0;
      }
    }
    bp.pattern.insert(bp.pattern.end(), seen.begin(), seen.end());
    bp.count.insert(bp.count.end(), counts.begin(), counts.end());
    bp.begin.push_back(static_cast<std::uint32_t>(bp.pattern.size()));
  }
  return bp;
}

template <SplitRule R>
void InterventionalBlock(const PathSet& s, const BackgroundPatterns& bp, double n_background, const double* rows,
                         std::size_t count, BlockScratch& scratch, double* out) {
  const std::size_t F = s.n_features;
  const std::size_t stride = s.n_outputs * (F + 1);
  const auto& weights = Weights();
  double* coef = scratch.weights.data();
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    if (d == 0) continue;
    const std::size_t begin = s.elem_begin[p];
    const std::uint64_t full = d == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << d) - 1;
    const std::int32_t* features = s.feature.data() + begin;
    const double* values = s.values.data() + s.value_begin[p];
    for (std::size_t r = 0; r < count; ++r) {
      const std::uint64_t xb = Pattern<R>(s, begin, d, rows + r * F);
      std::fill(coef, coef + d, 0.0);
      bool any = false;
      for (std::uint32_t k = bp.begin[p]; k < bp.begin[p + 1]; ++k) {
        const std::uint64_t bb = bp.pattern[k];
        if ((~xb & ~bb & full) != 0) continue;  // neither row reaches the leaf
        const std::uint64_t a = xb & ~bb;
        const std::uint64_t b = bb & ~xb;
        if (a == 0 && b == 0) continue;  // reached for every coalition: the base value's
        const int na = std::popcount(a);
        const int nb = std::popcount(b);
        const auto& w = weights[static_cast<std::size_t>(na + nb)];
        const double c = bp.count[k];
        const double plus = na > 0 ? c * w[static_cast<std::size_t>(na - 1)] : 0.0;
        const double minus = nb > 0 ? c * w[static_cast<std::size_t>(na)] : 0.0;
        for (std::uint64_t m = a; m != 0; m &= m - 1) coef[std::countr_zero(m)] += plus;
        for (std::uint64_t m = b; m != 0; m &= m - 1) coef[std::countr_zero(m)] -= minus;
        any = true;
      }
      if (!any) continue;
      double* row_out = out + r * stride;
      for (std::size_t k = 0; k < s.width[p]; ++k) {
        const double v = values[k] / n_background;
        double* o = row_out + (s.output[p] + k) * (F + 1);
        for (int e = 0; e < d; ++e) o[features[e]] += coef[e] * v;
      }
    }
  }
}

}  // namespace

std::vector<double> InterventionalTreeShap(const TreeEnsemble& model, std::span<const double> x, std::size_t n_rows,
                                           std::span<const double> background, std::size_t n_background,
                                           const ExecutionOptions& execution) {
  CheckRows(model, x, n_rows, "rows");
  CheckRows(model, background, n_background, "background rows");
  PERFSHAP_CHECK(n_background > 0, "interventional TreeSHAP needs at least one background row");
  const PathSet paths = PathBuilder(model, false).Take();
  const std::size_t F = paths.n_features;
  const std::size_t K = paths.n_outputs;
  // The base value: the mean margin over the background, summed in background order.
  std::vector<double> margins(K * n_background);
  model.PredictMargin(background, n_background, margins);
  std::vector<double> base(K, 0.0);
  for (std::size_t o = 0; o < K; ++o) {
    for (std::size_t b = 0; b < n_background; ++b) base[o] += margins[o * n_background + b];
    base[o] /= static_cast<double>(n_background);
  }
  std::vector<double> bg_rows;
  LoadRows(paths, background, n_background, 0, n_background, bg_rows);
  const BackgroundPatterns bp = paths.rule == SplitRule::kLessEqual
                                    ? CountPatterns<SplitRule::kLessEqual>(paths, bg_rows, n_background)
                                    : CountPatterns<SplitRule::kLessFloat>(paths, bg_rows, n_background);
  detail::Schedule schedule(execution);
  std::vector<double> out(n_rows * K * (F + 1), 0.0);
  const auto nb = static_cast<double>(n_background);
  ForRowBlocks(schedule, n_rows, [&](std::size_t first, std::size_t count, BlockScratch& scratch) {
    LoadRows(paths, x, n_rows, first, count, scratch.rows);
    double* block_out = out.data() + first * K * (F + 1);
    if (paths.rule == SplitRule::kLessEqual) {
      InterventionalBlock<SplitRule::kLessEqual>(paths, bp, nb, scratch.rows.data(), count, scratch, block_out);
    } else {
      InterventionalBlock<SplitRule::kLessFloat>(paths, bp, nb, scratch.rows.data(), count, scratch, block_out);
    }
    for (std::size_t r = 0; r < count; ++r)
      for (std::size_t o = 0; o < K; ++o) block_out[(r * K + o) * (F + 1) + F] = base[o];
  });
  return out;
}

}  // namespace perfshap
