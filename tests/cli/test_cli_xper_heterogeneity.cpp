// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap xper --clusters --overfit --explain-row` and `perfshap xper-montecarlo` as a user
// runs them: the files and result.json blocks, agreement with the library, determinism across
// thread counts, and one-line usage errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "perfshap/cluster.hpp"
#include "perfshap/blocks/generators.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::FreshDir;
using testing::ReadText;
using testing::RunCli;

std::string Q(const std::string& s) { return "'" + s + "'"; }

// Rows [first, last) of the generated probit design as a CSV file x1,x2,x3,y.
std::string WriteDesignCsv(const std::string& name, std::size_t first, std::size_t last) {
  ProbitDesign design;
  design.seed = 77;
  const Dataset d = GenerateProbitDesign(design);
  std::string text = "x1,x2,x3,y\n";
  char buf[64];
  for (std::size_t i = first; i < last; ++i) {
    for (std::size_t j = 0; j < 3; ++j) {
      std::snprintf(buf, sizeof buf, "%.17g,", d.column(j)[i]);
      text += buf;
    }
    text += d.label()[i] > 0.5 ? "1\n" : "0\n";
  }
  const auto dir = std::filesystem::temp_directory_path() / ("perfshap_xper_het_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

bool IsSvg(const std::string& text) {
  return text.rfind("<?xml", 0) == 0 && text.find("<svg") != std::string::npos &&
         text.size() > 200 && text.substr(text.size() - 7) == "</svg>\n";
}

void ExpectOneLineError(const testing::CliRun& run, const std::string& needle) {
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_NE(run.err.find(needle), std::string::npos) << run.err;
}

TEST(XperCliHeterogeneity, ClustersOverfitAndFigures) {
  const std::string train = WriteDesignCsv("train.csv", 0, 700);
  const std::string test = WriteDesignCsv("test.csv", 700, 1000);
  const auto dir = FreshDir("xper_het");
  const auto run = RunCli("xper --quiet --threads 2 --data " + Q(test) + " --label y --model probit --train " +
                          Q(train) + " --clusters auto --overfit --explain-row 5 --out " + Q(dir.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(ReadText(dir / "result.json"));

  // Overfitting view: both decompositions, each efficient.
  ASSERT_TRUE(j.contains("overfit"));
  for (const char* part : {"train", "test"}) {
    const auto& o = j["overfit"][part];
    double sum = o["base"].get<double>();
    for (const auto& [name, v] : o["phi"].items()) sum += v.get<double>();
    EXPECT_NEAR(sum, o["value"].get<double>(), 1e-12) << part;
  }
  EXPECT_EQ(j["overfit"]["train"]["n_rows"], 700);
  EXPECT_EQ(j["overfit"]["test"]["value"], j["value"]);

  // Clusters of the training sample, k by the silhouette, and the refit table.
  const auto& c = j["clusters"];
  EXPECT_EQ(c["sample"], "train");
  const std::size_t k = c["k"].get<std::size_t>();
  EXPECT_GE(k, 2u);
  EXPECT_LE(k, 10u);
  double best = -2;
  std::string best_k;
  for (const auto& [kk, v] : c["silhouette"].items())
    if (v.get<double>() > best) best = v.get<double>(), best_k = kk;
  EXPECT_EQ(best_k, std::to_string(k));
  std::size_t members = 0;
  for (const auto& prof : c["profiles"]) members += prof["size"].get<std::size_t>();
  EXPECT_EQ(members, 700u);
  for (const char* m : {"auc", "brier", "accuracy", "balanced_accuracy", "sensitivity", "specificity"}) {
    ASSERT_TRUE(c["refit"]["metrics"].contains(m)) << m;
  }
  EXPECT_NEAR(c["refit"]["metrics"]["auc"]["test"]["one_model"].get<double>(), j["value"].get<double>(), 1e-12);

  // Files: CSV tables with one line per cluster / metric and sample, SVG figures.
  const std::string profiles = ReadText(dir / "clusters.csv");
  EXPECT_EQ(static_cast<std::size_t>(std::count(profiles.begin(), profiles.end(), '\n')), k + 1);
  EXPECT_EQ(profiles.rfind("cluster,medoid_row,size,share,y_mean,silhouette,mean_x1", 0), 0u);
  const std::string metrics = ReadText(dir / "cluster_metrics.csv");
  EXPECT_EQ(std::count(metrics.begin(), metrics.end(), '\n'), 13);
  const std::string assignment = ReadText(dir / "cluster_assignment.csv");
  EXPECT_EQ(std::count(assignment.begin(), assignment.end(), '\n'), 1 + 700 + 300);
  for (const char* svg : {"xper_bar.svg", "xper_individual.svg", "xper_waterfall_row5.svg", "xper_overfit.svg",
                          "silhouette.svg", "xper_clusters.svg"})
    EXPECT_TRUE(IsSvg(ReadText(dir / svg))) << svg;
}

TEST(XperCliHeterogeneity, SameFilesForOneAndTwoThreads) {
  const std::string train = WriteDesignCsv("train.csv", 0, 700);
  const std::string test = WriteDesignCsv("test.csv", 700, 1000);
  std::vector<std::filesystem::path> dirs{FreshDir("xper_het_t1"), FreshDir("xper_het_t2")};
  for (int t = 0; t < 2; ++t)
    ASSERT_EQ(RunCli("xper --quiet --threads " + std::to_string(t + 1) + " --data " + Q(test) +
                     " --label y --model probit --train " + Q(train) + " --clusters 3 --overfit --out " +
                     Q(dirs[t].string()))
                  .exit_code,
              0);
  for (const char* f : {"clusters.csv", "cluster_metrics.csv", "cluster_assignment.csv", "individual.csv",
                        "xper_clusters.svg", "silhouette.svg", "xper_overfit.svg"})
    EXPECT_EQ(ReadText(dirs[0] / f), ReadText(dirs[1] / f)) << f;
}

TEST(XperCliHeterogeneity, ClustersWithoutTrainClusterTheSample) {
  const auto dir = FreshDir("xper_het_sample");
  const auto run = RunCli("xper --quiet --clusters 2 --out " + Q(dir.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto j = nlohmann::json::parse(ReadText(dir / "result.json"));
  EXPECT_EQ(j["clusters"]["sample"], "test");
  EXPECT_EQ(j["clusters"]["k"], 2);
  EXPECT_FALSE(j["clusters"].contains("refit"));
  EXPECT_FALSE(std::filesystem::exists(dir / "cluster_metrics.csv"));
}

TEST(XperCliHeterogeneity, UsageErrorsAreOneLine) {
  ExpectOneLineError(RunCli("xper --quiet --overfit"), "--train");
  ExpectOneLineError(RunCli("xper --quiet --clusters 1"), "--clusters");
  ExpectOneLineError(RunCli("xper --quiet --clusters many"), "--clusters");
  ExpectOneLineError(RunCli("xper --quiet --clusters 300"), "2..299");
  ExpectOneLineError(RunCli("xper-montecarlo --quiet --samples 2 --rows 100 --train-rows 99"), "--train-rows");
  ExpectOneLineError(RunCli("xper-montecarlo --quiet --samples 2 --comparator exact"), "comparator");
}

TEST(XperCliMonteCarlo, SmallRunIsTheSameForOneAndTwoThreads) {
  std::vector<std::filesystem::path> dirs{FreshDir("xper_mc_t1"), FreshDir("xper_mc_t2")};
  for (int t = 0; t < 2; ++t) {
    const auto run = RunCli("xper-montecarlo --quiet --samples 12 --rows 300 --train-rows 200 --threads " +
                            std::to_string(t + 1) + " --out " + Q(dirs[t].string()));
    ASSERT_EQ(run.exit_code, 0) << run.err;
  }
  const std::string csv = ReadText(dirs[0] / "samples.csv");
  EXPECT_EQ(csv, ReadText(dirs[1] / "samples.csv"));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 13);
  EXPECT_EQ(csv.rfind("k,seed,auc,phi_0,phi_x1,phi_x2,phi_x3,share_x1", 0), 0u);
  EXPECT_EQ(ReadText(dirs[0] / "xper_montecarlo_hist.svg"), ReadText(dirs[1] / "xper_montecarlo_hist.svg"));
  EXPECT_TRUE(IsSvg(ReadText(dirs[0] / "xper_montecarlo_hist.svg")));
  const auto j = nlohmann::json::parse(ReadText(dirs[0] / "result.json"));
  EXPECT_EQ(j["method"], "xper-montecarlo");
  EXPECT_EQ(j["samples"], 12);
  EXPECT_EQ(j["comparator"], "full");
  for (const char* q : {"auc", "phi_0", "phi_x1", "phi_x2", "phi_x3"}) {
    const auto& d = j["distribution"][q];
    for (const char* stat : {"mean", "std", "q05", "q25", "q50", "q75", "q95"}) EXPECT_TRUE(d.contains(stat)) << q;
    EXPECT_LE(d["q05"].get<double>(), d["q50"].get<double>());
    EXPECT_LE(d["q50"].get<double>(), d["q95"].get<double>());
  }
  // Full comparator: the benchmark is exactly 1/2 in every sample.
  EXPECT_EQ(j["distribution"]["phi_0"]["std"].get<double>(), 0.0);
  EXPECT_EQ(j["distribution"]["phi_0"]["mean"].get<double>(), 0.5);
}

}  // namespace
}}  // namespace perfshap
