// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// `perfshap axom` end to end (issue 12): one data set over two seeds with the issue's result.json
// keys and files, the paper's protocol on its four data sets (one seed, few neighbours), and the
// one-line errors of the acceptance list.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_runner.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::CliRun;
using testing::FreshDir;
using testing::OneLine;
using testing::Quote;
using testing::ReadJson;
using testing::ReadText;
using testing::RunCli;

std::size_t Lines(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::size_t n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

TEST(CliAxom, OneDataSetOverTwoSeedsWritesTheIssuesKeys) {
  const auto out = FreshDir("axom_wine");
  const CliRun run = RunCli("axom --data " + Quote(testing::FixturePath("data/wine.csv")) +
                            " --label label --trees 30 --neighbours 400 --seeds 2 --heatmap-grid 12 --out " +
                            Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto r = ReadJson(out / "result.json");
  EXPECT_EQ(r["method"], "axom");
  for (const char* m : {"dt", "rf", "axom"})
    for (const char* k : {"L_mean", "L_std", "L_hat_mean", "accuracy"}) EXPECT_TRUE(r[m].contains(k)) << m << " " << k;
  EXPECT_GE(r["rf"]["L_hat_mean"].get<double>(), r["rf"]["L_mean"].get<double>());  // the max is above the mean
  for (const char* c : {"dt_vs_rf", "dt_vs_axom", "rf_vs_axom"})
    for (const char* t : {"paired_t", "wilcoxon", "student_t", "mann_whitney"})
      EXPECT_TRUE(r["p_values"][c].contains(t)) << c << " " << t;
  EXPECT_GE(r["mislabelling"].get<double>(), 0.0);
  EXPECT_LT(r["mislabelling"].get<double>(), 0.5);
  EXPECT_EQ(r["per_seed"].size(), 2U);
  EXPECT_EQ(r["n_test"], 18);  // the paper's Table 1 split of wine
  EXPECT_EQ(Lines(out / "points.csv"), 1U + 2U * 18U);
  for (const char* f : {"robustness_box.svg", "heat_difference_rf.svg", "heat_ratio_axom.svg", "heat_mean_ratio_dt.svg"})
    EXPECT_TRUE(std::filesystem::exists(out / f)) << f;
}

TEST(CliAxom, PaperProtocolWritesTheFourTables) {
  const auto out = FreshDir("axom_paper");
  const CliRun run = RunCli("axom --paper --seeds 1 --neighbours 100 --data-dir " +
                            Quote(testing::FixtureDir() + "/data") + " --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* f : {"table1.csv", "table2.csv", "table3.csv", "table4.csv", "tables.md", "fig6_boxplots.svg"})
    EXPECT_TRUE(std::filesystem::exists(out / f)) << f;
  EXPECT_EQ(Lines(out / "table1.csv"), 5U);
  const auto r = ReadJson(out / "result.json");
  EXPECT_EQ(r["method"], "axom");
  for (const char* d : {"wine", "glass", "seeds", "banknote"}) EXPECT_TRUE(r["datasets"].contains(d)) << d;
  EXPECT_EQ(r["datasets"]["glass"]["n_test"], 22);      // Table 1's sizes
  EXPECT_EQ(r["datasets"]["banknote"]["n_test"], 138);
  EXPECT_NE(ReadText(out / "tables.md").find("| 24.9% |"), std::string::npos);  // the paper's Table 4 beside ours
}

TEST(CliAxom, BadInputGivesOneLineErrors) {
  const std::string wine = Quote(testing::FixturePath("data/wine.csv"));
  testing::ExpectOneLineErrors({
      {"axom --data " + wine + " --label label --eps 0", "--eps"},
      {"axom --data " + wine + " --label label --eps 0.6", "(0, 0.5]"},
      {"axom --data " + wine + " --label label --neighbours 0", "--neighbours"},
      {"axom --data " + wine + " --label alcohol", "regression"},
      {"axom --data " + Quote(testing::FixturePath("single_class.csv")) + " --label label", "one class"},
      {"axom --data " + wine + " --model-file " + Quote(testing::FixturePath("xgboost/binary_logistic.json")),
       "boosted"},
      {"axom --label label", "--paper"},
  });
}

}  // namespace
}}  // namespace perfshap
