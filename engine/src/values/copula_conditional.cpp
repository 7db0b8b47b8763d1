// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "values/copula_conditional.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <string>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

const boost::math::normal kStandardNormal;
constexpr double kSqrtHalf = 0.70710678118654752440;  // Phi(s) = erfc(-s / sqrt 2) / 2

// The draws of a coalition: Gaussian draws of the scores, mapped back through the quantiles.
class CopulaDraws final : public CoalitionDraws {
 public:
  CopulaDraws(const CopulaFeatures& c, std::span<const std::uint8_t> inside, std::span<const double> z,
              std::size_t n_draws)
      : c_(c),
        inside_(inside.begin(), inside.end()),
        n_draws_(n_draws),
        gaussian_(c.scores(), inside, z, n_draws),
        scores_(inside.size()) {}

  void Draw(std::span<const double> x, std::span<double> draws) override {
    const std::size_t F = inside_.size();
    for (std::size_t j = 0; j < F; ++j) scores_[j] = inside_[j] != 0 ? c_.Score(j, x[j]) : 0.0;
    gaussian_.Draw(scores_, draws);
    for (std::size_t j = 0; j < F; ++j) {
      double* col = draws.data() + j * n_draws_;
      if (inside_[j] != 0) {
        std::fill_n(col, n_draws_, x[j]);
      } else {
        for (std::size_t k = 0; k < n_draws_; ++k)
          col[k] = c_.Quantile(j, 0.5 * std::erfc(-col[k] * kSqrtHalf));
      }
    }
  }

 private:
  const CopulaFeatures& c_;
  std::vector<std::uint8_t> inside_;
  std::size_t n_draws_;
  GaussianConditional gaussian_;
  std::vector<double> scores_;
};

}  // namespace

CopulaFeatures::CopulaFeatures(ColumnMatrix background, std::size_t n_features) {
  const std::size_t n = background.n_rows;
  if (n < 2)
    throw InvalidArgument(
        "the copula conditional needs at least 2 background rows; give more background rows", {"background"});
  PERFSHAP_CHECK(background.values.size() == n * n_features, "CopulaFeatures: the background's size");
  sorted_.resize(n_features);
  std::vector<double> scores(n * n_features);
  for (std::size_t j = 0; j < n_features; ++j) {
    const std::span<const double> col = background.values.subspan(j * n, n);
    if (!std::all_of(col.begin(), col.end(), [](double v) { return std::isfinite(v); }))
      throw InvalidArgument(
          "the copula conditional needs finite background values (a missing value is not one): "
          "impute them or give another background",
          {"background"});
    sorted_[j].assign(col.begin(), col.end());
    std::sort(sorted_[j].begin(), sorted_[j].end());
    for (std::size_t r = 0; r < n; ++r) scores[j * n + r] = Score(j, col[r]);
  }
  scores_ = std::make_unique<GaussianFeatures>(ColumnMatrix{scores, n}, n_features);
}

double CopulaFeatures::Score(std::size_t j, double v) const {
  const std::vector<double>& s = sorted_[j];
  const auto below = static_cast<double>(std::lower_bound(s.begin(), s.end(), v) - s.begin());
  const auto equal = static_cast<double>(std::upper_bound(s.begin(), s.end(), v) - s.begin()) - below;
  const double u = (below + 0.5 * equal + 0.5) / (static_cast<double>(s.size()) + 1.0);
  return boost::math::quantile(kStandardNormal, u);
}

double CopulaFeatures::Quantile(std::size_t j, double p) const {
  const std::vector<double>& s = sorted_[j];
  const double h = (static_cast<double>(s.size()) - 1.0) * std::clamp(p, 0.0, 1.0);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  if (lo + 1 >= s.size()) return s.back();
  return s[lo] + (h - static_cast<double>(lo)) * (s[lo + 1] - s[lo]);
}

std::unique_ptr<CoalitionDraws> CopulaFeatures::Given(std::span<const std::uint8_t> inside,
                                                      std::span<const double> z, std::size_t n_draws) const {
  return std::make_unique<CopulaDraws>(*this, inside, z, n_draws);
}

}}}  // namespace perfshap::detail
