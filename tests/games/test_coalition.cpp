// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Coalitions: the 64-bit mask and the wide coalition of sampled work beyond 64 players, and a
// game's default EvaluateWide (a coalition that fits a mask goes to Evaluate, others are
// refused with a one-line error).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "perfshap/blocks/coalition.hpp"
#include "perfshap/error.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 {
namespace {

TEST(WideCoalition, ContainsAndSizeAcrossWords) {
  EXPECT_EQ(CoalitionWords(1), 1U);
  EXPECT_EQ(CoalitionWords(64), 1U);
  EXPECT_EQ(CoalitionWords(65), 2U);
  EXPECT_EQ(CoalitionWords(200), 4U);
  const std::array<std::uint64_t, 3> words{0b1011, 0, std::uint64_t{1} << 7};
  const WideCoalition s{words};
  EXPECT_TRUE(s.contains(0));
  EXPECT_FALSE(s.contains(2));
  EXPECT_TRUE(s.contains(3));
  EXPECT_TRUE(s.contains(135));
  EXPECT_FALSE(s.contains(134));
  EXPECT_FALSE(s.contains(500));  // beyond the words: not a member
  EXPECT_EQ(s.size(), 4);
  EXPECT_FALSE(s.fits_mask());
  const std::array<std::uint64_t, 2> small{0b110, 0};
  EXPECT_TRUE(WideCoalition{small}.fits_mask());
  EXPECT_EQ(WideCoalition{small}.AsMask(), Coalition{0b110});
}

TEST(WideCoalition, DefaultEvaluateWideUsesTheMaskOrRefuses) {
  const testing::FunctionGame game(5, 1, [](Coalition s, std::span<double> out) { out[0] = static_cast<double>(s); });
  const auto worker = game.MakeWorker();
  std::vector<double> out(1);
  const std::array<std::uint64_t, 2> fits{0b10101, 0};
  worker->EvaluateWide(WideCoalition{fits}, out);
  EXPECT_EQ(out[0], 21.0);
  const std::array<std::uint64_t, 2> wide{1, 1};
  try {
    worker->EvaluateWide(WideCoalition{wide}, out);
    FAIL() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(
        std::string(e.what()),
        "this game's coalitions are 64-bit masks (its worker does not override GameWorker::EvaluateWide), "
        "so it takes at most 64 players, and a sampled coalition holds player 64; group the players into "
        "at most 64, or give the game's worker an EvaluateWide");
  }
}

}  // namespace
}}  // namespace perfshap
