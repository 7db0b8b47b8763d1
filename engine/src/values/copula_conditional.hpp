// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The value functions' Gaussian copula (shapr's "copula" approach): each feature's values are
// mapped to normal scores through the background's empirical distribution (score =
// Phi^-1(rank / (n + 1)), ties at their mean rank), the scores are taken as jointly normal
// (values/gaussian_conditional.hpp), the features off a coalition are drawn given the scores of
// those on it, and each draw is mapped back through the feature's empirical quantile function
// (R's type 7, as shapr: linear between the sorted background values). The margins stay the
// background's, whatever their shape; the dependence is the scores' correlation.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "values/gaussian_conditional.hpp"
#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

class CopulaFeatures final : public ConditionalFeatures {
 public:
  /** @throws InvalidArgument (options(): `background`) as GaussianFeatures. */
  CopulaFeatures(ColumnMatrix background, std::size_t n_features);
  std::size_t n_features() const override { return sorted_.size(); }
  std::unique_ptr<CoalitionDraws> Given(std::span<const std::uint8_t> inside, std::span<const double> z,
                                        std::size_t n_draws) const override;

  /** Feature j's normal score of the value v: Phi^-1((#{b < v} + #{b = v} / 2 + 1/2) / (n + 1)). */
  double Score(std::size_t j, double v) const;
  /** Feature j's empirical quantile at p in [0, 1] (type 7). */
  double Quantile(std::size_t j, double p) const;
  const GaussianFeatures& scores() const noexcept { return *scores_; }

 private:
  std::vector<std::vector<double>> sorted_;  // per feature, the background's values ascending
  std::unique_ptr<GaussianFeatures> scores_;
};

}}}  // namespace perfshap::detail
