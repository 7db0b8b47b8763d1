// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "solvers/finite_values.hpp"

#include <cmath>
#include <string>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

std::string OutputText(std::size_t j, std::size_t k) {
  return k == 1 ? std::string() : " (output " + std::to_string(j) + " of " + std::to_string(k) + ")";
}

[[noreturn]] void ThrowNonFinite(const std::string& what) {
  throw DataError(
      "the Shapley values are not finite: " + what +
      " (a coalition's value is not a number, or too large for a double); scale the features whose "
      "values are extreme (e.g. to values near 1), or drop them");
}

}  // namespace

void CheckFiniteValues(const ShapleyValues& values) {
  const std::size_t k = values.n_outputs;
  for (std::size_t j = 0; j < values.base.size(); ++j)
    if (!std::isfinite(values.base[j])) ThrowNonFinite("the value of the empty coalition" + OutputText(j, k));
  for (std::size_t j = 0; j < values.full.size(); ++j)
    if (!std::isfinite(values.full[j]))
      ThrowNonFinite("the value of all players together" + OutputText(j, k));
  for (std::size_t t = 0; t < values.phi.size(); ++t) {
    if (std::isfinite(values.phi[t])) continue;
    const std::size_t i = k == 0 ? 0 : t / k;
    const std::string player =
        i < values.players.size() ? "player '" + values.players[i] + "'" : "player " + std::to_string(i);
    ThrowNonFinite("the value of " + player + OutputText(k == 0 ? 0 : t % k, k));
  }
}

}}}  // namespace perfshap::detail
