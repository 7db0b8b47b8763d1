// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cmath>

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief Neumaier's compensated sum: the rounding error of each addition is carried in a
 * second double, so a sum of m terms is accurate to about one ulp whatever m is, and the
 * result depends only on the order of the terms (always index order in perfshap).
 */
class CompensatedSum {
 public:
  void Add(double x) noexcept {
    const double t = sum_ + x;
    // The low-order part lost by `sum_ + x` comes from the smaller of the two operands.
    if (std::fabs(sum_) >= std::fabs(x)) {
      compensation_ += (sum_ - t) + x;
    } else {
      compensation_ += (x - t) + sum_;
    }
    sum_ = t;
  }
  [[nodiscard]] double Value() const noexcept { return sum_ + compensation_; }

 private:
  double sum_ = 0.0;
  double compensation_ = 0.0;
};

}}}  // namespace perfshap::detail
