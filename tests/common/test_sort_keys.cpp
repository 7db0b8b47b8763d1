// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// SortKeys (portable quicksort of 64-bit keys) and SortKeys32 (AVX-512 bitonic network of up to
// 512 32-bit keys) against std::sort: every length up to past the network's register and
// block boundaries, random keys, few distinct keys, the largest key (the network's padding
// value), already sorted and reversed input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/vector_kernels.hpp"
#include "common/sort_keys.hpp"
#include "perfshap/random.hpp"

namespace perfshap::detail {
namespace {

template <class Key>
std::vector<Key> MakeKeys(RandomStream& rng, std::size_t n, int shape) {
  std::vector<Key> keys(n);
  const Key top = std::numeric_limits<Key>::max();
  for (std::size_t i = 0; i < n; ++i) {
    const auto bits = static_cast<Key>(rng());
    switch (shape) {
      case 0: keys[i] = bits; break;                                        // random
      case 1: keys[i] = static_cast<Key>(bits % 4); break;                  // few distinct
      case 2: keys[i] = static_cast<Key>(top - bits % 3); break;            // at the top
      case 3: keys[i] = static_cast<Key>(i); break;                         // sorted
      default: keys[i] = static_cast<Key>(n - i); break;                    // reversed
    }
  }
  return keys;
}

TEST(SortKeys, EqualsStdSort) {
  RandomStream rng(17, 0);
  for (std::size_t n = 0; n <= 700; n += n < 70 ? 1 : 13) {
    for (int shape = 0; shape < 5; ++shape) {
      std::vector<std::uint64_t> keys = MakeKeys<std::uint64_t>(rng, n, shape);
      std::vector<std::uint64_t> expected = keys;
      std::sort(expected.begin(), expected.end());
      SortKeys(keys.data(), n);
      ASSERT_EQ(keys, expected) << n << " keys, shape " << shape;
    }
  }
}

TEST(SortKeys32, EqualsStdSort) {
  if (!HasAvx512()) GTEST_SKIP() << "this CPU has no AVX-512F; SortKeys32 is not used here";
  RandomStream rng(18, 0);
  for (std::size_t n = 0; n <= kSortKeys32Max; ++n) {
    for (int shape = 0; shape < 5; ++shape) {
      // Keys read and written in place: a guard word after them must stay as it was.
      std::vector<std::uint32_t> keys = MakeKeys<std::uint32_t>(rng, n, shape);
      std::vector<std::uint32_t> expected = keys;
      std::sort(expected.begin(), expected.end());
      keys.push_back(0x5a5a5a5au);
      SortKeys32(keys.data(), n);
      ASSERT_EQ(keys.back(), 0x5a5a5a5au) << n << " keys, shape " << shape;
      keys.pop_back();
      ASSERT_EQ(keys, expected) << n << " keys, shape " << shape;
    }
  }
}

TEST(SortKeys32, RefusesMoreKeysThanItsNetwork) {
  if (!HasAvx512()) GTEST_SKIP() << "this CPU has no AVX-512F; SortKeys32 is not used here";
  std::vector<std::uint32_t> keys(kSortKeys32Max + 1, 1);
  EXPECT_THROW(SortKeys32(keys.data(), keys.size()), std::logic_error);
}

}  // namespace
}  // namespace perfshap::detail
