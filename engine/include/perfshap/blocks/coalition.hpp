// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Coalitions. Two representations, chosen by the number of players n:
// - Coalition, a 64-bit mask (bit i = player i), for n <= 64. Exact enumeration needs 2^n
//   evaluations and so ends far below that (kMaxExactPlayers bounds the mask arithmetic of the
//   exact solver); every game and learner of perfshap takes it.
// - WideCoalition, a view of ceil(n / 64) words (bit i of words[i / 64]), for sampled solvers
//   on more than 64 players. A game that supports such games overrides
//   GameWorker::EvaluateWide; the default converts a coalition that fits in one word and
//   refuses the others, so every game works up to 64 players with no change. Learners take a
//   coalition as its list of players (CoalitionFitter::Fit), which has no width limit.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>

namespace perfshap { inline namespace v0 {

/** @brief A set of players (features) as a bit mask: bit i set = player i is in. n <= 64. */
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

/** @brief Words a WideCoalition of n players needs. */
constexpr std::size_t CoalitionWords(int n) noexcept { return (static_cast<std::size_t>(n) + 63) / 64; }

/**
 * @brief A coalition of any number of players: a read-only view of words, bit i of
 * words[i / 64] = player i. The words are owned by the caller (a solver's scratch).
 */
struct WideCoalition {
  std::span<const std::uint64_t> words;

  /** @brief True when player i is in the coalition. */
  bool contains(int i) const noexcept {
    const auto w = static_cast<std::size_t>(i) / 64;
    return w < words.size() && ((words[w] >> (static_cast<unsigned>(i) % 64)) & 1U) != 0;
  }
  /** @brief Number of players in it. */
  int size() const noexcept {
    int n = 0;
    for (std::uint64_t w : words) n += std::popcount(w);
    return n;
  }
  /** @brief True when every player is below 64, so that AsMask() holds it. */
  bool fits_mask() const noexcept {
    for (std::size_t w = 1; w < words.size(); ++w)
      if (words[w] != 0) return false;
    return true;
  }
  /** @brief The coalition as a bit mask (the first word); see fits_mask(). */
  Coalition AsMask() const noexcept { return words.empty() ? 0 : words[0]; }
};

}}  // namespace perfshap
