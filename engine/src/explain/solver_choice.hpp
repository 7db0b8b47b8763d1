// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Which solver a method runs on n players, in one place: "auto" resolved, the exact-player
// limit (the method's, clamped to kExactPlayerLimit) and the keep-samples rule applied before
// anything is computed. The methods and their cost estimates (cost_estimates.cpp) ask here, so
// a front end that estimates a request first gets the same refusal the method would give.

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/robustness.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/xper.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief A method's exact limit and how it says it refuses a game past it. */
struct ExactLimit {
  /** The method's limit, clamped here to 1..kExactPlayerLimit. */
  int players = kExactPlayerLimit;
  /** The one-line refusal for n players past `limit` (the clamped limit). */
  std::function<std::string(std::size_t n, int limit)> message;
  /** The option names the refusal is about. */
  std::vector<std::string> options;
};

/** @brief The solver a method runs. */
struct SolverChoice {
  /** What runs: the resolved name ("auto" made "exact" or "kernel"), or the object's name. */
  std::string name;
  /** True when the values are exact (no standard errors): Solver::Exact of the game's size. */
  bool exact = true;
  /** The solver object the method was given (null when it was a name). */
  std::shared_ptr<const Solver> given;
  /** @brief The given object, or the named solver made with `options`. */
  std::shared_ptr<const Solver> Make(const SolverOptions& options) const;
};

/**
 * @brief The solver of `spec` on n players, with `options` (sampling, execution; max_players
 * is set here from the limit). @throws InvalidArgument: past the exact limit (limit.message),
 * for keep_samples with an exact solver, for an unknown name.
 */
SolverChoice ChooseSolver(const SolverSpec& spec, std::size_t n_players, SolverOptions& options, const ExactLimit& limit);

/** @brief The choice of ExplainRobustness for p players of `source`, and its SolverOptions
 *  (`out`, tolerance not yet shared over the splits). */
SolverChoice RobustnessSolver(const std::string& source, std::size_t p, const RobustnessOptions& options,
                              SolverOptions& out);

/** @brief The choice of ExplainXper for p players, and its SolverOptions (`out`). @throws
 *  InvalidArgument also for store_coalition_values with a solver other than the named exact one. */
SolverChoice XperSolver(std::size_t p, const XperOptions& options, SolverOptions& out);

/** @brief The choice of ExplainInterventional / ExplainByRetraining (or of another method on
 *  the same options: `method` names it in the exact limit's refusal) for n players, and its
 *  SolverOptions (`out`: options.solver_options with the limit applied). */
SolverChoice ShapSolver(std::size_t n_players, const ShapOptions& options, SolverOptions& out,
                        const std::string& method = "SHAP");

/** @brief "2^20" (exact powers up to 2^62) or "about 1.1e301": the coalitions of n players. */
std::string CoalitionCountText(std::size_t n_players);

/** @brief The method's SolveReport of a solved game: the values' solver name (the choice's
 *  when the solver left it empty), whether it sampled, evaluations, convergence. */
SolveReport ReportOf(const SolverChoice& choice, const ShapleyValues& values, const SamplingOptions& sampling);

}}}  // namespace perfshap::detail
