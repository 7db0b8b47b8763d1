// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Run by mpirun -np 2 and -np 3 (tests/mpi/CMakeLists.txt): every process computes each result
// twice, shared with the others (ExecutionOptions::processes = Processes::World()) and alone,
// and requires the two to be bitwise equal; the exchange's order and errors across processes.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/treeshap.hpp"
#include "perfshap/xper.hpp"
#include "schedule/distribute.hpp"
#include "support/synthetic_games.hpp"
#include "support/robustness_checks.hpp"

namespace perfshap {
namespace {
using testing::FunctionGame;
using testing::MixedVectorGame;

std::shared_ptr<const Processes> World() { return Processes::World(); }

TEST(Mpi, TheJobHasSeveralProcesses) {
  ASSERT_TRUE(Processes::Launched());
  EXPECT_GE(World()->size(), 2) << "run these tests with mpirun -np 2 or more";
}

TEST(Mpi, EveryProcessReadsEveryItemInOrder) {
  const int rank = World()->rank();
  for (std::size_t n : {0u, 1u, 2u, 7u}) {
    std::vector<std::size_t> order;
    detail::RunShared(
        *World(), n,
        [&](detail::ItemRange share, const std::function<detail::ByteWriter&(std::size_t)>& write) {
          EXPECT_EQ(share.begin, detail::ShareOf(n, rank, World()->size()).begin);
          for (std::size_t i = share.begin; i < share.end; ++i) {
            write(i).Put<std::size_t>(10 * i);
            write(i).Put<int>(rank);
          }
        },
        [&](std::size_t item, detail::ByteReader& in) {
          EXPECT_EQ(in.Get<std::size_t>(), 10 * item);
          const int from = in.Get<int>();
          const detail::ItemRange theirs = detail::ShareOf(n, from, World()->size());
          EXPECT_TRUE(item >= theirs.begin && item < theirs.end) << "item " << item << " from rank " << from;
          order.push_back(item);
        });
    std::vector<std::size_t> want(n);
    std::iota(want.begin(), want.end(), std::size_t{0});
    EXPECT_EQ(order, want);
  }
}

TEST(Mpi, EveryProcessThrowsTheErrorOfTheLowestFailingItem) {
  // Items 0..8; items 4 and 7 fail, each on the process that owns it: every process reports
  // item 4, as one process would.
  const std::size_t n = 9;
  try {
    detail::RunShared(
        *World(), n,
        [&](detail::ItemRange share, const std::function<detail::ByteWriter&(std::size_t)>& write) {
          for (std::size_t i = share.begin; i < share.end; ++i) {
            if (i == 4 || i == 7) throw DataError("item " + std::to_string(i) + " failed", {"rows"});
            write(i).Put<std::size_t>(i);
          }
        },
        [](std::size_t, detail::ByteReader&) { ADD_FAILURE() << "no item is read after a failure"; });
    ADD_FAILURE() << "expected a DataError";
  } catch (const DataError& e) {
    EXPECT_STREQ(e.what(), "item 4 failed");
    EXPECT_EQ(e.options(), (std::vector<std::string>{"rows"}));
  }
}

TEST(Mpi, TheExactSolverSharesAGamesBlocksBitwise) {
  const FunctionGame game = MixedVectorGame(9, 3, 5);
  for (const bool store : {false, true})
    for (const std::uint64_t block : {1u, 16u, 64u}) {
      ExactOptions options;
      options.block_size = block;
      options.store_values = store;
      const ShapleyValues alone = ExactSolver(options).Solve(game);
      options.execution.processes = World();
      const ShapleyValues shared = ExactSolver(options).Solve(game);
      EXPECT_EQ(shared.phi, alone.phi) << "block " << block;
      EXPECT_EQ(shared.base, alone.base);
      EXPECT_EQ(shared.full, alone.full);
      EXPECT_EQ(shared.coalition_values, alone.coalition_values);
      EXPECT_EQ(shared.n_evaluations, alone.n_evaluations);
    }
}

TEST(Mpi, RobustnessIsBitwiseThatOfOneProcess) {
  ProbitDesign design;
  design.n_rows = 240;
  const Dataset data = GenerateProbitDesign(design);
  struct Case {
    std::string plan;
    std::string solver;
    bool interactions;
  };
  // Splits shared (mc:5), blocks of one split's game shared (holdout), and a sampled solver.
  // One split's sampled rounds shared (holdout: kernel with its control variate, permutation).
  for (const Case& c : {Case{"mc:5", "exact", true}, Case{"holdout", "exact", true}, Case{"mc:4", "kernel", false},
                        Case{"holdout", "permutation", false}, Case{"holdout", "kernel", false}}) {
    SCOPED_TRACE(c.plan + " " + c.solver);
    const SplitPlan plan = MakeSplitPlan(c.plan, data.n_rows(), 0.3, 5, data.label());
    RobustnessOptions options;
    options.learner = MakeLearner("logistic");
    options.solver = c.solver;
    options.sampling.budget = 200;
    options.sampling.keep_samples = c.solver != "exact";
    options.interactions = c.interactions;
    options.select = true;
    options.execution.threads = 1;
    const RobustnessResult alone = ExplainRobustness(data, plan, options);
    options.execution.processes = World();
    testing::ExpectSameRobustness(ExplainRobustness(data, plan, options), alone);
  }
}

TEST(Mpi, XperIsBitwiseThatOfOneProcess) {
  ProbitDesign design;
  design.n_rows = 300;
  const Dataset sample = GenerateProbitDesign(design);
  const auto model = MakeGlm(Link::kProbit, design.beta, true);
  // Exact: the coalition blocks shared; sampled: every round's blocks shared.
  for (const char* solver : {"exact", "permutation", "kernel"}) {
    SCOPED_TRACE(solver);
    XperOptions options;
    options.solver = std::string(solver);
    options.sampling.budget = 60;
    options.sampling.keep_samples = std::string(solver) != "exact";
    options.execution.threads = 1;
    const XperResult alone = ExplainXper(*model, sample, options);
    options.execution.processes = World();
    const XperResult shared = ExplainXper(*model, sample, options);
    EXPECT_EQ(shared.value, alone.value);
    EXPECT_EQ(shared.phi, alone.phi);
    EXPECT_EQ(shared.phi_se, alone.phi_se);
    EXPECT_EQ(shared.individual_phi, alone.individual_phi);
  }
}

TEST(Mpi, SampledSolversShareOneGamesRoundsBitwise) {
  // One game of 12 players: every round's blocks over the processes (permutation, and kernel with
  // its complete layers, sampled batches, control variate and kept samples).
  const FunctionGame game = MixedVectorGame(12, 3, 7);
  for (const char* name : {"permutation", "kernel"}) {
    SCOPED_TRACE(name);
    SolverOptions options;
    options.budget = 3000;
    options.tolerance = 0.001;
    options.keep_samples = true;
    options.seed = 5;
    const ShapleyValues alone = MakeSolver(name, options)->Solve(game);
    options.execution.processes = World();
    const ShapleyValues shared = MakeSolver(name, options)->Solve(game);
    EXPECT_EQ(shared.phi, alone.phi);
    EXPECT_EQ(shared.phi_se, alone.phi_se);
    EXPECT_EQ(shared.n_evaluations, alone.n_evaluations);
    EXPECT_EQ(shared.sample_coalitions, alone.sample_coalitions);
    EXPECT_EQ(shared.sample_values, alone.sample_values);
    EXPECT_EQ(shared.stopped_by, alone.stopped_by);
    options.time_limit_seconds = 5;
    EXPECT_THROW(MakeSolver(name, options)->Solve(game), InvalidArgument) << "a time limit is refused";
  }
}

TEST(Mpi, TreeShapIsBitwiseThatOfOneProcess) {
  ProbitDesign design;
  design.n_rows = 700;  // several blocks of rows
  const Dataset data = GenerateProbitDesign(design);
  ForestOptions forest_options;
  forest_options.n_estimators = 12;
  std::vector<std::size_t> rows(data.n_rows()), columns(data.n_features());
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::iota(columns.begin(), columns.end(), std::size_t{0});
  const auto forest = FitForest(forest_options, data, rows, columns);
  std::vector<double> x;
  for (std::size_t c = 0; c < data.n_features(); ++c) x.insert(x.end(), data.column(c).begin(), data.column(c).end());
  const FeatureColumns columns_of_x = FeatureColumns::ColumnMajor(x, data.n_rows(), data.n_features());
  std::vector<double> bg;  // the first 50 rows, column-major
  for (std::size_t c = 0; c < data.n_features(); ++c)
    bg.insert(bg.end(), data.column(c).begin(), data.column(c).begin() + 50);
  ExecutionOptions alone;
  ExecutionOptions shared;
  shared.processes = World();
  const TreeShapValues a = TreeShapPhi(*forest, columns_of_x, alone);
  const TreeShapValues s = TreeShapPhi(*forest, columns_of_x, shared);
  EXPECT_EQ(s.phi, a.phi);
  EXPECT_EQ(s.base, a.base);
  const TreeShapValues ai = InterventionalTreeShapPhi(*forest, columns_of_x, bg, 50, alone);
  const TreeShapValues si = InterventionalTreeShapPhi(*forest, columns_of_x, bg, 50, shared);
  EXPECT_EQ(si.phi, ai.phi);
  EXPECT_EQ(si.base, ai.base);
}

}  // namespace
}  // namespace perfshap

namespace {
/** The other ranks' failures, one line each with the rank (rank 0 prints GoogleTest's report). */
class RankFailures final : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailures(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& part) override {
    if (part.failed())
      std::fprintf(stderr, "rank %d: %s:%d: %s\n", rank_, part.file_name() ? part.file_name() : "?",
                   part.line_number(), part.summary());
  }

 private:
  int rank_;
};
}  // namespace

// Only rank 0 prints GoogleTest's report; every rank's failures fail the job (its exit code).
int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int rank = perfshap::Processes::World()->rank();
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailures(rank));
  }
  return RUN_ALL_TESTS();
}
