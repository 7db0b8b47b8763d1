// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstdint>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/**
 * @brief Counter-based random stream: value k of stream (seed, stream_id) is a pure
 * function of (seed, stream_id, k). Blocks, repetitions and splits each get their own
 * stream id, so results do not depend on which thread ran what. Satisfies
 * UniformRandomBitGenerator. The mixer is SplitMix64's finaliser applied to a keyed counter.
 */
class PERFSHAP_EXPORT RandomStream {
 public:
  using result_type = std::uint64_t;
  RandomStream(std::uint64_t seed, std::uint64_t stream_id) noexcept;

  static constexpr result_type min() noexcept { return 0; }
  static constexpr result_type max() noexcept { return ~result_type{0}; }
  /** @brief The next 64 random bits. */
  result_type operator()() noexcept;
  /** @brief Uniform double in [0, 1) with 53 random bits. */
  double Uniform() noexcept;
  /** @brief Standard normal draw (Box-Muller on two uniforms; no cached state). */
  double Normal() noexcept;
  /** @brief Uniform integer in [0, n) without modulo bias. n > 0. */
  std::uint64_t Below(std::uint64_t n) noexcept;

 private:
  std::uint64_t key_;
  std::uint64_t counter_ = 0;
};

}}  // namespace perfshap
