// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// --groups and --missing on the command line: result.json lists the players and their columns,
// adult's text columns are one-hot players (robustness with 14 players under --missing
// category, XPER fitted on a training file), --missing drop says how many rows it dropped, and
// a bad groups file is a one-line error with exit code 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_runner.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::CliRun;
using testing::FreshDir;
using testing::ReadText;
using testing::OneLine;
using testing::Quote;
using testing::ReadJson;
using testing::RunCli;

TEST(GroupsCli, RobustnessListsTheGroupsAsPlayersWithTheirColumns) {
  const std::string groups =
      testing::WriteTempFile("groups.json", R"({"vs": ["variance", "skewness"], "ce": ["curtosis", "entropy"]})");
  const auto out = FreshDir("groups_cli_banknote");
  const CliRun run = RunCli("robustness --data " + Quote(testing::FixturePath("data/banknote.csv")) +
                            " --label label --groups " + Quote(groups) + " --quiet --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = ReadJson(out / "result.json");
  EXPECT_EQ(j["features"], (nlohmann::json{"vs", "ce"}));
  ASSERT_EQ(j["players"].size(), 2U);
  EXPECT_EQ(j["players"][0]["name"], "vs");
  EXPECT_EQ(j["players"][0]["columns"], (nlohmann::json{"variance", "skewness"}));
  EXPECT_EQ(j["players"][1]["columns"], (nlohmann::json{"curtosis", "entropy"}));
  EXPECT_EQ(j["input"]["groups"], groups);
  const double sum = j["phi"]["vs"].get<double>() + j["phi"]["ce"].get<double>();
  EXPECT_NEAR(sum, j["value"].get<double>() - 0.5, 1e-12);
}

// Acceptance: adult (its first 1400 rows here) runs robustness --missing category with 14
// players, the text columns one-hot; efficiency holds to 1e-12.
TEST(GroupsCli, AdultRunsWithFourteenPlayersUnderMissingCategory) {
  const auto out = FreshDir("groups_cli_adult");
  const CliRun run = RunCli("robustness --data " + Quote(testing::FixturePath("data/adult_head.csv")) +
                            " --label label --missing category --grid 11 --quiet --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = ReadJson(out / "result.json");
  ASSERT_EQ(j["features"].size(), 14U);
  ASSERT_EQ(j["players"].size(), 14U);
  EXPECT_EQ(j["players"][1]["name"], "workclass");
  EXPECT_EQ(j["players"][1]["columns"], (nlohmann::json{"workclass"}));
  EXPECT_GT(j["players"][1]["encoded_columns"].size(), 3U);
  EXPECT_EQ(j["players"][1]["encoded_columns"][0].get<std::string>().rfind("workclass=", 0), 0U);
  double sum = 0;
  for (const auto& [name, phi] : j["phi"].items()) sum += phi.get<double>();
  EXPECT_NEAR(sum, j["value"].get<double>() - 0.5, 1e-12);
  EXPECT_EQ(j["input"]["missing"], "category");
}

TEST(GroupsCli, MissingDropSaysHowManyRowsItDropped) {
  const auto out = FreshDir("groups_cli_drop");
  const CliRun run = RunCli("robustness --data " + Quote(testing::FixturePath("data/adult_head.csv")) +
                            " --label label --missing drop --features age,workclass,hours_per_week --grid 11 --out " +
                            Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("rows with a missing cell were dropped"), std::string::npos) << run.out;
  const auto j = ReadJson(out / "result.json");
  EXPECT_GT(j["input"]["dropped_rows"].get<int>(), 50);
  EXPECT_EQ(j["features"], (nlohmann::json{"age", "workclass", "hours_per_week"}));
}

TEST(GroupsCli, XperOfATrainingFileWithTextColumns) {
  // The first 1000 rows train a logistic model, the next 400 are the sample.
  const std::string all = ReadText(testing::FixturePath("data/adult_head.csv"));
  std::string header, train, test;
  std::size_t line = 0, start = 0;
  for (std::size_t pos = all.find('\n'); pos != std::string::npos; start = pos + 1, pos = all.find('\n', start)) {
    const std::string row = all.substr(start, pos + 1 - start);
    if (line == 0) header = row;
    else if (line <= 1000) train += row;
    else test += row;
    ++line;
  }
  const std::string train_path = testing::WriteTempFile("train.csv", header + train);
  const std::string test_path = testing::WriteTempFile("test.csv", header + test);
  const auto out = FreshDir("groups_cli_xper");
  const CliRun run = RunCli("xper --data " + Quote(test_path) + " --label label --model logistic --train " +
                            Quote(train_path) + " --missing category --features age,workclass,sex,hours_per_week" +
                            " --comparator permuted --quiet --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = ReadJson(out / "result.json");
  EXPECT_EQ(j["features"], (nlohmann::json{"age", "workclass", "sex", "hours_per_week"}));
  EXPECT_GT(j["players"][1]["encoded_columns"].size(), 1U);
  double sum = j["base"].get<double>();
  for (const auto& [name, phi] : j["phi"].items()) sum += phi.get<double>();
  EXPECT_NEAR(sum, j["value"].get<double>(), 1e-12);
}

// Acceptance: bad groups files give one-line errors (exit code 2) naming the file, the group and
// the column, whichever method reads them.
TEST(GroupsCli, BadGroupFilesAreOneLineErrors) {
  const std::string data = Quote(testing::FixturePath("data/banknote.csv"));
  struct Case {
    const char* name;
    const char* text;
    const char* needle;
  };
  for (const Case& c : {Case{"unknown.json", R"({"g": ["variance", "skewnes"]})", "names column 'skewnes'"},
                        Case{"twice.json", R"({"a": ["variance"], "b": ["variance", "entropy"]})",
                             "column 'variance' is in group 'a' and in group 'b'"},
                        Case{"empty.json", R"({"g": []})", "group 'g' is empty"},
                        Case{"broken.json", R"({"g": ["variance",)", "not valid JSON"}}) {
    const std::string path = testing::WriteTempFile(c.name, c.text);
    for (const char* method : {"robustness", "xper --model logistic --train " }) {
      const std::string train = std::string(method).rfind("xper", 0) == 0 ? data : "";
      const CliRun run = RunCli(std::string(method) + train + " --data " + data + " --label label --groups " +
                                Quote(path) + " --quiet");
      EXPECT_EQ(run.exit_code, 2) << c.name << " " << method << "\n" << run.err;
      EXPECT_TRUE(OneLine(run.err)) << run.err;
      EXPECT_NE(run.err.find(c.needle), std::string::npos) << run.err;
      EXPECT_NE(run.err.find(c.name), std::string::npos) << run.err;
    }
  }
}

}  // namespace
}}  // namespace perfshap
