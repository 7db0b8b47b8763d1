// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "explain/solver_choice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "perfshap/cost.hpp"
#include "perfshap/error.hpp"

namespace perfshap::detail {

std::string CoalitionCountText(std::size_t n_players) {
  if (n_players <= 62) return "2^" + std::to_string(n_players);
  // 2^n = 10^(n log10 2), written from its decimal exponent (2^n overflows a double past 1023).
  const double exponent = static_cast<double>(n_players) * std::log10(2.0);
  const double whole = std::floor(exponent);
  char buf[64];
  std::snprintf(buf, sizeof buf, "2^%zu (about %.1fe+%.0f)", n_players, std::pow(10.0, exponent - whole), whole);
  return buf;
}

std::string RobustnessSolver(const std::string& source, std::size_t p, const RobustnessOptions& options,
                             SolverOptions& out) {
  const int limit = std::clamp(options.max_features, 1, 30);
  static_cast<SamplingOptions&>(out) = options.sampling;
  out.max_players = limit;
  out.execution = options.execution;
  const int n = static_cast<int>(std::min<std::size_t>(p, 1u << 20));
  const std::string name = ResolveSolverName(options.solver, n, out);
  const bool exact = name == "exact";
  PERFSHAP_CHECK(!(exact && options.sampling.keep_samples),
                 "keeping samples needs a sampled solver, and " +
                     std::string(options.solver == "auto" ? "the auto solver chose the exact one (2^n fits the budget)"
                                                          : "the exact solver draws none") +
                     "; choose the kernel or permutation solver",
                 {"solver", "keep_samples"});
  if (p > static_cast<std::size_t>(limit) && exact)
    throw InvalidArgument(source + " has " + std::to_string(p) + " features: exact ShapAUC needs " +
                              CoalitionCountText(p) + " trainings per split, above the exact limit of " +
                              std::to_string(limit) +
                              " features; use a sampled solver (kernel, permutation or auto), select fewer "
                              "features, group them, or raise the exact limit (at most 30)",
                          {"solver", "features", "groups", "max_features"});
  return name;
}

std::string XperSolver(std::size_t p, const XperOptions& options, SolverOptions& out) {
  const int limit = std::clamp(options.max_features, 1, kMaxExactPlayers);
  static_cast<SamplingOptions&>(out) = options.sampling;
  out.max_players = limit;
  out.store_values = options.store_coalition_values;
  out.execution = options.execution;
  const std::string name = ResolveSolverName(options.solver, static_cast<int>(std::min<std::size_t>(p, 1u << 20)), out);
  PERFSHAP_CHECK(!(name == "exact" && options.sampling.keep_samples),
                 "keeping samples needs a sampled solver, and " +
                     std::string(options.solver == "auto" ? "the auto solver chose the exact one (2^n fits the budget)"
                                                          : "the exact solver draws none") +
                     "; choose the kernel or permutation solver",
                 {"solver", "keep_samples"});
  if (p > static_cast<std::size_t>(limit) && name == "exact")
    throw InvalidArgument("exact XPER of " + std::to_string(p) + " features needs " + CoalitionCountText(p) +
                              " coalitions, above the limit of " + std::to_string(limit) +
                              " features; use a sampled solver (kernel, permutation or auto), select fewer features "
                              "or group them",
                          {"solver", "features", "groups", "max_features"});
  if (options.store_coalition_values && name != "exact")
    throw InvalidArgument("the values of every coalition are kept by the exact solver only; the " + name +
                              " solver can keep the coalitions it sampled instead",
                          {"store_coalition_values", "keep_samples"});
  return name;
}

std::string ShapSolver(std::size_t n_players, const ShapOptions& options) {
  const int n = static_cast<int>(std::min<std::size_t>(n_players, 1u << 20));
  std::string name = ResolveSolverName(options.solver, n, options.solver_options);
  if (name == "exact" && n > options.solver_options.max_players)
    throw InvalidArgument("exact SHAP of " + std::to_string(n_players) + " players needs " +
                              CoalitionCountText(n_players) + " coalitions per explained row block, above the limit of " +
                              std::to_string(options.solver_options.max_players) +
                              " players; use a sampled solver (kernel, permutation or auto) or group the features",
                          {"solver", "groups"});
  return name;
}

}  // namespace perfshap::detail
