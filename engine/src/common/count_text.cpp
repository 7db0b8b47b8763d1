// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "common/count_text.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace perfshap::detail {

std::string PowerOfTwoText(std::size_t n) {
  const std::string power = "2^" + std::to_string(n);
  if (n <= 63) return power + " (" + std::to_string(std::uint64_t{1} << n) + ")";
  // 2^n = 10^(n log10 2) = m x 10^e with e = floor(n log10 2); the mantissa to one decimal,
  // carried into the exponent when it rounds to 10.
  const long double exponent = static_cast<long double>(n) * std::log10(2.0L);
  long long e = static_cast<long long>(std::floor(exponent));
  double m = static_cast<double>(std::pow(10.0L, exponent - static_cast<long double>(e)));
  char mantissa[16];
  std::snprintf(mantissa, sizeof mantissa, "%.1f", m);
  if (mantissa[0] == '1' && mantissa[1] == '0') {
    ++e;
    m /= 10.0;
    std::snprintf(mantissa, sizeof mantissa, "%.1f", m);
  }
  return power + " (about " + mantissa + "e" + std::to_string(e) + ")";
}

}  // namespace perfshap::detail
