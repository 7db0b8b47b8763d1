// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/glm/glm_split.hpp"

#include <algorithm>
#include <cmath>

#include "models/glm/glm_model.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

void GlmSplit::Gather(const std::string& learner, Link link, bool classifier, const Dataset& data,
                      std::span<const Player> players, std::span<const std::size_t> train_rows,
                      std::span<const std::size_t> test_rows, const std::string& split_name, bool standardize,
                      bool centre) {
  InitCommon(learner, classifier, data, players, train_rows, test_rows, split_name);
  link_ = link;
  classifier_ = classifier;
  const std::size_t p = n_columns();
  const std::size_t n_train = n_train_;
  const std::size_t n_test = test_rows.size();
  train_.resize(p * n_train);
  test_.resize(p * n_test);
  center_.assign(p, 0.0);
  scale_.assign(p, 1.0);
  abs_sum_.assign(p, 0.0);
  constant_.assign(p, 0);
  const double n = static_cast<double>(n_train);
  for (std::size_t q = 0; q < p; ++q) {
    const auto col = data.column(columns_[q]);
    double* tr = train_.data() + q * n_train;
    double* te = test_.data() + q * n_test;
    bool finite = true;
    for (std::size_t i = 0; i < n_test; ++i) {
      te[i] = col[test_rows[i]];
      finite = finite && std::isfinite(te[i]);
    }
    // Mean and ddof-0 variance summed in row order, as numpy's axis-0 reductions do (so the
    // reference's order of training rows gives its numbers bit for bit).
    double lo = col[train_rows[0]];
    double hi = lo;
    double sum = 0.0;
    for (std::size_t i = 0; i < n_train; ++i) {
      const double v = col[train_rows[i]];
      tr[i] = v;
      finite = finite && std::isfinite(v);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      sum += v;
    }
    if (!finite) ThrowMissing(data, q, train_rows, test_rows);
    constant_[q] = lo == hi ? 1 : 0;
    // A one-column player is reported at once (the first problem in column order).
    if (constant_[q] != 0) {
      const std::size_t i = PlayerOf(q);
      if (player_begin_[i + 1] - player_begin_[i] == 1) ThrowConstant(i, lo);
    }
    const double largest = std::max(std::abs(lo), std::abs(hi));
    if (ExtremeMagnitude(largest)) {
      // Squares of these values (and sums of n of them) overflow or underflow a double, and so
      // may their sum. A constant column is never fitted: centred on its value, not scaled.
      if (constant_[q] != 0) {
        if (centre || standardize) center_[q] = lo;
        for (std::size_t i = 0; i < n_train; ++i) tr[i] -= center_[q];
        for (std::size_t i = 0; i < n_test; ++i) te[i] -= center_[q];
      } else {
        if (!standardize) ThrowExtreme(q, largest);
        StandardizeScaled(q, largest, tr, te, n_test);
      }
    } else {
      const double mean = sum / n;
      double ss = 0.0;
      for (std::size_t i = 0; i < n_train; ++i) {
        const double d = tr[i] - mean;
        ss += d * d;
      }
      if (centre || standardize) center_[q] = mean;
      if (standardize && constant_[q] == 0) scale_[q] = std::sqrt(ss / n);
      if (center_[q] != 0.0 || scale_[q] != 1.0) {
        for (std::size_t i = 0; i < n_train; ++i) tr[i] = (tr[i] - center_[q]) / scale_[q];
        for (std::size_t i = 0; i < n_test; ++i) te[i] = (te[i] - center_[q]) / scale_[q];
      }
    }
    for (std::size_t i = 0; i < n_train; ++i) abs_sum_[q] += std::abs(tr[i]);
  }
  for (std::size_t i = 0; i + 1 < player_begin_.size(); ++i) {
    bool all_constant = true;
    for (std::size_t q = player_begin_[i]; q < player_begin_[i + 1]; ++q) all_constant = all_constant && constant_[q] != 0;
    if (all_constant) ThrowConstant(i, data.column(columns_[player_begin_[i]])[train_rows[0]]);
  }
}

void GlmSplit::StandardizeScaled(std::size_t q, double largest, double* tr, double* te, std::size_t n_test) {
  // The same mean, standard deviation and (x - mean) / sd as the plain path, computed on
  // x * 2^-e with 2^e the column's magnitude: multiplying by a power of two is exact, and
  // every operation of the plain path commutes with it, so the results are the plain path's
  // wherever that path itself neither overflows nor underflows (and correct where it would).
  const std::size_t n_train = n_train_;
  int e = 0;
  std::frexp(largest, &e);
  const double n = static_cast<double>(n_train);
  double sum = 0.0;
  for (std::size_t i = 0; i < n_train; ++i) {
    tr[i] = std::ldexp(tr[i], -e);
    sum += tr[i];
  }
  const double mean = sum / n;
  double ss = 0.0;
  for (std::size_t i = 0; i < n_train; ++i) {
    const double d = tr[i] - mean;
    ss += d * d;
  }
  const double sd = std::sqrt(ss / n);
  center_[q] = std::ldexp(mean, e);
  scale_[q] = std::ldexp(sd, e);
  for (std::size_t i = 0; i < n_train; ++i) tr[i] = (tr[i] - mean) / sd;
  for (std::size_t i = 0; i < n_test; ++i) te[i] = (std::ldexp(te[i], -e) - mean) / sd;
  for (std::size_t i = 0; i < n_test; ++i)
    if (!std::isfinite(te[i]))
      throw DataError(source() + ": feature " + Quote(column_name(q)) +
                      " has a test value too far from its training values to score (more standard deviations "
                      "away than a double holds); scale the feature, or drop it");
}

void GlmSplit::ThrowExtreme(std::size_t q, double largest) const {
  throw DataError(
      source() + ": feature " + Quote(column_name(q)) + " has values of magnitude up to " +
      FormatMagnitude(largest) + ", whose squares " + (largest > 1.0 ? "overflow" : "underflow") +
      " a double in " + learner_name() +
      "'s fit on raw columns; scale it (e.g. to values near 1), or drop it, or fit on standardised "
      "columns (the default)");
}

void GlmFitterBase::BindGlm(const GlmSplit& split) {
  BindBase(split);
  glm_ = &split;
  coef_.assign(split.n_columns(), 0.0);
  Reset();
}

void GlmFitterBase::Reset() noexcept {
  intercept_ = 0.0;
  std::fill(coef_.begin(), coef_.end(), 0.0);
  fitted_ = false;
}

void GlmFitterBase::StartFit(std::span<const std::uint32_t> players) {
  SetCoalition(players, glm_->constant());
  for (std::size_t q = 0; q < coef_.size(); ++q)
    if (in_[q] == 0) coef_[q] = 0.0;
}

void GlmFitterBase::Index(std::span<double> out) const {
  const std::size_t m = glm_->n_test();
  std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(m), 0.0);
  // One pass per position in increasing order: every row sees the same operations.
  for (std::size_t q : members_) {
    const double w = coef_[q];
    const double* t = glm_->test().data() + q * m;
    for (std::size_t r = 0; r < m; ++r) out[r] += w * t[r];
  }
  for (std::size_t r = 0; r < m; ++r) out[r] += intercept_;
}

void GlmFitterBase::ScoreTest(std::span<double> out, ScoreScale scale) {
  PERFSHAP_DCHECK(fitted_);
  const std::size_t m = glm_->n_test();
  PERFSHAP_CHECK(out.size() >= m, "ScoreTest: the output needs one value per test row");
  Index(out);
  if (scale == ScoreScale::kProbability && glm_->link() != Link::kIdentity)
    for (std::size_t r = 0; r < m; ++r) out[r] = ApplyLink(glm_->link(), out[r]);
}

std::unique_ptr<Model> GlmFitterBase::MakeModel() const {
  PERFSHAP_DCHECK(fitted_);
  // Over the coalition's columns in position order: the left-out constant ones too, with
  // weight 0 (their term is 0 on every row with the training value, and a zero weight adds 0).
  std::vector<double> weights, center, scale;
  for (std::uint32_t i : players_)
    for (std::size_t q = glm_->player_begin(i); q < glm_->player_begin(i + 1); ++q) {
      weights.push_back(glm_->constant()[q] != 0 ? 0.0 : coef_[q]);
      center.push_back(glm_->center()[q]);
      scale.push_back(glm_->scale()[q]);
    }
  return MakeFittedGlm(glm_->link(), glm_->classifier(), intercept_, std::move(weights), std::move(center),
                       std::move(scale));
}

}}}  // namespace perfshap::detail
