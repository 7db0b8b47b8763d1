// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "explain/solver_choice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "perfshap/blocks/cost.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::string CoalitionCountText(std::size_t n_players) {
  if (n_players <= 62) return "2^" + std::to_string(n_players);
  // 2^n = 10^(n log10 2), written from its decimal exponent (2^n overflows a double past 1023).
  const double exponent = static_cast<double>(n_players) * std::log10(2.0);
  const double whole = std::floor(exponent);
  char buf[64];
  std::snprintf(buf, sizeof buf, "2^%zu (about %.1fe+%.0f)", n_players, std::pow(10.0, exponent - whole), whole);
  return buf;
}

std::shared_ptr<const Solver> SolverChoice::Make(const SolverOptions& options) const {
  if (given) return given;
  return MakeSolver(name, options);
}

SolverChoice ChooseSolver(const SolverSpec& spec, std::size_t n_players, SolverOptions& options,
                          const ExactLimit& limit) {
  const int max_players = std::clamp(limit.players, 1, kExactPlayerLimit);
  options.max_players = max_players;
  const int n = static_cast<int>(std::min<std::size_t>(n_players, 1u << 20));
  SolverChoice choice;
  choice.given = spec.object();
  if (choice.given) {
    choice.name = choice.given->name();
    choice.exact = choice.given->Exact(n);
  } else {
    choice.name = ResolveSolverName(spec.name(), n, options);
    choice.exact = choice.name == "exact";
  }
  PERFSHAP_CHECK(!(choice.exact && options.keep_samples),
                 "keeping samples needs a sampled solver, and " +
                     std::string(choice.given ? "the " + choice.name + " solver given computes exact values"
                                 : spec.name() == "auto" ? "the auto solver chose the exact one (2^n fits the budget)"
                                                         : "the exact solver draws none") +
                     "; choose the kernel or permutation solver",
                 {"solver", "keep_samples"});
  // A named exact solver past the limit; an object is the host's to size.
  if (!choice.given && choice.exact && n_players > static_cast<std::size_t>(max_players))
    throw InvalidArgument(limit.message(n_players, max_players), limit.options);
  return choice;
}

SolverChoice RobustnessSolver(const std::string& source, std::size_t p, const RobustnessOptions& options,
                              SolverOptions& out) {
  static_cast<SamplingOptions&>(out) = options.sampling;
  out.execution = options.execution;
  ExactLimit limit;
  limit.players = options.max_features;
  limit.message = [&source](std::size_t n, int max) {
    return source + " has " + std::to_string(n) + " features: exact ShapAUC needs " + CoalitionCountText(n) +
           " trainings per split, above the exact limit of " + std::to_string(max) +
           " features; use a sampled solver (kernel, permutation or auto), select fewer features, group them, or "
           "raise the exact limit (at most " +
           std::to_string(kExactPlayerLimit) + ")";
  };
  limit.options = {"solver", "features", "groups", "max_features"};
  return ChooseSolver(options.solver, p, out, limit);
}

SolverChoice XperSolver(std::size_t p, const XperOptions& options, SolverOptions& out) {
  static_cast<SamplingOptions&>(out) = options.sampling;
  out.store_values = options.store_coalition_values;
  out.execution = options.execution;
  ExactLimit limit;
  limit.players = options.max_features;
  limit.message = [](std::size_t n, int max) {
    return "exact XPER of " + std::to_string(n) + " features needs " + CoalitionCountText(n) +
           " coalitions, above the limit of " + std::to_string(max) +
           " features; use a sampled solver (kernel, permutation or auto), select fewer features or group them";
  };
  limit.options = {"solver", "features", "groups", "max_features"};
  SolverChoice choice = ChooseSolver(options.solver, p, out, limit);
  if (options.store_coalition_values && (choice.given || !choice.exact))
    throw InvalidArgument(choice.given ? "the values of every coalition are kept by the named exact solver only (a "
                                         "solver object keeps to its own options); give solver = \"exact\""
                                       : "the values of every coalition are kept by the exact solver only; the " +
                                             choice.name + " solver can keep the coalitions it sampled instead",
                          {"store_coalition_values", "keep_samples"});
  return choice;
}

SolverChoice ShapSolver(std::size_t n_players, const ShapOptions& options, SolverOptions& out,
                        const std::string& method) {
  out = options.solver_options;
  ExactLimit limit;
  limit.players = options.solver_options.max_players;
  limit.message = [method](std::size_t n, int max) {
    return "exact " + method + " of " + std::to_string(n) + " players needs " + CoalitionCountText(n) +
           " coalitions per explained row block, above the limit of " + std::to_string(max) +
           " players; use a sampled solver (kernel, permutation or auto) or group the features";
  };
  limit.options = {"solver", "groups"};
  return ChooseSolver(options.solver, n_players, out, limit);
}

SolveReport ReportOf(const SolverChoice& choice, const ShapleyValues& values, const SamplingOptions& sampling) {
  SolveReport report;
  report.solver = values.solver.empty() ? choice.name : values.solver;
  report.sampled = !choice.exact;
  report.n_evaluations = values.n_evaluations;
  report.converged = values.converged;
  report.stopped_by = values.stopped_by;
  report.convergence_ratio = values.convergence_ratio;
  report.sampling = sampling;
  return report;
}

}}}  // namespace perfshap::detail
