// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap xper` as a user runs it: out of the box, on the XPER package's reference case
// (tests/fixtures/refs/xper), result.json and individual.csv, and one-line errors with exit code 2
// for a coefficient file that does not match the data, a bad permutation file, and an AUC on
// a one-class sample.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::FixturePath;
using testing::FreshDir;
using testing::ReadText;
using testing::RunCli;

std::size_t CountLines(const std::string& s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

std::string Q(const std::string& s) { return "'" + s + "'"; }

std::vector<std::vector<std::string>> Cells(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::string cell;
    std::istringstream l(line);
    while (std::getline(l, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

// The package's permutation as a plain one-index-per-line file.
std::string PermutationFile() {
  const auto rows = Cells(ReadText(FixturePath("refs/xper/auc_shuffle_permutation_seed42_n300.csv")));
  std::string text;
  for (std::size_t r = 1; r < rows.size(); ++r) text += rows[r][1] + "\n";
  return testing::WriteTempFile("perm300.txt", text);
}

std::string ReferenceArgs(const std::string& metric) {
  const bool regression = metric == "mse" || metric == "r2";
  const std::string data =
      FixturePath(regression ? "refs/xper/test_set_regression.csv" : "refs/xper/test_set.csv");
  const std::string coef =
      FixturePath(regression ? "refs/xper/ols_coefficients.csv" : "refs/xper/probit_coefficients.csv");
  return "xper --quiet --metric " + metric + " --data " + Q(data) + " --label " +
         (regression ? "y_cont" : "y") + " --features x1,x2,x3 --model " +
         (regression ? "linear" : "probit") + " --coef " + Q(coef);
}

void ExpectOneLineError(const testing::CliRun& run, const std::string& needle) {
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(CountLines(run.err), 1u) << run.err;
  EXPECT_NE(run.err.find(needle), std::string::npos) << run.err;
}

TEST(XperCli, RunsOutOfTheBoxOnTheGeneratedProbitDesign) {
  const auto dir = FreshDir("xper_default");
  const auto run = RunCli("xper --quiet --threads 2 --out " + Q(dir.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.empty());
  const auto j = nlohmann::json::parse(ReadText(dir / "result.json"));
  for (const char* key : {"method", "features", "metric", "value", "base", "phi", "phi_normalised", "n_rows",
                          "version", "threads"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["method"], "xper");
  EXPECT_EQ(j["metric"], "auc");
  EXPECT_EQ(j["n_rows"], 300);
  EXPECT_EQ(j["features"].size(), 3u);
  // Full comparator: the benchmark is the random predictor's AUC, exactly 1/2 (paper, section 3).
  EXPECT_EQ(j["base"].get<double>(), 0.5);
  double sum = j["base"].get<double>();
  for (const auto& [name, v] : j["phi"].items()) sum += v.get<double>();
  EXPECT_NEAR(sum, j["value"].get<double>(), 1e-12);
  const auto csv = Cells(ReadText(dir / "individual.csv"));
  ASSERT_EQ(csv.size(), 301u);
  EXPECT_EQ(csv[0], (std::vector<std::string>{"i", "phi_i0", "phi_x1", "phi_x2", "phi_x3"}));
  // Only the output files: the writes are atomic (no temporary left behind).
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    files.push_back(e.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{".perfshap-manifest.json", "individual.csv", "result.json",
                                             "xper_bar.svg", "xper_individual.svg"}));
}

TEST(XperCli, InteractionsExactAndSampledAddUpToPhiPerFeature) {
  // The generated probit design (3 features): each row of the interaction matrix adds up to the
  // feature's phi; the pairs in interactions.csv are twice the matrix entries; sampled with
  // standard errors that cover the exact pairs.
  const auto exact_dir = FreshDir("xper_interactions");
  ASSERT_EQ(RunCli("xper --quiet --interactions --out " + Q(exact_dir.string())).exit_code, 0);
  const auto j = nlohmann::json::parse(ReadText(exact_dir / "result.json"));
  const auto& m = j["interactions"]["matrix"];
  ASSERT_EQ(m.size(), 3u);
  EXPECT_TRUE(j["interactions"]["se"].is_null());
  for (std::size_t i = 0; i < 3; ++i) {
    double row = 0.0;
    for (std::size_t k = 0; k < 3; ++k) {
      row += m[i][k].get<double>();
      EXPECT_EQ(m[i][k].get<double>(), m[k][i].get<double>()) << "symmetric";
    }
    EXPECT_NEAR(row, j["phi"][j["features"][i].get<std::string>()].get<double>(), 1e-12) << i;
  }
  const auto pairs = Cells(ReadText(exact_dir / "interactions.csv"));
  ASSERT_EQ(pairs.size(), 4u);
  EXPECT_EQ(pairs[0], (std::vector<std::string>{"feature_a", "feature_b", "sii"}));
  EXPECT_NEAR(std::stod(pairs[1][2]), 2.0 * m[0][1].get<double>(), 1e-12);
  EXPECT_NE(ReadText(exact_dir / "xper_interactions.svg").find("XPER interactions"), std::string::npos);

  // Sampled, on 120 generated rows of 4 features whose pairs interact: standard errors that
  // cover the exact pairs.
  std::string csv = "x1,x2,x3,x4,y\n";
  std::uint64_t state = 7;
  const auto uniform = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5;
  };
  for (int i = 0; i < 120; ++i) {
    const double x1 = uniform(), x2 = uniform(), x3 = uniform(), x4 = uniform();
    const int y = x1 + 4.0 * x2 * x3 + 0.5 * x4 + 0.3 * uniform() > 0.0 ? 1 : 0;
    csv += std::to_string(x1) + "," + std::to_string(x2) + "," + std::to_string(x3) + "," +
           std::to_string(x4) + "," + std::to_string(y) + "\n";
  }
  const std::string data = testing::WriteTempFile("xper_interactions.csv", csv);
  const std::string common =
      "xper --quiet --interactions --data " + Q(data) + " --label y --model logistic --train " + Q(data);
  const auto exact4_dir = FreshDir("xper_interactions_exact4");
  ASSERT_EQ(RunCli(common + " --out " + Q(exact4_dir.string())).exit_code, 0);
  const auto e4 = nlohmann::json::parse(ReadText(exact4_dir / "result.json"))["interactions"]["matrix"];
  const auto sampled_dir = FreshDir("xper_interactions_sampled");
  ASSERT_EQ(RunCli(common + " --solver permutation --budget 6000 --tolerance 0.001 --out " +
                   Q(sampled_dir.string()))
                .exit_code,
            0);
  const auto s = nlohmann::json::parse(ReadText(sampled_dir / "result.json"));
  const auto& se = s["interactions"]["se"];
  ASSERT_EQ(se.size(), 4u);
  std::size_t varying = 0;
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t k = i + 1; k < 4; ++k) {
      varying += se[i][k].get<double>() > 0.0 ? 1 : 0;
      EXPECT_LE(std::fabs(s["interactions"]["matrix"][i][k].get<double>() - e4[i][k].get<double>()),
                5.0 * se[i][k].get<double>() + 1e-9);
    }
  EXPECT_GT(varying, 0u);
  const auto sampled_pairs = Cells(ReadText(sampled_dir / "interactions.csv"));
  EXPECT_EQ(sampled_pairs[0], (std::vector<std::string>{"feature_a", "feature_b", "sii", "sii_se"}));
}

TEST(XperCli, ReferenceAucMatchesThePackage) {
  const auto dir = FreshDir("xper_ref_auc");
  const auto run = RunCli(ReferenceArgs("auc") + " --comparator permuted --permutation " +
                          Q(PermutationFile()) + " --out " + Q(dir.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(ReadText(dir / "result.json"));
  const auto ref = nlohmann::json::parse(ReadText(FixturePath("refs/xper/exact_outputs.json")))["AUC"];
  EXPECT_NEAR(j["value"].get<double>(), ref["metric_value"].get<double>(), 1e-10);
  EXPECT_NEAR(j["base"].get<double>(), ref["phi0"].get<double>(), 1e-10);
  const char* names[] = {"x1", "x2", "x3"};
  for (int f = 0; f < 3; ++f)
    EXPECT_NEAR(j["phi"][names[f]].get<double>(), ref["phi"][f].get<double>(), 1e-10);
  // individual.csv against phi_individual_AUC_exact.csv, every cell.
  const auto got = Cells(ReadText(dir / "individual.csv"));
  const auto want = Cells(ReadText(FixturePath("refs/xper/phi_individual_AUC_exact.csv")));
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t r = 1; r < got.size(); ++r)
    for (std::size_t c = 1; c < 5; ++c)
      ASSERT_NEAR(std::stod(got[r][c]), std::stod(want[r][c]), 1e-10) << r << "," << c;
}

TEST(XperCli, ReferenceMseIsDecomposedAsMinusMse) {
  const auto dir = FreshDir("xper_ref_mse");
  const auto run = RunCli(ReferenceArgs("mse") + " --out " + Q(dir.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(ReadText(dir / "result.json"));
  const auto ref = nlohmann::json::parse(ReadText(FixturePath("refs/xper/exact_outputs.json")))["MSE"];
  EXPECT_NEAR(j["value"].get<double>(), -ref["metric_value"].get<double>(), 1e-10);
  EXPECT_NEAR(j["base"].get<double>(), ref["phi0"].get<double>(), 1e-10);
  EXPECT_NEAR(j["phi"]["x2"].get<double>(), ref["phi"][1].get<double>(), 1e-10);
}

// --conditional: the features off a coalition drawn given the row's values on it, fitted to the
// background (rows drawn from the data, or a file); the value is the sample's AUC as the marginal
// decomposition's, the values add up to it, and every one has the draws' standard error.
TEST(XperCli, ConditionalValueFunctionOnTheReferenceCase) {
  const auto marginal = FreshDir("xper_cond_marginal");
  ASSERT_EQ(RunCli(ReferenceArgs("auc") + " --out " + Q(marginal.string())).exit_code, 0);
  const auto m = nlohmann::json::parse(ReadText(marginal / "result.json"));
  EXPECT_FALSE(m.contains("conditional"));
  const std::string data = FixturePath("refs/xper/test_set.csv");
  for (const std::string& background : {std::string(" --background 150"), " --background-file " + Q(data)}) {
    const auto dir = FreshDir("xper_cond");
    const auto run = RunCli(ReferenceArgs("auc") + " --conditional copula --conditional-samples 200" +
                            background + " --out " + Q(dir.string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto j = nlohmann::json::parse(ReadText(dir / "result.json"));
    EXPECT_EQ(j["conditional"], "copula");
    EXPECT_EQ(j["conditional_samples"], 200);
    EXPECT_EQ(j["background_rows"], background.find("file") != std::string::npos ? 300 : 150);
    EXPECT_NEAR(j["value"].get<double>(), m["value"].get<double>(), 1e-12);
    double sum = j["base"].get<double>();
    for (const char* f : {"x1", "x2", "x3"}) {
      sum += j["phi"][f].get<double>();
      EXPECT_GT(j["phi_se"][f].get<double>(), 0.0) << f;
      // The features are drawn independently in the design: near the marginal values.
      EXPECT_NEAR(j["phi"][f].get<double>(), m["phi"][f].get<double>(), 0.02) << f;
    }
    EXPECT_NEAR(sum, j["value"].get<double>(), 1e-12);
    // 300 rows, 200 draws: the marginal decomposition (n^2 hybrid points) would cost more; not made.
    EXPECT_FALSE(j.contains("marginal_comparison"));
  }
  // With n <= conditional_samples the marginal decomposition is computed beside the conditional
  // one: its values are the marginal run's, bitwise, and the ranks are compared.
  const auto dir = FreshDir("xper_cond_side");
  ASSERT_EQ(RunCli(ReferenceArgs("auc") + " --conditional gaussian --conditional-samples 300 --out " +
                   Q(dir.string()))
                .exit_code,
            0);
  const auto j = nlohmann::json::parse(ReadText(dir / "result.json"));
  const auto& side = j["marginal_comparison"];
  EXPECT_EQ(side["value_function"], "gaussian");
  for (const char* f : {"x1", "x2", "x3"}) {
    EXPECT_EQ(side["players"][f]["marginal"].get<double>(), m["phi"][f].get<double>()) << f;
    EXPECT_EQ(side["players"][f]["conditional"].get<double>(), j["phi"][f].get<double>()) << f;
  }
  EXPECT_TRUE(std::filesystem::exists(dir / "conditional_vs_marginal.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir / "conditional_vs_marginal.svg"));
  // The background belongs to a conditional value function; regression gives no draws.
  ExpectOneLineError(RunCli(ReferenceArgs("auc") + " --background 50"), "conditional");
  ExpectOneLineError(RunCli(ReferenceArgs("auc") + " --conditional regression"), "regression");
  // A request whose draws would take all the memory is refused before any work, naming the draws.
  ExpectOneLineError(RunCli(ReferenceArgs("auc") + " --conditional gaussian --conditional-samples 10000000"),
                     "fewer conditional_samples");
}

TEST(XperCli, SameOutputForOneAndTwoThreads) {
  const auto d1 = FreshDir("xper_t1");
  const auto d2 = FreshDir("xper_t2");
  ASSERT_EQ(RunCli("xper --quiet --metric brier --threads 1 --out " + Q(d1.string())).exit_code, 0);
  ASSERT_EQ(RunCli("xper --quiet --metric brier --threads 2 --out " + Q(d2.string())).exit_code, 0);
  EXPECT_EQ(ReadText(d1 / "individual.csv"), ReadText(d2 / "individual.csv"));
}

TEST(XperCli, TrainsTheModelOnATrainFile) {
  const std::string data = FixturePath("refs/xper/test_set.csv");
  const auto dir = FreshDir("xper_train");
  const auto run =
      RunCli("xper --quiet --data " + Q(data) + " --label y --features x1,x2,x3 --model probit --train " +
             Q(data) + " --metric accuracy --out " + Q(dir.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(ReadText(dir / "result.json"));
  EXPECT_EQ(j["model"]["kind"], "probit");
  EXPECT_EQ(j["model"]["n_train"], 300);
}

TEST(XperCli, CoefficientNamesMustMatchTheData) {
  const std::string data = Q(FixturePath("refs/xper/test_set.csv"));
  const std::string base =
      "xper --quiet --data " + data + " --label y --features x1,x2,x3 --model probit --coef ";
  ExpectOneLineError(RunCli(base + Q(testing::WriteTempFile(
                                       "unknown.csv", "name,coef\nconst,0.1\nx1,0.5\nx2,0.5\nx9,0.1\n"))),
                     "'x9'");
  ExpectOneLineError(
      RunCli(base + Q(testing::WriteTempFile("missing.csv", "name,coef\nconst,0.1\nx1,0.5\nx2,0.5\n"))),
      "'x3'");
  ExpectOneLineError(
      RunCli(base + Q(testing::WriteTempFile("noconst.csv", "name,coef\nx1,0.5\nx2,0.5\nx3,0.1\n"))),
      "const");
  ExpectOneLineError(
      RunCli(base + Q(testing::WriteTempFile("text.csv", "name,coef\nconst,0.1\nx1,abc\nx2,0.5\nx3,0.1\n"))),
      "line 3");
  // Without --features the extra columns index_xb and p_hat are features with no coefficient.
  ExpectOneLineError(RunCli("xper --quiet --data " + data + " --label y --model probit --coef " +
                            Q(FixturePath("refs/xper/probit_coefficients.csv"))),
                     "'index_xb'");
}

TEST(XperCli, BadPermutationFilesAreOneLineErrors) {
  const std::string base = ReferenceArgs("auc") + " --comparator permuted --permutation ";
  std::string short_perm, dup_perm;
  for (int k = 0; k < 299; ++k) short_perm += std::to_string(k) + "\n";
  dup_perm = short_perm + "5\n";
  const std::string short_file = testing::WriteTempFile("short.txt", short_perm);
  ExpectOneLineError(RunCli(base + Q(short_file)), "299 lines");
  ExpectOneLineError(RunCli(base + Q(short_file)), short_file);
  ExpectOneLineError(RunCli(base + Q(testing::WriteTempFile("dup.txt", dup_perm))), "line 300");
  ExpectOneLineError(RunCli(base + Q(testing::WriteTempFile("range.txt", short_perm + "300\n"))),
                     "outside 0..299");
  ExpectOneLineError(RunCli(base + Q(FixturePath("refs/xper/auc_shuffle_permutation_seed42_n300.csv"))),
                     "line 1");
}

TEST(XperCli, AucOnAOneClassSampleIsAnError) {
  const std::string data =
      testing::WriteTempFile("one_class.csv", "x1,x2,y\n0.1,1.0,1\n0.4,-1.0,1\n-0.3,0.5,1\n1.2,0.0,1\n");
  const std::string coef = testing::WriteTempFile("coef2.csv", "name,coef\nconst,0.0\nx1,0.5\nx2,0.5\n");
  ExpectOneLineError(RunCli("xper --quiet --data " + Q(data) + " --label y --model probit --coef " + Q(coef)),
                     "both classes");
  // Other usage errors.
  ExpectOneLineError(RunCli("xper --quiet --data " + Q(data) + " --label y"), "--model");
  ExpectOneLineError(RunCli("xper --quiet --metric f1"), "f1");
  ExpectOneLineError(RunCli("xper --quiet --explain-row 300"), "--explain-row");
  ExpectOneLineError(
      RunCli("xper --quiet --comparator full --permutation " + Q(coef)),
      "needs the permuted comparator (the full comparator uses every pair) (--permutation, --comparator)");
}

}  // namespace
}}  // namespace perfshap
