// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "perfshap/blocks/game.hpp"

#include <bit>
#include <string>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {

namespace {

/** The first player of s beyond the 64 a mask holds. */
std::size_t FirstWidePlayer(WideCoalition s) {
  for (std::size_t w = 1; w < s.words.size(); ++w)
    if (s.words[w] != 0) return w * 64 + static_cast<std::size_t>(std::countr_zero(s.words[w]));
  return 64;
}

}  // namespace

GameWorker::~GameWorker() = default;

void GameWorker::EvaluateWide(WideCoalition s, std::span<double> out) {
  // perfshap's own games (retraining, XPER, prediction SHAP, chains) override EvaluateWide; a
  // game that does not (a host's own) takes bit masks, so players 0..63 only.
  PERFSHAP_CHECK(s.fits_mask(),
                 "this game's coalitions are 64-bit masks (its worker does not override "
                 "GameWorker::EvaluateWide), so it takes at most 64 players, and a sampled coalition holds "
                 "player " +
                     std::to_string(FirstWidePlayer(s)) +
                     "; group the players into at most 64, or give the game's worker an EvaluateWide");
  Evaluate(s.AsMask(), out);
}

void GameWorker::EvaluateMany(std::span<const std::uint64_t> words, std::size_t nw, std::span<double> out) {
  PERFSHAP_CHECK(nw > 0 && words.size() % nw == 0, "EvaluateMany: the words are not whole coalitions");
  const std::size_t count = words.size() / nw;
  if (count == 0) return;
  PERFSHAP_CHECK(out.size() % count == 0, "EvaluateMany: the values are not whole coalitions' outputs");
  const std::size_t k = out.size() / count;
  for (std::size_t c = 0; c < count; ++c) {
    const std::span<double> values = out.subspan(c * k, k);
    if (nw == 1) {
      Evaluate(words[c], values);
    } else {
      EvaluateWide(WideCoalition{words.subspan(c * nw, nw)}, values);
    }
  }
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

}}  // namespace perfshap
