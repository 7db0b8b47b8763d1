// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A batch of games solved by the processes of an MPI run (ExecutionOptions::processes): each
// solves a contiguous share of the games, drawing the random streams the whole batch would
// (SolverOptions::first_game), and every process receives every game's values in game order.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "perfshap/blocks/solver.hpp"
#include "perfshap/processes.hpp"
#include "schedule/checkpoint.hpp"
#include "schedule/distribute.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief Every field of `values`, as bytes. */
void WriteValues(ByteWriter& out, const ShapleyValues& values);
/** @brief What WriteValues wrote. */
ShapleyValues ReadValues(ByteReader& in);

/** @brief A solver for the games [first_game, ...) of a batch (SolverOptions::first_game),
 *  run by `processes` (SolverOptions::execution.processes; null: this process alone). */
using SolverMaker =
    std::function<std::shared_ptr<const Solver>(std::uint64_t first_game, std::shared_ptr<const Processes> processes)>;

/**
 * @brief Solver::SolveBatch over `group` (null or one process: make_solver(0, null)->SolveBatch):
 * sink(g, values) is called on every process for every game in order, with values bitwise
 * those of one process.
 *
 * At least as many games as processes: each process solves a contiguous share of the games
 * alone. Fewer (one holdout split, one explanation game): every process takes part in every
 * game, and the solver shares each game's work among them (the exact solver its coalition
 * blocks; a sampled solver, for now, solves the whole game on every process).
 *
 * `side(g)`, when given, is a span of doubles game g fills as it is solved (e.g. its
 * coalitions' AUCs): it is exchanged with the values when games are shared, so every process
 * ends with every game's. The errors are those of RunShared.
 *
 * With a checkpoint: the games an earlier run finished are read from it (by the first process,
 * passed to the others) instead of solved, and each game solved is kept there as it finishes
 * (values and side values), so a run killed and started again ends with bitwise the values of
 * an uninterrupted one. A game is kept whole or not at all (one game's blocks are not kept).
 * The sink then runs once every game is done.
 *
 * `first`: `games` are the games [first, first + games.size()) of a longer batch solved a window
 * at a time; make_solver, sink, side and the checkpoint see the batch's game numbers, so the
 * windows give bitwise the values of the whole batch at once.
 */
void SolveBatchAcross(const std::shared_ptr<const Processes>& group, std::span<const Game* const> games,
                      const SolverMaker& make_solver, const Solver::GameSink& sink,
                      const std::function<std::span<double>(std::size_t)>& side = {},
                      const Checkpoint* checkpoint = nullptr, std::size_t first = 0);

}}}  // namespace perfshap::detail
