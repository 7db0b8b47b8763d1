// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "perfshap/dataset.hpp"

namespace perfshap::detail {

/**
 * @brief Ordinary least squares with intercept on the given rows and all feature columns.
 * Returns n_features + 1 coefficients, intercept first. Solved from the Gram matrix by a
 * robust Cholesky (LDLT); a rank-deficient design (constant or duplicate column) is an error
 * naming the column.
 */
std::vector<double> FitLeastSquares(const Dataset& data, std::span<const std::size_t> rows);

}  // namespace perfshap::detail
