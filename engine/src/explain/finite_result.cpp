// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "explain/finite_result.hpp"

#include <cmath>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

void RequireFinite(const std::string& method, const std::string& what, std::span<const double> values,
                   const std::function<std::string(std::size_t)>& where) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (std::isfinite(values[i])) continue;
    const std::string entry = where ? where(i) : "entry " + std::to_string(i);
    throw DataError(method + ": " + what + " (" + entry + ") is not finite (" +
                    (std::isnan(values[i]) ? "not a number" : "it overflowed") +
                    "); scale the features whose values are extreme (e.g. to values near 1), or drop them");
  }
}

void RequireFinite(const std::string& method, const std::string& what, double value) {
  if (std::isfinite(value)) return;
  throw DataError(method + ": " + what + " is not finite (" +
                  (std::isnan(value) ? "not a number" : "it overflowed") +
                  "); scale the features whose values are extreme (e.g. to values near 1), or drop them");
}

}}}  // namespace perfshap::detail
