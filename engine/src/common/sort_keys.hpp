// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief Sorts keys[0, n) ascending: quicksort with a branch-free partition, for the short,
 * randomly ordered key arrays of the curve and ranking hot paths (see sort_keys.cpp).
 */
void SortKeys(std::uint64_t* keys, std::size_t n) noexcept;

/**
 * @brief Order-preserving map of a double (not NaN) to 64 bits, -0.0 folded onto +0.0:
 * a < b <=> OrderedKey(a) < OrderedKey(b), a == b <=> equal keys.
 */
inline std::uint64_t OrderedKey(double x) noexcept {
  constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;
  const double v = (x == 0.0) ? 0.0 : x;
  const auto bits = std::bit_cast<std::uint64_t>(v);
  return (bits & kSignBit) != 0 ? ~bits : (bits | kSignBit);
}

}}}  // namespace perfshap::detail
