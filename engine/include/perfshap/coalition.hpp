// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <bit>
#include <cstdint>

namespace perfshap {

/** @brief A set of players (features) as a bit mask: bit i set = player i is in. n <= 63. */
using Coalition = std::uint64_t;

/** @brief The largest number of players a bit-mask coalition can hold. */
inline constexpr int kMaxExactPlayers = 63;

/** @brief Number of players in the coalition. */
constexpr int CoalitionSize(Coalition s) noexcept { return std::popcount(s); }

/** @brief True when player i is in s. */
constexpr bool Contains(Coalition s, int i) noexcept { return ((s >> i) & 1U) != 0; }

/** @brief The coalition of all n players. */
constexpr Coalition FullCoalition(int n) noexcept {
  return n >= 64 ? ~Coalition{0} : (Coalition{1} << n) - 1;
}

/** @brief The r-th coalition in binary-reflected Gray-code order: consecutive ranks differ
 *  in exactly one player. */
constexpr Coalition GrayCode(std::uint64_t rank) noexcept { return rank ^ (rank >> 1); }

}  // namespace perfshap
