// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The pieces of an MPI run that one process can check: the shares of items, the byte exchange's
// writer and reader, the exchange of ShapleyValues, RunShared alone (errors keep their type),
// and SolverOptions::first_game (a share of a batch draws what the whole batch would). The runs
// across processes are tests/mpi (mpirun -np 2 and 3).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <vector>

#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "schedule/distribute.hpp"
#include "solvers/solve_across.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap {
namespace {
using testing::FunctionGame;
using testing::MixedVectorGame;

TEST(Distribute, SharesAreContiguousBalancedAndCoverEveryItemOnce) {
  for (std::size_t n : {0u, 1u, 2u, 5u, 7u, 100u, 101u})
    for (int size : {1, 2, 3, 4, 8, 64}) {
      std::size_t next = 0;
      std::size_t smallest = n, largest = 0;
      for (int r = 0; r < size; ++r) {
        const detail::ItemRange share = detail::ShareOf(n, r, size);
        EXPECT_EQ(share.begin, next) << n << " items, rank " << r << " of " << size;
        ASSERT_LE(share.begin, share.end);
        next = share.end;
        smallest = std::min(smallest, share.end - share.begin);
        largest = std::max(largest, share.end - share.begin);
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(largest - smallest, 1u) << n << " items over " << size;
    }
}

TEST(Distribute, BytesReadBackAsWritten) {
  detail::ByteWriter out;
  out.Put<int>(-7);
  out.Put<double>(0.1);
  out.PutVector(std::vector<double>{1.5, -0.0, std::numeric_limits<double>::denorm_min()});
  out.PutVector(std::vector<std::uint64_t>{});
  out.PutString("phi(AUC)");
  out.PutStrings({"a", "", "c"});
  const std::vector<std::byte> bytes = out.bytes();
  detail::ByteReader in(bytes);
  EXPECT_EQ(in.Get<int>(), -7);
  EXPECT_EQ(in.Get<double>(), 0.1);
  const std::vector<double> v = in.GetVector<double>();
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0], 1.5);
  EXPECT_TRUE(std::signbit(v[1]));
  EXPECT_EQ(v[2], std::numeric_limits<double>::denorm_min());
  EXPECT_TRUE(in.GetVector<std::uint64_t>().empty());
  EXPECT_EQ(in.GetString(), "phi(AUC)");
  EXPECT_EQ(in.GetStrings(), (std::vector<std::string>{"a", "", "c"}));
  EXPECT_TRUE(in.done());
  EXPECT_THROW(in.Get<char>(), std::logic_error);
}

TEST(Distribute, ShapleyValuesCrossAsTheyAre) {
  const FunctionGame game = MixedVectorGame(5, 3, 2);
  SolverOptions options;
  options.budget = 300;
  options.keep_samples = true;
  options.seed = 4;
  const ShapleyValues want = MakeSolver("kernel", options)->Solve(game);
  ASSERT_FALSE(want.phi_se.empty());
  ASSERT_FALSE(want.sample_values.empty());
  detail::ByteWriter out;
  detail::WriteValues(out, want);
  detail::ByteReader in(out.bytes());
  const ShapleyValues got = detail::ReadValues(in);
  EXPECT_TRUE(in.done());
  EXPECT_EQ(got.players, want.players);
  EXPECT_EQ(got.n_players, want.n_players);
  EXPECT_EQ(got.n_outputs, want.n_outputs);
  EXPECT_EQ(got.phi, want.phi);
  EXPECT_EQ(got.phi_se, want.phi_se);
  EXPECT_EQ(got.base, want.base);
  EXPECT_EQ(got.full, want.full);
  EXPECT_EQ(got.n_evaluations, want.n_evaluations);
  EXPECT_EQ(got.converged, want.converged);
  EXPECT_EQ(got.convergence_ratio, want.convergence_ratio);
  EXPECT_EQ(got.solver, want.solver);
  EXPECT_EQ(got.stopped_by, want.stopped_by);
  EXPECT_EQ(got.sample_coalitions, want.sample_coalitions);
  EXPECT_EQ(got.sample_values, want.sample_values);
  EXPECT_EQ(got.coalition_values, want.coalition_values);
  EXPECT_EQ(got.elapsed_seconds, want.elapsed_seconds);
}

TEST(Distribute, AShareOfABatchDrawsWhatTheWholeBatchDraws) {
  std::vector<FunctionGame> games;
  for (unsigned salt = 0; salt < 5; ++salt) games.push_back(MixedVectorGame(10, 2, salt));  // 1024 > the budget
  std::vector<const Game*> all;
  for (const FunctionGame& g : games) all.push_back(&g);
  for (const char* name : {"permutation", "kernel"}) {
    SolverOptions options;
    options.budget = 400;
    options.seed = 11;
    const std::vector<ShapleyValues> whole = MakeSolver(name, options)->SolveBatch(all);
    options.first_game = 2;
    const std::vector<ShapleyValues> part =
        MakeSolver(name, options)->SolveBatch(std::span<const Game* const>(all).subspan(2, 3));
    for (std::size_t g = 0; g < 3; ++g) {
      EXPECT_EQ(part[g].phi, whole[2 + g].phi) << name << ", game " << 2 + g;
      EXPECT_EQ(part[g].phi_se, whole[2 + g].phi_se) << name << ", game " << 2 + g;
    }
    // And the offset matters: the share without it draws the first games' streams.
    options.first_game = 0;
    const std::vector<ShapleyValues> unshifted =
        MakeSolver(name, options)->SolveBatch(std::span<const Game* const>(all).subspan(2, 3));
    EXPECT_NE(unshifted[0].phi, whole[2].phi) << name;
  }
}

TEST(Distribute, RunSharedAloneRunsEveryItemAndReadsThemInOrder) {
  const std::shared_ptr<const Processes> alone = Processes::World();
  ASSERT_EQ(alone->size(), 1);
  std::vector<std::size_t> read;
  detail::RunShared(
      *alone, 6,
      [](detail::ItemRange share, const std::function<detail::ByteWriter&(std::size_t)>& write) {
        EXPECT_EQ(share.begin, 0u);
        EXPECT_EQ(share.end, 6u);
        for (std::size_t i = share.end; i-- > share.begin;) write(i).Put<std::size_t>(i * i);
      },
      [&](std::size_t item, detail::ByteReader& in) {
        EXPECT_EQ(in.Get<std::size_t>(), item * item);
        read.push_back(item);
      });
  EXPECT_EQ(read, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5}));
}

TEST(Distribute, RunSharedRethrowsAnErrorAsItsTypeWithItsOptions) {
  const std::shared_ptr<const Processes> alone = Processes::World();
  const auto fail_with = [&](auto error) {
    detail::RunShared(
        *alone, 3, [&](detail::ItemRange, const std::function<detail::ByteWriter&(std::size_t)>&) { throw error; },
        [](std::size_t, detail::ByteReader&) { ADD_FAILURE() << "no item is read after a failure"; });
  };
  try {
    fail_with(DataError("pima.csv:3: a missing value", {"missing"}));
    ADD_FAILURE() << "expected a DataError";
  } catch (const DataError& e) {
    EXPECT_STREQ(e.what(), "pima.csv:3: a missing value");
    EXPECT_EQ(e.options(), (std::vector<std::string>{"missing"}));
  }
  EXPECT_THROW(fail_with(InvalidArgument("bad")), InvalidArgument);
  EXPECT_THROW(fail_with(ResourceError("too big", {"rows"})), ResourceError);
  EXPECT_THROW(fail_with(Cancelled()), Cancelled);
  EXPECT_THROW(fail_with(std::logic_error("a bug")), std::runtime_error);
}

TEST(Distribute, SolveBatchAcrossAloneIsSolveBatch) {
  std::vector<FunctionGame> games;
  for (unsigned salt = 0; salt < 3; ++salt) games.push_back(MixedVectorGame(5, 2, salt));
  std::vector<const Game*> all;
  for (const FunctionGame& g : games) all.push_back(&g);
  SolverOptions options;
  options.budget = 200;
  const std::vector<ShapleyValues> want = MakeSolver("kernel", options)->SolveBatch(all);
  std::vector<std::size_t> order;
  detail::SolveBatchAcross(
      Processes::World(), all,
      [&](std::uint64_t first, std::shared_ptr<const Processes> processes) -> std::shared_ptr<const Solver> {
        SolverOptions o = options;
        o.first_game = first;
        o.execution.processes = std::move(processes);
        return MakeSolver("kernel", o);
      },
      [&](std::size_t g, ShapleyValues&& values) {
        order.push_back(g);
        EXPECT_EQ(values.phi, want[g].phi);
      });
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(Distribute, ProcessesAreOneWithoutALauncher) {
  ASSERT_FALSE(Processes::Launched()) << "perfshap_tests runs without mpirun; tests/mpi runs with it";
  EXPECT_EQ(Processes::World()->rank(), 0);
  EXPECT_EQ(Processes::World()->size(), 1);
  // Without MPI started, a caller's communicator cannot be used (nor a null one).
  EXPECT_THROW(Processes::FromMpiComm(nullptr), InvalidArgument);
}

}  // namespace
}  // namespace perfshap
