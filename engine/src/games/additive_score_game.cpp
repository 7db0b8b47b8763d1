// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/additive_score_game.hpp"

#include <bit>

#include "perfshap/error.hpp"
#include "perfshap/blocks/metric.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

class AdditiveScoreWorker final : public GameWorker {
 public:
  explicit AdditiveScoreWorker(const AdditiveScoreGame& game)
      : game_(game), score_(game.label_.size(), game.intercept_) {}

  void Reset() override { has_state_ = false; }

  void Evaluate(Coalition s, std::span<double> out) override {
    const std::size_t m = score_.size();
    const Coalition diff = s ^ current_;
    if (!has_state_ || std::popcount(diff) != 1) {
      // Recompute from scratch (block start, or not a Gray-code neighbour).
      std::fill(score_.begin(), score_.end(), game_.intercept_);
      for (int j = 0; j < game_.n_players(); ++j) {
        if (!Contains(s, j)) continue;
        const auto& c = game_.contributions_[static_cast<std::size_t>(j)];
        for (std::size_t r = 0; r < m; ++r) score_[r] += c[r];
      }
    } else {
      // One feature joined or left: add or subtract its column.
      const int j = std::countr_zero(diff);
      const auto& c = game_.contributions_[static_cast<std::size_t>(j)];
      const double sign = Contains(s, j) ? 1.0 : -1.0;
      for (std::size_t r = 0; r < m; ++r) score_[r] += sign * c[r];
    }
    current_ = s;
    has_state_ = true;
    std::size_t correct = 0;
    for (std::size_t r = 0; r < m; ++r) correct += ((score_[r] > 0) == (game_.label_[r] > 0.5)) ? 1 : 0;
    out[0] = s == 0 ? 0.0 : RocAuc(game_.label_, score_, order_) - 0.5;
    out[1] = static_cast<double>(correct) / static_cast<double>(m);
  }

 private:
  const AdditiveScoreGame& game_;
  std::vector<double> score_;
  std::vector<std::size_t> order_;
  Coalition current_ = 0;
  bool has_state_ = false;
};

AdditiveScoreGame::AdditiveScoreGame(std::vector<std::string> names,
                                     std::vector<std::vector<double>> contributions, double intercept,
                                     std::vector<double> label)
    : names_(std::move(names)), contributions_(std::move(contributions)), intercept_(intercept),
      label_(std::move(label)) {
  PERFSHAP_CHECK(names_.size() == contributions_.size(), "AdditiveScoreGame: one name per column");
  for (const auto& c : contributions_)
    PERFSHAP_CHECK(c.size() == label_.size(), "AdditiveScoreGame: every column needs one value per label");
}

std::unique_ptr<GameWorker> AdditiveScoreGame::MakeWorker() const {
  return std::make_unique<AdditiveScoreWorker>(*this);
}

}}}  // namespace perfshap::detail
