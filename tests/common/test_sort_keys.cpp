// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// SortKeys (portable quicksort of 64-bit keys) and SortKeys32 (AVX-512 bitonic network of up to
// 512 32-bit keys) against std::sort: every length up to past the network's register and
// block boundaries, random keys, few distinct keys, the largest key (the network's padding
// value), already sorted and reversed input. The 32-bit key sorts run as RankKernels in
// tests/models/test_gaussian_nb_rank.cpp: the portable one always, the network where
// HasAvx512() (not on a CPU without AVX-512F, nor with PERFSHAP_NO_VECTOR_KERNELS=1), so no
// test skips.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "common/vector_kernels.hpp"
#include "common/sort_keys.hpp"
#include "perfshap/blocks/random.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
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

// The ways to sort 32-bit keys: SortKeys on the keys widened to 64 bits (portable, what the
// ranking sorts without the network), and SortKeys32.
enum class Sort32 { kPortable, kAvx512 };

std::vector<Sort32> Sorts32() {
  std::vector<Sort32> sorts{Sort32::kPortable};
  if (HasAvx512()) sorts.push_back(Sort32::kAvx512);
  return sorts;
}

const char* Name(Sort32 sort) { return sort == Sort32::kAvx512 ? "avx512" : "portable"; }

void Sort(Sort32 sort, std::uint32_t* keys, std::size_t n) {
  if (sort == Sort32::kAvx512) {
    SortKeys32(keys, n);
    return;
  }
  std::vector<std::uint64_t> wide(keys, keys + n);
  SortKeys(wide.data(), n);
  std::copy(wide.begin(), wide.end(), keys);
}

class SortKeys32Test : public ::testing::TestWithParam<Sort32> {};

INSTANTIATE_TEST_SUITE_P(SortKeys32, SortKeys32Test, ::testing::ValuesIn(Sorts32()),
                         [](const ::testing::TestParamInfo<Sort32>& p) { return Name(p.param); });

TEST_P(SortKeys32Test, EqualsStdSort) {
  RandomStream rng(18, 0);
  for (std::size_t n = 0; n <= kSortKeys32Max; ++n) {
    for (int shape = 0; shape < 5; ++shape) {
      // Keys read and written in place: a guard word after them must stay as it was.
      std::vector<std::uint32_t> keys = MakeKeys<std::uint32_t>(rng, n, shape);
      std::vector<std::uint32_t> expected = keys;
      std::sort(expected.begin(), expected.end());
      keys.push_back(0x5a5a5a5au);
      Sort(GetParam(), keys.data(), n);
      ASSERT_EQ(keys.back(), 0x5a5a5a5au) << n << " keys, shape " << shape;
      keys.pop_back();
      ASSERT_EQ(keys, expected) << n << " keys, shape " << shape;
    }
  }
}

// The network refuses more keys than it holds (a bug in the caller); the portable sort, which
// the ranking uses for them, sorts them.
TEST_P(SortKeys32Test, OnlyTheNetworkRefusesMoreKeysThanItHolds) {
  RandomStream rng(19, 0);
  std::vector<std::uint32_t> keys = MakeKeys<std::uint32_t>(rng, kSortKeys32Max + 1, 0);
  if (GetParam() == Sort32::kAvx512) {
    EXPECT_THROW(Sort(GetParam(), keys.data(), keys.size()), std::logic_error);
    return;
  }
  std::vector<std::uint32_t> expected = keys;
  std::sort(expected.begin(), expected.end());
  Sort(GetParam(), keys.data(), keys.size());
  EXPECT_EQ(keys, expected);
}

}  // namespace
}}}  // namespace perfshap::detail
