// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The conditional game's groups of draws (games/conditional_game.hpp) reduced to one
// explanation: the groups' values averaged, and their spread as the Monte Carlo error.

#include <cstddef>

#include "perfshap/blocks/interactions.hpp"
#include "perfshap/shap.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief From an explanation whose outputs are K * groups (output o * groups + g: output o over
 * group g's draws k = g mod groups), the explanation of the K outputs: phi, base and
 * prediction averaged over the groups; phi_se^2 = se_mc^2 + se_solver^2, where se_mc is the
 * standard error of the groups' mean (their standard deviation over sqrt(groups)) and
 * se_solver the groups' mean solver standard error (the groups share the solver's coalitions,
 * so their sampling errors are not independent: the mean bounds the mean's). Efficiency holds in
 * every group, so it holds for the mean.
 */
ShapExplanation AverageConditionalGroups(const ShapExplanation& grouped, std::size_t groups);

/** @brief The same for interaction values: outputs o * groups + g to outputs o, every entry of the
 *  matrix, base and full averaged over the groups, se as above. */
InteractionValues AverageInteractionGroups(const InteractionValues& grouped, std::size_t groups);
}}}  // namespace perfshap::detail
