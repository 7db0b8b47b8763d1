// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>

// Vector kernels compiled for AVX2 or AVX-512 alone (function-level target attributes) and chosen
// at run time: the library is built for baseline x86-64, so one binary runs everywhere. Each
// gives the same results as its portable counterpart. PERFSHAP_NO_VECTOR_KERNELS=1 in the
// environment turns them all off (the whole test suite can so run the portable code).
namespace perfshap { inline namespace v0 { namespace detail {

/// True when this CPU runs the AVX-512 kernels (AVX-512F), checked once.
bool HasAvx512() noexcept;

/// True when this CPU runs the AVX2 kernels, checked once.
bool HasAvx2() noexcept;

/**
 * @brief Turns the vector kernels off (HasAvx512() and HasAvx2() then answer false) or back on,
 * for the whole process: tests compare the portable and the vector paths with it. Not for use
 * while a computation runs.
 */
void EnableVectorKernels(bool enabled) noexcept;

/// The most keys SortKeys32 sorts.
inline constexpr std::size_t kSortKeys32Max = 512;

/**
 * @brief Sorts keys[0, n), n <= kSortKeys32Max, ascending: a bitonic network on AVX-512
 * registers of 16 keys (about 4x faster than SortKeys on 275 keys). Requires HasAvx512();
 * throws std::logic_error (a bug) for more keys.
 */
void SortKeys32(std::uint32_t* keys, std::size_t n);

}}}  // namespace perfshap::detail
