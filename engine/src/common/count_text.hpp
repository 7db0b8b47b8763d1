// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Counts too large to write out, for messages: 2^n coalitions of n players.

#include <cstddef>
#include <string>

namespace perfshap::detail {

/**
 * @brief 2^n, readable and true for any n: "2^20 (1048576)" while it is exact in 64 bits
 * (n <= 63), else "2^999 (about 5.4e300)", its decimal size computed from the exponent (no
 * double holds 2^1024 or more).
 */
std::string PowerOfTwoText(std::size_t n);

}  // namespace perfshap::detail
