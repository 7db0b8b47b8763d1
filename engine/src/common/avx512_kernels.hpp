// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>

// Kernels compiled for AVX-512 alone (function-level target attributes, avx512_kernels.cpp) and
// chosen at run time: the library is built for baseline x86-64, so one binary runs everywhere.
// Each gives the same results as its portable counterpart.
namespace perfshap::detail {

/// True when this CPU runs the AVX-512 kernels (AVX-512F), checked once.
bool HasAvx512() noexcept;

/// The most keys SortKeys32 sorts.
inline constexpr std::size_t kSortKeys32Max = 512;

/**
 * @brief Sorts keys[0, n), n <= kSortKeys32Max, ascending: a bitonic network on AVX-512
 * registers of 16 keys (about 4x faster than SortKeys on 275 keys). Requires HasAvx512();
 * throws std::logic_error (a bug) for more keys.
 */
void SortKeys32(std::uint32_t* keys, std::size_t n);

}  // namespace perfshap::detail
