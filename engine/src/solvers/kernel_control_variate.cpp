// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The kernel solver's control variate of output 0 (kernel.cpp): boosted trees over coalitions,
// cross-fitted on two halves of the batches, and the kernel estimate of the residual game.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "perfshap/blocks/coalition.hpp"
#include "solvers/coalition_trees.hpp"
#include "solvers/kernel_internal.hpp"

namespace perfshap { inline namespace v0 {
namespace detail::kernel {
namespace {

// The two ends of the coalitions, a complement's words, and the buffers both halves reuse.
struct CrossFitScratch {
  std::vector<std::uint64_t> empty, full, other;
  std::vector<int> members;
  std::vector<std::uint64_t> train_words;
  std::vector<double> train_y, train_w;

  // other = N \ words.
  void Complement(const std::uint64_t* words) {
    for (std::size_t t = 0; t < other.size(); ++t) other[t] = full[t] & ~words[t];
  }
};

// What the two halves add up to: each batch's estimate, each batch's sums (kept for the
// jackknife within its half) and the variance of phi0.
struct CrossFitTotals {
  bool jackknife = false;  // two batches or more in each half
  std::vector<std::vector<double>> batch_phi;
  std::vector<PairSums> half_sums;
  std::vector<double> variance;
};

// Half h's trees g_h and what the residual game v - g_h takes from them: g_h(empty), g_h's
// Shapley values, the sum left to the residual, and the complete layers' right-hand side.
struct ResidualGame {
  CoalitionTrees g;
  double g0 = 0.0;
  std::vector<double> phi_g;
  std::vector<double> delta;
  Matrix complete_r;
};

// The cycles of half h's batches (the even or the odd ones).
std::uint64_t HalfCycles(const ControlVariateInput& in, std::size_t h) {
  std::uint64_t total = 0;
  for (std::size_t b = h; b < in.cycles.size(); b += 2) total += in.cycles[b];
  return total;
}

// The trees of half h: fitted on the complete layers and the other half (`others` cycles), with
// the regression's weights, and the two ends as heavy anchors (the residual game then nearly
// vanishes there).
void FitHalfTrees(const ControlVariateInput& in, std::size_t h, std::uint64_t others, CrossFitScratch& s,
                  CoalitionTrees& g) {
  const std::size_t nw = s.other.size();
  const std::size_t batches = in.kept.size();
  s.train_words.clear();
  s.train_y.clear();
  s.train_w.clear();
  for (std::size_t c = 0; c < in.complete_words->size(); ++c) {
    s.train_words.insert(s.train_words.end(), (*in.complete_words)[c].begin(), (*in.complete_words)[c].end());
    s.train_y.push_back((*in.complete_y)[c]);
    s.train_w.push_back((*in.complete_w)[c]);
  }
  const double per_sample = 1.0 / static_cast<double>(others);
  for (std::size_t b = 0; b < batches; ++b) {
    if (b % 2 == h) continue;
    const BatchSamples& kept = in.kept[b];
    for (std::size_t t = 0; t < kept.layer.size(); ++t) {
      const double w = PairWeight(*in.sampled[kept.layer[t]]) * per_sample;
      const std::uint64_t* small = kept.words.data() + t * nw;
      s.Complement(small);
      s.train_words.insert(s.train_words.end(), small, small + nw);
      s.train_y.push_back(kept.y_small[t]);
      s.train_w.push_back(w);
      s.train_words.insert(s.train_words.end(), s.other.begin(), s.other.end());
      s.train_y.push_back(kept.y_large[t]);
      s.train_w.push_back(w);
    }
  }
  const double anchor = 10.0 * *std::max_element(s.train_w.begin(), s.train_w.end());
  for (const auto* end : {&s.empty, &s.full}) {
    s.train_words.insert(s.train_words.end(), end->begin(), end->end());
    s.train_y.push_back(end == &s.empty ? 0.0 : in.delta);
    s.train_w.push_back(anchor);
  }
  g.Fit(in.n, s.train_words, s.train_y, s.train_w, in.trees);
}

// Half h's residual game: its trees, and the residual's right-hand side of the complete layers.
void FitResidualGame(const ControlVariateInput& in, std::size_t h, std::uint64_t others, CrossFitScratch& s,
                     ResidualGame& r) {
  FitHalfTrees(in, h, others, s, r.g);
  r.g0 = r.g.Predict(s.empty);
  r.phi_g = r.g.Shapley();
  r.delta.assign(1, in.delta - (r.g.Predict(s.full) - r.g0));
  r.complete_r = Matrix::Zero(in.n, 1);
  for (std::size_t c = 0; c < in.complete_words->size(); ++c) {
    // The complete layers were fitted first: their fitted values are g's there.
    const double res = (*in.complete_y)[c] - (r.g.fitted()[c] - r.g0);
    MembersOf((*in.complete_words)[c], in.n, s.members);
    for (int i : s.members) r.complete_r(i, 0) += (*in.complete_w)[c] * res;
  }
}

// Adds one batch's pairs, as samples of the residual game v - g_h, to `sums`.
void AddResidualPairs(const ControlVariateInput& in, const BatchSamples& kept, const ResidualGame& r,
                      CrossFitScratch& s, PairSums& sums) {
  const std::size_t nw = s.other.size();
  for (std::size_t t = 0; t < kept.layer.size(); ++t) {
    const std::span<const std::uint64_t> small(kept.words.data() + t * nw, nw);
    s.Complement(small.data());
    const double ys = kept.y_small[t] - (r.g.Predict(small) - r.g0);
    const double yl = kept.y_large[t] - (r.g.Predict(s.other) - r.g0);
    MembersOf(small, in.n, s.members);
    sums.Add(s.members, PairWeight(*in.sampled[kept.layer[t]]), &ys, &yl, 1);
  }
}

// The residual game's estimate from the complete layers and the pairs in `sums`, `count` pairs a
// layer, into `solution` (gm and rm: the normal equations' scratch).
void SolveResidual(const ControlVariateInput& in, const ResidualGame& r, const PairSums& sums, double count,
                   Matrix& gm, Matrix& rm, std::vector<double>& solution) {
  sums.Expand(count, gm, rm);
  gm += *in.complete_g;
  rm += r.complete_r;
  SolveConstrained(gm, rm, r.delta, solution);
}

// This half's estimate without each of its batches (pooled: the half's sums, own: its batch
// count, own_cycles: their cycles); var_h = (B_h - 1) / B_h sum (. - mean)^2, and phi0's variance is sum_h
// share_h^2 var_h.
void JackknifeHalf(const ControlVariateInput& in, std::size_t h, std::size_t own, std::uint64_t own_cycles,
                   double share, const ResidualGame& r, const PairSums& pooled, CrossFitTotals& totals,
                   Matrix& gm, Matrix& rm, std::vector<double>& solution) {
  const auto np = static_cast<std::size_t>(in.n);
  const std::size_t batches = in.kept.size();
  std::vector<std::vector<double>> loo;
  PairSums rest;
  for (std::size_t b = h; b < batches; b += 2) {
    totals.half_sums[b].Without(pooled, rest);
    SolveResidual(in, r, rest, static_cast<double>(own_cycles - in.cycles[b]), gm, rm, solution);
    loo.push_back(solution);
  }
  for (std::size_t i = 0; i < np; ++i) {
    double mean = 0.0;
    for (const auto& v : loo) mean += v[i];
    mean /= static_cast<double>(own);
    double ss = 0.0;
    for (const auto& v : loo) ss += (v[i] - mean) * (v[i] - mean);
    totals.variance[i] += share * share * ss * static_cast<double>(own - 1) / static_cast<double>(own);
  }
}

// Half h: fits its trees on the other half, adds share_h times its estimate (g_h's values plus
// the residual's from its batches) to phi0, and its batches' estimates and variance to totals.
void CrossFitHalf(const ControlVariateInput& in, std::size_t h, CrossFitScratch& s, CrossFitTotals& totals,
                  std::span<double> phi0) {
  const auto np = static_cast<std::size_t>(in.n);
  const std::size_t batches = in.kept.size();
  std::size_t own = 0;
  for (std::size_t b = 0; b < batches; ++b) own += b % 2 == h ? 1 : 0;
  const std::uint64_t own_cycles = HalfCycles(in, h);
  ResidualGame r;
  FitResidualGame(in, h, HalfCycles(in, 1 - h), s, r);

  // The residual game's normal equations: the complete layers' right-hand side, each batch's.
  PairSums pooled;
  pooled.Reset(in.n, 1);
  Matrix gm, rm;
  std::vector<double> solution(np);
  for (std::size_t b = 0; b < batches; ++b) {
    if (b % 2 != h) continue;
    PairSums sums;
    sums.Reset(in.n, 1);
    AddResidualPairs(in, in.kept[b], r, s, sums);
    SolveResidual(in, r, sums, static_cast<double>(in.cycles[b]), gm, rm, solution);
    for (std::size_t i = 0; i < np; ++i) totals.batch_phi[b][i] = r.phi_g[i] + solution[i];
    sums.AddTo(pooled);
    if (totals.jackknife) totals.half_sums[b] = std::move(sums);
  }
  SolveResidual(in, r, pooled, static_cast<double>(own_cycles), gm, rm, solution);
  const double share =
      static_cast<double>(own_cycles) / static_cast<double>(own_cycles + HalfCycles(in, 1 - h));
  for (std::size_t i = 0; i < np; ++i) phi0[i] += share * (r.phi_g[i] + solution[i]);
  if (totals.jackknife) JackknifeHalf(in, h, own, own_cycles, share, r, pooled, totals, gm, rm, solution);
}

}  // namespace

void ControlVariate(const ControlVariateInput& in, std::span<double> phi0, std::span<double> se0) {
  const int n = in.n;
  const auto np = static_cast<std::size_t>(n);
  const std::size_t nw = CoalitionWords(n);
  const std::size_t batches = in.kept.size();
  CrossFitScratch s;
  s.empty.assign(nw, 0);
  s.full.assign(nw, 0);
  s.other.resize(nw);
  for (int i = 0; i < n; ++i) s.full[static_cast<std::size_t>(i) / 64] |= std::uint64_t{1} << (i % 64);
  CrossFitTotals totals;
  totals.batch_phi.assign(batches, std::vector<double>(np, 0.0));
  // With two batches or more in each half: the jackknife within each half, the trees fixed.
  totals.jackknife = batches >= 4;
  totals.half_sums.resize(totals.jackknife ? batches : 0);
  totals.variance.assign(np, 0.0);
  std::fill(phi0.begin(), phi0.end(), 0.0);
  for (std::size_t h = 0; h < 2; ++h) CrossFitHalf(in, h, s, totals, phi0);
  if (totals.jackknife) {
    for (std::size_t i = 0; i < np; ++i) se0[i] = std::sqrt(totals.variance[i]) * in.t_over_z;
    return;
  }
  const std::vector<std::vector<double>>& batch_phi = totals.batch_phi;
  for (std::size_t i = 0; i < np; ++i) {
    double mean = 0.0;
    for (std::size_t b = 0; b < batches; ++b) mean += batch_phi[b][i];
    mean /= static_cast<double>(batches);
    double ss = 0.0;
    for (std::size_t b = 0; b < batches; ++b) ss += (batch_phi[b][i] - mean) * (batch_phi[b][i] - mean);
    se0[i] = std::sqrt(ss / static_cast<double>(batches - 1) / static_cast<double>(batches)) * in.t_over_z;
  }
}

}  // namespace detail::kernel
}}  // namespace perfshap
