// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The request layer's robustness method (api/robustness_request.hpp), which the CLI and Python
// both call: a table in memory, a CSV file and the method's own entry point give the same
// numbers bit for bit; explicit splits equal the drawn plan they copy; bad requests are refused
// naming the option.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "api/data_input.hpp"
#include "api/robustness_request.hpp"
#include "api/sampling_input.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/interactions.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/split.hpp"
#include "support/expect_error.hpp"
#include "support/synthetic_games.hpp"
#include "support/tables.hpp"
#include "support/test_paths.hpp"
#include "support/robustness_checks.hpp"

namespace perfshap { inline namespace v0 {
namespace {

std::string Banknote() { return testing::FixturePath("data/banknote.csv"); }

Dataset ReadBanknote() {
  CsvOptions csv;
  csv.label = "label";
  return ReadCsv(Banknote(), csv);
}

/** The data set's columns as a table in memory (its buffers read in place). */
std::shared_ptr<const Table> AsTable(const Dataset& d) { return testing::TableOf(d); }

api::RobustnessRequest Request() {
  api::RobustnessRequest r;
  r.data.path = Banknote();
  r.data.label = "label";
  r.splits.plan = "mc:5";
  r.seed = 3;
  r.options.execution.threads = 2;
  return r;
}

TEST(RobustnessRequest, FileTableAndTheMethodGiveTheSameNumbers) {
  const api::RobustnessResponse from_file = api::RunRobustness(Request());
  const Dataset data = ReadBanknote();
  api::RobustnessRequest in_memory = Request();
  in_memory.data.path.clear();
  in_memory.data.table = AsTable(data);
  const api::RobustnessResponse from_table = api::RunRobustness(in_memory);
  testing::ExpectSameRobustness(from_file.result, from_table.result);
  EXPECT_EQ(from_table.run.data, "the frame");
  EXPECT_EQ(from_file.run.n_rows, 1372u);
  EXPECT_EQ(from_file.run.plan, "mc:5");
  ASSERT_TRUE(from_file.run.test_size.has_value());
  EXPECT_EQ(*from_file.run.test_size, 0.2);

  // The method's own entry point on the same plan.
  const SplitPlan plan = MakeSplitPlan("mc:5", data.n_rows(), 0.2, 3);
  RobustnessOptions opt;
  opt.execution.threads = 1;
  const RobustnessResult direct = ExplainRobustness(data, plan, opt);
  testing::ExpectSameRobustness(from_file.result, direct);
  EXPECT_GT(direct.phi_auc_mean[0], 0.1);  // variance: the strongest feature of banknote
}

TEST(RobustnessRequest, ExplicitSplitsEqualTheDrawnPlanTheyCopy) {
  const api::RobustnessResponse drawn = api::RunRobustness(Request());
  api::RobustnessRequest given = Request();
  SplitPlan plan = MakeSplitPlan("mc:5", 1372, 0.2, 3);
  for (Split& s : plan) std::reverse(s.test.begin(), s.test.end());  // any order: sorted on the way in
  given.splits.splits = plan;
  given.splits.name = "split";
  const api::RobustnessResponse explicit_run = api::RunRobustness(given);
  testing::ExpectSameRobustness(drawn.result, explicit_run.result);
  EXPECT_EQ(explicit_run.run.plan, "split");
  EXPECT_FALSE(explicit_run.run.test_size.has_value());
  given.splits.file = "splits.json";
  testing::ExpectError<InvalidArgument>([&] { api::RunRobustness(given); }, {"in memory or as a file"});
}

TEST(RobustnessRequest, SplitsInMemoryAreCheckedAsAFilesAre) {
  const auto check = [](SplitPlan plan, bool listed) { return CheckSplits(std::move(plan), 10, "split", listed); };
  EXPECT_EQ(check({{{3, 1, 2}, {0, 5}}}, false)[0].train, (std::vector<std::size_t>{1, 2, 3}));
  testing::ExpectError<DataError>([&] { check({{{999}, {1}}}, true); },
                                  {"split: splits[0].train[0]: row 999 is out of range: the data have 10 rows"});
  testing::ExpectError<DataError>([&] { check({{{0, 1, 3}, {3, 4}}}, false); },
                                  {"split: row 3 is in both train and test"});
  testing::ExpectError<DataError>([&] { check({{{0, 1}, {}}}, false); }, {"split: test is empty"});
  testing::ExpectError<DataError>([&] { check({{{0, 1}, {2}}, {{0, 0}, {2}}}, true); },
                                  {"split: splits[1].train: row 0 is listed twice"});
  testing::ExpectError<DataError>([&] { check({}, true); }, {"no splits"});
}

TEST(RobustnessRequest, BadRequestsNameTheirOption) {
  api::RobustnessRequest no_label = Request();
  no_label.data.label.clear();
  testing::ExpectError<InvalidArgument>([&] { api::RunRobustness(no_label); }, {}, "label");
  api::RobustnessRequest slice = Request();
  slice.slice_fpr = 1.5;
  testing::ExpectError<InvalidArgument>([&] { api::RunRobustness(slice); }, {}, "slice_fpr");
  api::RobustnessRequest host = Request();
  host.learner.learner = MakeLearner("gnb");
  host.learner.params["C"] = "2";
  testing::ExpectError<InvalidArgument>([&] { api::RunRobustness(host); }, {}, "model_params");
  SamplingOptions sampling;
  sampling.tolerance = 0.0;
  testing::ExpectError<InvalidArgument>([&] { api::CheckSampling("kernel", sampling); }, {}, "tolerance");
  sampling.tolerance = 0.01;
  sampling.time_limit_seconds = -1.0;
  testing::ExpectError<InvalidArgument>([&] { api::CheckSampling("kernel", sampling); }, {}, "time_limit_seconds");
  sampling.time_limit_seconds = 0.0;
  sampling.keep_samples = true;
  testing::ExpectError<InvalidArgument>([&] { api::CheckSampling("exact", sampling); }, {}, "keep_samples");
  EXPECT_NO_THROW(api::CheckSampling("kernel", sampling));
  EXPECT_EQ(api::ParseMissingValues("drop"), MissingValues::kDrop);
  testing::ExpectError<InvalidArgument>([&] { api::ParseMissingValues("ignore"); }, {}, "missing");
}

TEST(RobustnessRequest, TheGeneratedDesignNeedsNoData) {
  api::RobustnessRequest r;
  r.data.generated_rows = 300;
  r.seed = 7;
  r.options.execution.threads = 1;
  const api::RobustnessResponse a = api::RunRobustness(r);
  EXPECT_EQ(a.run.n_rows, 300u);
  EXPECT_EQ(a.result.features.size(), 3u);
  r.options.execution.threads = 2;
  testing::ExpectSameRobustness(a.result, api::RunRobustness(r).result);  // any thread count, bit for bit
}

TEST(RobustnessRequest, InteractionsAreEachSplitsSiiOfItsCoalitionAucsAndAddUpToPhi) {
  api::RobustnessRequest q = Request();
  q.options.interactions = true;
  const RobustnessResult r = api::RunRobustness(q).result;
  const std::size_t p = r.n_features();
  const std::size_t R = r.n_splits;
  const std::size_t C = std::size_t{1} << p;
  ASSERT_EQ(r.interaction_auc_by_split.size(), R * p * p);
  ASSERT_EQ(r.coalition_auc.size(), R * C);
  std::vector<double> mean(p * p, 0.0);
  for (std::size_t s = 0; s < R; ++s) {
    // The split's game from its stored coalition AUCs: its interactions, from the definitions.
    const testing::FunctionGame auc(static_cast<int>(p), 1, [&](Coalition c, std::span<double> out) {
      out[0] = r.coalition_auc[s * C + c];
    });
    const InteractionValues want = ExactInteractions(auc, InteractionIndex::kShapley);
    for (std::size_t i = 0; i < p; ++i) {
      double row = 0.0;
      for (std::size_t j = 0; j < p; ++j) {
        const double got = r.interaction_auc_by_split[(s * p + i) * p + j];
        EXPECT_NEAR(got, want(static_cast<int>(i), static_cast<int>(j), 0), 1e-12) << s << ": " << i << "," << j;
        row += got;
        mean[i * p + j] += got / static_cast<double>(R);
      }
      EXPECT_NEAR(row, r.phi_auc_by_split[s * p + i], 1e-12);
    }
  }
  for (std::size_t e = 0; e < p * p; ++e) {
    EXPECT_NEAR(r.interaction_auc_mean[e], mean[e], 1e-12);
    EXPECT_GE(r.interaction_auc_std[e], 0.0);
  }
  // A sampled solver has no coalition values to take them from.
  api::RobustnessRequest sampled = q;
  sampled.options.solver = "permutation";
  testing::ExpectError<InvalidArgument>([&] { api::RunRobustness(sampled); }, {"exact solver"}, "interactions");
}

}  // namespace
}}  // namespace perfshap
