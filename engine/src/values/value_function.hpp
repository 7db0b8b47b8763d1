// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The conditional value functions' common shape (issue 38): a distribution of the features
// fitted to the background rows, and for a coalition, draws of the features off it given a row's
// values on it. games/conditional_game.hpp predicts the draws and averages them. Each function
// is one class pair here and one line in MakeConditionalFeatures.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "perfshap/blocks/game_settings.hpp"
#include "perfshap/shap.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief The draws of the features off one coalition (a worker's, for that coalition). */
class CoalitionDraws {
 public:
  virtual ~CoalitionDraws() = default;
  /**
   * @brief Fills `draws` (column-major, F columns of the coalition's n_draws rows): row x's
   * features on the coalition, and draws of the others given them.
   * @param x one row, F values.
   */
  virtual void Draw(std::span<const double> x, std::span<double> draws) = 0;
};

/** @brief A conditional value function's distribution of the features, fitted to the background. */
class ConditionalFeatures {
 public:
  virtual ~ConditionalFeatures() = default;
  virtual std::size_t n_features() const = 0;
  /**
   * @brief The coalition's draws.
   * @param inside inside[j] != 0 for the features on the coalition.
   * @param z standard normals, n_draws x F, draw-major: draw k of feature j uses z[k * F + j]
   *   (the same for every coalition: common random numbers).
   */
  virtual std::unique_ptr<CoalitionDraws> Given(std::span<const std::uint8_t> inside,
                                                std::span<const double> z, std::size_t n_draws) const = 0;
};

/**
 * @brief Whether the marginal values beside a conditional run cost no more than its draws did:
 * `per_row` hybrid rows a coalition and row for the marginal value function (the background's
 * rows; XPER's: the sample's) against the `samples` draws asked for and the `distinct` ones the
 * model predicted on average (repeats shared; 0: not counted).
 */
inline bool MarginalCostsNoMore(std::size_t per_row, std::size_t samples, double distinct) {
  return per_row <= samples && (distinct <= 0.0 || static_cast<double>(per_row) <= distinct);
}

/**
 * @brief The distribution of a conditional value function (not kMarginal), fitted to the
 * background rows (column-major, F columns).
 * @throws InvalidArgument (options(): `background`) for fewer than 2 rows or a value that is not finite.
 */
std::unique_ptr<ConditionalFeatures> MakeConditionalFeatures(ShapConditional kind, ColumnMatrix background,
                                                             std::size_t n_features);

}}}  // namespace perfshap::detail
