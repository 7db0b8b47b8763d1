// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// `perfshap robustness` end to end: the result.json keys of issue 3, the banknote reference
// (tests/fixtures/refs/shapauc/banknote_gnb_seed0.json, sklearn 1.2.1 GaussianNB) through a --split
// file, the authors' thresholds:101 numbers (tests/fixtures/shaproc_banknote_peer.json, written by
//   /usr/bin/python3 bench/peer_shaproc_authors.py banknote --json tests/fixtures/shaproc_banknote_peer.json),
// the files written, thread-count independence of the output, and one-line errors with exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
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

// Writes {"train": [...], "test": [...]} to a fresh file and returns its path.
std::string WriteSplit(const std::string& name, const std::vector<std::size_t>& train,
                       const std::vector<std::size_t>& test) {
  const auto dir = FreshDir(name);
  std::filesystem::create_directories(dir);
  const auto path = dir / "split.json";
  std::ofstream(path) << nlohmann::json{{"train", train}, {"test", test}}.dump();
  return path.string();
}

struct Reference {
  std::string data;
  nlohmann::json ref;
  std::string split;
};

void LoadReference(Reference& r) {
  r.data = testing::FixturePath("data/banknote.csv");
  r.ref = ReadJson(testing::FixturePath("refs/shapauc/banknote_gnb_seed0.json"));
  r.split = WriteSplit("robustness_ref_split", r.ref["train_rows"].get<std::vector<std::size_t>>(),
                       r.ref["test_rows"].get<std::vector<std::size_t>>());
}

TEST(RobustnessCli, BanknoteReferenceSplitWritesTheIssueKeysAndFiles) {
  Reference ref;
  LoadReference(ref);
  const auto out = FreshDir("robustness_ref");
  const CliRun run = RunCli("robustness --data " + Quote(ref.data) + " --label label --model gnb --split " +
                            Quote(ref.split) + " --quiet --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.out.empty());
  const auto j = ReadJson(out / "result.json");
  for (const char* key : {"method", "features", "value", "base", "phi", "phi_std", "auprc", "phi_auprc",
                          "curves", "coalition_values", "eq12_gap", "n_trainings", "seed", "threads",
                          "elapsed_seconds", "version", "shap_roc_integrated", "shap_prc_integrated"})
    EXPECT_TRUE(j.contains(key)) << key;
  // Per feature, in the order of "features": {"mean": [...], "std": [...]}; with one split the
  // mean is Eq. (12)'s integral of the ShapROC curve.
  for (const char* key : {"shap_roc_integrated", "shap_prc_integrated"}) {
    EXPECT_EQ(j[key]["mean"].size(), 4U) << key;
    EXPECT_EQ(j[key]["std"].size(), 4U) << key;
  }
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_NEAR(j["shap_roc_integrated"]["mean"][i].get<double>(),
                j["eq12"]["integral"][j["features"][i].get<std::string>()].get<double>(), 1e-15);
  for (const char* key : {"fpr", "tpr_mean", "tpr_std", "shap_roc", "recall", "precision_mean", "precision_std",
                          "shap_prc"})
    EXPECT_TRUE(j["curves"].contains(key)) << key;
  EXPECT_EQ(j["method"], "robustness");
  const std::vector<std::string> names{"variance", "skewness", "curtosis", "entropy"};
  EXPECT_EQ(j["features"].get<std::vector<std::string>>(), names);
  EXPECT_EQ(j["base"].get<double>(), 0.5);
  EXPECT_NEAR(j["value"].get<double>(), ref.ref["full"]["auc"].get<double>(), 1e-9);
  double sum = 0.0;
  for (const auto& f : names) {
    EXPECT_NEAR(j["phi"][f].get<double>(), ref.ref["phi"][f].get<double>(), 1e-9) << f;
    EXPECT_EQ(j["phi_std"][f].get<double>(), 0.0) << f;
    sum += j["phi"][f].get<double>();
    const auto& curve = j["curves"]["shap_roc"][f];
    EXPECT_EQ(curve["mean"].size(), 101U);
    EXPECT_EQ(curve["std"].size(), 101U);
    EXPECT_EQ(j["curves"]["shap_prc"][f]["mean"].size(), 101U);
  }
  EXPECT_NEAR(sum, j["value"].get<double>() - 0.5, 1e-12);
  const auto coalitions = j["coalition_values"].get<std::vector<double>>();
  const auto want = ref.ref["auc_by_coalition_bitmask"]["auc"].get<std::vector<double>>();
  ASSERT_EQ(coalitions.size(), want.size());
  for (std::size_t s = 0; s < want.size(); ++s) EXPECT_NEAR(coalitions[s], want[s], 1e-9) << s;
  EXPECT_EQ(j["n_trainings"].get<int>(), 15);
  EXPECT_EQ(j["curves"]["fpr"].size(), 101U);
  EXPECT_EQ(j["curves"]["tpr_mean"].size(), 101U);
  for (const char* file : {"phi.csv", "roc_curve.csv", "pr_curve.csv", "splits.csv", "coalitions.csv",
                           "waterfall_auc.svg", "bars_auc.svg", "roc.svg", "shap_roc.svg", "waterfall_slice.svg",
                           "prc.svg", "shap_prc.svg", "waterfall_auprc.svg"}) {
    const std::string text = ReadText(out / file);
    EXPECT_FALSE(text.empty()) << file;
    if (std::string(file).ends_with(".svg")) {
      EXPECT_NE(text.find("<svg"), std::string::npos) << file;
      EXPECT_NE(text.find("</svg>"), std::string::npos) << file;
    }
  }
  const std::string phi_csv = ReadText(out / "phi.csv");
  EXPECT_EQ(phi_csv.rfind("feature,phi_auc,phi_auc_std,", 0), 0U) << phi_csv;
  EXPECT_EQ(std::count(phi_csv.begin(), phi_csv.end(), '\n'), 5);
}

// --curve-points thresholds:101 through the CLI (sorted --split rows) equals the authors'
// procedure on the reference split: phi / phi_auprc their ShapAUC / ShapAUPRC scripts (own
// areas), shap_roc_integrated / shap_prc_integrated and the curves their ShapROC / ShapPRC ones.
TEST(RobustnessCli, ThresholdsModeMatchesTheAuthorsScripts) {
  Reference ref;
  LoadReference(ref);
  const auto peer = ReadJson(testing::FixturePath("shaproc_banknote_peer.json"));
  for (const std::string strategy : {"optimistic", "pessimistic", "interpolation"}) {
    const auto out = FreshDir("robustness_thresholds_" + strategy);
    const CliRun run = RunCli("robustness --data " + Quote(ref.data) + " --label label --split " + Quote(ref.split) +
                              " --curve-points thresholds:101 --strategy " + strategy + " --quiet --out " +
                              Quote(out.string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    const auto j = ReadJson(out / "result.json");
    const auto& want = peer[strategy];
    for (std::size_t i = 0; i < 4; ++i) {
      const std::string f = j["features"][i];
      EXPECT_NEAR(j["phi"][f].get<double>(), peer["phi_auc"][i].get<double>(), 1e-13) << strategy << f;
      EXPECT_NEAR(j["phi_auprc"][f].get<double>(), peer["phi_auprc"][i].get<double>(), 1e-13)
          << strategy << f;
      EXPECT_NEAR(j["shap_roc_integrated"]["mean"][i].get<double>(),
                  want["shap_roc_integrated"][i].get<double>(), 1e-13)
          << strategy << f;
      EXPECT_NEAR(j["shap_prc_integrated"]["mean"][i].get<double>(),
                  want["shap_prc_integrated"][i].get<double>(), 1e-13)
          << strategy << f;
      EXPECT_EQ(j["shap_roc_integrated"]["std"][i].get<double>(), 0.0);
      EXPECT_EQ(j["shap_prc_integrated"]["std"][i].get<double>(), 0.0);
      for (std::size_t g = 0; g < 101; ++g) {
        EXPECT_NEAR(j["curves"]["shap_roc"][f]["mean"][g].get<double>(), want["shap_roc"][i][g].get<double>(), 1e-12);
        EXPECT_NEAR(j["curves"]["shap_prc"][f]["mean"][g].get<double>(), want["shap_prc"][i][g].get<double>(), 1e-12);
      }
    }
    EXPECT_NEAR(j["value"].get<double>(), 0.5 + peer["coalition_auc_gain"][15].get<double>(), 1e-15);
  }
}

TEST(RobustnessCli, RunsOutOfTheBoxOnGeneratedData) {
  const auto out = FreshDir("robustness_builtin");
  const CliRun run = RunCli("robustness --cv mc:5 --select --metrics brier,accuracy --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("perfshap robustness"), std::string::npos) << run.out;
  const auto j = ReadJson(out / "result.json");
  EXPECT_EQ(j["method"], "robustness");
  EXPECT_EQ(j["n_splits"].get<int>(), 5);
  EXPECT_TRUE(j["coalition_values"].is_null());  // several splits
  EXPECT_TRUE(j["metrics"].contains("brier"));
  EXPECT_TRUE(j["selection"].contains("flagged"));
  EXPECT_GT(j["value"].get<double>(), 0.5);
}

TEST(RobustnessCli, InteractionsWriteTheirMatrixAndOneRowPerPair) {
  const auto out = FreshDir("robustness_interactions");
  const CliRun run = RunCli("robustness --cv mc:3 --interactions --quiet --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = ReadJson(out / "result.json");
  const auto& in = j["interactions"];
  EXPECT_EQ(in["index"], "shapley");
  const auto players = j["players"].size();
  ASSERT_EQ(in["mean"].size(), players);
  ASSERT_EQ(in["std"].size(), players);
  // Each row of the mean matrix adds up to the feature's mean phi^AUC (the mean of sums).
  for (std::size_t i = 0; i < players; ++i) {
    double row = 0.0;
    for (const auto& x : in["mean"][i]) row += x.get<double>();
    EXPECT_NEAR(row, j["phi"][j["players"][i]["name"].get<std::string>()].get<double>(), 1e-12) << i;
  }
  const std::string csv = ReadText(out / "interactions.csv");
  EXPECT_EQ(csv.rfind("feature_a,feature_b,sii_auc,sii_auc_std\n", 0), 0u) << csv;
  EXPECT_EQ(static_cast<std::size_t>(std::count(csv.begin(), csv.end(), '\n')), 1 + players * (players - 1) / 2);
  // The matrix heat map: each pair's index with its band written in its cell, the features named.
  const std::string svg = ReadText(out / "interactions_auc.svg");
  EXPECT_NE(svg.find("mean ± std over 3 splits"), std::string::npos);
  EXPECT_EQ(static_cast<std::size_t>(std::count(svg.begin(), svg.end(), '\xb1')), 1 + players * (players - 1));
  EXPECT_NE(svg.find(">" + j["players"][0]["name"].get<std::string>() + "<"), std::string::npos);
  // A sampled solver is refused, naming the options.
  const CliRun sampled = RunCli("robustness --cv mc:3 --interactions --solver permutation --quiet --out " +
                                Quote((out / "sampled").string()));
  EXPECT_EQ(sampled.exit_code, 2);
  EXPECT_NE(sampled.err.find("exact solver"), std::string::npos) << sampled.err;
}

// The written result does not depend on the thread count (only "threads" and the timing do).
TEST(RobustnessCli, ResultIsIdenticalForOneTwoFourThreads) {
  std::vector<nlohmann::json> results;
  for (int threads : {1, 2, 4}) {
    const auto out = FreshDir("robustness_threads_" + std::to_string(threads));
    const CliRun run = RunCli("robustness --cv mc:6 --model logistic --select --quiet --threads " +
                              std::to_string(threads) + " --out " + Quote(out.string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    auto j = ReadJson(out / "result.json");
    j.erase("elapsed_seconds");
    j.erase("threads");
    results.push_back(j);
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(results[0], results[2]);
}

TEST(RobustnessCli, BadInputGivesOneLineAndExitTwo) {
  const auto expect_error = [](const std::string& args, const std::string& needle) {
    const CliRun run = RunCli("robustness " + args + " --quiet");
    EXPECT_EQ(run.exit_code, 2) << args << "\n" << run.err;
    EXPECT_TRUE(OneLine(run.err)) << args << "\n" << run.err;
    EXPECT_NE(run.err.find(needle), std::string::npos) << args << "\n" << run.err;
  };
  // More features than the exact limit (generated data has 3).
  expect_error("--exact-limit 2", "exact limit of 2");
  // Bad option values.
  expect_error("--cv mc:x", "split plan mc:x: 'x' is not an integer >= 1; use holdout, mc:R (R Monte-Carlo splits) or kfold:K (--cv)");
  expect_error("--cv loo", "split plan 'loo' is not understood; use holdout, mc:R (e.g. mc:100) or kfold:K (e.g. kfold:5) (--cv)");
  expect_error("--curve-points grid", "curve points 'grid' are not understood");
  expect_error("--curve-points grid", "(--curve-points)");
  expect_error("--strategy best", "option strategy = 'best' is not one of optimistic, pessimistic, interpolation (--strategy)");
  expect_error("--prc-baseline 0.3", "precision baseline '0.3' is not understood; use 0.5 (the paper) or prevalence (--prc-baseline)");
  expect_error("--model svm", "svm");
  expect_error("--metrics auc2", "unknown robustness metric 'auc2'");
  // The library names its options; the CLI appends the flags that set them.
  const std::string wine = "--data " + Quote(testing::FixturePath("data/wine.csv"));
  expect_error(wine + " --label label", "name the positive class (values in this column: '1', '2', '3') (--positive)");
  expect_error(wine + " --label colour", "name one of them as the label (--label)");

  // Splits and data written for the occasion: 40 rows, label = row % 2, except rows 0..9 = 0.
  const auto dir = FreshDir("robustness_bad");
  std::filesystem::create_directories(dir);
  const auto csv = dir / "data.csv";
  {
    std::ofstream f(csv);
    f << "a,b,flat,label\n";
    for (int r = 0; r < 40; ++r) f << (r * 7 % 11) << "," << (r * 3 % 5) + 0.5 * r << ",4," << (r < 10 ? 0 : r % 2) << "\n";
  }
  std::vector<std::size_t> zeros, rest;
  for (std::size_t r = 0; r < 40; ++r) (r < 10 || r % 2 == 0 ? zeros : rest).push_back(r);
  const std::string data = "--data " + Quote(csv.string()) + " --label label";
  // A constant column names the feature.
  expect_error(data, "feature 'flat' is constant");
  const std::string ok = data + " --features a,b";
  // A test part with one class (reported, not skipped).
  std::vector<std::size_t> train(rest);
  train.insert(train.end(), zeros.begin() + 10, zeros.end());
  const std::vector<std::size_t> test_neg(zeros.begin(), zeros.begin() + 10);
  expect_error(ok + " --split " + Quote(WriteSplit("robustness_bad_test", train, test_neg)), "test part");
  // A training part with one class.
  expect_error(ok + " --split " + Quote(WriteSplit("robustness_bad_train", zeros, rest)), "one class");
  // --cv and --split together.
  expect_error(ok + " --cv mc:3 --split " + Quote(WriteSplit("robustness_both", train, test_neg)), "not both");
}

}  // namespace
}}  // namespace perfshap
