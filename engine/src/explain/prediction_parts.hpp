// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the explanations of a model's predictions share (explain/shap.cpp, explain/sage.cpp): the
// players of a model's features, the test for the exact conditional path, and the fitted
// conditional distribution.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/game_settings.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/shap.hpp"
#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief `players` when given, else one player per model feature named by `names` ("x0", "x1"...
 *  without names). @throws InvalidArgument when the names do not match the features. */
std::vector<Player> DefaultPlayers(std::size_t n_features, std::span<const Player> players,
                                   std::span<const std::string> names);

/** @brief Whether the model's output on the scale is affine in x (a GLM on its margin, a linear
 *  regression): additive terms, an identity link or the margin, and each term's differences
 *  equal between 0, 1 and 2. Then E[f(x_S, X_O) | x_S] = f(x_S, E[X_O | x_S]). */
bool LinearOnScale(const Model& model, ShapOutputScale scale);

/** @brief Refuses a regressor named for a value function other than regression (it would go
 *  unused): InvalidArgument naming `regression_model` and `conditional`. */
void CheckRegressionModel(ShapConditional conditional, const std::string& regression_model);

/** @brief The distribution of a conditional value function fitted to `background`
 *  (MakeConditionalFeatures), after checking its draws a coalition and row.
 *  @throws InvalidArgument (conditional_samples) for fewer than kConditionalGroups or more than
 *  10^7 draws, and as MakeConditionalFeatures. */
std::unique_ptr<ConditionalFeatures> FitConditional(ShapConditional conditional, std::size_t samples,
                                                    ColumnMatrix background, std::size_t n_features);

}}}  // namespace perfshap::detail
