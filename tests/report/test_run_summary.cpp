// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The summary a run opens on, as console text: the same facts and strongest features as the
// HTML page's, read from result.json without building the run's tables, and at the head of the
// console text every front end gets (api::CallMethod).
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cli/cli_runner.hpp"
#include "report/json.hpp"
#include "report/run_summary.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

Json SplitsResult(int n_splits, double std_dev, double se) {
  Json j;
  j["method"] = "robustness";
  j["data"] = "banknote.csv";
  j["model"] = "gnb";
  j["n_splits"] = n_splits;
  j["value"] = 0.95;
  j["value_std"] = std_dev;
  j["base"] = 0.5;
  j["phi"] = {{"a", 0.1}, {"b", -0.25}, {"c", 0.3}, {"d", 0.05}};
  j["phi_std"] = {{"a", std_dev}, {"b", std_dev}, {"c", std_dev}, {"d", std_dev}};
  j["phi_se"] = {{"a", se}, {"b", se}, {"c", se}, {"d", se}};
  j["solver"] = se > 0 ? "permutation" : "exact";
  return j;
}

TEST(RunSummary, TextOpensOnTheQuestionThenTheStrongestFeaturesThenTheFacts) {
  const std::string text = SummaryText(SummarizeResult(SplitsResult(5, 0.02, 0.0)));
  EXPECT_EQ(text.rfind("Summary: Which features make the model's AUC", 0), 0U) << text;
  const std::size_t strongest =
      text.find("  the strongest features (phi ± standard deviation over the splits):\n");
  const std::size_t c = text.find("\n    c  0.3 ± 0.02\n"), b = text.find("\n    b  -0.25 ± 0.02\n"),
                    a = text.find("\n    a  0.1 ± 0.02\n");
  ASSERT_NE(strongest, std::string::npos) << text;
  ASSERT_NE(c, std::string::npos) << text;
  EXPECT_LT(strongest, c);
  EXPECT_LT(c, b);
  EXPECT_LT(b, a);
  EXPECT_EQ(text.find("    d "), std::string::npos) << "three features, not four:\n" << text;
  EXPECT_NE(text.find("\n  data    banknote.csv\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n  result  AUC 0.95 ± 0.02 (std over the splits) = 0.5 + the sum of the phi\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.substr(text.size() - 2), "\n\n");  // a blank line before the method's own text
  // Every line fits a terminal.
  for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    EXPECT_LE(end - at, 100U) << text.substr(at, end - at);
  }
}

TEST(RunSummary, ABandThatCannotVaryIsNotShown) {
  // One split, an exact solver: the std over splits and the standard errors are all zero.
  ReportSummary s = SummarizeResult(SplitsResult(1, 0.0, 0.0));
  EXPECT_TRUE(s.band_label.empty());
  ASSERT_EQ(s.strongest.size(), 3U);
  EXPECT_TRUE(std::isnan(s.strongest[0].band));
  const std::string text = SummaryText(s);
  EXPECT_NE(text.find("\n    c  0.3\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("±"), std::string::npos) << text;
  // One split and a sampled solver: the band is its standard error.
  s = SummarizeResult(SplitsResult(1, 0.0, 0.004));
  EXPECT_EQ(s.band_label, "standard error");
  EXPECT_DOUBLE_EQ(s.strongest[0].band, 0.004);
}

TEST(RunSummary, TheDemoNamesItsDataOnlyAndAnEmptySummaryPrintsNothing) {
  Json demo = SplitsResult(1, 0.0, 0.0);
  demo["method"] = "demo";
  const ReportSummary s = SummarizeResult(demo);
  EXPECT_TRUE(s.strongest.empty());
  ASSERT_EQ(s.facts.size(), 1U);
  EXPECT_EQ(s.facts[0].first, "data");
  EXPECT_EQ(SummaryText(SummarizeResult(Json{{"method", "other"}})), "");
}

TEST(RunSummary, ReadsTheRunsResultWithoutBuildingItsTablesOrFigures) {
  bool table_built = false, figure_built = false;
  const Reporter reporter = ReporterOf([&](ReportContent& out) {
    out.Table("rows.csv", [&] {
      table_built = true;
      return CsvTable({"row"});
    });
    out.Figure("f.svg", FigureSet::kSummary, [&] {
      figure_built = true;
      return Chart(BarChart{});
    });
    Json body = SplitsResult(3, 0.01, 0.0);
    body.erase("method");
    RunRecord run;
    run.method = "robustness";
    out.Result(run, body);
  });
  const ReportSummary s = SummarizeRun(reporter);
  EXPECT_FALSE(table_built);
  EXPECT_FALSE(figure_built);
  ASSERT_EQ(s.strongest.size(), 3U);
  EXPECT_EQ(s.strongest[0].name, "c");
  EXPECT_EQ(s.band_label, "standard deviation over the splits");
}

TEST(RunSummary, LeadsTheConsoleTextOfAMethod) {
  const auto r =
      testing::RunCli("robustness --data " + testing::Quote(testing::FixturePath("data/banknote.csv")) +
                      " --label label --cv kfold:3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Summary: Which features make the model's AUC", 0), 0U) << r.out;
  const std::size_t own = r.out.find("\nperfshap robustness: ");
  ASSERT_NE(own, std::string::npos) << r.out;
  const std::string summary = r.out.substr(0, own);
  EXPECT_NE(summary.find("\n    variance  0.3"), std::string::npos) << summary;
  EXPECT_NE(summary.find("± "), std::string::npos) << "three splits give bands:\n" << summary;
}

}  // namespace
}}}  // namespace perfshap::detail
