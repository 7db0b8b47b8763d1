// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Which solver a method runs on n players ("auto" resolved), with the exact solver's player
// limit applied before anything is computed: the methods and their cost estimates
// (cost_estimates.cpp) ask here, so a front end that estimates a request first gets the same
// refusal the method would give.

#include <cstddef>
#include <string>

#include "perfshap/robustness.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/xper.hpp"

namespace perfshap::detail {

/** @brief The solver of ExplainRobustness for p players of `source`, and its SolverOptions
 *  (`out`, tolerance not yet shared over the splits). @throws InvalidArgument past the exact
 *  limit (at most 30 features) and for keep_samples with the exact solver. */
std::string RobustnessSolver(const std::string& source, std::size_t p, const RobustnessOptions& options,
                             SolverOptions& out);

/** @brief The solver of ExplainXper for p players, and its SolverOptions (`out`). @throws
 *  InvalidArgument past the exact limit, for keep_samples with the exact solver and for
 *  store_coalition_values with a sampled one. */
std::string XperSolver(std::size_t p, const XperOptions& options, SolverOptions& out);

/** @brief The solver of ExplainInterventional / ExplainByRetraining for n players. @throws
 *  InvalidArgument past options.solver_options.max_players for the exact solver. */
std::string ShapSolver(std::size_t n_players, const ShapOptions& options);

/** @brief "2^20" (exact powers up to 2^62) or "about 1.1e301": the coalitions of n players. */
std::string CoalitionCountText(std::size_t n_players);

}  // namespace perfshap::detail
