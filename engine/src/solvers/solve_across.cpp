// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "solvers/solve_across.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace perfshap::inline v0::detail {

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

void SolveBatchAcross(const std::shared_ptr<const Processes>& group, std::span<const Game* const> games,
                      const SolverMaker& make_solver, const Solver::GameSink& sink,
                      const std::function<std::span<double>(std::size_t)>& side) {
  if (group == nullptr || group->size() == 1) {
    make_solver(0, nullptr)->SolveBatch(games, sink);
    return;
  }
  if (games.size() < static_cast<std::size_t>(group->size())) {
    // Every process in every game. Each fills the side values of the coalitions it evaluated
    // (every coalition is evaluated by one process; the rest stay NaN), and they are merged.
    if (side)
      for (std::size_t g = 0; g < games.size(); ++g) std::ranges::fill(side(g), std::numeric_limits<double>::quiet_NaN());
    std::vector<ShapleyValues> values = make_solver(0, group)->SolveBatch(games);
    if (side) {
      ByteWriter mine;
      for (std::size_t g = 0; g < games.size(); ++g) mine.PutSpan(std::span<const double>(side(g)));
      const std::vector<std::vector<std::byte>> all = AllGather(*group, mine.bytes());
      for (const std::vector<std::byte>& theirs : all) {
        ByteReader in(theirs);
        for (std::size_t g = 0; g < games.size(); ++g) {
          const std::vector<double> values_of_theirs = in.GetVector<double>();
          const std::span<double> into = side(g);
          for (std::size_t t = 0; t < into.size(); ++t)
            if (!std::isnan(values_of_theirs[t])) into[t] = values_of_theirs[t];
        }
      }
    }
    for (std::size_t g = 0; g < games.size(); ++g) sink(g, std::move(values[g]));
    return;
  }
  RunShared(
      *group, games.size(),
      [&](ItemRange share, const std::function<ByteWriter&(std::size_t)>& write) {
        if (share.begin == share.end) return;
        const std::shared_ptr<const Solver> solver = make_solver(share.begin, nullptr);
        solver->SolveBatch(games.subspan(share.begin, share.end - share.begin),
                           [&](std::size_t g, ShapleyValues&& values) {
                             ByteWriter& out = write(share.begin + g);
                             WriteValues(out, values);
                             if (side) out.PutSpan(std::span<const double>(side(share.begin + g)));
                           });
      },
      [&](std::size_t g, ByteReader& in) {
        ShapleyValues values = ReadValues(in);
        if (side) in.GetInto(side(g));
        sink(g, std::move(values));
      });
}

}  // namespace perfshap::detail
