// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The standard normal distribution where the probit learner needs it, accurate in both tails.

#include <cmath>

namespace perfshap { inline namespace v0 { namespace detail {

inline constexpr double kSqrtHalf = 0.70710678118654752440;      // 1 / sqrt(2)
inline constexpr double kLogSqrtTwoPi = 0.91893853320467274178;  // log(sqrt(2 pi))

/**
 * The inverse Mills ratio phi(z) / Phi(z): erfc directly for z > -30, and for x = -z >= 30 the
 * Laplace continued fraction Q(x) / phi(x) = 1 / (x + 1 / (x + 2 / (x + 3 / (x + ...)))).
 */
inline double InverseMills(double z) {
  if (z > -30.0) return std::exp(-0.5 * z * z - kLogSqrtTwoPi) / (0.5 * std::erfc(-z * kSqrtHalf));
  const double x = -z;
  double t = x;
  for (int k = 60; k >= 1; --k) t = x + k / t;
  return t;
}

/** log Phi(z): log1p near Phi = 1, the continued fraction far left. */
inline double NormalLogCdf(double z) {
  if (z > 0.0) return std::log1p(-0.5 * std::erfc(z * kSqrtHalf));
  if (z > -30.0) return std::log(0.5 * std::erfc(-z * kSqrtHalf));
  return -0.5 * z * z - kLogSqrtTwoPi - std::log(InverseMills(z));
}

}}}  // namespace perfshap::detail
