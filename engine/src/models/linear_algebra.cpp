// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/linear_algebra.hpp"

#include <cmath>

namespace perfshap { inline namespace v0 { namespace detail {

long CholeskySolve(double* a, std::size_t n, double* b, double relative_pivot) {
  for (std::size_t j = 0; j < n; ++j) {
    const double original = a[j * n + j];
    double d = original;
    for (std::size_t k = 0; k < j; ++k) d -= a[k * n + j] * a[k * n + j];
    if (!(d > relative_pivot * original) || !std::isfinite(d)) return static_cast<long>(j);
    const double l = std::sqrt(d);
    a[j * n + j] = l;
    for (std::size_t i = j + 1; i < n; ++i) {
      double v = a[j * n + i];
      for (std::size_t k = 0; k < j; ++k) v -= a[k * n + i] * a[k * n + j];
      a[j * n + i] = v / l;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {  // L y = b
    double v = b[i];
    for (std::size_t k = 0; k < i; ++k) v -= a[k * n + i] * b[k];
    b[i] = v / a[i * n + i];
  }
  for (std::size_t i = n; i-- > 0;) {  // L^T x = y
    double v = b[i];
    for (std::size_t k = i + 1; k < n; ++k) v -= a[i * n + k] * b[k];
    b[i] = v / a[i * n + i];
  }
  return -1;
}

}}}  // namespace perfshap::detail
