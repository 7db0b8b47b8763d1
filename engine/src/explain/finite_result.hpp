// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The last check on a method's result path: the values a result reports (Shapley values, base
// values, predictions, metrics) are finite before they leave the entry point, so that no NaN or
// infinity reaches result.json, a CSV or a figure as a number. The models, games and solvers
// name a non-finite value where it first appears; this catches what they cannot see (sums and
// means that overflow, a host's own model). Values that a result documents as possibly NaN
// ("undefined": phi_normalised when value == base, L_bar with no neighbour kept) are not
// checked.

#include <cstddef>
#include <functional>
#include <span>
#include <string>

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief Throws DataError when a value of `values` is not finite.
 * @param method the method, as messages name it ("robustness").
 * @param what what the values are ("phi of the AUC").
 * @param where names entry i for the message ("feature 'x'"); none: "entry i".
 */
void RequireFinite(const std::string& method, const std::string& what, std::span<const double> values,
                   const std::function<std::string(std::size_t)>& where = {});

/** @brief RequireFinite of one value. */
void RequireFinite(const std::string& method, const std::string& what, double value);

}}}  // namespace perfshap::detail
