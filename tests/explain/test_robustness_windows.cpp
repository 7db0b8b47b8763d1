// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// A drawn split plan solved a window at a time (hardening round 2, item 16): the splits drawn
// one at a time are bitwise MakeSplitPlan's, and a run in windows of any size gives bitwise the
// values of the plan held whole (exact with interactions and the selection's retraining,
// sampled with kept samples, a checkpoint resumed across windows), with one progress report
// from 0 to its total.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "data/split_sequence.hpp"
#include "explain/robustness_splits.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/robustness.hpp"
#include "support/temp_files.hpp"
#include "support/robustness_checks.hpp"

namespace perfshap {
namespace {

namespace fs = std::filesystem;

// 150 rows; 3 features, or 8 (256 coalitions: more than the sampled solvers' budget below).
Dataset Probit(bool wide = false) {
  ProbitDesign design;
  design.n_rows = 150;
  if (wide) {
    design.variances = {1.2, 1.0, 1.0, 0.5, 2.0, 1.0, 0.8, 1.5};
    design.beta = {0.05, 0.5, 0.5, 0.0, 0.3, -0.2, 0.0, 0.4, 0.1};
  }
  return GenerateProbitDesign(design);
}

TEST(SplitSequence, DrawnSplitsAreTheWholePlansSplits) {
  const Dataset data = Probit();
  for (const char* spec : {"holdout", "mc:9", "kfold:5", "kfold:7"}) {
    for (const bool stratify : {false, true}) {
      SCOPED_TRACE(std::string(spec) + (stratify ? " stratified" : ""));
      const std::span<const double> labels = stratify ? data.label() : std::span<const double>{};
      const SplitPlan plan = MakeSplitPlan(spec, data.n_rows(), 0.3, 11, labels);
      const detail::SplitSequence drawn = detail::SplitSequence::Drawn(spec, data.n_rows(), 0.3, 11, labels);
      const detail::SplitSequence viewed(plan);
      ASSERT_EQ(drawn.size(), plan.size());
      EXPECT_TRUE(drawn.drawn());
      EXPECT_FALSE(viewed.drawn());
      std::size_t most = 0;
      Split scratch;
      // Drawn out of order and into one reused scratch: each is still the plan's.
      for (std::size_t r = plan.size(); r-- > 0;) {
        const Split& split = drawn.At(r, scratch);
        EXPECT_EQ(split.train, plan[r].train) << r;
        EXPECT_EQ(split.test, plan[r].test) << r;
        EXPECT_EQ(drawn.Sizes(r), std::make_pair(plan[r].train.size(), plan[r].test.size())) << r;
        EXPECT_EQ(viewed.Sizes(r), drawn.Sizes(r)) << r;
        EXPECT_EQ(&viewed.At(r, scratch), &plan[r]) << "a plan in memory is viewed, not copied";
        most = std::max(most, plan[r].test.size());
      }
      EXPECT_EQ(drawn.max_test_rows(), most);
      EXPECT_EQ(viewed.max_test_rows(), most);
    }
  }
  // The fingerprint follows what the splits are made of.
  const auto print = [&](const detail::SplitSequence& s) {
    detail::ByteWriter w;
    s.Fingerprint(w);
    return w.bytes();
  };
  EXPECT_EQ(print(detail::SplitSequence::Drawn("mc:9", 150, 0.3, 11)), print(detail::SplitSequence::Drawn("mc:9", 150, 0.3, 11)));
  EXPECT_NE(print(detail::SplitSequence::Drawn("mc:9", 150, 0.3, 11)), print(detail::SplitSequence::Drawn("mc:9", 150, 0.3, 12)));
  EXPECT_NE(print(detail::SplitSequence::Drawn("mc:9", 150, 0.3, 11)), print(detail::SplitSequence::Drawn("mc:9", 150, 0.25, 11)));
  EXPECT_NE(print(detail::SplitSequence::Drawn("kfold:5", 150, 0.3, 11)), print(detail::SplitSequence::Drawn("kfold:5", 150, 0.3, 12)));
  // The plans' own errors, before anything is drawn.
  EXPECT_THROW(detail::SplitSequence::Drawn("mc:0", 150, 0.3, 1), InvalidArgument);
  EXPECT_THROW(detail::SplitSequence::Drawn("kfold:151", 150, 0.3, 1), InvalidArgument);
  EXPECT_THROW(detail::SplitSequence::Drawn("holdout", 150, 1.5, 1), InvalidArgument);
  EXPECT_THROW(detail::SplitSequence::Drawn("loo", 150, 0.3, 1), InvalidArgument);
}

TEST(RobustnessWindows, AnyWindowGivesTheWholePlansValues) {
  const Dataset data = Probit(true);
  for (const char* solver : {"exact", "kernel"}) {
    for (const char* spec : {"mc:10", "kfold:4"}) {
      SCOPED_TRACE(std::string(solver) + " " + spec);
      RobustnessOptions options;
      options.learner = MakeLearner("logistic");
      options.solver = std::string(solver);
      options.sampling.budget = 120;
      options.sampling.keep_samples = std::string(solver) != "exact";
      options.interactions = std::string(solver) == "exact";
      options.select = true;
      options.extra_metrics = {"brier"};
      options.prc_baseline = PrcBaseline::kPrevalence;
      options.execution.threads = 2;
      const SplitPlan plan = MakeSplitPlan(spec, data.n_rows(), 0.3, 5, data.label());
      const RobustnessResult want = ExplainRobustness(data, plan, options);
      const detail::SplitSequence drawn = detail::SplitSequence::Drawn(spec, data.n_rows(), 0.3, 5, data.label());
      for (const std::size_t window : {1u, 3u, 4u, 100u}) {
        SCOPED_TRACE("window " + std::to_string(window));
        testing::ExpectSameRobustness(detail::ExplainRobustness(data, drawn, options, window), want);
      }
    }
  }
}

TEST(RobustnessWindows, ACheckpointResumesAcrossWindows) {
  const Dataset data = Probit();
  RobustnessOptions options;
  options.learner = MakeLearner("gnb");
  const detail::SplitSequence drawn = detail::SplitSequence::Drawn("mc:9", data.n_rows(), 0.3, 3, data.label());
  const RobustnessResult want = detail::ExplainRobustness(data, drawn, options);
  const fs::path dir = fs::path(testing::WriteTempFile("windows.probe", "")).parent_path() / "windows.ckpt";
  fs::remove_all(dir);
  options.checkpoint = dir.string();
  testing::ExpectSameRobustness(detail::ExplainRobustness(data, drawn, options, 2), want);
  // Splits of the first, a middle and the last window lost: computed again, the rest read.
  for (int lost : {1, 4, 8}) ASSERT_TRUE(fs::remove(dir / ("item-0000000" + std::to_string(lost) + ".bin")));
  testing::ExpectSameRobustness(detail::ExplainRobustness(data, drawn, options, 4), want);
  testing::ExpectSameRobustness(detail::ExplainRobustness(data, drawn, options, 3), want);
  fs::remove_all(dir);
}

TEST(RobustnessWindows, OneProgressFromZeroToItsTotal) {
  const Dataset data = Probit();
  RobustnessOptions options;
  options.learner = MakeLearner("gnb");
  std::vector<Progress> reports;
  options.execution.progress = [&](const Progress& p) { reports.push_back(p); };
  const detail::SplitSequence drawn = detail::SplitSequence::Drawn("mc:12", data.n_rows(), 0.3, 3, data.label());
  detail::ExplainRobustness(data, drawn, options, 5);
  ASSERT_FALSE(reports.empty());
  int finished = 0;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    EXPECT_LE(reports[i].done, reports[i].total) << i;
    if (i > 0) {
      EXPECT_GE(reports[i].done, reports[i - 1].done) << i;
    }
    finished += reports[i].finished ? 1 : 0;
  }
  EXPECT_EQ(finished, 1);
  EXPECT_TRUE(reports.back().finished);
  // 12 splits of 2^p coalitions each, the total known from the first window on.
  const std::uint64_t units = 12 * (std::uint64_t{1} << data.n_features());
  EXPECT_EQ(reports.back().done, units);
  EXPECT_EQ(reports.back().total, units);
}

}  // namespace
}  // namespace perfshap
