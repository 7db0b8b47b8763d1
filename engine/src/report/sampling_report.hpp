// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What every reporter says of a sampled Shapley solver: the console line (converged, or why
// not and what to do), the result.json keys, and samples.csv (--keep-samples).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "perfshap/blocks/solver.hpp"
#include "report/csv.hpp"
#include "report/json.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief How a run was solved, as the reporters print it. */
struct SolverSummary {
  SolveReport solve;
  /** What an evaluation is ("trainings", "coalitions") and over how many games ("splits"). */
  std::string unit = "coalitions";
  std::size_t n_games = 1;
  std::string games = "splits";
};

/** @brief True when a sampled solver ran (its values carry standard errors). */
inline bool Sampled(const SolverSummary& s) { return s.solve.sampled; }

/** @brief The console lines: "solver: exact, N coalitions", or the sampled solver, its
 *  evaluations and "converged (...)" / "did not converge: stopped by the budget ...; raise
 *  the budget" (each line starts with two spaces and ends with a newline). */
std::string SolverConsoleText(const SolverSummary& s);

/** @brief Adds "solver", "n_coalitions_evaluated", "converged", "stopped_by",
 *  "convergence_ratio", "tolerance", "budget", "time_limit" to a result.json object. */
void AddSolverJson(Json& result, const SolverSummary& s);

/** @brief samples.csv: one row per sampled coalition: game (split) index (no such column
 *  when game_column is empty), the coalition as a 0/1 string over the n players (player i at
 *  character i), and its value. */
CsvTable SamplesCsv(std::span<const std::uint64_t> coalitions, std::span<const std::size_t> games,
                    int n_players, std::span<const double> values, const std::string& game_column,
                    const std::string& value_column);
}}}  // namespace perfshap::detail
