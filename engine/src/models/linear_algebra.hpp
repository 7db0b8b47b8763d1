// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief In-place Cholesky factorisation A = L L^T of the leading n x n block of a (column-major,
 * leading dimension n, lower triangle used) and solve of A x = b (b overwritten by x).
 * Returns the index of the first pivot that is not positive relative to its original diagonal
 * (a (near) linear dependence of that column on the earlier ones), or -1. Hand-written so that
 * it allocates nothing for any n.
 */
long CholeskySolve(double* a, std::size_t n, double* b, double relative_pivot);

}}}  // namespace perfshap::detail
