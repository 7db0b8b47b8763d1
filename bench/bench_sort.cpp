// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The two sorts of the GaussianNB ranking on random keys of a test part's size: SortKeys
// (portable quicksort, 64-bit keys) and SortKeys32 (AVX-512 bitonic network, 32-bit keys;
// skipped on a CPU without AVX-512F). state.range(0) = number of keys. Each iteration sorts a
// fresh copy of one of 64 random arrays; the copy is timed too (a few percent).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/sort_keys.hpp"
#include "common/vector_kernels.hpp"
#include "perfshap/blocks/random.hpp"

namespace {

template <class Key>
std::vector<Key> RandomKeys(std::size_t n) {
  perfshap::RandomStream rng(7, 0);
  std::vector<Key> keys(64 * n);
  for (Key& k : keys) k = static_cast<Key>(rng());
  return keys;
}

void BM_SortKeys(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<std::uint64_t> source = RandomKeys<std::uint64_t>(n);
  std::vector<std::uint64_t> keys(n);
  std::size_t round = 0;
  for (auto _ : state) {
    std::memcpy(keys.data(), source.data() + (round++ % 64) * n, n * sizeof(std::uint64_t));
    perfshap::detail::SortKeys(keys.data(), n);
    benchmark::DoNotOptimize(keys.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_SortKeys)->Arg(36)->Arg(154)->Arg(275)->Arg(512);

void BM_SortKeys32(benchmark::State& state) {
  if (!perfshap::detail::HasAvx512()) {
    state.SkipWithError("this CPU has no AVX-512F");
    return;
  }
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<std::uint32_t> source = RandomKeys<std::uint32_t>(n);
  std::vector<std::uint32_t> keys(n);
  std::size_t round = 0;
  for (auto _ : state) {
    std::memcpy(keys.data(), source.data() + (round++ % 64) * n, n * sizeof(std::uint32_t));
    perfshap::detail::SortKeys32(keys.data(), n);
    benchmark::DoNotOptimize(keys.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_SortKeys32)->Arg(36)->Arg(154)->Arg(275)->Arg(512);

}  // namespace
