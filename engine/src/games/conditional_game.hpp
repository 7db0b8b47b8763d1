// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The conditional prediction game (issue 38): v_x(S) = E[f(x_S, X_notS) | X_S = x_S], the
// expectation under the value function's conditional distribution of the features off the
// coalition (values/value_function.hpp), estimated from `samples` draws a coalition and
// explained row with common random numbers. The draws fall into `groups` groups (draw k in
// group k mod groups) and each group is an output of its own: output (r * K + o) * groups + g
// is row r's output o averaged over group g's draws. The groups' Shapley values average to the
// estimate and their spread is its Monte Carlo standard error (explain/shap.cpp reduces them).
// A coalition's hybrid rows (its draws for a block of explained rows) are predicted in one
// call of at most kBatchHybridValues values.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "games/draw_block.hpp"
#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/game_settings.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/players.hpp"
#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

class ConditionalPredictionGame final : public Game {
 public:
  /**
   * @param model the model (must outlive the game); rows in its feature order (a view that must
   *   outlive the game).
   * @param features the fitted distribution (must outlive the game).
   * @param players groups of model features, each feature in exactly one player.
   * @param samples draws a coalition and row (at least groups); groups at least 1.
   * @param seed the common random numbers' stream.
   * @param at_the_mean the standard normals all 0: one draw (samples 1) is the conditional mean.
   */
  ConditionalPredictionGame(const Model& model, ColumnMatrix rows, const ConditionalFeatures& features,
                            std::vector<Player> players, ShapOutputScale scale, std::size_t samples,
                            std::size_t groups, std::uint64_t seed, bool at_the_mean = false);
  int n_players() const override { return static_cast<int>(players_.size()); }
  std::size_t n_outputs() const override { return rows_.n_rows * model_.n_outputs() * groups_; }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  std::vector<std::string> player_names() const override;
  BlockHint block_hint() const override { return {1, 256, std::uint64_t{256} << 20}; }

  const Model& model() const noexcept { return model_; }
  ColumnMatrix rows() const noexcept { return rows_; }
  const ConditionalFeatures& features() const noexcept { return features_; }
  ShapOutputScale scale() const noexcept { return scale_; }
  std::size_t samples() const noexcept { return samples_; }
  std::size_t groups() const noexcept { return groups_; }
  /** Explained rows whose draws one prediction takes. */
  std::size_t row_block() const noexcept { return row_block_; }
  /** The common random numbers: samples x features standard normals, draw-major. */
  const std::vector<double>& normals() const noexcept { return normals_; }
  const std::vector<int>& feature_player() const noexcept { return feature_player_; }
  /** The draws predicted so far (DrawBlock's distinct ones, counted by the workers). */
  const DrawCount& draw_count() const noexcept { return draw_count_; }

 private:
  const Model& model_;
  ColumnMatrix rows_;
  const ConditionalFeatures& features_;
  std::vector<Player> players_;
  ShapOutputScale scale_;
  std::size_t samples_;
  std::size_t groups_;
  std::size_t row_block_ = 1;
  std::vector<double> normals_;
  std::vector<int> feature_player_;
  DrawCount draw_count_;
};

}}}  // namespace perfshap::detail
