// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "perfshap/blocks/learner.hpp"

#include <bit>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {

PreparedSplit::~PreparedSplit() = default;
CoalitionFitter::~CoalitionFitter() = default;
Learner::~Learner() = default;

FitCost Learner::EstimateFit(std::size_t rows, std::size_t columns) const {
  const double cells = static_cast<double>(rows) * static_cast<double>(columns);
  return {cells, 0.0};
}

int CoalitionFitter::Fit(Coalition s) {
  std::uint32_t players[64];
  std::size_t k = 0;
  for (Coalition rest = s; rest != 0; rest &= rest - 1) players[k++] = static_cast<std::uint32_t>(std::countr_zero(rest));
  return Fit(std::span<const std::uint32_t>(players, k));
}

bool CoalitionFitter::RankTest(RankedTest&) { return false; }

std::vector<Player> SingleColumnPlayers(const Dataset& data, std::span<const std::size_t> columns) {
  std::vector<Player> players;
  players.reserve(columns.size());
  for (std::size_t c : columns) {
    PERFSHAP_CHECK(c < data.n_features(), "feature column index " + std::to_string(c) +
                                              " is out of range (the data has " + std::to_string(data.n_features()) +
                                              " features)");
    players.push_back(Player{data.feature_names()[c], {c}, {data.feature_names()[c]}});
  }
  return players;
}

std::unique_ptr<Model> Learner::Train(const Dataset& data, std::span<const std::size_t> rows,
                                      std::span<const std::size_t> columns) const {
  const std::vector<Player> players = SingleColumnPlayers(data, columns);
  return Train(data, rows, std::span<const Player>(players));
}

std::unique_ptr<Model> Learner::Train(const Dataset& data, std::span<const std::size_t> rows,
                                      std::span<const Player> players) const {
  const std::unique_ptr<PreparedSplit> split = Prepare(data, players, rows, {}, "the training rows");
  const std::unique_ptr<CoalitionFitter> fitter = split->MakeFitter();
  std::vector<std::uint32_t> all(players.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint32_t>(i);
  fitter->Fit(all);
  return fitter->MakeModel();
}

std::unique_ptr<Model> Train(const std::string& learner, const Dataset& data, std::span<const std::size_t> rows,
                             std::span<const std::size_t> columns, const LearnerParams& params) {
  return MakeLearner(learner, params)->Train(data, rows, columns);
}

}}  // namespace perfshap
