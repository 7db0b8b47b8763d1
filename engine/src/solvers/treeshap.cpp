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
#include "perfshap/treeshap.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "perfshap/blocks/solver.hpp"
#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "schedule/distribute.hpp"
#include "schedule/schedule.hpp"
#include "solvers/quadrature_treeshap.hpp"
#include "solvers/tree_blocks.hpp"
#include "solvers/tree_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using detail::BackgroundPatterns;
using detail::BuildPaths;
using detail::CheckColumns;
using detail::CheckRows;
using detail::CountPatterns;
using detail::Follows;
using detail::ForRowBlocks;
using detail::kMaxPathFeatures;
using detail::kRowsPerBlock;
using detail::LoadRows;
using detail::PathSet;
using detail::PathWeights;
using detail::Pattern;

/** Paths of at most this many elements keep a table of their weights for every bit pattern. */
constexpr int kTableFeatures = 10;
/** kAuto: trees whose paths have more features take quadrature (bench_shap.cpp's
 *  BM_TreeShapAlgorithm compares the two per tree shape). */
constexpr int kTableFeatureLimitBeforeQuadrature = 3;
/** Memory all the pattern tables may take together. */
constexpr std::size_t kTableBudgetBytes = std::size_t{256} << 20;

/** Pattern tables of the path-dependent algorithm: table_begin[p] (or -1) into table. */
struct PatternTables {
  std::vector<std::int64_t> begin;
  std::vector<double> table;
};

PatternTables BuildTables(const PathSet& s, std::size_t n_rows,
                          const std::vector<detail::QuadratureTree>& quadrature, detail::Schedule& schedule) {
  PatternTables t;
  t.begin.assign(s.n_paths(), -1);
  std::size_t size = 0;
  std::vector<std::uint8_t> skip(s.n_paths(), 0);
  for (std::size_t tree = 0; tree < quadrature.size(); ++tree)
    if (quadrature[tree].n > 0)
      for (std::size_t p = s.tree_begin[tree]; p < s.tree_begin[tree + 1]; ++p) skip[p] = 1;
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    if (d == 0 || d > kTableFeatures || skip[p] != 0) continue;
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

struct BlockScratch {
  std::vector<double> rows;
  std::vector<double> weights = std::vector<double>(kMaxPathFeatures);
  std::vector<double> q = std::vector<double>(kMaxPathFeatures + 1);
  detail::QuadratureScratch quadrature;
  std::vector<double> sink;
};

/** Which trees take the quadrature algorithm (quadrature_treeshap.hpp): per tree, the prepared
 *  tree, or n == 0 for the leaf paths. kAuto: the trees whose paths would not all keep a
 *  pattern table of at most kTableFeatureLimitBeforeQuadrature features (longer paths, too few
 *  rows for their 2^D patterns, or past the tables' memory budget, trees in order). */
std::vector<detail::QuadratureTree> ChooseQuadratureTrees(const TreeEnsemble& model, const PathSet& s,
                                                          std::size_t n_rows,
                                                          detail::TreeShapAlgorithm algorithm) {
  std::vector<detail::QuadratureTree> q(model.trees().size());
  if (algorithm == detail::TreeShapAlgorithm::kLeafPaths) return q;
  std::size_t table_bytes = 0;
  for (std::size_t t = 0; t < q.size(); ++t) {
    bool tables = algorithm == detail::TreeShapAlgorithm::kAuto;
    std::size_t bytes = 0;
    for (std::size_t p = s.tree_begin[t]; p < s.tree_begin[t + 1] && tables; ++p) {
      const int d = s.elements(p);
      if (d == 0) continue;
      const std::size_t patterns = std::size_t{1} << std::min(d, 62);
      tables = d <= kTableFeatureLimitBeforeQuadrature && patterns <= 2 * n_rows;
      bytes += patterns * static_cast<std::size_t>(d) * sizeof(double);
    }
    if (tables && table_bytes + bytes <= kTableBudgetBytes) {
      table_bytes += bytes;
      continue;
    }
    q[t] = detail::PrepareQuadratureTree(model.trees()[t], model.info().tree_scale);
  }
  return q;
}

template <SplitRule R>
void PathDependentBlock(const PathSet& s, const PatternTables& tables,
                        const std::vector<detail::QuadratureTree>& quadrature, const double* rows,
                        std::size_t count, BlockScratch& scratch, std::size_t W, double* out) {
  const std::size_t F = s.n_features;
  const std::size_t stride = s.n_outputs * W;
  for (std::size_t tree = 0; tree < quadrature.size(); ++tree) {
    const detail::QuadratureTree& q = quadrature[tree];
    if (q.n > 0) {
      scratch.quadrature.Reserve(q.depth, q.n, F);
      // kQuadratureLanes rows at a time, each value column of the leaves in turn; the last
      // group's missing lanes repeat its first row into a sink.
      constexpr std::size_t L = detail::kQuadratureLanes;
      scratch.sink.assign(W, 0.0);
      const double* lane_rows[L];
      double* lane_outs[L];
      const auto output = static_cast<std::size_t>(q.tree->output);
      for (std::size_t column = 0; column < static_cast<std::size_t>(q.tree->width); ++column)
        for (std::size_t r = 0; r < count; r += L) {
          for (std::size_t l = 0; l < L; ++l) {
            const bool real = r + l < count;
            lane_rows[l] = rows + (real ? r + l : r) * F;
            lane_outs[l] = real ? out + (r + l) * stride + (output + column) * W : scratch.sink.data();
          }
          detail::QuadratureTreeShapLanes<R>(q, lane_rows, scratch.quadrature, lane_outs, column);
        }
      continue;
    }
    for (std::size_t p = s.tree_begin[tree]; p < s.tree_begin[tree + 1]; ++p) {
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
          double* o = row_out + (first_output + k) * W;
          for (int e = 0; e < d; ++e) o[features[e]] += w[e] * v;
        }
      }
    }
  }
}

}  // namespace

FeatureColumns FeatureColumns::ColumnMajor(std::span<const double> x, std::size_t n_rows,
                                           std::size_t n_features) {
  PERFSHAP_CHECK(x.size() == n_features * n_rows, "the rows hold " + std::to_string(x.size()) +
                                                      " values, not " + std::to_string(n_features) +
                                                      " features x " + std::to_string(n_rows) + " rows");
  FeatureColumns c;
  c.n_rows = n_rows;
  for (std::size_t j = 0; j < n_features; ++j) c.columns.push_back(x.data() + j * n_rows);
  return c;
}

std::vector<double> TreeShap(const TreeEnsemble& model, std::span<const double> x, std::size_t n_rows,
                             const ExecutionOptions& execution) {
  CheckRows(model, x, n_rows, "rows");
  return TreeShap(model, FeatureColumns::ColumnMajor(x, n_rows, model.n_features()), execution);
}

namespace {

/** rows x outputs x W values (W = F + extra), a block of rows at a time: `block(rule, scratch,
 *  count, block_out)` adds the block's values, `rule` the paths' split rule as a type; with extra 1
 *  each output's `base` goes last, as pred_contribs. */
template <class Block>
std::vector<double> ExplainRowBlocks(const PathSet& paths, const FeatureColumns& x, detail::Schedule& schedule,
                                     const ExecutionOptions& execution, std::size_t extra,
                                     const std::vector<double>& base, Block block) {
  const std::size_t F = paths.n_features;
  const std::size_t K = paths.n_outputs;
  const std::size_t W = F + extra;
  std::vector<double> out(x.n_rows * K * W, 0.0);
  ForRowBlocks<BlockScratch>(
      schedule, execution, x.n_rows, out, K * W, [&](std::size_t first, std::size_t count, BlockScratch& scratch) {
        LoadRows(paths, x, first, count, scratch.rows);
        double* block_out = out.data() + first * K * W;
        if (paths.rule == SplitRule::kLessEqual)
          block(std::integral_constant<SplitRule, SplitRule::kLessEqual>{}, scratch, count, block_out);
        else
          block(std::integral_constant<SplitRule, SplitRule::kLessFloat>{}, scratch, count, block_out);
        if (extra == 1)
          for (std::size_t r = 0; r < count; ++r)
            for (std::size_t o = 0; o < K; ++o) block_out[(r * K + o) * W + F] = base[o];
      });
  return out;
}

/** Path-dependent TreeSHAP into rows x outputs x W values (W = F: phi only; F + 1: the base
 *  value last, as pred_contribs); the base value of each output is `base`. */
std::vector<double> PathDependent(const TreeEnsemble& model, const FeatureColumns& x,
                                  const ExecutionOptions& execution, std::size_t extra,
                                  std::vector<double>& base,
                                  detail::TreeShapAlgorithm algorithm = detail::TreeShapAlgorithm::kAuto) {
  CheckColumns(model, x);
  const std::size_t n_rows = x.n_rows;
  const PathSet paths = BuildPaths(model, true);
  const std::size_t F = paths.n_features;
  const std::size_t K = paths.n_outputs;
  const std::size_t W = F + extra;
  // The base value: the cover-weighted mean leaf of each tree, E[f] = v(empty).
  base.assign(K, 0.0);
  for (std::size_t o = 0; o < K; ++o) base[o] = model.base_margin(o);
  for (std::size_t p = 0; p < paths.n_paths(); ++p) {
    double reach = 1.0;
    for (std::uint32_t e = paths.elem_begin[p]; e < paths.elem_begin[p + 1]; ++e) reach *= paths.zero[e];
    for (std::size_t k = 0; k < paths.width[p]; ++k)
      base[paths.output[p] + k] += reach * paths.values[paths.value_begin[p] + k];
  }
  detail::Schedule schedule(execution);
  const std::vector<detail::QuadratureTree> quadrature =
      ChooseQuadratureTrees(model, paths, n_rows, algorithm);
  const PatternTables tables = BuildTables(paths, n_rows, quadrature, schedule);
  return ExplainRowBlocks(paths, x, schedule, execution, extra, base,
                          [&](auto rule, BlockScratch& scratch, std::size_t count, double* block_out) {
                            PathDependentBlock<decltype(rule)::value>(paths, tables, quadrature, scratch.rows.data(),
                                                                      count, scratch, W, block_out);
                          });
}

}  // namespace

std::vector<double> TreeShap(const TreeEnsemble& model, const FeatureColumns& x,
                             const ExecutionOptions& execution) {
  std::vector<double> base;
  return PathDependent(model, x, execution, 1, base);
}

namespace detail {

std::vector<double> TreeShapUsing(const TreeEnsemble& model, const FeatureColumns& x,
                                  TreeShapAlgorithm algorithm, const ExecutionOptions& execution) {
  std::vector<double> base;
  return PathDependent(model, x, execution, 1, base, algorithm);
}

}  // namespace detail

TreeShapValues TreeShapPhi(const TreeEnsemble& model, const FeatureColumns& x,
                           const ExecutionOptions& execution) {
  TreeShapValues v;
  v.phi = PathDependent(model, x, execution, 0, v.base);
  return v;
}

namespace {

/** The weights of every element of a path against the whole background, for a row's pattern
 *  xb: coef[e] = sum over the background's patterns bb (with their counts) of the Shapley weight
 *  of element e in the leaf's game for (xb, bb), divided by the background's size. */
void InterventionalCoefficients(const PathSet& s, const BackgroundPatterns& bp, std::size_t p,
                                std::uint64_t xb, double n_background, double* coef) {
  const int d = s.elements(p);
  std::fill(coef, coef + d, 0.0);
  detail::ForEachLeafGame(bp, p, d, xb, [coef](std::uint64_t a, std::uint64_t b, double count) {
    detail::AddLeafGameValues(a, b, count, coef);
  });
  for (int e = 0; e < d; ++e) coef[e] /= n_background;
}

/**
 * Interventional pattern tables: for a path of at most kTableFeatures elements, its
 * coefficients for every row pattern (2^d x d), when the rows are at least half as many as the
 * patterns, within the tables' memory budget. The background then costs once per path and
 * pattern, and a row D interval tests and D additions per path: linear in rows + background.
 */
PatternTables BuildInterventionalTables(const PathSet& s, const BackgroundPatterns& bp, double n_background,
                                        std::size_t n_rows, detail::Schedule& schedule) {
  PatternTables t;
  t.begin.assign(s.n_paths(), -1);
  std::size_t size = 0;
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    if (d == 0 || d > kTableFeatures) continue;
    const std::size_t patterns = std::size_t{1} << d;
    if (patterns > 2 * n_rows) continue;
    const std::size_t entries = patterns * static_cast<std::size_t>(d);
    if ((size + entries) * sizeof(double) > kTableBudgetBytes) continue;
    t.begin[p] = static_cast<std::int64_t>(size);
    size += entries;
  }
  t.table.resize(size);
  constexpr std::size_t kPathsPerBlock = 64;
  schedule.ForEachBlock((s.n_paths() + kPathsPerBlock - 1) / kPathsPerBlock, 0, [&](std::size_t b) {
    const std::size_t end = std::min(s.n_paths(), (b + 1) * kPathsPerBlock);
    for (std::size_t p = b * kPathsPerBlock; p < end; ++p) {
      if (t.begin[p] < 0) continue;
      const int d = s.elements(p);
      double* out = t.table.data() + t.begin[p];
      for (std::uint64_t xb = 0; xb < (std::uint64_t{1} << d); ++xb)
        InterventionalCoefficients(s, bp, p, xb, n_background, out + xb * static_cast<std::uint64_t>(d));
    }
  });
  return t;
}

template <SplitRule R>
void InterventionalBlock(const PathSet& s, const BackgroundPatterns& bp, const PatternTables& tables,
                         double n_background, const double* rows, std::size_t count, BlockScratch& scratch,
                         std::size_t W, double* out) {
  const std::size_t F = s.n_features;
  const std::size_t stride = s.n_outputs * W;
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    if (d == 0) continue;
    const std::size_t begin = s.elem_begin[p];
    const std::int32_t* features = s.feature.data() + begin;
    const double* values = s.values.data() + s.value_begin[p];
    const std::int64_t table = tables.begin[p];
    for (std::size_t r = 0; r < count; ++r) {
      const std::uint64_t xb = Pattern<R>(s, begin, d, rows + r * F);
      const double* coef;
      if (table >= 0) {
        coef = tables.table.data() + table + static_cast<std::int64_t>(xb * static_cast<std::uint64_t>(d));
      } else {
        InterventionalCoefficients(s, bp, p, xb, n_background, scratch.weights.data());
        coef = scratch.weights.data();
      }
      double* row_out = out + r * stride;
      for (std::size_t k = 0; k < s.width[p]; ++k) {
        const double v = values[k];
        double* o = row_out + (s.output[p] + k) * W;
        for (int e = 0; e < d; ++e) o[features[e]] += coef[e] * v;
      }
    }
  }
}

}  // namespace

std::vector<double> InterventionalTreeShap(const TreeEnsemble& model, std::span<const double> x,
                                           std::size_t n_rows, std::span<const double> background,
                                           std::size_t n_background, const ExecutionOptions& execution) {
  CheckRows(model, x, n_rows, "rows");
  return InterventionalTreeShap(model, FeatureColumns::ColumnMajor(x, n_rows, model.n_features()), background,
                                n_background, execution);
}

namespace {

/** Interventional TreeSHAP into rows x outputs x W values (as PathDependent). */
std::vector<double> Interventional(const TreeEnsemble& model, const FeatureColumns& x,
                                   std::span<const double> background, std::size_t n_background,
                                   const ExecutionOptions& execution, std::size_t extra,
                                   std::vector<double>& base) {
  CheckColumns(model, x);
  const std::size_t n_rows = x.n_rows;
  CheckRows(model, background, n_background, "background rows");
  PERFSHAP_CHECK(n_background > 0, "interventional TreeSHAP needs at least one background row");
  const PathSet paths = BuildPaths(model, false);
  const std::size_t F = paths.n_features;
  const std::size_t K = paths.n_outputs;
  const std::size_t W = F + extra;
  // The base value: the mean margin over the background, summed in background order.
  std::vector<double> margins(K * n_background);
  model.PredictMargin(background, n_background, margins);
  base.assign(K, 0.0);
  for (std::size_t o = 0; o < K; ++o) {
    for (std::size_t b = 0; b < n_background; ++b) base[o] += margins[o * n_background + b];
    base[o] /= static_cast<double>(n_background);
  }
  detail::Schedule schedule(execution);
  const FeatureColumns bg = FeatureColumns::ColumnMajor(background, n_background, F);
  const BackgroundPatterns bp = paths.rule == SplitRule::kLessEqual
                                    ? CountPatterns<SplitRule::kLessEqual>(paths, bg, schedule)
                                    : CountPatterns<SplitRule::kLessFloat>(paths, bg, schedule);
  const auto nb = static_cast<double>(n_background);
  const PatternTables tables = BuildInterventionalTables(paths, bp, nb, n_rows, schedule);
  return ExplainRowBlocks(paths, x, schedule, execution, extra, base,
                          [&](auto rule, BlockScratch& scratch, std::size_t count, double* block_out) {
                            InterventionalBlock<decltype(rule)::value>(paths, bp, tables, nb, scratch.rows.data(),
                                                                       count, scratch, W, block_out);
                          });
}

}  // namespace

std::vector<double> InterventionalTreeShap(const TreeEnsemble& model, const FeatureColumns& x,
                                           std::span<const double> background, std::size_t n_background,
                                           const ExecutionOptions& execution) {
  std::vector<double> base;
  return Interventional(model, x, background, n_background, execution, 1, base);
}

TreeShapValues InterventionalTreeShapPhi(const TreeEnsemble& model, const FeatureColumns& x,
                                         std::span<const double> background, std::size_t n_background,
                                         const ExecutionOptions& execution) {
  TreeShapValues v;
  v.phi = Interventional(model, x, background, n_background, execution, 0, v.base);
  return v;
}

}}  // namespace perfshap
