// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// `perfshap shap` and `perfshap treeshap` end to end (issue 11): TreeSHAP of the XGBoost
// fixtures equals XGBoost's pred_contribs, the interventional and retrain approaches write the
// issue's files and keys and add up, multi-class trees write a row per class, results do not
// depend on the thread count, and bad models and data give one-line errors.
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
using testing::OneLine;
using testing::Quote;
using testing::ReadJson;
using testing::ReadText;
using testing::RunCli;

std::vector<std::vector<std::string>> ReadCsvCells(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream s(line);
    std::string cell;
    while (std::getline(s, cell, ',')) cells.push_back(cell);
    if (!line.empty() && line.back() == ',') cells.emplace_back();
    rows.push_back(cells);
  }
  return rows;
}

std::string Fixture(const std::string& name) { return Quote(testing::FixturePath(name)); }

/** The expected rows of an XGBoost fixture as a CSV (empty cells for NaN), with its feature names
 *  or f0, f1, ... when the model has none. */
std::string RowsCsv(const nlohmann::json& expected) {
  std::ostringstream s;
  const std::size_t F = expected["n_features"].get<std::size_t>();
  for (std::size_t j = 0; j < F; ++j)
    s << (j ? "," : "")
      << (expected["feature_names"].empty() ? std::string("f").append(std::to_string(j))
                                            : expected["feature_names"][j].get<std::string>());
  s << "\n";
  for (const auto& row : expected["x"]) {
    for (std::size_t j = 0; j < F; ++j) {
      if (j) s << ",";
      if (!row[j].is_null()) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.17g", row[j].get<double>());
        s << buf;
      }
    }
    s << "\n";
  }
  return s.str();
}

TEST(CliShap, TreeShapOfXgboostModelsEqualsPredContribs) {
  for (const std::string name :
       {"binary_logistic", "binary_logistic_100x6", "reg_squarederror", "multi_softprob"}) {
    SCOPED_TRACE(name);
    const auto expected = ReadJson(testing::FixturePath("xgboost/" + name + "_expected.json"));
    const std::string data = testing::WriteTempFile(name + ".csv", RowsCsv(expected));
    const auto out = FreshDir("treeshap_" + name);
    const CliRun run = RunCli("treeshap --model-file " + Fixture("xgboost/" + name + ".json") + " --data " +
                              Quote(data) + " --out " + Quote(out.string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto cells = ReadCsvCells(out / "contributions.csv");
    const std::size_t F = expected["n_features"].get<std::size_t>();
    const bool multi = expected["contribs"][0][0].is_array();
    const std::size_t K = multi ? expected["contribs"][0].size() : 1;
    ASSERT_EQ(cells.size(), 1 + expected["x"].size() * K);
    const std::size_t first = multi ? 2 : 1;  // row[, class], features..., bias
    EXPECT_EQ(cells[0].back(), "bias");
    double worst = 0.0;
    double scale = 1.0;
    for (std::size_t r = 0; r < expected["x"].size(); ++r)
      for (std::size_t o = 0; o < K; ++o) {
        const auto& line = cells[1 + r * K + o];
        ASSERT_EQ(line.size(), first + F + 1);
        const auto& want = multi ? expected["contribs"][r][o] : expected["contribs"][r];
        double sum = 0.0;
        for (std::size_t j = 0; j <= F; ++j) {
          const double got = std::stod(line[first + j]);
          worst = std::max(worst, std::fabs(got - want[j].get<double>()));
          sum += got;
        }
        const double margin =
            multi ? expected["margin"][r][o].get<double>() : expected["margin"][r].get<double>();
        // XGBoost sums in float32: 1e-5 absolute on margins of order 1, relative beyond.
        EXPECT_NEAR(sum, margin, 1e-5 * std::max(1.0, std::fabs(margin))) << "row " << r;
        scale = std::max(scale, std::fabs(margin));
      }
    EXPECT_LE(worst, 1e-5 * scale);
    if (name == "binary_logistic_100x6") {
      EXPECT_LE(worst, 1e-5);  // the acceptance model: margins of order 1
    }
    const auto result = ReadJson(out / "result.json");
    EXPECT_EQ(result["method"], "shap");
    EXPECT_EQ(result["approach"], "tree");
    EXPECT_EQ(result["output"], "margin");
    EXPECT_TRUE(std::filesystem::exists(out / "shap_bar.svg"));
    EXPECT_TRUE(std::filesystem::exists(out / "shap_beeswarm.svg"));
  }
}

TEST(CliShap, InterventionalLogisticOnPimaAddsUpAndWritesTheIssuesKeys) {
  const auto out = FreshDir("shap_pima");
  const std::string pima = Fixture("data/pima.csv");
  const CliRun run = RunCli("shap --model logistic --train " + pima + " --data " + pima +
                            " --label label --rows 10..29 --explain-row 12 --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto r = ReadJson(out / "result.json");
  EXPECT_EQ(r["method"], "shap");
  EXPECT_EQ(r["approach"], "interventional");
  EXPECT_EQ(r["solver"]["name"], "exact");
  EXPECT_EQ(r["players"].size(), 8U);
  EXPECT_EQ(r["background"]["rows"], 100);
  EXPECT_TRUE(r["global"]["mean_abs"]["P(y=1)"].contains("glucose"));
  EXPECT_TRUE(r["global"]["mean"]["P(y=1)"].contains("glucose"));
  EXPECT_FALSE(r.contains("phi_se"));
  EXPECT_EQ(r["explained_row"]["row"], 12);
  double sum = r["base"]["P(y=1)"].get<double>();
  for (const auto& [k, v] : r["explained_row"]["phi"]["P(y=1)"].items()) sum += v.get<double>();
  EXPECT_NEAR(sum, r["explained_row"]["prediction"]["P(y=1)"].get<double>(), 1e-12);
  const auto cells = ReadCsvCells(out / "contributions.csv");
  ASSERT_EQ(cells.size(), 21U);
  EXPECT_EQ(cells[0].front(), "row");
  EXPECT_EQ(cells[0].back(), "bias");
  EXPECT_EQ(cells[1][0], "10");
  EXPECT_TRUE(std::filesystem::exists(out / "shap_waterfall_row12.svg"));
  EXPECT_NE(run.out.find("glucose"), std::string::npos);
}

TEST(CliShap, SampledSolverReportsStandardErrorsAndIsThreadIndependent) {
  const std::string bc = Fixture("data/breast_cancer.csv");
  std::string first;
  for (const int threads : {1, 2}) {
    const auto out = FreshDir("shap_kernel_" + std::to_string(threads));
    const CliRun run =
        RunCli("shap --model logistic --train " + bc + " --data " + bc +
               " --label label --rows 0..4 --background 20 --solver kernel --budget 600 --threads " +
               std::to_string(threads) + " --out " + Quote(out.string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto r = ReadJson(out / "result.json");
    EXPECT_EQ(r["solver"]["name"], "kernel");
    ASSERT_TRUE(r.contains("phi_se"));
    EXPECT_EQ(r["phi_se"].size(), 5U);
    const std::string csv = ReadText(out / "contributions.csv");
    EXPECT_NE(csv.find("se_mean_radius"), std::string::npos);
    if (threads == 1) {
      first = csv;
    } else {
      EXPECT_EQ(csv, first) << "contributions differ between 1 and 2 threads";
    }
  }
}

TEST(CliShap, RetrainApproachAndMultiClassTrees) {
  const std::string pima = Fixture("data/pima.csv");
  const auto out = FreshDir("shap_retrain");
  const CliRun run = RunCli("shap --model gnb --approach retrain --train " + pima + " --data " + pima +
                            " --label label --rows 0..3 --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto r = ReadJson(out / "result.json");
  EXPECT_EQ(r["approach"], "retrain");
  EXPECT_FALSE(r.contains("background"));

  const std::string wine = Fixture("data/wine.csv");
  const auto out2 = FreshDir("shap_wine_forest");
  const CliRun run2 = RunCli("treeshap --model forest --trees 20 --max-depth 5 --train " + wine + " --data " +
                             wine + " --label label --rows 0..9 --out " + Quote(out2.string()));
  ASSERT_EQ(run2.exit_code, 0) << run2.err;
  const auto cells = ReadCsvCells(out2 / "contributions.csv");
  ASSERT_EQ(cells.size(), 1U + 10U * 3U);
  EXPECT_EQ(cells[0][1], "class");
  // A forest's margins are its class fractions: per row they sum to 1 over the classes.
  for (std::size_t row = 0; row < 10; ++row) {
    double total = 0.0;
    for (std::size_t o = 0; o < 3; ++o)
      for (std::size_t j = 2; j < cells[1 + row * 3 + o].size(); ++j)
        total += std::stod(cells[1 + row * 3 + o][j]);
    EXPECT_NEAR(total, 1.0, 1e-9) << "row " << row;
  }
}

TEST(CliShap, XperDecomposesAnXgboostModelsAuc) {
  // The generic predict path: XPER of the AUC of the 20-tree fixture on breast_cancer.
  // XPER marginalises over the sample (n^2 predictions per coalition): its first 120 rows.
  std::ifstream in(testing::FixturePath("data/breast_cancer.csv"));
  std::string head;
  std::string line;
  for (int i = 0; i <= 120 && std::getline(in, line); ++i) head += line + "\n";
  const std::string sample = testing::WriteTempFile("bc120.csv", head);
  const auto out = FreshDir("xper_xgboost");
  const CliRun run = RunCli(
      "xper --model-file " + Fixture("xgboost/binary_logistic.json") + " --data " + Quote(sample) +
      " --label label --comparator permuted --solver kernel --budget 600 --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto r = ReadJson(out / "result.json");
  EXPECT_EQ(r["method"], "xper");
  double sum = r["base"].get<double>();
  for (const auto& [k, v] : r["phi"].items()) sum += v.get<double>();
  EXPECT_NEAR(sum, r["value"].get<double>(), 1e-9);
  EXPECT_GT(r["value"].get<double>(), 0.95);  // the model's AUC on rows it was trained on
  const CliRun multi = RunCli("xper --model-file " + Fixture("xgboost/multi_softprob.json") + " --data " +
                              Fixture("data/wine.csv") + " --label label");
  EXPECT_EQ(multi.exit_code, 2);
  EXPECT_TRUE(OneLine(multi.err)) << multi.err;
}

TEST(CliShap, TreeInteractionsEqualPredInteractionsInTheLongCsvAndNamedFeaturesKeepTheirRows) {
  const auto all = ReadJson(testing::FixturePath("xgboost/interactions_expected.json"));
  for (const std::string name : {"reg_squarederror", "multi_softprob"}) {
    SCOPED_TRACE(name);
    const auto model_expected = ReadJson(testing::FixturePath("xgboost/" + name + "_expected.json"));
    const auto& e = all["models"][name];
    nlohmann::json rows = {{"n_features", model_expected["n_features"]},
                           {"feature_names", model_expected["feature_names"]},
                           {"x", e["x"]}};
    const std::string data = testing::WriteTempFile(name + "_interactions.csv", RowsCsv(rows));
    const std::size_t F = model_expected["n_features"].get<std::size_t>();
    const std::size_t n = e["x"].size();
    const bool multi = name == "multi_softprob";
    const std::size_t K = multi ? 3 : 1;
    const auto out = FreshDir("treeshap_interactions_" + name);
    const CliRun run = RunCli("treeshap --model-file " + Fixture("xgboost/" + name + ".json") + " --data " +
                              Quote(data) + " --interactions --out " + Quote(out.string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_NE(run.out.find("the strongest pairs"), std::string::npos) << run.out;
    // Long form: row, [class,] feature, other, interaction; every entry but the bias's.
    const auto cells = ReadCsvCells(out / "interactions.csv");
    ASSERT_EQ(cells.size(), 1 + n * K * F * F);
    const std::size_t first = multi ? 2 : 1;
    EXPECT_EQ(cells[0][first], "feature");
    EXPECT_EQ(cells[0][first + 2], "interaction");
    double worst = 0.0;
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t o = 0; o < K; ++o)
        for (std::size_t i = 0; i < F; ++i)
          for (std::size_t j = 0; j < F; ++j) {
            const auto& line = cells[1 + ((r * K + o) * F + i) * F + j];
            ASSERT_EQ(line.size(), first + 3);
            EXPECT_EQ(std::stoul(line[0]), r);
            const double want = multi ? e["interactions"][r][o][i][j].get<double>()
                                      : e["interactions"][r][i][j].get<double>();
            worst = std::max(worst,
                             std::fabs(std::stod(line[first + 2]) - want) / std::max(1.0, std::fabs(want)));
          }
    EXPECT_LE(worst, 1e-5);
    const auto result = ReadJson(out / "result.json");
    const auto& inter = result["interactions"];
    EXPECT_EQ(inter["index"], "shapley");
    EXPECT_EQ(inter["features"].size(), F);
    EXPECT_EQ(inter["mean_abs"].size(), K);
    EXPECT_EQ(inter["mean_abs"].begin()->size(), F);
    const std::string svg = ReadText(out / "shap_interactions.svg");
    EXPECT_NE(svg.find("Mean |SHAP interaction|"), std::string::npos);

    // Two named features: their rows of the matrix, the same numbers.
    const std::string a = multi ? "f3" : "insulin";
    const std::string b = multi ? "f0" : "bmi";
    const auto part_out = FreshDir("treeshap_interaction_features_" + name);
    const CliRun part =
        RunCli("treeshap --model-file " + Fixture("xgboost/" + name + ".json") + " --data " + Quote(data) +
               " --interaction-features " + a + "," + b + " --out " + Quote(part_out.string()));
    ASSERT_EQ(part.exit_code, 0) << part.err;
    const auto part_cells = ReadCsvCells(part_out / "interactions.csv");
    ASSERT_EQ(part_cells.size(), 1 + n * K * 2 * F);
    for (std::size_t k = 1; k < part_cells.size(); ++k) {
      const auto& line = part_cells[k];
      EXPECT_TRUE(line[first] == a || line[first] == b) << line[first];
      // The same line of the whole matrix: row, class, feature, other.
      const std::size_t r = std::stoul(line[0]);
      const std::size_t o = (k - 1) / (2 * F) % K;
      const std::size_t i =
          static_cast<std::size_t>(std::find(inter["columns"].begin(), inter["columns"].end(), line[first]) -
                                   inter["columns"].begin());
      const std::size_t j = (k - 1) % F;
      EXPECT_EQ(line, cells[1 + ((r * K + o) * F + i) * F + j]);
    }
    EXPECT_EQ(ReadJson(part_out / "result.json")["interactions"]["features"], nlohmann::json::array({a, b}));
  }
  const std::string reg = Fixture("xgboost/reg_squarederror.json");
  const std::string pima = Fixture("data/pima.csv");
  testing::ExpectOneLineErrors({
      {"treeshap --model-file " + reg + " --data " + pima + " --interaction-features insulin,nope", "'nope'"},
      {"shap --model gnb --approach retrain --train " + pima + " --data " + pima +
           " --label label --rows 0..2 --interactions",
       "not retraining"},
  });
}

TEST(CliShap, InterventionalInteractionsAddUpToTheContributions) {
  // A logistic model's interventional game, exact (8 features): each row of a row's matrix adds
  // up to its contribution in contributions.csv.
  const std::string pima = Fixture("data/pima.csv");
  const auto out = FreshDir("shap_interventional_interactions");
  const CliRun run =
      RunCli("shap --model logistic --train " + pima + " --data " + pima +
             " --label label --rows 0..3 --background 30 --interactions --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto contributions = ReadCsvCells(out / "contributions.csv");
  const auto pairs = ReadCsvCells(out / "interactions.csv");
  const std::size_t F = contributions[0].size() - 2;  // row, features..., bias
  ASSERT_EQ(pairs.size(), 1 + 4 * F * F);
  EXPECT_EQ(pairs[0].back(), "interaction");  // exact: no se column
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t i = 0; i < F; ++i) {
      double sum = 0.0;
      for (std::size_t j = 0; j < F; ++j) {
        const auto& line = pairs[1 + (r * F + i) * F + j];
        EXPECT_EQ(line[1], contributions[0][1 + i]);
        sum += std::stod(line[3]);
      }
      EXPECT_NEAR(sum, std::stod(contributions[1 + r][1 + i]), 1e-9) << "row " << r << " feature " << i;
    }
  // Sampled past the exact solver: a standard error column.
  const auto sampled = FreshDir("shap_interventional_interactions_sampled");
  const CliRun s = RunCli("shap --model logistic --train " + pima + " --data " + pima +
                          " --label label --rows 0..1 --background 30 --solver permutation --budget 20000 "
                          "--interaction-features glucose --out " +
                          Quote(sampled.string()));
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const auto sampled_pairs = ReadCsvCells(sampled / "interactions.csv");
  EXPECT_EQ(sampled_pairs[0].back(), "se");
  ASSERT_EQ(sampled_pairs.size(), 1 + 2 * F);
}

TEST(CliShap, BadModelsAndDataGiveOneLineErrors) {
  const std::string bc = Fixture("data/breast_cancer.csv");
  const std::string garbage = testing::WriteTempFile("garbage.json", "this is not json at all");
  // An objective XGBoost 1.7 lacks (2.0's quantile regression) in a model perfshap reads otherwise.
  std::string quantile = ReadText(testing::FixturePath("xgboost/binary_hinge.json"));
  quantile.replace(quantile.find("binary:hinge"), 12, "reg:quantileerror");
  const std::string quantile_file = testing::WriteTempFile("quantile.json", quantile);
  testing::ExpectOneLineErrors({
      {"treeshap --model-file " + Fixture("xgboost/gblinear.json") + " --data " + bc, "gblinear"},
      {"treeshap --model-file " + Fixture("xgboost/dart.json") + " --data " + bc, "dart"},
      {"treeshap --model-file " + Quote(quantile_file) + " --data " + bc, "reg:quantileerror"},
      {"treeshap --model-file " + Fixture("xgboost/truncated.json") + " --data " + bc, "truncated"},
      {"treeshap --model-file " + Quote(garbage) + " --data " + bc, "JSON"},
      {"treeshap --model-file " + Fixture("xgboost/binary_logistic.json") + " --data " +
           Fixture("data/pima.csv"),
       "has no column"},
      {"treeshap --model-file " + Fixture("xgboost/multi_softprob.json") + " --data " + bc, "13 features"},
      {"shap --model logistic --approach tree --train " + bc + " --data " + bc + " --label label",
       "tree model"},
      {"shap --model logistic --train " + bc + " --data " + bc + " --label label --rows 5..2", "--rows"},
      {"shap --model forest --train " + Fixture("data/wine.csv") + " --data " + Fixture("data/wine.csv") +
           " --label label --model-param min_samples_leaf=3",
       "learner options are not applied"},
      // A flag the run would leave out is refused, not ignored.
      {"shap --model-file " + Fixture("xgboost/binary_logistic.json") + " --train " + bc + " --data " + bc +
           " --label label",
       "drop the training sample"},
      {"shap --model logistic --max-depth 3 --train " + bc + " --data " + bc + " --label label",
       "an option of the tree and forest learners"},
      {"shap --model forest --trees 5 --model-param n_estimators=7 --train " + bc + " --data " + bc +
           " --label label",
       "set twice"},
      {"shap --model logistic --train " + bc + " --data " + bc + " --label label --rows 3..99999", "--rows"},
      {"shap --model logistic --train " + bc + " --data " + bc + " --label label --solver exact", "2^30"},
      {"treeshap --model-file " + Fixture("xgboost/binary_logistic.json") + " --data /nonexistent/x.csv",
       "no such file"},
      {"shap --model-file " + Fixture("xgboost/binary_logistic.json") + " --approach retrain --data " + bc,
       "retrain"},
  });
}

}  // namespace
}}  // namespace perfshap
