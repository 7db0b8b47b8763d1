// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The prediction games of shap.hpp (shap-primer; ARCHITECTURE.md "The games"):
// - PredictionGame (interventional): v(S) = mean over the background rows b of f(x_S, b_notS)
//   for every explained row x and model output: output r * K + o of the game is row r's
//   output o. A worker builds one coalition's hybrid rows for a block of explained rows at a
//   time and predicts them in one call; a model with additive terms (the GLMs) skips the
//   hybrids: index(x_S, b_notS) = c + sum_{j in S} t_j(x) + sum_{j not in S} t_j(b), so per
//   coalition the two partial sums take O(F (R + B)) and the link R B evaluations.
// - RetrainPredictionGame: v(S) = the prediction for each explained row of the learner
//   retrained on S's columns (a PreparedSplit whose test rows are the explained rows).

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/game_settings.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief Predictions of `model` on the requested scale (out: output-major, K * n_rows).
 *  @throws InvalidArgument for kMargin on a model without one (neither additive nor trees). */
void PredictOnScale(const Model& model, ShapOutputScale scale, std::span<const double> x, std::size_t n_rows,
                    std::span<double> out);

/** @brief Whether PredictOnScale can give `scale` for this model. */
bool HasScale(const Model& model, ShapOutputScale scale);

/** @brief Hybrid values (rows x features, 16 MB) one batched prediction of PredictionGame's
 *  worker takes at most (GameWorker::EvaluateMany: the coalitions of a solver's batch in as few
 *  model calls), unless one coalition's block of explained rows needs more. */
inline constexpr std::size_t kBatchHybridValues = std::size_t{1} << 21;

class PredictionGame final : public Game {
 public:
  /**
   * @param model the model (must outlive the game); rows and background in its feature order
   *   (views that must outlive the game).
   * @param players groups of model features, each feature in exactly one player.
   * @param row_block explained rows per hybrid batch (0: chosen from the background size).
   * @throws InvalidArgument for sizes that do not match, players that do not partition the
   *   features, or a scale the model cannot give.
   */
  PredictionGame(const Model& model, ColumnMatrix rows, ColumnMatrix background, std::vector<Player> players,
                 ShapOutputScale scale, std::size_t row_block = 0);
  int n_players() const override { return static_cast<int>(players_.size()); }
  std::size_t n_outputs() const override { return rows_.n_rows * model_.n_outputs(); }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  std::vector<std::string> player_names() const override;
  /** Batches of coalitions (EvaluateMany) when every coalition is a model call: as many as
   *  batch_rows() hybrid rows of one block of explained rows hold. */
  BlockHint block_hint() const override { return {1, 256, std::uint64_t{256} << 20, batch_coalitions_}; }

  const Model& model() const noexcept { return model_; }
  ColumnMatrix rows() const noexcept { return rows_; }
  ColumnMatrix background() const noexcept { return background_; }
  const std::vector<Player>& players() const noexcept { return players_; }
  ShapOutputScale scale() const noexcept { return scale_; }
  std::size_t row_block() const noexcept { return row_block_; }
  /** @brief Hybrid rows one batched prediction takes at most: kBatchHybridValues / features,
   *  at least one coalition's block (row_block() x background rows). */
  std::size_t batch_rows() const noexcept { return batch_rows_; }
  /** @brief feature_player()[j] = the player holding model feature j. */
  const std::vector<int>& feature_player() const noexcept { return feature_player_; }
  /** @brief Additive fast path: terms of the explained rows and of the background (feature-major),
   *  the intercept and the link; empty terms when the model has none. */
  const std::vector<double>& row_terms() const noexcept { return row_terms_; }
  const std::vector<double>& background_terms() const noexcept { return background_terms_; }
  double intercept() const noexcept { return intercept_; }
  Link link() const noexcept { return link_; }

 private:
  const Model& model_;
  ColumnMatrix rows_;
  ColumnMatrix background_;
  std::vector<Player> players_;
  ShapOutputScale scale_;
  std::size_t row_block_;
  std::vector<int> feature_player_;
  std::vector<double> row_terms_;
  std::vector<double> background_terms_;
  double intercept_ = 0.0;
  Link link_ = Link::kIdentity;
  std::size_t batch_rows_ = 1;
  std::uint64_t batch_coalitions_ = 1;
};

class RetrainPredictionGame final : public Game {
 public:
  /** @param split a split whose test rows are the explained rows (must outlive the game). */
  RetrainPredictionGame(const PreparedSplit& split, ShapOutputScale scale) : split_(split), scale_(scale) {}
  int n_players() const override { return split_.n_players(); }
  std::size_t n_outputs() const override { return split_.n_test(); }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  std::vector<std::string> player_names() const override { return split_.player_names(); }
  /** Warm starts along Gray-code steps pay off in runs of coalitions, as the RetrainGame's. */
  BlockHint block_hint() const override { return {32, 256, std::uint64_t{32} << 20}; }

 private:
  const PreparedSplit& split_;
  ShapOutputScale scale_;
};

}}}  // namespace perfshap::detail
