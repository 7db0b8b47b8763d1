// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// SHAP interaction values of tree ensembles, by leaf paths (treeshap.cpp sets out the paths and
// their product games). Lundberg et al. 2020 define the interaction of features i != j as
//   Phi_ij = (phi_i(game with j always in) - phi_i(game with j always out)) / 2
// over the other players, which is half the Shapley interaction index SII(i, j); the diagonal
// Phi_ii = phi_i - sum_{j != i} Phi_ij. XGBoost's pred_interactions computes it so: TreeSHAP once
// per feature conditioned on, on and off, O(features x L D^2) per tree and row.
//
// Per leaf. Leaf l's term is v_l prod_{e in P} (e in S ? o_e : z_e) over its d path elements.
// With g_e(t) = z_e (1 - t) + o_e t and the Beta integral w(s, m) = s! (m - 1 - s)! / m! =
// integral_0^1 t^s (1 - t)^{m - 1 - s} dt, the Shapley value of element i is
//   W_i = (o_i - z_i) integral_0^1 prod_{e != i} g_e(t) dt
// (the sum over coalition sizes of TreeSHAP's weights, summed by the integral), and conditioning
// on j multiplies the leaf by o_j (in) or z_j (out) and leaves a game of d - 1 elements, so
//   Phi_ij(leaf) = v_l / 2 (o_i - z_i)(o_j - z_j) integral_0^1 prod_{e != i, j} g_e(t) dt:
// symmetric, as the index is. The integrands are polynomials of degree d - 1 and d - 2, which a
// Gauss-Legendre rule of ceil(d / 2) nodes integrates exactly (the quadrature formulation of
// TreeSHAP, Wettenstein et al. 2026). Elements a row follows ("hot", o = 1) have
// g_e(t) = z_e + (1 - z_e) t > 0 inside (0, 1); the others ("cold") have g_e(t) = z_e (1 - t),
// all alike up to the factor z_e, which the weight (o_e - z_e) = -z_e cancels. With H(t) the
// product over the h hot elements, c cold ones and Z the product of their z's:
//   hot i:          W_i = (1 - z_i) Z integral H(t) / g_i(t) (1 - t)^c
//   cold i:         W_i = -Z integral H(t) (1 - t)^(c - 1)
//   hot i, hot j:   Phi = 1/2 (1 - z_i)(1 - z_j) Z integral H(t) / (g_i(t) g_j(t)) (1 - t)^c
//   hot i, cold j:  Phi = -1/2 (1 - z_i) Z integral H(t) / g_i(t) (1 - t)^(c - 1)
//   cold i, cold j: Phi = 1/2 Z integral H(t) (1 - t)^(c - 2)
// (no division by a z, so zero covers need no case): O(d^2 / 2) per path and row with the nodes'
// values shared, against the O(d^3) of conditioning (PathInteractionsByConditioning, the
// reference the tests compare with).
//
// Interventional: for one background row, leaf l's term is v_l 1{A subset of S, S disjoint
// from B} (treeshap.cpp); with a = |A|, b = |B|, m = a + b its pairs' indices are
//   i, j in A: (a - 2)! b! / (m - 1)!,  i, j in B: a! (b - 2)! / (m - 1)!,
//   i in A, j in B: -(a - 1)! (b - 1)! / (m - 1)!
// (only one coalition of the others has a nonzero second difference), summed over the
// background's distinct patterns of the path.
//
// Every row's matrix is summed in path order, as its SHAP values are, so the result does not
// depend on the blocking of the rows or the thread count.
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/solver.hpp"
#include "perfshap/error.hpp"
#include "perfshap/treeshap.hpp"
#include "schedule/schedule.hpp"
#include "solvers/path_interactions.hpp"
#include "solvers/tree_blocks.hpp"
#include "solvers/tree_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace detail {
namespace {

struct Rules {
  std::array<std::array<double, kMaxQuadratureNodes>, kMaxQuadratureNodes + 1> t{};
  std::array<std::array<double, kMaxQuadratureNodes>, kMaxQuadratureNodes + 1> w{};
};

/** Legendre polynomial P_n(x) and its derivative, by the three-term recurrence. */
void Legendre(int n, double x, double& p, double& dp) {
  double p0 = 1.0;
  double p1 = x;
  for (int k = 2; k <= n; ++k) {
    const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
    p0 = p1;
    p1 = p2;
  }
  p = n == 0 ? 1.0 : p1;
  dp = n == 0 ? 0.0 : n * (x * p1 - p0) / (x * x - 1.0);
}

/** Nodes and weights on [-1, 1] by Newton's method from Tricomi's initial guesses, mapped to
 *  [0, 1]; the nodes in increasing order. */
Rules MakeRules() {
  Rules r;
  for (int n = 1; n <= kMaxQuadratureNodes; ++n) {
    for (int i = 0; i < n; ++i) {
      double x = -std::cos(std::numbers::pi * (i + 0.75) / (n + 0.5));
      double p = 0.0;
      double dp = 0.0;
      for (int it = 0; it < 100; ++it) {
        Legendre(n, x, p, dp);
        const double step = p / dp;
        x -= step;
        if (std::abs(step) < 1e-17) break;
      }
      Legendre(n, x, p, dp);
      r.t[static_cast<std::size_t>(n)][static_cast<std::size_t>(i)] = (1.0 + x) / 2.0;
      r.w[static_cast<std::size_t>(n)][static_cast<std::size_t>(i)] = 1.0 / ((1.0 - x * x) * dp * dp);
    }
  }
  return r;
}

}  // namespace

QuadratureRule GaussLegendre01(int n) {
  static const Rules rules = MakeRules();
  const auto k = static_cast<std::size_t>(n);
  return {rules.t[k].data(), rules.w[k].data(), n};
}

void PathInteractions(int d, const double* z, std::uint64_t bits, PathInteractionScratch& sc, double* w,
                      double* inter) noexcept {
  const QuadratureRule rule = GaussLegendre01((d + 1) / 2);
  const int n = rule.n;
  int h = 0;
  int c = 0;
  double zc = 1.0;
  for (int e = 0; e < d; ++e) {
    if (((bits >> e) & 1U) != 0) {
      sc.hot[h++] = e;
    } else {
      sc.cold[c++] = e;
      zc *= z[e];
    }
  }
  for (int k = 0; k < n; ++k) {
    const double t = rule.t[k];
    const double s = 1.0 - t;
    double product = 1.0;
    for (int a = 0; a < h; ++a) {
      const double ze = z[sc.hot[a]];
      const double g = ze + (1.0 - ze) * t;
      product *= g;
      sc.inverse[a * n + k] = 1.0 / g;
    }
    const double base = rule.w[k] * zc * product;
    double power = 1.0;  // s^(c - 2)
    for (int i = 2; i < c; ++i) power *= s;
    if (c >= 2) {
      sc.p2[k] = base * power;
      sc.p1[k] = sc.p2[k] * s;
      sc.p0[k] = sc.p1[k] * s;
    } else {
      sc.p2[k] = 0.0;
      sc.p1[k] = c == 1 ? base : 0.0;
      sc.p0[k] = c == 1 ? base * s : base;
    }
  }
  double cold_weight = 0.0;
  double cold_pair = 0.0;
  for (int k = 0; k < n; ++k) {
    cold_weight += sc.p1[k];
    cold_pair += sc.p2[k];
  }
  cold_pair *= 0.5;
  for (int i = 0; i < d * d; i += d + 1) inter[i] = 0.0;
  for (int a = 0; a < c; ++a) {
    const int i = sc.cold[a];
    w[i] = -cold_weight;
    for (int b = a + 1; b < c; ++b) {
      const int j = sc.cold[b];
      inter[i * d + j] = cold_pair;
      inter[j * d + i] = cold_pair;
    }
  }
  for (int a = 0; a < h; ++a) {
    const int i = sc.hot[a];
    const double* ia = sc.inverse + a * n;
    double weight = 0.0;
    double with_cold = 0.0;
    for (int k = 0; k < n; ++k) {
      weight += sc.p0[k] * ia[k];
      with_cold += sc.p1[k] * ia[k];
    }
    const double ri = 1.0 - z[i];
    w[i] = ri * weight;
    const double hot_cold = -0.5 * ri * with_cold;
    for (int b = 0; b < c; ++b) {
      const int j = sc.cold[b];
      inter[i * d + j] = hot_cold;
      inter[j * d + i] = hot_cold;
    }
    for (int b = a + 1; b < h; ++b) {
      const int j = sc.hot[b];
      const double* ib = sc.inverse + b * n;
      double sum = 0.0;
      for (int k = 0; k < n; ++k) sum += sc.p0[k] * ia[k] * ib[k];
      const double v = 0.5 * ri * (1.0 - z[j]) * sum;
      inter[i * d + j] = v;
      inter[j * d + i] = v;
    }
  }
}

void PathInteractionsByConditioning(int d, const double* z, std::uint64_t bits, double* inter) noexcept {
  double rest_z[kMaxPathFeatures];
  double q[kMaxPathFeatures + 1];
  double w[kMaxPathFeatures];
  for (int j = 0; j < d; ++j) {
    inter[j * d + j] = 0.0;
    if (d == 1) continue;
    std::uint64_t rest_bits = 0;
    int m = 0;
    for (int e = 0; e < d; ++e) {
      if (e == j) continue;
      rest_z[m] = z[e];
      rest_bits |= ((bits >> e) & 1U) << m;
      ++m;
    }
    PathWeights(d - 1, rest_z, rest_bits, q, w);
    const double factor = (static_cast<double>((bits >> j) & 1U) - z[j]) / 2.0;
    m = 0;
    for (int i = 0; i < d; ++i) {
      if (i == j) continue;
      inter[i * d + j] = factor * w[m++];
    }
  }
}

}  // namespace detail

namespace {

using detail::BuildPaths;
using detail::kMaxPathFeatures;
using detail::PathSet;
using detail::Pattern;

/** The matrix rows computed and where each feature's row is (-1: not computed). */
struct MatrixRows {
  std::vector<std::size_t> rows;
  std::vector<std::int64_t> row_of;
};

MatrixRows ChooseRows(const TreeEnsemble& model, const TreeInteractionOptions& options) {
  const std::size_t F = model.n_features();
  MatrixRows m;
  m.row_of.assign(F, -1);
  if (options.features.empty()) {
    for (std::size_t j = 0; j <= F; ++j) m.rows.push_back(j);
  } else {
    for (const std::size_t j : options.features) {
      PERFSHAP_CHECK(j < F, "TreeSHAP interactions: feature " + std::to_string(j) +
                                " is not one of the model's " + std::to_string(F) + " features (0.." +
                                std::to_string(F == 0 ? 0 : F - 1) + ")");
      PERFSHAP_CHECK(std::find(m.rows.begin(), m.rows.end(), j) == m.rows.end(),
                     "TreeSHAP interactions: feature " + std::to_string(j) + " is named twice");
      m.rows.push_back(j);
    }
  }
  for (std::size_t a = 0; a < m.rows.size(); ++a)
    if (m.rows[a] < F) m.row_of[m.rows[a]] = static_cast<std::int64_t>(a);
  return m;
}

struct InteractionScratch {
  std::vector<double> rows;
  /** count x outputs x features: the block's SHAP values, for the diagonal. */
  std::vector<double> phi;
  std::vector<double> w = std::vector<double>(kMaxPathFeatures);
  std::vector<double> inter = std::vector<double>(kMaxPathFeatures * kMaxPathFeatures);
  std::unique_ptr<detail::PathInteractionScratch> path = std::make_unique<detail::PathInteractionScratch>();
};

/** Adds path p's weights w and interactions `inter` (times `scale` x its leaf values) to row r's
 *  SHAP values and matrix rows. */
void AddPath(const PathSet& s, const MatrixRows& m, std::size_t p, double scale, const double* w,
             const double* inter, double* phi_row, double* out_row) {
  const std::size_t F = s.n_features;
  const std::size_t R = m.rows.size();
  const int d = s.elements(p);
  const std::int32_t* features = s.feature.data() + s.elem_begin[p];
  const double* values = s.values.data() + s.value_begin[p];
  for (std::size_t k = 0; k < s.width[p]; ++k) {
    const double v = scale * values[k];
    const std::size_t o = s.output[p] + k;
    double* ph = phi_row + o * F;
    for (int e = 0; e < d; ++e) ph[features[e]] += v * w[e];
    double* mo = out_row + o * R * (F + 1);
    for (int i = 0; i < d; ++i) {
      const std::int64_t a = m.row_of[static_cast<std::size_t>(features[i])];
      if (a < 0) continue;
      double* line = mo + static_cast<std::size_t>(a) * (F + 1);
      const double* ii = inter + i * d;
      for (int j = 0; j < d; ++j) line[features[j]] += v * ii[j];  // ii[i] = 0
    }
  }
}

/** Fills the diagonal (phi_f minus the rest of its row) and the base value's entry. */
void FinishRows(const MatrixRows& m, std::size_t F, std::size_t K, const std::vector<double>& base,
                const double* phi, std::size_t count, double* out) {
  const std::size_t R = m.rows.size();
  for (std::size_t r = 0; r < count; ++r) {
    for (std::size_t o = 0; o < K; ++o) {
      for (std::size_t a = 0; a < R; ++a) {
        double* line = out + ((r * K + o) * R + a) * (F + 1);
        const std::size_t f = m.rows[a];
        if (f == F) {
          line[F] = base[o];
          continue;
        }
        double rest = 0.0;
        for (std::size_t j = 0; j < F; ++j)
          if (j != f) rest += line[j];
        line[f] = phi[(r * K + o) * F + f] - rest;
      }
    }
  }
}

template <SplitRule Rule>
void PathDependentBlock(const PathSet& s, const MatrixRows& m, std::size_t count, InteractionScratch& sc,
                        double* out) {
  const std::size_t F = s.n_features;
  const std::size_t K = s.n_outputs;
  const std::size_t R = m.rows.size();
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    if (d == 0) continue;
    const std::size_t begin = s.elem_begin[p];
    for (std::size_t r = 0; r < count; ++r) {
      const std::uint64_t bits = Pattern<Rule>(s, begin, d, sc.rows.data() + r * F);
      detail::PathInteractions(d, s.zero.data() + begin, bits, *sc.path, sc.w.data(), sc.inter.data());
      AddPath(s, m, p, 1.0, sc.w.data(), sc.inter.data(), sc.phi.data() + r * K * F,
              out + r * K * R * (F + 1));
    }
  }
}

template <SplitRule Rule>
void InterventionalBlock(const PathSet& s, const detail::BackgroundPatterns& bp, double n_background,
                         const MatrixRows& m, std::size_t count, InteractionScratch& sc, double* out) {
  const std::size_t F = s.n_features;
  const std::size_t K = s.n_outputs;
  const std::size_t R = m.rows.size();
  const auto& weights = detail::ShapleyWeights();
  double* w = sc.w.data();
  double* inter = sc.inter.data();
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    if (d == 0) continue;
    const std::size_t begin = s.elem_begin[p];
    for (std::size_t r = 0; r < count; ++r) {
      const std::uint64_t xb = Pattern<Rule>(s, begin, d, sc.rows.data() + r * F);
      std::fill(w, w + d, 0.0);
      std::fill(inter, inter + d * d, 0.0);
      bool any = false;
      detail::ForEachLeafGame(bp, p, d, xb, [&](std::uint64_t a, std::uint64_t b, double c) {
        detail::AddLeafGameValues(a, b, c, w);
        any = true;
        const int na = std::popcount(a);
        const int nb = std::popcount(b);
        const int total = na + nb;
        if (total < 2) return;
        const auto& pair = weights[static_cast<std::size_t>(total - 1)];
        const double in_a = na >= 2 ? 0.5 * c * pair[static_cast<std::size_t>(na - 2)] : 0.0;
        const double in_b = nb >= 2 ? 0.5 * c * pair[static_cast<std::size_t>(na)] : 0.0;
        const double across = na >= 1 && nb >= 1 ? -0.5 * c * pair[static_cast<std::size_t>(na - 1)] : 0.0;
        for (std::uint64_t i = a | b; i != 0; i &= i - 1) {
          const int ei = std::countr_zero(i);
          const bool i_in_a = ((a >> ei) & 1U) != 0;
          double* line = inter + ei * d;
          for (std::uint64_t j = a; j != 0; j &= j - 1) {
            const int ej = std::countr_zero(j);
            if (ej != ei) line[ej] += i_in_a ? in_a : across;
          }
          for (std::uint64_t j = b; j != 0; j &= j - 1) {
            const int ej = std::countr_zero(j);
            if (ej != ei) line[ej] += i_in_a ? across : in_b;
          }
        }
      });
      if (!any) continue;
      AddPath(s, m, p, 1.0 / n_background, w, inter, sc.phi.data() + r * K * F, out + r * K * R * (F + 1));
    }
  }
}

/** Runs `block(count, scratch, block_out)` over blocks of rows loaded into the scratch, then
 *  finishes their matrices. */
template <class Block>
TreeShapInteractionValues Run(const PathSet& paths, const FeatureColumns& x, const MatrixRows& m,
                              std::vector<double> base, const ExecutionOptions& execution,
                              const Block& block) {
  const std::size_t F = paths.n_features;
  const std::size_t K = paths.n_outputs;
  const std::size_t per_row = K * m.rows.size() * (F + 1);
  TreeShapInteractionValues result;
  result.n_rows = x.n_rows;
  result.n_outputs = K;
  result.n_features = F;
  result.values.assign(x.n_rows * per_row, 0.0);
  detail::Schedule schedule(execution);
  detail::ForRowBlocks<InteractionScratch>(
      schedule, execution, x.n_rows, result.values, per_row,
      [&](std::size_t first, std::size_t count, InteractionScratch& sc) {
        detail::LoadRows(paths, x, first, count, sc.rows);
        sc.phi.assign(count * K * F, 0.0);
        double* block_out = result.values.data() + first * per_row;
        block(count, sc, block_out);
        FinishRows(m, F, K, base, sc.phi.data(), count, block_out);
      },
      detail::RowsPerBlockFor(x.n_rows, schedule.threads()));
  result.matrix_rows = m.rows;
  result.base = std::move(base);
  return result;
}

}  // namespace

TreeShapInteractionValues TreeShapInteractions(const TreeEnsemble& model, const FeatureColumns& x,
                                               const TreeInteractionOptions& options,
                                               const ExecutionOptions& execution) {
  detail::CheckColumns(model, x);
  const MatrixRows m = ChooseRows(model, options);
  const PathSet paths = BuildPaths(model, true);
  // The base value: the cover-weighted mean leaf of each tree, E[f] = v(empty).
  std::vector<double> base(paths.n_outputs, 0.0);
  for (std::size_t o = 0; o < paths.n_outputs; ++o) base[o] = model.base_margin(o);
  for (std::size_t p = 0; p < paths.n_paths(); ++p) {
    double reach = 1.0;
    for (std::uint32_t e = paths.elem_begin[p]; e < paths.elem_begin[p + 1]; ++e) reach *= paths.zero[e];
    for (std::size_t k = 0; k < paths.width[p]; ++k)
      base[paths.output[p] + k] += reach * paths.values[paths.value_begin[p] + k];
  }
  return Run(paths, x, m, std::move(base), execution,
             [&](std::size_t count, InteractionScratch& sc, double* out) {
               if (paths.rule == SplitRule::kLessEqual) {
                 PathDependentBlock<SplitRule::kLessEqual>(paths, m, count, sc, out);
               } else {
                 PathDependentBlock<SplitRule::kLessFloat>(paths, m, count, sc, out);
               }
             });
}

TreeShapInteractionValues InterventionalTreeShapInteractions(
    const TreeEnsemble& model, const FeatureColumns& x, std::span<const double> background,
    std::size_t n_background, const TreeInteractionOptions& options, const ExecutionOptions& execution) {
  detail::CheckColumns(model, x);
  detail::CheckRows(model, background, n_background, "background rows");
  PERFSHAP_CHECK(n_background > 0, "interventional TreeSHAP needs at least one background row");
  const MatrixRows m = ChooseRows(model, options);
  const PathSet paths = BuildPaths(model, false);
  const std::size_t F = paths.n_features;
  const std::size_t K = paths.n_outputs;
  std::vector<double> margins(K * n_background);
  model.PredictMargin(background, n_background, margins);
  std::vector<double> base(K, 0.0);
  for (std::size_t o = 0; o < K; ++o) {
    for (std::size_t b = 0; b < n_background; ++b) base[o] += margins[o * n_background + b];
    base[o] /= static_cast<double>(n_background);
  }
  const FeatureColumns bg = FeatureColumns::ColumnMajor(background, n_background, F);
  detail::Schedule counting(execution);
  const detail::BackgroundPatterns bp =
      paths.rule == SplitRule::kLessEqual ? detail::CountPatterns<SplitRule::kLessEqual>(paths, bg, counting)
                                          : detail::CountPatterns<SplitRule::kLessFloat>(paths, bg, counting);
  const auto nb = static_cast<double>(n_background);
  return Run(paths, x, m, std::move(base), execution,
             [&](std::size_t count, InteractionScratch& sc, double* out) {
               if (paths.rule == SplitRule::kLessEqual) {
                 InterventionalBlock<SplitRule::kLessEqual>(paths, bp, nb, m, count, sc, out);
               } else {
                 InterventionalBlock<SplitRule::kLessFloat>(paths, bp, nb, m, count, sc, out);
               }
             });
}

}}  // namespace perfshap
