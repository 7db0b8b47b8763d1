// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The perfshap command as a user runs it: help, version, the demo job, result.json, and the
// one-line errors with exit code 2 for every kind of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <oneapi/tbb/info.h>

#include "cli/cli_runner.hpp"
#include "perfshap/version.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::FixtureDir;
using testing::FixturePath;
using testing::FreshDir;
using testing::RunCli;

std::size_t CountLines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

TEST(Cli, HelpListsSubcommandsAndVersionPrints) {
  const auto help = RunCli("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("demo"), std::string::npos) << help.out;
  const auto version = RunCli("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find(std::string(Version())), std::string::npos) << version.out;
}

TEST(Cli, UnknownFlagIsAUsageErrorOnOneLine) {
  const auto run = RunCli("demo --no-such-flag");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(CountLines(run.err), 1u) << run.err;
  EXPECT_EQ(RunCli("").exit_code, 2);
}

TEST(Cli, RepeatedFlagsBoundsAndLongValuesAreSaidPlainly) {
  // Hardening round 2, minor: CLI11's "At Most 1 required but received 2", a lower bound said
  // as a range up to 1.8e308, and a value of 100,000 bytes echoed whole.
  const std::string huge(100000, 'y');
  testing::ExpectOneLineErrors({
      {"robustness --cv mc:2 --cv mc:3", "--cv was given 2 times; give it once"},
      {"robustness --threads -2", "robustness: option threads must be an integer >= 0, got '-2' (--threads)"},
      {"robustness --model " + huge, "unknown model 'yyy"},
      {"robustness --model " + huge, "yyy...yyy"},
      {"robustness --model " + huge, " bytes) choose one of gnb"},
      {"robustness --test-size " + huge, "is not a number in [0.01, 0.99] (--test-size)"},
      {"robustness --threads " + huge, "is not an integer >= 0 (--threads)"},
  });
  for (const char* flag : {"--model", "--solver", "--features", "--test-size", "--threads", "--curve-mode"}) {
    SCOPED_TRACE(flag);
    EXPECT_LT(RunCli(std::string("robustness ") + flag + " " + huge).err.size(), 600u);
  }
}

TEST(Cli, MoreThreadsThanTheMachineHasAreCappedAndRecorded) {
  const auto dir = FreshDir("threads_cap");
  const auto run = RunCli("xper --quiet --threads 99999 --out '" + dir.string() + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("TBB"), std::string::npos) << run.err;
  const auto j = nlohmann::json::parse(testing::ReadText(dir / "result.json"));
  EXPECT_EQ(j["threads"].get<int>(), tbb::info::default_concurrency());
}

TEST(Cli, DemoWritesResultJsonWithCommonKeys) {
  const auto dir = FreshDir("demo");
  const auto run = RunCli("demo --quiet --threads 2 --out '" + dir.string() + "'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.empty()) << "--quiet printed: " << run.out;
  const auto j = nlohmann::json::parse(testing::ReadText(dir / "result.json"));
  for (const char* key : {"method", "version", "features", "seed", "threads", "elapsed_seconds", "phi", "metrics"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["method"], "demo");
  EXPECT_EQ(j["threads"], 2);
  EXPECT_EQ(j["features"].size(), 3u);
  // Efficiency: 0.5 + sum phi(AUC) is the test AUC the metrics report.
  double sum = 0;
  for (const auto& [name, v] : j["phi"].items()) sum += v.get<double>();
  EXPECT_NEAR(0.5 + sum, j["metrics"]["auc"].get<double>(), 1e-12);
  // The sampled solver's section: 40 features by the kernel solver, converged, with ses, and
  // the features that matter first.
  const auto& sampled = j["sampled"];
  EXPECT_EQ(sampled["solver"], "kernel");
  EXPECT_TRUE(sampled["converged"].get<bool>());
  EXPECT_EQ(sampled["phi_se"].size(), 40u);
  EXPECT_GT(sampled["phi"]["x1"].get<double>(), sampled["phi"]["x5"].get<double>());
  EXPECT_GT(sampled["phi_se"]["x1"].get<double>(), 0.0);
  // Prediction explanations: TreeSHAP of a forest and interventional SHAP of the probit, over
  // the three features, x3 (no effect in the design) the least important for the probit.
  const auto& predictions = j["predictions"];
  EXPECT_EQ(predictions["forest_treeshap"]["approach"], "tree");
  EXPECT_EQ(predictions["forest_treeshap"]["mean_abs"].size(), 3u);
  const auto& probit = predictions["probit_interventional"];
  EXPECT_EQ(probit["solver"], "exact");
  EXPECT_LT(probit["mean_abs"]["x3"].get<double>(), probit["mean_abs"]["x1"].get<double>());
  // AXOM's section: the three L_bar values and the weak mislabelling.
  const auto& axom = j["axom"];
  for (const char* m : {"dt", "rf", "axom"}) EXPECT_GT(axom[m]["L_mean"].get<double>(), 0.0) << m;
  EXPECT_GT(axom["mislabelling"].get<double>(), 0.0);
  // Shapley Chains: x1, x2 reach xor through and / or.
  const auto& chains = j["chains"];
  for (const char* x : {"x1", "x2"})
    EXPECT_LT(chains["xor_direct"][x].get<double>(), 0.1 * chains["xor_indirect"][x].get<double>()) << x;
  // No temporary file is left behind by the atomic write: result.json and the run's manifest.
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 2u);
  EXPECT_TRUE(std::filesystem::exists(dir / ".perfshap-manifest.json"));
}

TEST(Cli, RefusesNonEmptyOutWithoutForce) {
  const auto dir = FreshDir("force");
  ASSERT_EQ(RunCli("demo --quiet --out '" + dir.string() + "'").exit_code, 0);
  const auto before = testing::ReadText(dir / "result.json");
  const auto again = RunCli("demo --quiet --seed 7 --out '" + dir.string() + "'");
  EXPECT_EQ(again.exit_code, 2);
  EXPECT_NE(again.err.find("--force"), std::string::npos) << again.err;
  EXPECT_EQ(testing::ReadText(dir / "result.json"), before);
  EXPECT_EQ(RunCli("demo --quiet --seed 7 --force --out '" + dir.string() + "'").exit_code, 0);
  EXPECT_NE(testing::ReadText(dir / "result.json"), before);
}

TEST(Cli, DemoResultsIdenticalForOneAndTwoThreads) {
  const auto d1 = FreshDir("t1");
  const auto d2 = FreshDir("t2");
  ASSERT_EQ(RunCli("demo --quiet --rows 3000 --threads 1 --out '" + d1.string() + "'").exit_code, 0);
  ASSERT_EQ(RunCli("demo --quiet --rows 3000 --threads 2 --out '" + d2.string() + "'").exit_code, 0);
  auto a = nlohmann::json::parse(testing::ReadText(d1 / "result.json"));
  auto b = nlohmann::json::parse(testing::ReadText(d2 / "result.json"));
  for (auto* j : {&a, &b}) {
    j->erase("threads");
    j->erase("elapsed_seconds");
  }
  EXPECT_EQ(a.dump(), b.dump());
}

TEST(Cli, DemoRunsOnAUserCsv) {
  const auto path = testing::FixturePath("data/banknote.csv");
  const auto run = RunCli("demo --data '" + path + "' --label label");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("variance"), std::string::npos);
}

TEST(Cli, ProgressPlainPrintsLinesOnStderr) {
  const auto run = RunCli("demo --progress plain --rows 2000");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("progress coalitions"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("done"), std::string::npos) << run.err;
  // Not a terminal and no --progress: nothing on stderr.
  EXPECT_TRUE(RunCli("demo").err.empty());
}

struct BadInput {
  const char* name;
  std::string args;
  std::string must_mention;
};

// Readable test names in CTest instead of gtest's byte dump of the parameter.
void PrintTo(const BadInput& input, std::ostream* os) { *os << input.name; }

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, OneLineErrorNamingWhereWithExitCode2) {
  const auto& p = GetParam();
  const auto run = RunCli("demo " + p.args);
  EXPECT_EQ(run.exit_code, 2) << p.name << ": " << run.err;
  EXPECT_EQ(CountLines(run.err), 1u) << p.name << ": " << run.err;
  EXPECT_NE(run.err.find(p.must_mention), std::string::npos) << p.name << ": " << run.err;
  EXPECT_EQ(run.err.find("internal"), std::string::npos) << p.name << ": " << run.err;
}

INSTANTIATE_TEST_SUITE_P(
    AllCases, CliBadInput,
    ::testing::Values(
        BadInput{"MissingFile", "--data '" + FixtureDir() + "/no_such.csv' --label label", "no_such.csv"},
        BadInput{"Directory", "--data '" + FixtureDir() + "' --label label", "director"},
        BadInput{"RaggedRow", "--data '" + FixturePath("ragged.csv") + "' --label label", "ragged.csv:4"},
        BadInput{"TextInNumeric", "--data '" + FixturePath("text_in_numeric.csv") + "' --label label",
                 "text_in_numeric.csv:4"},
        BadInput{"NaN", "--data '" + FixturePath("nan.csv") + "' --label label", "nan.csv:3"},
        BadInput{"Missing", "--data '" + FixturePath("missing.csv") + "' --label label", "missing.csv:3"},
        BadInput{"EmptyFile", "--data '" + FixturePath("empty.csv") + "' --label label", "empty.csv"},
        BadInput{"HeaderOnly", "--data '" + FixturePath("header_only.csv") + "' --label label", "header_only.csv"},
        BadInput{"UnknownLabel", "--data '" + FixturePath("good.csv") + "' --label nope", "nope"},
        BadInput{"SingleClass", "--data '" + FixturePath("single_class.csv") + "' --label label", "single_class.csv"},
        BadInput{"DuplicateColumns", "--data '" + FixturePath("duplicate_columns.csv") + "' --label label",
                 "duplicate_columns.csv"},
        BadInput{"NoLabelFlag", "--data '" + FixturePath("good.csv") + "'", "--label"},
        BadInput{"BadThreads", "--threads -3", "threads"}),
    [](const ::testing::TestParamInfo<BadInput>& param_info) { return std::string(param_info.param.name); });

}  // namespace
}}  // namespace perfshap
