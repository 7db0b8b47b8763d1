// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "perfshap/game.hpp"

#include "perfshap/error.hpp"

namespace perfshap {

GameWorker::~GameWorker() = default;

void GameWorker::EvaluateWide(WideCoalition s, std::span<double> out) {
  PERFSHAP_CHECK(s.fits_mask(), "this game supports at most 64 players");
  Evaluate(s.AsMask(), out);
}
Game::~Game() = default;

std::unique_ptr<GameWorker> Game::MakeWorkerFrom(std::unique_ptr<GameWorker> previous) const {
  previous.reset();  // its memory first, then the new worker's
  return MakeWorker();
}

std::vector<std::string> Game::player_names() const {
  std::vector<std::string> names;
  for (int i = 0; i < n_players(); ++i) names.push_back(std::string(1, 'x').append(std::to_string(i)));
  return names;
}

std::vector<double> EvaluateCoalition(const Game& game, Coalition s) {
  std::vector<double> out(game.n_outputs());
  auto worker = game.MakeWorker();
  worker->Reset();
  worker->Evaluate(s, out);
  return out;
}

}  // namespace perfshap
