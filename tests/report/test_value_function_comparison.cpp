// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The conditional-vs-marginal comparison of xper and sage (report/value_function_comparison):
// ranks with ties, result.json's values, differences and rank changes, the console lines, and
// the table's order and the figure's bars.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "report/csv.hpp"
#include "report/svg.hpp"
#include "report/value_function_comparison.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

ValueFunctionComparison Example() {
  return {"gaussian",
          "contribution",
          {"a", "b", "c", "d"},
          {0.30, 0.05, 0.10, 0.02},
          {0.01, 0.002, 0.003, 0.001},
          {0.40, -0.01, 0.10, 0.03}};
}

TEST(ValueFunctionComparison, RanksByDecreasingValueTiesInPlayerOrder) {
  EXPECT_EQ(ValueFunctionComparison::Ranks({0.1, 0.3, 0.2}), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(ValueFunctionComparison::Ranks({0.5, 0.5, -1.0}), (std::vector<int>{1, 2, 3}));
}

TEST(ValueFunctionComparison, JsonHasBothValuesTheirDifferenceAndRanks) {
  const Json j = ComparisonJson(Example());
  EXPECT_EQ(j["value_function"], "gaussian");
  EXPECT_EQ(j["players"]["b"]["conditional"], 0.05);
  EXPECT_EQ(j["players"]["b"]["marginal"], -0.01);
  EXPECT_DOUBLE_EQ(j["players"]["b"]["difference"].get<double>(), 0.06);
  // conditional: a 1, c 2, b 3, d 4; marginal: a 1, c 2, d 3, b 4.
  EXPECT_EQ(j["players"]["b"]["rank_conditional"], 3);
  EXPECT_EQ(j["players"]["b"]["rank_marginal"], 4);
  EXPECT_EQ(j["players"]["a"]["rank_conditional"], 1);
  EXPECT_EQ(j["largest_rank_change"], 1);
}

TEST(ValueFunctionComparison, ConsoleNamesThePlayersThatMove) {
  const std::string text = ComparisonText(Example());
  EXPECT_NE(text.find("2 feature(s) change rank"), std::string::npos) << text;
  EXPECT_NE(text.find("b: rank 4 -> 3"), std::string::npos) << text;
  EXPECT_NE(text.find("d: rank 3 -> 4"), std::string::npos) << text;
  EXPECT_EQ(text.find("a: rank"), std::string::npos) << text;
  ValueFunctionComparison same = Example();
  same.marginal_phi = same.conditional_phi;
  EXPECT_NE(ComparisonText(same).find("every feature keeps its rank"), std::string::npos);
}

TEST(ValueFunctionComparison, TableByConditionalValueAndPairedBars) {
  ReportContent out;
  AddComparisonFiles(out, Example());
  ASSERT_EQ(out.items().size(), 2u);
  const auto& csv = std::get<CsvTable>(out.items()[0].content);
  EXPECT_EQ(out.items()[0].name, "conditional_vs_marginal.csv");
  const std::string text = csv.Text();
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "feature,conditional,conditional_se,marginal,difference,rank_conditional,rank_marginal");
  EXPECT_LT(text.find("\na,"), text.find("\nc,"));
  EXPECT_LT(text.find("\nc,"), text.find("\nb,"));
  EXPECT_LT(text.find("\nb,"), text.find("\nd,"));
  const auto& chart = std::get<BarChart>(std::get<Chart>(out.items()[1].content).spec);
  ASSERT_EQ(chart.labels.size(), 8u);
  EXPECT_EQ(chart.labels[0], "a \u00b7 gaussian");
  EXPECT_EQ(chart.labels[1], "a \u00b7 marginal");
  EXPECT_EQ(chart.values[1], 0.40);
  EXPECT_DOUBLE_EQ(chart.stds[0], 1.96 * 0.01);
  EXPECT_EQ(chart.stds[1], 0.0);
}

}  // namespace
}}}  // namespace perfshap::detail
