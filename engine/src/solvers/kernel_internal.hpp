// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the kernel solver (kernel.cpp), its least squares (kernel_least_squares.cpp) and its
// control variate of output 0 (kernel_control_variate.cpp) share: the layer pairs, the normal
// equations' sums, the constrained least-squares solves (formed and implicit), and the samples
// the control variate reads.

#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "solvers/coalition_trees.hpp"

namespace perfshap { inline namespace v0 { namespace detail::kernel {

using Matrix = Eigen::MatrixXd;

// One layer pair: sizes s and n - s (one layer when s = n - s).
struct LayerPair {
  int s = 0;
  bool middle = false;      // s == n - s
  bool complete = false;    // every coalition of both sizes evaluated
  double mass_small = 0.0;  // M_s
  double mass_large = 0.0;  // M_{n-s}
};

// The normal equations' pieces of a set of weighted rows: G = sum w a a^T, R = sum w a y^T.
struct NormalSums {
  Matrix g;
  Matrix r;
  // implicit: no g (0 x 0): ImplicitNormal stands for it.
  void Reset(int n, std::size_t k, bool implicit = false) {
    if (implicit) {
      g.resize(0, 0);
    } else {
      g.setZero(n, n);
    }
    r.setZero(n, static_cast<Eigen::Index>(k));
  }
  // Adds w a a^T (unless implicit) and w a y^T for the coalition whose members are `members`.
  void Add(std::span<const int> members, double w, const double* y, std::size_t k) {
    const bool with_g = g.size() > 0;
    for (int a : members) {
      if (with_g)
        for (int b : members) g(a, b) += w;
      for (std::size_t j = 0; j < k; ++j) r(a, static_cast<Eigen::Index>(j)) += w * y[j];
    }
  }
};

// The normal equations' pieces of complement pairs (S, N \ S) of equal weight w, from the
// smaller side a alone: w (a a^T + (1 - a)(1 - a)^T) = w (2 a a^T - a 1^T - 1 a^T + 1 1^T) and
// w (a y_S^T + (1 - a) y_c^T) = w a (y_S - y_c)^T + 1 (w y_c)^T, so a pair costs |S|^2 / 2 for
// the smaller |S| <= n / 2, not |S|^2 + |N \ S|^2.
struct PairSums {
  Matrix aa;           // sum w a a^T, lower triangle (0 x 0 when implicit)
  Eigen::VectorXd a;   // sum w a
  double w = 0.0;      // sum w
  Matrix ry;           // sum w a (y_S - y_c)^T
  Eigen::VectorXd yc;  // sum w y_c
  // implicit: each pair's smaller side and weight, in order, instead of aa (ImplicitNormal).
  bool implicit = false;
  std::vector<int> members;
  std::vector<std::uint32_t> member_end;
  std::vector<double> weights;
  void Reset(int n, std::size_t k, bool implicit_normal = false) {
    implicit = implicit_normal;
    if (implicit) {
      aa.resize(0, 0);
    } else {
      aa.setZero(n, n);
    }
    members.clear();
    member_end.clear();
    weights.clear();
    a.setZero(n);
    w = 0.0;
    ry.setZero(n, static_cast<Eigen::Index>(k));
    yc.setZero(static_cast<Eigen::Index>(k));
  }
  void Add(std::span<const int> small, double weight, const double* y_small, const double* y_large,
           std::size_t k) {
    if (implicit) {
      members.insert(members.end(), small.begin(), small.end());
      member_end.push_back(static_cast<std::uint32_t>(members.size()));
      weights.push_back(weight);
    } else {
      // The lower triangle, column by column (members increase, so small[p] >= small[q]).
      for (std::size_t q = 0; q < small.size(); ++q) {
        double* column = aa.data() + static_cast<Eigen::Index>(small[q]) * aa.rows();
        for (std::size_t p = q; p < small.size(); ++p) column[small[p]] += weight;
      }
    }
    for (int i : small) {
      a(i) += weight;
      for (std::size_t j = 0; j < k; ++j)
        ry(i, static_cast<Eigen::Index>(j)) += weight * (y_small[j] - y_large[j]);
    }
    w += weight;
    for (std::size_t j = 0; j < k; ++j) yc(static_cast<Eigen::Index>(j)) += weight * y_large[j];
  }
  // Sums of a, w, ry, yc (and aa); an implicit batch's samples stay with it.
  void AddTo(PairSums& total) const {
    total.implicit = implicit;
    if (!implicit) total.aa += aa;
    total.a += a;
    total.w += w;
    total.ry += ry;
    total.yc += yc;
  }
  // total minus this batch.
  void Without(const PairSums& total, PairSums& rest) const {
    rest.implicit = implicit;
    if (!implicit) rest.aa = total.aa - aa;
    rest.a = total.a - a;
    rest.w = total.w - w;
    rest.ry = total.ry - ry;
    rest.yc = total.yc - yc;
  }
  // G and R of the pairs, divided by `count` (R alone when implicit: g is left as it is).
  void Expand(double count, Matrix& g, Matrix& r) const {
    const Eigen::Index n = a.size();
    r = (ry + Eigen::VectorXd::Ones(n) * yc.transpose()) / count;
    if (implicit) return;
    Matrix full = aa.selfadjointView<Eigen::Lower>();
    g = (2.0 * full - a * Eigen::RowVectorXd::Ones(n) - Eigen::VectorXd::Ones(n) * a.transpose()).array() + w;
    g /= count;
  }
};

// A sampled pair's weight in the normal equations before division by its layer's sample count.
inline double PairWeight(const LayerPair& layer) { return layer.middle ? 0.5 * layer.mass_small : layer.mass_small; }

// Members of a coalition of words.
void MembersOf(std::span<const std::uint64_t> words, int n, std::vector<int>& members);

// phi (n x k row-major) of the constrained least squares with normal matrix g, right-hand sides r
// and sums delta.
void SolveConstrained(const Matrix& g, const Matrix& r, std::span<const double> delta, std::span<double> phi);

// The normal matrix G = G_complete + G_pairs / count of the complete layers (alpha_c I +
// beta_c 1 1^T exactly: every coalition of a size is there) and the pairs of the batches in
// `batches` but `skip`, whose sums (a, w) are `sums`; as products with vectors.
struct ImplicitNormal {
  int n = 0;
  double alpha_c = 0.0;
  double beta_c = 0.0;
  const std::vector<PairSums>* batches = nullptr;
  std::ptrdiff_t skip = -1;
  const PairSums* sums = nullptr;
  double count = 1.0;
  double ridge = 0.0;

  // out = G v.
  void Apply(const Eigen::VectorXd& v, Eigen::VectorXd& out) const;
};

// The identity part alpha of the expectation of the pairs' normal matrix per cycle over the draws
// (a smaller side of size s is uniform among them: E[a a^T] = s/n on the diagonal,
// s(s-1)/(n(n-1)) off it), the scale of the solve's ridge.
double ExpectedPairsAlpha(int n, std::span<const LayerPair* const> sampled);

// The constrained least squares phi = argmin phi^T G phi / 2 - phi^T r subject to sum phi = delta,
// by conjugate gradients on the plane sum phi = delta: phi = delta / n 1 + y, y orthogonal to 1,
// every residual and direction projected onto that plane. G's expectation alpha I + beta 1 1^T is
// alpha times the identity there, so the plain iteration is the preconditioned one. `phi` holds
// the start (a nearby solution: the pooled estimate for a leave-one-out one) or zeros; the
// iteration stops at a relative residual of 1e-11 or after 500 steps.
void SolveConstrainedImplicit(const ImplicitNormal& g, const Matrix& r, std::span<const double> delta,
                              std::span<double> phi);

// The sampled pairs of one batch, kept for the control variate: each pair's smaller side (its
// words), both sides' v - v(empty) of output 0, and its layer pair.
struct BatchSamples {
  std::vector<std::uint64_t> words;
  std::vector<double> y_small, y_large;
  std::vector<std::uint32_t> layer;
};

// What the control variate of output 0 reads: the complete layers (coalitions, weights, values,
// normal matrix), the sampled layers and each batch's samples.
struct ControlVariateInput {
  int n = 0;
  const std::vector<std::vector<std::uint64_t>>* complete_words = nullptr;
  const std::vector<double>* complete_w = nullptr;
  const std::vector<double>* complete_y = nullptr;
  const Matrix* complete_g = nullptr;
  std::span<const LayerPair* const> sampled;
  std::span<const BatchSamples> kept;
  std::span<const std::uint64_t> cycles;  // per batch (the last round may give some one more)
  double delta = 0.0;        // v(N) - v(empty) of output 0
  double t_over_z = 1.0;
  CoalitionTreeOptions trees;
};

// phi and se of output 0 with a control variate, by cross-fitting: the batches are two halves
// (even and odd); the trees g_h fitted on the complete layers and the other half's samples are
// a game whose Shapley values are exact, and the kernel estimate of the residual game v - g_h
// from half h's batches (with the complete layers) is added to them. Given g_h the estimate is
// the kernel estimate of v - g_h, so it stays unbiased to the same order as the plain one; its
// variance is that of the residual, which the trees make small. phi averages the halves; se is
// the jackknife within each half given its trees (each half's estimate without one of its
// batches; refitting the trees per batch left out would cost B fits), or with fewer than two
// batches a half, the spread of the B single-batch estimates.
void ControlVariate(const ControlVariateInput& in, std::span<double> phi0, std::span<double> se0);

}}}  // namespace perfshap::detail::kernel
