// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The conditional-vs-marginal comparison of xper and sage (report/value_function_comparison):
// ranks with ties, result.json's values, differences and rank changes, the console lines, and
// the table's order and the figure's bars.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
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

TEST(FeatureDependence, PearsonCorrelationsOfTheBackgroundAndTheirHeatMap) {
  // Columns: x, 2x + 1, -x + noise-free, a constant, and one uncorrelated with x (by design).
  const std::vector<double> x{1, 2, 3, 4};
  std::vector<double> columns = x;
  for (double v : x) columns.push_back(2 * v + 1);
  for (double v : x) columns.push_back(-v);
  for (std::size_t r = 0; r < 4; ++r) columns.push_back(5.0);
  for (double v : {1.0, -1.0, -1.0, 1.0}) columns.push_back(v);
  const FeatureDependence d = DependenceOf(ColumnMatrix{columns, 4}, {"x", "y", "z", "c", "u"});
  EXPECT_EQ(d.rows, 4u);
  EXPECT_DOUBLE_EQ(d.correlation[0 * 5 + 1], 1.0);
  EXPECT_DOUBLE_EQ(d.correlation[2 * 5 + 0], -1.0);
  EXPECT_NEAR(d.correlation[4 * 5 + 0], 0.0, 1e-15);
  EXPECT_TRUE(std::isnan(d.correlation[3 * 5 + 0]));
  EXPECT_EQ(d.correlation[3 * 5 + 3], 1.0);
  const Json j = DependenceJson(d);
  EXPECT_EQ(j["method"], "pearson");
  EXPECT_TRUE(j["correlation"][3][0].is_null());
  EXPECT_NEAR(j["correlation"][0][1].get<double>(), 1.0, 1e-15);
  ReportContent out;
  AddDependenceFiles(out, d);
  ASSERT_EQ(out.items().size(), 1u);
  EXPECT_EQ(out.items()[0].name, "dependence.svg");
  const auto& map = std::get<HeatmapChart>(std::get<Chart>(out.items()[0].content).spec);
  EXPECT_EQ(map.y_labels.front(), "u");  // row 0 at the bottom: the first feature on top
  EXPECT_EQ(map.x_labels.front(), "x");
  EXPECT_NEAR(map.values[4 * 5 + 1], 1.0, 1e-15);  // the top row (x) against y
  // Too many features for a readable map: none drawn (result.json still has the matrix).
  const std::vector<double> wide((kDependenceMapFeatures + 1) * 3, 1.0);
  std::vector<std::string> names;
  for (std::size_t k = 0; k <= kDependenceMapFeatures; ++k) {
    std::string name = "f";  // not "f" + to_string: GCC 12's false -Wrestrict on that
    name += std::to_string(k);
    names.push_back(std::move(name));
  }
  ReportContent none;
  AddDependenceFiles(none, DependenceOf(ColumnMatrix{wide, 3}, names));
  EXPECT_TRUE(none.items().empty());
}

}  // namespace
}}}  // namespace perfshap::detail
