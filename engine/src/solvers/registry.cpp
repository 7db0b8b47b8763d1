// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The solver registry: one line per solver below (each defined in its own file).
#include <memory>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/solver.hpp"

namespace perfshap {

// Defined in their files.
std::unique_ptr<Solver> MakePermutationSolver(const SolverOptions& options);  // solvers/permutation.cpp
std::unique_ptr<Solver> MakeKernelSolver(const SolverOptions& options);       // solvers/kernel.cpp

namespace {

struct SolverEntry {
  const char* name;
  std::unique_ptr<Solver> (*make)(const SolverOptions& options);
};

constexpr SolverEntry kSolvers[] = {
    {"exact",
     [](const SolverOptions& options) -> std::unique_ptr<Solver> {
       ExactOptions exact;
       static_cast<SolverOptions&>(exact) = options;
       return std::make_unique<ExactSolver>(exact);
     }},
    {"permutation", MakePermutationSolver},
    {"kernel", MakeKernelSolver},
};

}  // namespace

std::unique_ptr<Solver> MakeSolver(const std::string& name, const SolverOptions& options) {
  for (const SolverEntry& entry : kSolvers)
    if (name == entry.name) return entry.make(options);
  std::string list;
  for (const std::string& s : SolverNames()) list += (list.empty() ? "" : ", ") + s;
  throw InvalidArgument("unknown solver '" + name + "': choose one of " + list, {"solver"});
}

std::vector<std::string> SolverNames() {
  std::vector<std::string> names;
  for (const SolverEntry& entry : kSolvers) names.emplace_back(entry.name);
  return names;
}

}  // namespace perfshap
