// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The regression value function (shapr's "regression_separate" approach, Olsen et al. 2024): the
// value of a coalition S for an explained row x is a regression of the model's output on the
// features in S, fitted to the background rows,
//   v_x(S) = g_S(x_S),   g_S = the learner trained on (b_S, f(b)) over the background rows b,
// an estimate of E[f(X) | X_S = x_S]. v(empty) is the intercept-only fit (the background's mean
// of f) and v(all) is f(x) itself. One fit a coalition and output, no draws: the values carry no
// Monte Carlo error (the regressions' own error is not estimated). With the linear learner and a
// model linear on the explained scale, g_S is the plug-in Gaussian conditional mean exactly
// (least squares of a linear f on b_S recovers beta_S + Sigma_SS^-1 Sigma_SO beta_O).

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/game_settings.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/players.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

class RegressionValueGame final : public Game {
 public:
  /**
   * @param learner a regressor (not a classifier), trained once per coalition and output.
   * @throws InvalidArgument (options(): `regression_model`) for a classifier; DataError as
   *   the learner's Prepare (a missing background value, a player constant on the background).
   */
  RegressionValueGame(const Model& model, ColumnMatrix rows, ColumnMatrix background,
                      std::vector<Player> players, ShapOutputScale scale, const Learner& learner);
  int n_players() const override { return static_cast<int>(players_.size()); }
  std::size_t n_outputs() const override { return n_rows_ * n_model_outputs_; }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  std::vector<std::string> player_names() const override;

  /** Output k's regression split: the background rows (labelled by f_k) and the explained rows. */
  const PreparedSplit& split(std::size_t k) const { return *splits_[k]; }
  std::size_t n_model_outputs() const noexcept { return n_model_outputs_; }
  /** f(x) on the scale, row-major (row r's output k at r * K + k): v(all). */
  const std::vector<double>& full() const noexcept { return full_; }

 private:
  std::vector<Player> players_;
  std::size_t n_rows_;
  std::size_t n_model_outputs_;
  std::vector<std::unique_ptr<PreparedSplit>> splits_;
  std::vector<double> full_;
};

/** @brief The learner of the regression value function: "linear" (least squares, shapr's
 *  default lm), "tree" or "forest" (their regression form, with their defaults).
 *  @throws InvalidArgument (options(): `regression_model`) for another name. */
std::shared_ptr<const Learner> RegressionLearner(const std::string& name);

}}}  // namespace perfshap::detail
