// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "perfshap/blocks/random.hpp"

#include <cmath>
#include <numbers>

namespace perfshap { inline namespace v0 {

// 128-bit products (a GCC/Clang extension, marked so -Wpedantic accepts it).
__extension__ using Uint128 = unsigned __int128;

namespace {
// SplitMix64 finaliser (Steele, Lea, Flood 2014): a bijective 64-bit mixer.
constexpr std::uint64_t Mix(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

RandomStream::RandomStream(std::uint64_t seed, std::uint64_t stream_id) noexcept
    : key_(Mix(Mix(seed ^ 0x9e3779b97f4a7c15ULL) + stream_id * 0xd1b54a32d192ed03ULL)) {}

RandomStream::result_type RandomStream::operator()() noexcept {
  // Value k of the stream is Mix(key + k * golden): a pure function of (seed, stream, k).
  const std::uint64_t k = counter_++;
  return Mix(key_ + (k + 1) * 0x9e3779b97f4a7c15ULL);
}

double RandomStream::Uniform() noexcept {
  return static_cast<double>((*this)() >> 11) * 0x1.0p-53;
}

double RandomStream::Normal() noexcept {
  double u1 = Uniform();
  while (u1 <= 0.0) u1 = Uniform();
  const double u2 = Uniform();
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

std::uint64_t RandomStream::Below(std::uint64_t n) noexcept {
  // Lemire's nearly-divisionless method with rejection: exact uniformity.
  Uint128 m = static_cast<Uint128>((*this)()) * n;
  auto low = static_cast<std::uint64_t>(m);
  if (low < n) {
    const std::uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<Uint128>((*this)()) * n;
      low = static_cast<std::uint64_t>(m);
    }
  }
  return static_cast<std::uint64_t>(m >> 64);
}

}}  // namespace perfshap
