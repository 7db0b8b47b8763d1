// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The kernel solver's least squares (kernel.cpp): the constrained solve of the normal equations,
// formed (Eigen LDLT and its bordering) or implicit (products with vectors, conjugate gradients).
#include <Eigen/Dense>
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "solvers/kernel_internal.hpp"

namespace perfshap { inline namespace v0 { namespace detail::kernel {

// Members of a coalition of words.
void MembersOf(std::span<const std::uint64_t> words, int n, std::vector<int>& members) {
  members.clear();
  for (std::size_t t = 0; t < words.size(); ++t)
    for (std::uint64_t w = words[t]; w != 0; w &= w - 1) {
      const int i = static_cast<int>(t * 64) + std::countr_zero(w);
      if (i < n) members.push_back(i);
    }
}

// phi (n x k row-major) of the constrained least squares with normal matrix g, right-hand sides r
// and sums delta.
void SolveConstrained(const Matrix& g, const Matrix& r, std::span<const double> delta,
                      std::span<double> phi) {
  const Eigen::Index n = g.rows();
  const Eigen::Index k = r.cols();
  Eigen::LDLT<Matrix> ldlt(g);
  bool ok = ldlt.info() == Eigen::Success && ldlt.isPositive();
  if (ok) {
    const auto d = ldlt.vectorD();
    ok = d.minCoeff() > 1e-13 * std::max(1e-300, d.maxCoeff());
  }
  if (!ok) {
    // Too few rows to fix every direction (a small budget): a tiny ridge makes the system
    // definite without moving the well-determined directions.
    Matrix reg = g;
    reg.diagonal().array() += 1e-10 * std::max(1e-300, g.diagonal().mean());
    ldlt.compute(reg);
  }
  Matrix rhs(n, k + 1);
  rhs.leftCols(k) = r;
  rhs.col(k).setOnes();
  const Matrix x = ldlt.solve(rhs);
  const double ones_g = x.col(k).sum();
  for (Eigen::Index j = 0; j < k; ++j) {
    const double excess = x.col(j).sum() - delta[static_cast<std::size_t>(j)];
    for (Eigen::Index i = 0; i < n; ++i)
      phi[static_cast<std::size_t>(i * k + j)] = x(i, j) - x(i, k) * excess / ones_g;
  }
}

// out = G v: the complete layers' alpha_c I + beta_c 1 1^T, the pairs' sums (a, w) expanded,
// and each pair's 2 w a a^T v from its smaller side.
void ImplicitNormal::Apply(const Eigen::VectorXd& v, Eigen::VectorXd& out) const {
  const double total = v.sum();
  const double av = sums->a.dot(v);
  out = (alpha_c + ridge) * v;
  out.array() += beta_c * total + (sums->w * total - av) / count;
  out -= sums->a * (total / count);
  Eigen::VectorXd pairs = Eigen::VectorXd::Zero(n);
  for (std::size_t b = 0; b < batches->size(); ++b) {
    if (static_cast<std::ptrdiff_t>(b) == skip) continue;
    const PairSums& p = (*batches)[b];
    std::uint32_t begin = 0;
    for (std::size_t t = 0; t < p.weights.size(); ++t) {
      const std::uint32_t end = p.member_end[t];
      double dot = 0.0;
      for (std::uint32_t m = begin; m < end; ++m) dot += v(p.members[m]);
      const double add = 2.0 * p.weights[t] * dot;
      for (std::uint32_t m = begin; m < end; ++m) pairs(p.members[m]) += add;
      begin = end;
    }
  }
  out += pairs / count;
}

// The identity part alpha of the expectation of the pairs' normal matrix per cycle over the draws
// (a smaller side of size s is uniform among them: E[a a^T] = s/n on the diagonal,
// s(s-1)/(n(n-1)) off it), the scale of the solve's ridge.
double ExpectedPairsAlpha(int n, std::span<const LayerPair* const> sampled) {
  double alpha = 0.0;
  const double nd = n;
  for (const LayerPair* p : sampled) {
    const double s = p->s;
    const double w = p->middle ? 0.5 * p->mass_small : p->mass_small;
    alpha += w * 2.0 * (s / nd - s * (s - 1.0) / (nd * (nd - 1.0)));
  }
  return alpha;
}

// The constrained least squares phi = argmin phi^T G phi / 2 - phi^T r subject to sum phi = delta,
// by conjugate gradients on the plane sum phi = delta: phi = delta / n 1 + y, y orthogonal to 1,
// every residual and direction projected onto that plane. G's expectation alpha I + beta 1 1^T is
// alpha times the identity there, so the plain iteration is the preconditioned one. `phi` holds
// the start (a nearby solution: the pooled estimate for a leave-one-out one) or zeros; the
// iteration stops at a relative residual of 1e-11 or after 500 steps.
void SolveConstrainedImplicit(const ImplicitNormal& g, const Matrix& r, std::span<const double> delta,
                              std::span<double> phi) {
  const Eigen::Index n = r.rows();
  const Eigen::Index k = r.cols();
  const auto project = [n](Eigen::VectorXd& v) { v.array() -= v.sum() / static_cast<double>(n); };
  Eigen::VectorXd x(n), res(n), p(n), q(n);
  for (Eigen::Index j = 0; j < k; ++j) {
    const double shift = delta[static_cast<std::size_t>(j)] / static_cast<double>(n);
    for (Eigen::Index i = 0; i < n; ++i) x(i) = phi[static_cast<std::size_t>(i * k + j)];
    project(x);
    x.array() += shift;
    g.Apply(x, q);
    res = r.col(j) - q;
    project(res);
    const double target = 1e-22 * std::max(r.col(j).squaredNorm(), 1e-300);
    double rr = res.squaredNorm();
    p = res;
    for (int it = 0; it < 500 && rr > target; ++it) {
      g.Apply(p, q);
      project(q);
      const double pq = p.dot(q);
      if (!(pq > 0.0)) break;
      const double step = rr / pq;
      x += step * p;
      res -= step * q;
      const double next = res.squaredNorm();
      p = res + (next / rr) * p;
      rr = next;
    }
    for (Eigen::Index i = 0; i < n; ++i) phi[static_cast<std::size_t>(i * k + j)] = x(i);
  }
}

}}}  // namespace perfshap::detail::kernel
