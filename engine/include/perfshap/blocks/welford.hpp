// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {

/**
 * @brief Streaming mean and variance of a vector of k outputs over repetitions (Welford).
 *
 * Add() the repetitions in a fixed order (repetition 0, 1, ...) for reproducible bits.
 */
class WelfordBands {
 public:
  explicit WelfordBands(std::size_t k = 0) : mean_(k, 0.0), m2_(k, 0.0) {}

  /** @brief Adds one repetition's k values. */
  void Add(std::span<const double> x) {
    PERFSHAP_CHECK(x.size() == mean_.size(), "WelfordBands::Add: wrong number of outputs");
    ++count_;
    const double inv = 1.0 / static_cast<double>(count_);
    for (std::size_t j = 0; j < x.size(); ++j) {
      const double delta = x[j] - mean_[j];
      mean_[j] += delta * inv;
      m2_[j] += delta * (x[j] - mean_[j]);
    }
  }

  std::size_t count() const noexcept { return count_; }
  std::size_t size() const noexcept { return mean_.size(); }
  const std::vector<double>& mean() const noexcept { return mean_; }

  /** @brief Variance with `ddof` delta degrees of freedom (0 = population, as numpy.var);
   *  0 when count <= ddof. */
  std::vector<double> Variance(int ddof = 0) const {
    std::vector<double> v(mean_.size(), 0.0);
    const double denom = static_cast<double>(count_) - ddof;
    if (denom <= 0) return v;
    for (std::size_t j = 0; j < v.size(); ++j) v[j] = m2_[j] / denom;
    return v;
  }
  /** @brief Standard deviation, sqrt(Variance(ddof)). */
  std::vector<double> StdDev(int ddof = 0) const {
    auto v = Variance(ddof);
    for (double& x : v) x = std::sqrt(x);
    return v;
  }

 private:
  std::vector<double> mean_;
  std::vector<double> m2_;
  std::size_t count_ = 0;
};

}}  // namespace perfshap
