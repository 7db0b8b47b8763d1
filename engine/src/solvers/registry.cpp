// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The solver registry: one line per solver below (each defined in its own file).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/solver.hpp"

namespace perfshap { inline namespace v0 {

// Defined in their files.
std::unique_ptr<Solver> MakePermutationSolver(const SolverOptions& options);  // solvers/permutation.cpp
std::unique_ptr<Solver> MakeKernelSolver(const SolverOptions& options);       // solvers/kernel.cpp

namespace {

// "auto": exact while the 2^n coalitions fit the budget (and the exact limit), else kernel up to
// kAutoKernelPlayers, permutation beyond.
class AutoSolver final : public Solver {
 public:
  explicit AutoSolver(SolverOptions options) : options_(std::move(options)) {}
  const std::string& name() const noexcept override {
    static const std::string kName = "auto";
    return kName;
  }
  bool Exact(int n_players) const noexcept override {
    return ResolveSolverName(name(), n_players, options_) == "exact";
  }
  void SolveBatch(std::span<const Game* const> games, const GameSink& sink) const override {
    PERFSHAP_CHECK(!games.empty(), "AutoSolver: no games to solve");
    MakeSolver(ResolveSolverName(name(), games[0]->n_players(), options_), options_)->SolveBatch(games, sink);
  }

 private:
  SolverOptions options_;
};

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
    {"auto", [](const SolverOptions& options) -> std::unique_ptr<Solver> { return std::make_unique<AutoSolver>(options); }},
};

}  // namespace

std::unique_ptr<Solver> MakeSolver(const std::string& name, const SolverOptions& options) {
  for (const SolverEntry& entry : kSolvers)
    if (name == entry.name) return entry.make(options);
  std::string list;
  for (const std::string& s : SolverNames()) list += (list.empty() ? "" : ", ") + s;
  throw InvalidArgument("unknown solver '" + name + "': choose one of " + list, {"solver"});
}

std::string ResolveSolverName(const std::string& name, int n_players, const SolverOptions& options) {
  if (name != "auto") return name;
  const std::uint64_t budget = options.budget > 0 ? options.budget : kDefaultSampleBudget;
  const bool exact = n_players <= options.max_players && n_players < 63 && (std::uint64_t{1} << n_players) <= budget;
  if (exact) return "exact";
  // Past 128 players the kernel solver has no control variate, and the permutation solver reached
  // tolerance 0.01 faster and with a smaller error at 200, 500 and 1,000 players
  // (bench/accuracy/sampled_accuracy.cpp synthetic; README "Many features").
  return n_players <= kAutoKernelPlayers ? "kernel" : "permutation";
}

SolverSpec::SolverSpec(std::string name) : name_(std::move(name)) {}

SolverSpec::SolverSpec(const char* name) : name_(name != nullptr ? name : "") {}

SolverSpec::SolverSpec(std::shared_ptr<const Solver> solver) : object_(std::move(solver)) {
  PERFSHAP_CHECK(object_ != nullptr, "a solver object must not be null; give a solver or a solver's name",
                 {"solver"});
}

const std::string& SolverSpec::name() const noexcept { return object_ ? object_->name() : name_; }

std::vector<std::string> SolverNames() {
  std::vector<std::string> names;
  for (const SolverEntry& entry : kSolvers) names.emplace_back(entry.name);
  return names;
}

}}  // namespace perfshap
