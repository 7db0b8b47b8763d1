// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The sampled solvers through the CLI (issue 10): `--solver kernel|permutation|auto` on
// robustness (sonar, 60 features, gnb: past the 64-bit coalitions of the exact path's limit)
// and xper (breast cancer, 12 features, checked against the exact run); the result.json keys
// the issue names; a run stopped by its budget says so; thread-count independence; and the
// one-line errors of the acceptance list.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

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

// The rows of a CSV file with a header, as header names and cells.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::size_t column(const std::string& name) const {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<std::size_t>(it - header.begin());
  }
};

std::vector<std::string> SplitCells(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream s(line);
  std::string cell;
  while (std::getline(s, cell, ',')) cells.push_back(cell);
  return cells;
}

Table ReadTable(const std::filesystem::path& path) {
  std::ifstream in(path);
  Table t;
  std::string line;
  std::getline(in, line);
  t.header = SplitCells(line);
  while (std::getline(in, line))
    if (!line.empty()) t.rows.push_back(SplitCells(line));
  return t;
}

// A CSV of n_rows rows and `p` standard-normal-like features (a fixed LCG, no randomness in
// the test) with a label that depends on the first.
std::string WideCsv(int p, int n_rows) {
  std::ostringstream s;
  for (int j = 0; j < p; ++j) s << "x" << j << ",";
  s << "label\n";
  std::uint64_t state = 12345;
  auto uniform = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  for (int i = 0; i < n_rows; ++i) {
    double first = 0.0;
    for (int j = 0; j < p; ++j) {
      const double x = uniform() + uniform() + uniform() - 1.5;
      if (j == 0) first = x;
      s << x << ",";
    }
    s << (first + 0.5 * (uniform() - 0.5) > 0.0 ? 1 : 0) << "\n";
  }
  return s.str();
}

std::string SonarArgs() {
  return "robustness --data " + Quote(testing::FixturePath("data/sonar.csv")) +
         " --label label --model gnb --cv mc:2 --solver kernel --budget 2000";
}

TEST(SampledCli, RobustnessOnSixtyFeaturesCarriesTheIssuesKeysAndSaysItStoppedOnBudget) {
  const auto dir = FreshDir("sampled_sonar");
  const CliRun run = RunCli(SonarArgs() + " --threads 2 --out " + Quote(dir.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto r = ReadJson(dir / "result.json");
  for (const char* key : {"phi", "phi_se", "phi_std", "n_coalitions_evaluated", "converged", "solver",
                          "stopped_by", "convergence_ratio", "tolerance", "budget"})
    EXPECT_TRUE(r.contains(key)) << key;
  EXPECT_EQ(r["solver"], "kernel");
  EXPECT_EQ(r["budget"], 2000);
  // Two splits of at most 2,000 evaluations each; 60 players need far more for 1% of the range.
  EXPECT_GT(r["n_coalitions_evaluated"].get<int>(), 2000);
  EXPECT_LE(r["n_coalitions_evaluated"].get<int>(), 4000);
  EXPECT_FALSE(r["converged"].get<bool>());
  EXPECT_EQ(r["stopped_by"], "budget");
  EXPECT_GT(r["convergence_ratio"].get<double>(), 0.01);
  EXPECT_NE(run.out.find("did not converge: stopped by the budget"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("raise the budget"), std::string::npos);
  // The bands say which spread is which.
  EXPECT_NE(run.out.find("+- is the spread across splits"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("se(AUC) is the sampling standard error"), std::string::npos) << run.out;
  ASSERT_EQ(r["phi_se"].size(), 60u);
  for (const auto& [name, se] : r["phi_se"].items()) {
    EXPECT_GT(se.get<double>(), 0.0) << name;
    EXPECT_TRUE(std::isfinite(se.get<double>())) << name;
  }
  // Efficiency holds exactly in every split: sum_j phi_j = AUC - 1/2.
  const Table splits = ReadTable(dir / "splits.csv");
  ASSERT_EQ(splits.rows.size(), 2u);
  const std::size_t auc = splits.column("auc");
  for (const auto& row : splits.rows) {
    double sum = 0.0;
    for (int j = 1; j <= 60; ++j) sum += std::stod(row[splits.column("phi_v" + std::to_string(j))]);
    EXPECT_NEAR(sum, std::stod(row[auc]) - 0.5, 1e-9);
    EXPECT_GT(std::stod(row[splits.column("se_v1")]), 0.0);
  }
}

TEST(SampledCli, RobustnessIsIdenticalAtOneTwoAndFourThreads) {
  std::string first;
  for (int threads : {1, 2, 4}) {
    const auto dir = FreshDir("sampled_threads" + std::to_string(threads));
    const CliRun run =
        RunCli(SonarArgs() + " --keep-samples --quiet --threads " + std::to_string(threads) + " --out " + Quote(dir.string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const std::string text = ReadText(dir / "splits.csv") + ReadText(dir / "samples.csv");
    if (first.empty()) first = text;
    EXPECT_EQ(text, first) << threads << " threads";
  }
}

TEST(SampledCli, KeepSamplesWritesEveryCoalitionOfEverySplit) {
  const auto dir = FreshDir("sampled_keep");
  ASSERT_EQ(RunCli(SonarArgs() + " --keep-samples --quiet --out " + Quote(dir.string())).exit_code, 0);
  const auto r = ReadJson(dir / "result.json");
  const Table samples = ReadTable(dir / "samples.csv");
  EXPECT_EQ(samples.header, (std::vector<std::string>{"split", "coalition", "auc"}));
  // Every evaluation is kept, in the solver's order.
  EXPECT_EQ(samples.rows.size(), r["n_coalitions_evaluated"].get<std::size_t>());
  for (const auto& row : samples.rows) ASSERT_EQ(row[1].size(), 60u);
  // Without the flag there is no samples.csv.
  const auto plain = FreshDir("sampled_nokeep");
  ASSERT_EQ(RunCli(SonarArgs() + " --quiet --out " + Quote(plain.string())).exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(plain / "samples.csv"));
}

TEST(SampledCli, AutoIsExactWhileTheCoalitionsFitTheBudget) {
  const std::string data = Quote(testing::FixturePath("data/banknote.csv"));
  const auto exact = FreshDir("auto_exact");
  const auto autod = FreshDir("auto_auto");
  ASSERT_EQ(RunCli("robustness --data " + data + " --label label --model gnb --cv mc:3 --quiet --out " +
                   Quote(exact.string())).exit_code, 0);
  ASSERT_EQ(RunCli("robustness --data " + data + " --label label --model gnb --cv mc:3 --solver auto --quiet --out " +
                   Quote(autod.string())).exit_code, 0);
  const auto a = ReadJson(autod / "result.json");
  const auto e = ReadJson(exact / "result.json");
  EXPECT_EQ(a["solver"], "exact");
  EXPECT_TRUE(a["converged"].get<bool>());
  EXPECT_EQ(a["phi"], e["phi"]);
}

// A 12-feature XPER game on 200 breast-cancer rows: the kernel solver converges to its
// tolerance, efficiency holds exactly, every value lies within 4 se of the exact one, and the
// individual values carry standard errors.
TEST(SampledCli, XperKernelAgreesWithExactWithinItsStandardErrors) {
  std::ifstream in(testing::FixturePath("data/breast_cancer.csv"));
  std::string text;
  std::string line;
  for (int i = 0; i < 201 && std::getline(in, line); ++i) text += line + "\n";
  const std::string data = Quote(testing::WriteTempFile("bc200.csv", text));
  const std::string features =
      "mean_radius,mean_texture,mean_perimeter,mean_area,mean_smoothness,mean_compactness,mean_concavity,"
      "mean_concave_points,mean_symmetry,mean_fractal_dimension,radius_error,texture_error";
  const std::string common =
      "xper --data " + data + " --train " + data + " --label label --model logistic --features " + features +
      " --explain-row 0 --quiet --threads 2";
  const auto exact_dir = FreshDir("xper_exact");
  const auto kernel_dir = FreshDir("xper_kernel");
  ASSERT_EQ(RunCli(common + " --out " + Quote(exact_dir.string())).exit_code, 0);
  const CliRun run = RunCli(common + " --solver kernel --budget 1500 --tolerance 0.02 --out " + Quote(kernel_dir.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto e = ReadJson(exact_dir / "result.json");
  const auto k = ReadJson(kernel_dir / "result.json");
  EXPECT_EQ(e["solver"], "exact");
  EXPECT_FALSE(e.contains("phi_se"));
  EXPECT_EQ(k["solver"], "kernel");
  EXPECT_TRUE(k["converged"].get<bool>());
  EXPECT_EQ(k["stopped_by"], "tolerance");
  EXPECT_LT(k["convergence_ratio"].get<double>(), 0.02);
  EXPECT_LT(k["n_coalitions_evaluated"].get<int>(), 4096);
  double sum = 0.0;
  for (const auto& [name, phi] : k["phi"].items()) {
    const double se = k["phi_se"][name].get<double>();
    sum += phi.get<double>();
    EXPECT_GT(se, 0.0) << name;
    EXPECT_LE(std::abs(phi.get<double>() - e["phi"][name].get<double>()), 4.0 * se) << name;
  }
  EXPECT_NEAR(sum, k["value"].get<double>() - k["base"].get<double>(), 1e-12);
  EXPECT_EQ(k["explained_row"]["phi_se"].size(), 12u);
  const Table individual = ReadTable(kernel_dir / "individual.csv");
  EXPECT_EQ(individual.rows.size(), 200u);
  EXPECT_GT(std::stod(individual.rows[0][individual.column("se_mean_radius")]), 0.0);
}

struct BadSampling {
  const char* name;
  std::string args;
  const char* says;  // the part of the one-line error that says what to do
};

class SampledCliBadInput : public ::testing::TestWithParam<BadSampling> {};

TEST_P(SampledCliBadInput, OneLineErrorSayingWhatToDo) {
  const BadSampling& p = GetParam();
  const auto dir = FreshDir(std::string("sampled_bad_") + p.name);
  std::string args = p.args;
  const std::string wide = "@WIDE@";
  for (auto at = args.find(wide); at != std::string::npos; at = args.find(wide))
    args.replace(at, wide.size(), Quote(testing::WriteTempFile("wide70.csv", WideCsv(70, 40))));
  const CliRun run = RunCli(args + " --out " + Quote(dir.string()));
  EXPECT_EQ(run.exit_code, 2) << run.out;
  EXPECT_TRUE(OneLine(run.err)) << run.err;
  EXPECT_NE(run.err.find(p.says), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir / "result.json"));
}

std::string BreastCancer() { return Quote(testing::FixturePath("data/breast_cancer.csv")); }

INSTANTIATE_TEST_SUITE_P(
    Flags, SampledCliBadInput,
    ::testing::Values(
        BadSampling{"kernel_budget", "robustness --data " + BreastCancer() +
                                         " --label label --model gnb --solver kernel --budget 31",
                    "it needs at least 32; raise the budget (--budget)"},
        BadSampling{"xper_kernel_budget", "xper --data @WIDE@ --train @WIDE@ --label label --model logistic "
                                          "--solver kernel --budget 50",
                    "it needs at least 72; raise the budget (--budget)"},
        BadSampling{"tolerance_zero", "robustness --data " + BreastCancer() +
                                          " --label label --model gnb --solver kernel --tolerance 0",
                    "robustness: option tolerance must be a finite number in (0, 1), got '0' (--tolerance)"},
        BadSampling{"tolerance_one", "xper --data @WIDE@ --train @WIDE@ --label label --model logistic "
                                     "--solver kernel --tolerance 1",
                    "xper: option tolerance must be a finite number in (0, 1), got '1' (--tolerance)"},
        BadSampling{"time_limit", "robustness --data " + BreastCancer() + " --label label --time-limit -1",
                    "robustness: option time_limit must be a finite number >= 0, got '-1' (--time-limit)"},
        BadSampling{"robustness_exact_70", "robustness --data @WIDE@ --label label --model gnb --solver exact",
                    "use a sampled solver (kernel, permutation or auto)"},
        BadSampling{"xper_exact_70", "xper --data @WIDE@ --train @WIDE@ --label label --model logistic",
                    "use a sampled solver (kernel, permutation or auto)"},
        BadSampling{"keep_samples_exact", "robustness --data " + BreastCancer() +
                                              " --label label --features mean_radius,mean_texture --keep-samples",
                    "the exact solver draws none; choose the kernel or permutation solver (--solver, --keep-samples)"},
        BadSampling{"keep_samples_auto_exact", "robustness --data " + Quote(testing::FixturePath("data/banknote.csv")) +
                                                   " --label label --solver auto --keep-samples",
                    "the auto solver chose the exact one (2^n fits the budget); choose the kernel or permutation"},
        BadSampling{"unknown_solver", "robustness --data " + BreastCancer() + " --label label --solver shapley",
                    "robustness: option solver = 'shapley' is not one of exact, permutation, kernel, auto (--solver)"}),
    [](const ::testing::TestParamInfo<BadSampling>& param) { return std::string(param.param.name); });

}  // namespace
}}  // namespace perfshap
