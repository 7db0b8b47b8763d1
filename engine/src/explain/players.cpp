// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "explain/players.hpp"

#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::vector<Player> ResolvePlayers(const Dataset& data, std::span<const std::size_t> features,
                                   std::span<const Player> players) {
  const std::string& source = data.source();
  if (players.empty()) {
    std::vector<std::size_t> columns(features.begin(), features.end());
    if (columns.empty())
      for (std::size_t j = 0; j < data.n_features(); ++j) columns.push_back(j);
    for (std::size_t i = 0; i < columns.size(); ++i) {
      PERFSHAP_CHECK(columns[i] < data.n_features(), "feature column " + std::to_string(columns[i]) +
                                                         " is out of range (" + source + " has " +
                                                         std::to_string(data.n_features()) + " features)");
      for (std::size_t j = 0; j < i; ++j)
        PERFSHAP_CHECK(columns[j] != columns[i],
                       "feature '" + data.feature_names()[columns[i]] + "' is listed twice; list each feature once",
                       {"features"});
    }
    return SingleColumnPlayers(data, columns);
  }
  std::vector<std::uint8_t> used(data.n_features(), 0);
  for (std::size_t i = 0; i < players.size(); ++i) {
    const Player& player = players[i];
    PERFSHAP_CHECK(!player.columns.empty(), "player '" + player.name + "' has no column");
    for (std::size_t j = 0; j < i; ++j)
      PERFSHAP_CHECK(players[j].name != player.name, "two players are called '" + player.name + "'; rename one");
    for (std::size_t c : player.columns) {
      PERFSHAP_CHECK(c < data.n_features(), "player '" + player.name + "': column " + std::to_string(c) +
                                                " is out of range (" + source + " has " +
                                                std::to_string(data.n_features()) + " features)");
      PERFSHAP_CHECK(used[c] == 0, "column '" + data.feature_names()[c] + "' belongs to two players",
                     {"groups"});
      used[c] = 1;
    }
  }
  return {players.begin(), players.end()};
}

}}}  // namespace perfshap::detail
