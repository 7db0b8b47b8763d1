// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "solvers/solve_across.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

void WriteValues(ByteWriter& out, const ShapleyValues& values) {
  out.PutStrings(values.players);
  out.Put(values.n_players);
  out.Put<std::uint64_t>(values.n_outputs);
  out.PutVector(values.phi);
  out.PutVector(values.phi_se);
  out.PutVector(values.base);
  out.PutVector(values.full);
  out.Put(values.n_evaluations);
  out.Put(values.converged);
  out.Put(values.convergence_ratio);
  out.PutString(values.solver);
  out.Put(values.stopped_by);
  out.PutVector(values.sample_coalitions);
  out.PutVector(values.sample_values);
  out.PutVector(values.coalition_values);
  out.Put(values.elapsed_seconds);
}

ShapleyValues ReadValues(ByteReader& in) {
  ShapleyValues values;
  values.players = in.GetStrings();
  values.n_players = in.Get<int>();
  values.n_outputs = static_cast<std::size_t>(in.Get<std::uint64_t>());
  values.phi = in.GetVector<double>();
  values.phi_se = in.GetVector<double>();
  values.base = in.GetVector<double>();
  values.full = in.GetVector<double>();
  values.n_evaluations = in.Get<std::uint64_t>();
  values.converged = in.Get<bool>();
  values.convergence_ratio = in.Get<double>();
  values.solver = in.GetString();
  values.stopped_by = in.Get<StopReason>();
  values.sample_coalitions = in.GetVector<std::uint64_t>();
  values.sample_values = in.GetVector<double>();
  values.coalition_values = in.GetVector<double>();
  values.elapsed_seconds = in.Get<double>();
  return values;
}

namespace {

using Side = std::function<std::span<double>(std::size_t)>;

/** A game's values and side values, as they travel and as a checkpoint keeps them. */
std::vector<std::byte> ItemBytes(const ShapleyValues& values, const Side& side, std::size_t g) {
  ByteWriter out;
  WriteValues(out, values);
  if (side) out.PutSpan(std::span<const double>(side(g)));
  return std::move(out.bytes());
}

ShapleyValues TakeItem(ByteReader& in, const Side& side, std::size_t g) {
  ShapleyValues values = ReadValues(in);
  if (side) in.GetInto(side(g));
  return values;
}

/** The games `ids` (ascending) solved by this process, run by contiguous run of ids so that each
 *  draws its own stream: done(g, values) for each, in id order. */
void SolveIds(std::span<const Game* const> games, std::span<const std::size_t> ids, const SolverMaker& make_solver,
              const std::function<void(std::size_t, ShapleyValues&&)>& done) {
  for (std::size_t at = 0; at < ids.size();) {
    std::size_t end = at + 1;
    while (end < ids.size() && ids[end] == ids[end - 1] + 1) ++end;
    const std::size_t first = ids[at];
    make_solver(first, nullptr)
        ->SolveBatch(games.subspan(first, end - at), [&](std::size_t g, ShapleyValues&& values) {
          done(first + g, std::move(values));
        });
    at = end;
  }
}

/** Fewer games than processes: every process in every game (the solver shares its blocks). Each
 *  fills the side values of the coalitions it evaluated (every coalition is evaluated by one
 *  process; the rest stay NaN), and they are merged. */
std::vector<ShapleyValues> SolveTogether(const std::shared_ptr<const Processes>& group,
                                         std::span<const Game* const> games, std::size_t first,
                                         const SolverMaker& make_solver, const Side& side) {
  const auto side_of = [&](std::size_t g) { return side(first + g); };
  if (side)
    for (std::size_t g = 0; g < games.size(); ++g)
      std::ranges::fill(side_of(g), std::numeric_limits<double>::quiet_NaN());
  std::vector<ShapleyValues> values = make_solver(first, group)->SolveBatch(games);
  if (side) {
    ByteWriter mine;
    for (std::size_t g = 0; g < games.size(); ++g) mine.PutSpan(std::span<const double>(side_of(g)));
    const std::vector<std::vector<std::byte>> all = AllGather(*group, mine.bytes());
    for (const std::vector<std::byte>& bytes : all) {
      ByteReader in(bytes);
      for (std::size_t g = 0; g < games.size(); ++g) {
        const std::vector<double> theirs = in.GetVector<double>();
        const std::span<double> into = side_of(g);
        for (std::size_t t = 0; t < into.size(); ++t)
          if (!std::isnan(theirs[t])) into[t] = theirs[t];
      }
    }
  }
  return values;
}

}  // namespace

void SolveBatchAcross(const std::shared_ptr<const Processes>& group, std::span<const Game* const> games,
                      const SolverMaker& batch_solver, const Solver::GameSink& batch_sink, const Side& batch_side,
                      const Checkpoint* checkpoint, std::size_t first) {
  // The window's own game numbers from here on; the batch's outside.
  const SolverMaker make_solver = [&](std::uint64_t g, std::shared_ptr<const Processes> processes) {
    return batch_solver(first + g, std::move(processes));
  };
  const Solver::GameSink sink = [&](std::size_t g, ShapleyValues&& values) { batch_sink(first + g, std::move(values)); };
  Side side;
  if (batch_side) side = [&](std::size_t g) { return batch_side(first + g); };
  const std::size_t n = games.size();
  const bool shared = group != nullptr && group->size() > 1;
  if (checkpoint == nullptr) {
    if (!shared) {
      make_solver(0, nullptr)->SolveBatch(games, sink);
      return;
    }
    if (n < static_cast<std::size_t>(group->size())) {
      std::vector<ShapleyValues> values = SolveTogether(group, games, 0, make_solver, side);
      for (std::size_t g = 0; g < n; ++g) sink(g, std::move(values[g]));
      return;
    }
  }

  // What earlier runs finished (read by the first process and passed to the others), and what
  // is left to do.
  std::vector<std::optional<ShapleyValues>> results(n);
  std::vector<std::size_t> todo;
  if (checkpoint != nullptr) {
    const std::vector<std::optional<std::vector<std::byte>>> kept = LoadKept(group, *checkpoint, n, first);
    for (std::size_t g = 0; g < n; ++g)
      if (kept[g]) {
        ByteReader item(*kept[g]);
        results[g] = TakeItem(item, side, g);
      }
  }
  for (std::size_t g = 0; g < n; ++g)
    if (!results[g]) todo.push_back(g);

  const auto keep = [&](std::size_t g, const std::vector<std::byte>& bytes) {
    if (checkpoint != nullptr) checkpoint->Save(first + g, bytes);
  };
  if (!shared) {
    SolveIds(games, todo, make_solver, [&](std::size_t g, ShapleyValues&& values) {
      keep(g, ItemBytes(values, side, g));
      results[g] = std::move(values);
    });
  } else if (todo.size() < static_cast<std::size_t>(group->size())) {
    // Few games left: all processes in each, the first one keeping it.
    for (const std::size_t g : todo) {
      std::vector<ShapleyValues> values = SolveTogether(group, games.subspan(g, 1), g, make_solver, side);
      if (group->rank() == 0) keep(g, ItemBytes(values[0], side, g));
      results[g] = std::move(values[0]);
    }
  } else {
    // Each process a contiguous share of the games left; each keeps the games it solved.
    RunShared(
        *group, todo.size(),
        [&](ItemRange share, const std::function<ByteWriter&(std::size_t)>& write) {
          const std::span<const std::size_t> ids = std::span<const std::size_t>(todo).subspan(
              share.begin, share.end - share.begin);
          std::size_t at = share.begin;
          SolveIds(games, ids, make_solver, [&](std::size_t g, ShapleyValues&& values) {
            const std::vector<std::byte> bytes = ItemBytes(values, side, g);
            keep(g, bytes);
            write(at++).PutVector(bytes);
          });
        },
        [&](std::size_t i, ByteReader& in) {
          ByteReader item(in.GetBytes());
          results[todo[i]] = TakeItem(item, side, todo[i]);
        });
  }
  for (std::size_t g = 0; g < n; ++g) sink(g, std::move(*results[g]));
}

}}}  // namespace perfshap::detail
