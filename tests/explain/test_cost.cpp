// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Cost estimates (perfshap/blocks/cost.hpp, cost_estimates.hpp): the formatting and parsing, the check
// against the limits, each method's estimate on the issue's cases, and the entry points refusing
// a request before they compute anything.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "perfshap/blocks/cost.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/xper.hpp"
#include "support/expect_error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::ExpectError;

constexpr double kGB = 1024.0 * 1024.0 * 1024.0;

TEST(CostFormat, BytesCountsAndSizes) {
  EXPECT_EQ(FormatBytes(512), "512 bytes");
  EXPECT_EQ(FormatBytes(1536), "1.5 KB");
  EXPECT_EQ(FormatBytes(8.5 * kGB), "8.5 GB");
  EXPECT_EQ(FormatCount(1048576), "2^20");
  EXPECT_EQ(FormatCount(1000000), "1,000,000");
  EXPECT_EQ(FormatCount(7), "7");
  EXPECT_EQ(FormatCount(std::ldexp(1.0, 999)), "about 5.4e+300");
  EXPECT_EQ(ParseMemorySize("8G"), 8 * kGB);
  EXPECT_EQ(ParseMemorySize("512MiB"), 512.0 * 1024 * 1024);
  EXPECT_EQ(ParseMemorySize("1.5 gb"), 1.5 * kGB);
  EXPECT_EQ(ParseMemorySize("1000"), 1000.0);
  for (const char* bad : {"", "G", "8X", "-1G", "0", "nan", "1e999"})
    ExpectError<InvalidArgument>([&] { ParseMemorySize(bad); }, {"is not a size"}, "max_memory");
}

TEST(CostCheck, RefusesBeyondTheLimitsAndSaysTheEstimateFirst) {
  CostEstimate e;
  e.method = "xper";
  e.work = "2^20 coalitions x 32,561^2 hybrid points";
  e.model_evaluations = 1.1e14;
  e.AddMemory("comparison grid", 8.5 * kGB);
  e.AddMemory("individual values", 0.1 * kGB);
  EXPECT_NEAR(e.peak_bytes(), 8.6 * kGB, 1.0);
  ExecutionOptions exec;
  int said = 0;
  exec.on_estimate = [&](const CostEstimate& seen) {
    ++said;
    EXPECT_EQ(seen.work, e.work);
  };
  exec.limits.max_memory_bytes = 4 * kGB;
  ExpectError<ResourceError>([&] { CheckCost(e, exec, "use the permuted comparator", {"comparator"}); },
                             {"xper: 2^20 coalitions", "8.6 GB of memory", "comparison grid 8.5 GB",
                              "memory limit of 4 GB", "use the permuted comparator"},
                             "max_memory");
  EXPECT_EQ(said, 0);  // a refused estimate is in the refusal, not said apart
  exec.limits.max_memory_bytes = 16 * kGB;
  ExpectError<ResourceError>([&] { CheckCost(e, exec, "use fewer rows", {"rows"}); },
                             {"1.1e+14 model evaluations", "limit of 1e+14 model evaluations", "would not finish"},
                             "max_model_evaluations");
  exec.limits.max_model_evaluations = 2e14;
  EXPECT_NO_THROW(CheckCost(e, exec, "use fewer rows"));
  EXPECT_EQ(said, 1);
  EXPECT_GT(DefaultMaxMemory(), 0.1 * kGB);
}

TEST(CostCheck, SequenceAddsWorkAndKeepsTheLargestMemory) {
  CostEstimate a, b;
  a.method = "xper";
  a.work = "w1";
  a.model_evaluations = 10;
  a.AddMemory("grid", 100);
  b.method = "robustness";
  b.work = "w2";
  b.model_evaluations = 5;
  b.AddMemory("plan", 300);
  const CostEstimate s = CostEstimate::Sequence("demo", {a, b});
  EXPECT_EQ(s.model_evaluations, 15);
  EXPECT_EQ(s.peak_bytes(), 300);
  EXPECT_EQ(s.work, "xper w1; robustness w2");
}

// The issue's cases, from their shapes alone.
TEST(CostEstimates, TheIssuesHugeRequests) {
  // shap --solver exact on 20 players x 10,000 rows (100 background rows): 10^12 evaluations.
  ShapOptions so;
  so.solver = "exact";
  so.solver_options.max_players = 20;
  ShapShape shape;
  shape.rows = 10000;
  shape.background = 100;
  shape.features = 20;
  shape.players = 20;
  const CostEstimate shap = EstimateShapCost(shape, so);
  EXPECT_DOUBLE_EQ(shap.model_evaluations, std::ldexp(1.0, 20) * 10000.0 * 100.0);
  EXPECT_NE(shap.Text().find("2^20 coalitions x 10,000 rows x 100 background rows"), std::string::npos) << shap.Text();

  // robustness --cv mc:1000000 on banknote (1,372 rows): the split plan alone is ~11 GB.
  RobustnessOptions ro;
  RobustnessShape rs;
  rs.rows = 1372;
  rs.columns = 4;
  rs.players = 4;
  rs.splits = 1000000;
  rs.test_rows = 412;
  const CostEstimate rob = EstimateRobustnessCost(rs, ro);
  EXPECT_GT(rob.peak_bytes(), 10 * kGB);
  EXPECT_DOUBLE_EQ(rob.units, 16.0e6);
  EXPECT_NE(rob.Text().find("split plan"), std::string::npos) << rob.Text();
  // The same plan drawn a window at a time (the command line's mc:R): the splits' values are
  // what grows with the splits (4 players x 3 doubles a split), not the plan.
  rs.drawn = true;
  const double drawn = EstimateRobustnessCost(rs, ro).peak_bytes();
  EXPECT_LT(drawn, 0.5 * kGB);
  rs.splits = 500000;
  EXPECT_NEAR(drawn - EstimateRobustnessCost(rs, ro).peak_bytes(), 500000 * 4 * 3 * 8.0, 1.0);

  // xper on adult (32,561 rows) with the full comparator and a model without additive terms:
  // n^2 doubles (8.5 GB) per thread.
  XperOptions xo;
  xo.comparator = XperComparator::kFull;
  xo.execution.threads = 2;
  XperShape xs;
  xs.rows = 32561;
  xs.columns = 14;
  xs.players = 14;
  xs.additive = false;
  const CostEstimate xper = EstimateXperCost(xs, xo);
  EXPECT_GT(xper.peak_bytes(), 2 * 7.9 * kGB);
  EXPECT_NE(xper.Text().find("comparison grid 15.8 GB"), std::string::npos) << xper.Text();
  xs.additive = true;  // the GLMs' and naive Bayes' fast path keeps no grid
  EXPECT_LT(EstimateXperCost(xs, xo).peak_bytes(), 1 * kGB);
  xo.comparator = XperComparator::kPermuted;
  xs.additive = false;
  EXPECT_LT(EstimateXperCost(xs, xo).peak_bytes(), 1 * kGB);

  // 10,000 players: the exact solver's refusal comes from the estimate, with the method's words.
  xs.players = 10000;
  xo.solver = "exact";
  ExpectError<InvalidArgument>([&] { EstimateXperCost(xs, xo); },
                               {"exact XPER of 10000 features needs 2^10000 (about 2.0e+3010) coalitions"}, "solver");
}

TEST(CostEstimates, FitsOfWideDataAreEstimatedByTheLearner) {
  const auto logistic = MakeLearner("logistic");
  const CostEstimate fit = EstimateFitCost("xper", *logistic, 1000, 10000);
  EXPECT_GT(fit.model_evaluations, 1e12);  // rows x columns^2 a Newton step
  EXPECT_GT(fit.peak_bytes(), 10000.0 * 10000.0 * 8.0);
  const auto gnb = MakeLearner("gnb");
  EXPECT_LT(EstimateFitCost("xper", *gnb, 1000, 10000).model_evaluations, 1e8);
  EXPECT_TRUE(gnb->makes_additive_models());
  EXPECT_TRUE(logistic->makes_additive_models());
  EXPECT_FALSE(MakeLearner("tree")->makes_additive_models());
}

// The entry points refuse before they compute: a memory limit below the estimate.
TEST(CostEstimates, EntryPointsRefuseBeforeTheyStart) {
  ProbitDesign design;
  design.n_rows = 400;
  design.seed = 3;
  const Dataset data = GenerateProbitDesign(design);
  std::vector<std::size_t> rows(data.n_rows()), columns(data.n_features());
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::iota(columns.begin(), columns.end(), std::size_t{0});
  ForestOptions fo;
  fo.n_estimators = 3;
  fo.max_depth = 3;
  const auto forest = FitForest(fo, data, rows, columns);

  XperOptions xo;
  xo.comparator = XperComparator::kFull;
  xo.execution.limits.max_memory_bytes = 64 * 1024;  // the grid alone is 400^2 doubles per thread
  bool said = false;
  xo.execution.on_estimate = [&](const CostEstimate& e) { said = e.method == "xper"; };
  ExpectError<ResourceError>([&] { ExplainXper(*forest, data, xo); }, {"comparison grid", "memory limit of 64 KB"},
                             "max_memory");
  EXPECT_FALSE(said);
  xo.execution.limits.max_memory_bytes = 0.0;
  ExplainXper(*forest, data, xo);
  EXPECT_TRUE(said);

  RobustnessOptions ro;
  ro.execution.limits.max_model_evaluations = 1000;
  const SplitPlan plan = MakeSplitPlan("mc:3", data.n_rows(), 0.3, 1, data.label());
  ExpectError<ResourceError>([&] { ExplainRobustness(data, plan, ro); },
                             {"robustness: 3 splits x 8 coalition trainings", "limit of 1e+03 model evaluations"},
                             "max_model_evaluations");

  std::vector<double> x(3 * 10, 0.5);
  ExecutionOptions exec;
  exec.limits.max_model_evaluations = 10;
  ExpectError<ResourceError>([&] { ExplainTrees(*forest, {x, 10}, {x, 10}, {}, exec); },
                             {"treeshap: 10 rows x 10 background rows x 3 trees"}, "max_model_evaluations");
}

TEST(CostEstimates, SplitPlanSizeWithoutDrawing) {
  EXPECT_EQ(SplitPlanSize("holdout"), 1u);
  EXPECT_EQ(SplitPlanSize("mc:1000000"), 1000000u);
  EXPECT_EQ(SplitPlanSize("kfold:5"), 5u);
  ExpectError<InvalidArgument>([] { SplitPlanSize("mc:0"); }, {"not an integer >= 1"}, "plan");
  ExpectError<InvalidArgument>([] { SplitPlanSize("bootstrap"); }, {"is not understood"}, "plan");
}

}  // namespace
}}  // namespace perfshap
