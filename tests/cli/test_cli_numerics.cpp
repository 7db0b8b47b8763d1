// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Issue 20 end to end: a feature scaled by 1e154 or 1e306 gives each method's unscaled numbers
// with a learner invariant to the scale (the standardised GLMs, trees), or a one-line error
// naming the feature (Gaussian naive Bayes, the GLMs on raw columns), and then no file with NaN
// is left behind; --data is read once (a pipe works); the messages about huge coalition counts
// and more than 64 players are true, and shap and chains take more than 64 features with the
// sampled solvers.
#include <gtest/gtest.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "support/fifo.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::CliRun;
using testing::ErrorCase;
using testing::ExpectOneLineErrors;
using testing::FreshDir;
using testing::Quote;
using testing::ReadJson;
using testing::ReadText;
using testing::RunCli;

std::vector<std::vector<std::string>> Cells(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) cells.push_back(cell);
    rows.push_back(cells);
  }
  return rows;
}

std::string Fmt(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  return buffer;
}

/** pima's pregnancies (times `factor`), glucose, bmi, pedigree, label and a second 0/1 output
 *  'heavy' (bmi > 32), as a CSV file of its own. */
std::string ScaledPima(double factor) {
  const auto rows = Cells(ReadText(testing::FixturePath("data/pima.csv")));
  std::string text = "pregnancies,glucose,bmi,pedigree,label,heavy\n";
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const auto& c = rows[r];
    text += Fmt(std::stod(c[0]) * factor) + "," + c[1] + "," + c[5] + "," + c[6] + "," + c[8] + "," +
            (std::stod(c[5]) > 32.0 ? "1" : "0") + "\n";
  }
  char name[64];
  std::snprintf(name, sizeof name, "pima_x%g.csv", factor);
  return testing::WriteTempFile(name, text);
}

/** Every number under `want` (objects and arrays walked together) equals got's to `tolerance`. */
void ExpectSameNumbers(const nlohmann::json& got, const nlohmann::json& want, const std::string& at,
                       double tolerance) {
  if (want.is_number()) {
    ASSERT_TRUE(got.is_number()) << at << ": " << got.dump().substr(0, 80);
    const double a = got.get<double>(), b = want.get<double>();
    EXPECT_NEAR(a, b, tolerance * (1.0 + std::abs(b))) << at;
  } else if (want.is_object()) {
    for (const auto& [key, value] : want.items()) {
      ASSERT_TRUE(got.contains(key)) << at << "." << key;
      ExpectSameNumbers(got[key], value, at + "." + key, tolerance);
    }
  } else if (want.is_array()) {
    ASSERT_EQ(got.size(), want.size()) << at;
    for (std::size_t i = 0; i < want.size(); ++i)
      ExpectSameNumbers(got[i], want[i], at + "[" + std::to_string(i) + "]", tolerance);
  }
}

/** The numeric cells of a CSV file, row by row (the header, text and empty cells skipped). */
std::vector<double> CsvNumbers(const std::filesystem::path& path) {
  std::vector<double> v;
  const auto rows = Cells(ReadText(path));
  for (std::size_t r = 1; r < rows.size(); ++r)
    for (const std::string& cell : rows[r]) {
      char* end = nullptr;
      const double x = std::strtod(cell.c_str(), &end);
      if (!cell.empty() && end == cell.c_str() + cell.size()) v.push_back(x);
    }
  return v;
}

nlohmann::json::json_pointer Pointer(const std::string& key) { return nlohmann::json::json_pointer(key); }

struct MethodCase {
  std::string name;
  std::string args;               // after --data FILE (and --train FILE where {} is)
  std::vector<std::string> keys;  // result.json values compared (JSON pointers)
  std::string csv;                // a CSV compared too ("" = none)
};

std::vector<MethodCase> Methods(const std::string& model) {
  const std::string m = " --model " + model;
  return {
      {"robustness",
       "robustness --label label --features pregnancies,glucose,bmi,pedigree --cv kfold:3" + m,
       {"/value", "/phi", "/phi_auprc", "/shap_roc_integrated"},
       "phi.csv"},
      {"xper",
       "xper --label label --features pregnancies,glucose,bmi,pedigree --train {}" + m,
       {"/value", "/base", "/phi"},
       ""},
      {"shap",
       "shap --label label --rows 0..19 --background 40 --train {}" + m,
       {"/base", "/global"},
       "contributions.csv"},
      {"shap-retrain",
       "shap --label label --rows 0..9 --approach retrain --train {}" + m,
       {"/base", "/global"},
       "contributions.csv"},
      {"chains",
       "chains --outputs label,heavy --rows 20 --background 40" + m,
       {"/direct", "/indirect"},
       "direct.csv"},
  };
}

CliRun RunOn(const MethodCase& method, const std::string& data, const std::filesystem::path& out) {
  std::string args = method.args;
  const auto brace = args.find("{}");
  if (brace != std::string::npos) args.replace(brace, 2, Quote(data));
  return RunCli(args + " --data " + Quote(data) + " --threads 2 --quiet --out " + Quote(out.string()));
}

// The standardised GLMs: every method's numbers on the scaled feature are the unscaled ones,
// and the scaled feature's values are not 0 (the silent failure).
TEST(CliNumerics, ScaledFeatureGivesTheUnscaledNumbersWithStandardisedGlms) {
  const std::string plain = ScaledPima(1.0);
  for (const char* model : {"logistic", "probit", "linear"}) {
    for (const MethodCase& method : Methods(model)) {
      if (std::string(model) != "logistic" && method.name == "chains") continue;  // one learner suffices
      if (std::string(model) == "linear" && method.name != "xper" && method.name != "shap") continue;
      SCOPED_TRACE(std::string(model) + " " + method.name);
      const auto want_dir = FreshDir("numerics_plain");
      const CliRun want = RunOn(method, plain, want_dir);
      ASSERT_EQ(want.exit_code, 0) << want.err;
      const nlohmann::json want_json = ReadJson(want_dir / "result.json");
      for (double factor : {1e154, 1e306}) {
        SCOPED_TRACE(factor);
        const auto dir = FreshDir("numerics_scaled");
        const CliRun got = RunOn(method, ScaledPima(factor), dir);
        ASSERT_EQ(got.exit_code, 0) << got.err;
        const nlohmann::json got_json = ReadJson(dir / "result.json");
        for (const std::string& key : method.keys)
          ExpectSameNumbers(got_json.at(Pointer(key)), want_json.at(Pointer(key)), key, 1e-8);
        if (!method.csv.empty()) {
          const std::vector<double> a = CsvNumbers(dir / method.csv), b = CsvNumbers(want_dir / method.csv);
          ASSERT_EQ(a.size(), b.size());
          for (std::size_t i = 0; i < a.size(); ++i)
            EXPECT_NEAR(a[i], b[i], 1e-8 * (1 + std::abs(b[i]))) << i;
        }
      }
    }
  }
}

// Trees compare values only: TreeSHAP and AXOM give the unscaled numbers.
TEST(CliNumerics, ScaledFeatureGivesTheUnscaledNumbersWithTrees) {
  const std::vector<MethodCase> methods{
      {"treeshap",
       "treeshap --label label --rows 0..19 --model tree --max-depth 4 --train {}",
       {"/base", "/global"},
       "contributions.csv"},
      {"axom",
       "axom --label label --trees 20 --neighbours 20",
       {"/dt/accuracy", "/rf/accuracy", "/axom/accuracy"},
       ""},
  };
  const std::string plain = ScaledPima(1.0);
  for (const MethodCase& method : methods) {
    SCOPED_TRACE(method.name);
    const auto want_dir = FreshDir("numerics_trees_plain");
    const CliRun want = RunOn(method, plain, want_dir);
    ASSERT_EQ(want.exit_code, 0) << want.err;
    for (double factor : {1e154, 1e306}) {
      SCOPED_TRACE(factor);
      const auto dir = FreshDir("numerics_trees");
      const CliRun got = RunOn(method, ScaledPima(factor), dir);
      ASSERT_EQ(got.exit_code, 0) << got.err;
      for (const std::string& key : method.keys)
        ExpectSameNumbers(ReadJson(dir / "result.json").at(Pointer(key)),
                          ReadJson(want_dir / "result.json").at(Pointer(key)), key, 1e-12);
      if (!method.csv.empty()) {
        EXPECT_EQ(CsvNumbers(dir / method.csv), CsvNumbers(want_dir / method.csv));
      }
    }
  }
}

// The demo on a scaled feature: its OLS, probit XPER and probit SHAP numbers are the unscaled
// ones; its Gaussian naive Bayes section says why it was skipped, naming the feature.
TEST(CliNumerics, DemoOnAScaledFeatureGivesTheUnscaledNumbersOrSaysWhy) {
  const auto want_dir = FreshDir("demo_plain");
  const CliRun want = RunCli("demo --data " + Quote(ScaledPima(1.0)) + " --label label --quiet --out " +
                             Quote(want_dir.string()));
  ASSERT_EQ(want.exit_code, 0) << want.err;
  const nlohmann::json want_json = ReadJson(want_dir / "result.json");
  for (double factor : {1e154, 1e306}) {
    SCOPED_TRACE(factor);
    const auto dir = FreshDir("demo_scaled");
    const CliRun got = RunCli("demo --data " + Quote(ScaledPima(factor)) + " --label label --quiet --out " +
                              Quote(dir.string()));
    ASSERT_EQ(got.exit_code, 0) << got.err;
    const nlohmann::json got_json = ReadJson(dir / "result.json");
    for (const char* key : {"/value", "/base", "/phi", "/xper", "/predictions/probit_interventional"})
      ExpectSameNumbers(got_json.at(Pointer(key)), want_json.at(Pointer(key)), key, 1e-8);
    EXPECT_NE(got_json.at("robustness").at("skipped").get<std::string>().find(
                  "feature 'pregnancies' has values of magnitude up to "),
              std::string::npos);
  }
}

// Gaussian naive Bayes (not invariant to one feature's scale, and beyond a double's range) and
// the GLMs on raw columns: one line naming the feature and what to do, exit 2, and no result
// file written (no NaN contributions.csv as before).
TEST(CliNumerics, ScaledFeatureIsNamedWhereNoCorrectNumberExists) {
  for (double factor : {1e154, 1e306}) {
    const std::string data = ScaledPima(factor);
    std::vector<ErrorCase> cases;
    for (const MethodCase& method : Methods("gnb")) {
      std::string args = method.args;
      const auto brace = args.find("{}");
      if (brace != std::string::npos) args.replace(brace, 2, Quote(data));
      cases.push_back(
          {args + " --data " + Quote(data), "feature 'pregnancies' has values of magnitude up to "});
    }
    for (const char* model : {"logistic", "probit"})
      cases.push_back(
          {"robustness --data " + Quote(data) + " --label label --model " + model + " --no-standardize",
           "feature 'pregnancies' has values of magnitude up to "});
    cases.push_back({"robustness --data " + Quote(data) + " --label label --model linear --no-standardize",
                     "or drop it, or fit on standardised columns (the default)"});
    ExpectOneLineErrors(cases);
    const auto out = FreshDir("numerics_gnb_out");
    const CliRun run = RunCli("shap --data " + Quote(data) + " --train " + Quote(data) +
                              " --label label --model gnb --rows 0..4 --out " + Quote(out.string()));
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_FALSE(std::filesystem::exists(out / "contributions.csv"));
    EXPECT_FALSE(std::filesystem::exists(out / "result.json"));
  }
}

// --data through a pipe (a FIFO here, as `--data <(cat f.csv)` gives): read once, by shap with
// --train (whose --data may or may not hold the label) and by treeshap.
TEST(CliNumerics, DataFromAPipeIsReadOnce) {
  const std::string file = ScaledPima(1.0);
  for (const std::string command : {"shap --model logistic", "treeshap --model tree --max-depth 3"}) {
    SCOPED_TRACE(command);
    const std::string args =
        command + " --train " + Quote(file) + " --label label --rows 0..9 --quiet --out ";
    const auto want_dir = FreshDir("pipe_file");
    const CliRun want = RunCli(args + Quote(want_dir.string()) + " --data " + Quote(file));
    ASSERT_EQ(want.exit_code, 0) << want.err;
    const testing::FifoWriter fifo("data.csv", ReadText(file));
    const auto dir = FreshDir("pipe_fifo");
    const CliRun got = RunCli(args + Quote(dir.string()) + " --data " + Quote(fifo.path()));
    EXPECT_EQ(got.exit_code, 0) << got.err;
    EXPECT_EQ(ReadText(dir / "contributions.csv"), ReadText(want_dir / "contributions.csv"));
  }
}

/** A CSV of `p` numeric features x0..x{p-1} (deterministic, varied) and two 0/1 outputs. */
std::string WideCsv(std::size_t p, std::size_t rows) {
  std::string text;
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + std::string.
  for (std::size_t j = 0; j < p; ++j) text.append("x").append(std::to_string(j)).append(",");
  text += "label,other\n";
  for (std::size_t r = 0; r < rows; ++r) {
    double sum = 0.0;
    for (std::size_t j = 0; j < p; ++j) {
      const double v = std::sin(0.7 * static_cast<double>(r * (j + 3)) + static_cast<double>(j));
      if (j < 3) sum += v;
      text += Fmt(v) + ",";
    }
    text +=
        std::string(sum > 0 ? "1" : "0") + "," + (std::sin(static_cast<double>(r)) > 0 ? "1" : "0") + "\n";
  }
  std::string name = "wide";
  name.append(std::to_string(p)).append(".csv");
  return testing::WriteTempFile(name, text);
}

// Past 64 features shap and chains run with the sampled solvers (as robustness and xper do; before,
// "this game supports at most 64 players" for every solver), and the values add up to the
// prediction (efficiency).
TEST(CliNumerics, ShapAndChainsTakeMoreThan64FeaturesWithSampledSolvers) {
  const std::string data = WideCsv(70, 120);
  for (const char* solver : {"kernel", "permutation"}) {
    SCOPED_TRACE(solver);
    for (int explained : {0, 3}) {
      const auto dir = FreshDir("wide_shap");
      const CliRun run = RunCli(
          "shap --data " + Quote(data) + " --train " + Quote(data) +
          " --label label --model logistic --rows 0..4 --background 20 --budget 3000 --solver " + solver +
          " --explain-row " + std::to_string(explained) + " --quiet --out " + Quote(dir.string()));
      ASSERT_EQ(run.exit_code, 0) << run.err;
      const auto rows = Cells(ReadText(dir / "contributions.csv"));
      ASSERT_EQ(rows.size(), 6U);
      // row, 71 players (x0..x69 and 'other', not the label), bias, then the 71 standard errors
      ASSERT_EQ(rows[0].size(), 144U);
      EXPECT_EQ(rows[0][72], "bias");
      double sum = 0.0;  // phi of the 71 players and the bias (base value)
      for (std::size_t c = 1; c <= 72; ++c) sum += std::stod(rows[1 + explained][c]);
      const nlohmann::json row = ReadJson(dir / "result.json").at("explained_row");
      EXPECT_EQ(row.at("row").get<int>(), explained);
      EXPECT_NEAR(sum, row.at("prediction").at("P(y=1)").get<double>(), 1e-9);
    }
    const auto chains = FreshDir("wide_chains");
    const CliRun chain =
        RunCli("chains --data " + Quote(data) + " --outputs label,other --rows 3 --background 20 " +
               "--budget 2000 --solver " + solver + " --quiet --out " + Quote(chains.string()));
    ASSERT_EQ(chain.exit_code, 0) << chain.err;
    EXPECT_EQ(ReadJson(chains / "result.json").at("direct").at("label").size(), 70U);
  }
}

// The messages say what is true: the exact solver's limit with the count written readably (no
// "2^999" for any larger count), and the sampled solvers to use.
TEST(CliNumerics, MessagesAboutHugeCountsAreTrue) {
  const std::string wide = WideCsv(70, 30);
  const std::string huge = WideCsv(1100, 40);
  ExpectOneLineErrors({
      {"shap --data " + Quote(wide) + " --train " + Quote(wide) +
           " --label label --model logistic --solver exact",
       "exact SHAP of 71 players needs 2^71 (about 2.4e+21) coalitions per explained row block, above the "
       "limit of "
       "20 players; use a sampled solver"},
      // The last link has the 70 features and the earlier output: 71 players.
      {"chains --data " + Quote(wide) + " --outputs label,other --solver exact",
       "exact SHAP of 71 players needs 2^71 (about 2.4e+21) coalitions per explained row block, above the "
       "limit of 30 players; use a sampled solver"},
      {"robustness --data " + Quote(huge) + " --label label --model logistic --solver exact",
       "exact ShapAUC needs 2^1101 (about 2.7e+331) trainings per split"},
      {"xper --data " + Quote(huge) + " --train " + Quote(huge) +
           " --label label --model logistic --solver exact",
       "exact XPER of 1101 features needs 2^1101 (about 2.7e+331) coalitions"},
      {"demo --data " + Quote(wide) + " --label label", "(2^71 (about 2.4e+21) coalitions)"},
  });
}

}  // namespace
}}  // namespace perfshap
