// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Issue 20 on the command line, for trees and the JSON files: a CART tree thousands of levels
// deep trains and is explained (it crashed in the recursive TreeSHAP walk), --groups and
// --split nested 65,000 levels and numbers like 1e999 are one-line errors (a crash, and an
// "internal error: [json.exception...]"), an XGBoost tree with a negative child index and a
// model naming two features alike are refused (both printed numbers with exit 0), and an
// early-stopped model is explained up to its best_iteration unless --iteration-range says
// otherwise, with the rounds in result.json.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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

using Json = nlohmann::json;
using testing::CliRun;
using testing::FreshDir;
using testing::OneLine;
using testing::Quote;
using testing::ReadJson;
using testing::ReadText;
using testing::RunCli;

std::string Fixture(const std::string& name) { return Quote(testing::FixturePath(name)); }

std::string Nested(std::size_t depth, const std::string& inner = "") {
  return std::string(depth, '[') + inner + std::string(depth, ']');
}

/** The fixture model `name` edited, written to a file of its own. */
std::string EditedModel(const std::string& name, const std::string& file, void (*edit)(Json&)) {
  Json json = Json::parse(ReadText(testing::FixturePath("xgboost/" + name + ".json")));
  edit(json);
  return testing::WriteTempFile(file, json.dump());
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Acceptance: `treeshap --model tree` on 20,000 rows whose label is id % 2 grows a tree some
// thousands of levels deep and explains every row.
TEST(TreeHardeningCli, DeepCartTreeOnAnIdColumnIsExplained) {
  std::ostringstream csv;
  csv << "id,a,b,label\n";
  for (std::uint32_t i = 0; i < 20000; ++i) {
    // Noise that says nothing of the parity (a multiplicative hash's high bits).
    const std::uint32_t h = i * 2654435761U;
    csv << i << "," << (h >> 20) % 1000 << "," << (h >> 12) % 7 << "," << i % 2 << "\n";
  }
  const std::string data = testing::WriteTempFile("ids.csv", csv.str());
  const auto out = FreshDir("deep_cart");
  const CliRun run = RunCli("treeshap --model tree --train " + Quote(data) + " --data " + Quote(data) +
                            " --label label --quiet --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto lines = Lines(ReadText(out / "contributions.csv"));
  ASSERT_EQ(lines.size(), 20001u);
  EXPECT_EQ(lines[0].substr(lines[0].rfind(',') + 1), "bias");
  EXPECT_EQ(ReadText(out / "contributions.csv").find("nan"), std::string::npos);
}

TEST(TreeHardeningCli, DeepAndOverflowingJsonAreOneLineErrors) {
  const std::string banknote = Fixture("data/banknote.csv");
  const std::string deep = Quote(testing::WriteTempFile("deep.json", Nested(65000)));
  const std::string deep_groups =
      Quote(testing::WriteTempFile("deep_groups.json", "{\"g\": " + Nested(65000, "\"variance\"") + "}"));
  const std::string big_groups = Quote(testing::WriteTempFile("big_groups.json", "{\"g\": [\"variance\", 1e999]}"));
  const std::string big_split =
      Quote(testing::WriteTempFile("big_split.json", "{\"train\": [0, 1, 2], \"test\": [3, 1e999]}"));
  const std::string big_model = Quote(testing::WriteTempFile(
      "big_model.json", "{\"learner\": {\"gradient_booster\": {\"name\": \"gbtree\", \"x\": -1e999}}}"));
  testing::ExpectOneLineErrors({
      {"robustness --data " + banknote + " --label label --groups " + deep, "more than 64 levels deep"},
      {"robustness --data " + banknote + " --label label --groups " + deep_groups, "more than 64 levels deep"},
      {"robustness --data " + banknote + " --label label --split " + deep, "more than 64 levels deep"},
      {"robustness --data " + banknote + " --label label --groups " + big_groups, "the number '1e999'"},
      {"robustness --data " + banknote + " --label label --split " + big_split, "the number '1e999'"},
      {"treeshap --model-file " + deep + " --data " + banknote, "more than 64 levels deep"},
      {"treeshap --model-file " + big_model + " --data " + banknote, "the number '-1e999'"},
  });
  // The file is named and no parser internals leak.
  const CliRun run = RunCli("robustness --data " + banknote + " --label label --split " + big_split);
  EXPECT_NE(run.err.find("big_split.json"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("json.exception"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("internal error"), std::string::npos) << run.err;
}

TEST(TreeHardeningCli, MalformedTreesAndDuplicateNamesAreRefused) {
  const std::string bc = Fixture("data/breast_cancer.csv");
  // Node 0 of tree 2 with children -2 (read as a leaf, it predicted with its threshold).
  const std::string negative = Quote(EditedModel("binary_logistic", "negative.json", [](Json& j) {
    Json& tree = j["learner"]["gradient_booster"]["model"]["trees"][2];
    tree["left_children"][0] = -2;
    tree["right_children"][0] = -2;
  }));
  const std::string one_sided = Quote(EditedModel("binary_logistic", "one_sided.json", [](Json& j) {
    j["learner"]["gradient_booster"]["model"]["trees"][4]["left_children"][0] = -1;
  }));
  const std::string twice = Quote(EditedModel("binary_logistic", "twice.json", [](Json& j) {
    j["learner"]["feature_names"][3] = j["learner"]["feature_names"][1];
  }));
  testing::ExpectOneLineErrors({
      {"treeshap --model-file " + negative + " --data " + bc, "tree 2, node 0 has children -2 and -2"},
      {"shap --model-file " + negative + " --data " + bc + " --rows 0..3", "tree 2, node 0 has children -2"},
      {"treeshap --model-file " + one_sided + " --data " + bc, "tree 4, node 0 has children -1 and"},
      {"treeshap --model-file " + twice + " --data " + bc, "names two features 'mean_texture' (features 1 and 3)"},
      {"shap --model-file " + twice + " --data " + bc + " --rows 0..3", "names two features 'mean_texture'"},
      {"xper --model-file " + twice + " --data " + bc + " --label label", "names two features 'mean_texture'"},
  });
}

/** The expected rows of early_stopped_expected.json as a CSV (f0..f12, empty cells for NaN). */
std::string EarlyStoppedRows(const Json& e) {
  std::ostringstream s;
  const std::size_t F = e["n_features"].get<std::size_t>();
  for (std::size_t j = 0; j < F; ++j) s << (j ? "," : "") << "f" << j;
  s << "\n";
  for (const auto& row : e["x"]) {
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

/** The largest gap between contributions.csv (row, class, features..., bias) and XGBoost's. */
double WorstGap(const std::filesystem::path& csv, const Json& contribs) {
  const auto lines = Lines(ReadText(csv));
  double worst = 0.0;
  std::size_t k = 1;
  for (const auto& row : contribs)
    for (const auto& per_class : row) {
      std::istringstream cells(lines.at(k++));
      std::string cell;
      std::getline(cells, cell, ',');  // row
      std::getline(cells, cell, ',');  // class
      for (const auto& want : per_class) {
        std::getline(cells, cell, ',');
        worst = std::max(worst, std::fabs(std::stod(cell) - want.get<double>()) / std::max(1.0, std::fabs(want.get<double>())));
      }
    }
  return worst;
}

TEST(TreeHardeningCli, EarlyStoppedModelIsExplainedAtBestIteration) {
  const Json e = ReadJson(testing::FixturePath("xgboost/early_stopped_expected.json"));
  const std::string data = Quote(testing::WriteTempFile("early_rows.csv", EarlyStoppedRows(e)));
  const std::string model = Fixture("xgboost/early_stopped.json");
  const auto out = FreshDir("early_stopped");
  const CliRun run = RunCli("treeshap --model-file " + model + " --data " + data + " --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("rounds [0, 10) of 13 (best_iteration 9)"), std::string::npos) << run.out;
  Json r = ReadJson(out / "result.json");
  EXPECT_EQ(r["iteration_range"], Json({0, 10}));
  EXPECT_EQ(r["best_iteration"], 9);
  EXPECT_LE(WorstGap(out / "contributions.csv", e["contribs"]), 1e-5);

  const auto all = FreshDir("early_stopped_all");
  const CliRun all_run = RunCli("treeshap --model-file " + model + " --data " + data + " --iteration-range 0:0 --out " +
                                Quote(all.string()));
  ASSERT_EQ(all_run.exit_code, 0) << all_run.err;
  r = ReadJson(all / "result.json");
  EXPECT_EQ(r["iteration_range"], Json({0, 13}));
  EXPECT_EQ(r["best_iteration"], 9);
  EXPECT_LE(WorstGap(all / "contributions.csv", e["contribs_all"]), 1e-5);

  const auto some = FreshDir("early_stopped_range");
  const CliRun some_run = RunCli("treeshap --model-file " + model + " --data " + data + " --iteration-range 2:7 --out " +
                                 Quote(some.string()));
  ASSERT_EQ(some_run.exit_code, 0) << some_run.err;
  EXPECT_EQ(ReadJson(some / "result.json")["iteration_range"], Json({2, 7}));
  EXPECT_LE(WorstGap(some / "contributions.csv", e["contribs_range"]), 1e-5);

  // Interventional SHAP takes the same flag; a model whose best_iteration is its last round (what
  // XGBoost 1.7's train() writes without early stopping) reports all rounds.
  const auto shap = FreshDir("early_stopped_shap");
  const CliRun shap_run = RunCli("shap --model-file " + model + " --data " + data +
                                 " --iteration-range 0,4 --output margin --rows 0..1 --background 5 --out " +
                                 Quote(shap.string()));
  ASSERT_EQ(shap_run.exit_code, 0) << shap_run.err;
  EXPECT_EQ(ReadJson(shap / "result.json")["iteration_range"], Json({0, 4}));
  const auto plain = FreshDir("plain_rounds");
  const CliRun plain_run = RunCli("treeshap --model-file " + Fixture("xgboost/binary_logistic.json") + " --data " +
                                  Fixture("data/breast_cancer.csv") + " --label label --rows 0..5 --out " +
                                  Quote(plain.string()));
  ASSERT_EQ(plain_run.exit_code, 0) << plain_run.err;
  r = ReadJson(plain / "result.json");
  EXPECT_EQ(r["iteration_range"], Json({0, 20}));
  EXPECT_EQ(r["best_iteration"], 19);
  EXPECT_EQ(plain_run.out.find("rounds ["), std::string::npos) << plain_run.out;
}

TEST(TreeHardeningCli, XperReportsTheRoundsOfAnEarlyStoppedModel) {
  std::ifstream in(testing::FixturePath("data/breast_cancer.csv"));
  std::string head;
  std::string line;
  for (int i = 0; i <= 80 && std::getline(in, line); ++i) head += line + "\n";
  const std::string sample = Quote(testing::WriteTempFile("bc80.csv", head));
  const std::string model = Quote(EditedModel("binary_logistic", "early_binary.json", [](Json& j) {
    j["learner"]["attributes"]["best_iteration"] = "5";
  }));
  const auto out = FreshDir("xper_rounds");
  const CliRun run = RunCli("xper --model-file " + model + " --data " + sample +
                            " --label label --comparator permuted --solver kernel --budget 600 --out " +
                            Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("boosting rounds [0, 6) of 20 (best_iteration 5)"), std::string::npos) << run.out;
  const Json r = ReadJson(out / "result.json");
  EXPECT_EQ(r["iteration_range"], Json({0, 6}));
  EXPECT_EQ(r["best_iteration"], 5);
}

TEST(TreeHardeningCli, BadIterationRangesAreOneLineErrors) {
  const std::string bc = Fixture("data/breast_cancer.csv");
  const std::string model = Fixture("xgboost/binary_logistic.json");
  testing::ExpectOneLineErrors({
      {"treeshap --model-file " + model + " --data " + bc + " --iteration-range 5", "is not BEGIN:END, the boosting rounds"},
      {"treeshap --model-file " + model + " --data " + bc + " --iteration-range a:b", "is not BEGIN:END, the boosting rounds"},
      {"treeshap --model-file " + model + " --data " + bc + " --iteration-range -1:3", "is not BEGIN:END, the boosting rounds"},
      {"treeshap --model-file " + model + " --data " + bc + " --iteration-range 0:21", "iteration range [0, 21)"},
      {"treeshap --model-file " + model + " --data " + bc + " --iteration-range 7:3", "0 <= begin < end <= 20"},
      {"xper --model-file " + model + " --data " + bc + " --label label --iteration-range 0:99", "20 rounds"},
      {"treeshap --model tree --train " + bc + " --data " + bc + " --label label --iteration-range 0:5",
       "iteration_range selects boosting rounds of an XGBoost model: give the model (model_file) (--iteration-range, --model-file)"},
  });
}

}  // namespace
}}  // namespace perfshap
