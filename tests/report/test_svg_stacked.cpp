// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The stacked bar chart of engine/src/report/svg.hpp: well-formed XML with finite coordinates,
// one rect per non-zero segment, the legend and the totals printed and escaped, panels sharing
// the value axis or not, deterministic bytes, one-line errors naming chart, panel, bar and index.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <limits>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "report/svg.hpp"
#include "support/expect_error.hpp"
#include "support/svg_checks.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

using testing::CheckDocument;
using testing::ExpectError;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();


bool Has(const std::string& svg, const std::string& part) { return svg.find(part) != std::string::npos; }

std::size_t Count(const std::string& svg, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = svg.find(part); at != std::string::npos; at = svg.find(part, at + 1)) ++n;
  return n;
}

/// A chain's direct + indirect contributions next to independent classifiers' (indirect 0).
StackedBarChart SampleChains() {
  StackedBarChart c;
  c.frame.title = "Contributions to <occupation> & co";
  c.frame.x_label = "mean |contribution|";
  c.layer_names = {"direct", "indirect"};
  StackedBarPanel chain{"Shapley Chains", {}};
  chain.bars = {{"age", {0.12, 0.03}}, {"hours_per_week", {0.02, 0.05}}, {"relationship", {0.2, 0.0}}};
  StackedBarPanel independent{"independent classifiers", {}};
  independent.bars = {{"age", {0.1, 0.0}}, {"hours_per_week", {0.03, 0.0}}, {"relationship", {0.18, 0.0}}};
  c.panels = {chain, independent};
  return c;
}

TEST(SvgStacked, OneRectPerNonZeroSegmentLegendAndTotals) {
  const StackedBarChart c = SampleChains();
  const std::string svg = RenderSvg(c);
  const auto counts = CheckDocument(svg);
  // Background, legend swatches (2), segments: chain 2 + 2 + 1, independent 1 + 1 + 1.
  EXPECT_EQ(counts.at("rect"), 1u + 2u + 8u);
  EXPECT_EQ(Count(svg, "fill=\"#1f77b4\" fill-opacity=\"0.7\"/>"), 6u + 1u);  // direct segments, swatch
  EXPECT_EQ(Count(svg, "fill=\"#ff7f0e\" fill-opacity=\"0.7\"/>"), 2u + 1u);  // indirect segments, swatch
  for (const char* part :
       {"Contributions to &lt;occupation&gt; &amp; co", ">Shapley Chains<", ">independent classifiers<",
        ">direct<", ">indirect<", ">mean |contribution|<", ">age<", ">hours_per_week<", ">relationship<",
        ">0.150<", ">0.070<", ">0.200<", ">0.100<", ">0.030<", ">0.180<"}) {
    EXPECT_TRUE(Has(svg, part)) << part;
  }
  EXPECT_EQ(Count(svg, ">age<"), 2u);  // row labels per panel
  EXPECT_EQ(svg, RenderSvg(c));        // deterministic
  StackedBarChart copy = SampleChains();
  EXPECT_EQ(svg, RenderSvg(copy));
}

TEST(SvgStacked, SegmentsAreContiguousAndTotalsSitAtTheBarEnd) {
  StackedBarChart c;
  c.layer_names = {"a", "b", "c"};
  c.decimals = 2;
  c.panels = {StackedBarPanel{"", {StackedBar{"only", {1.0, 2.0, 1.0}}}}};
  const std::string svg = RenderSvg(c);
  CheckDocument(svg);
  // The three segments' x and width: each starts where the previous one ends.
  static const std::regex seg(
      R"re(<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)" height="[0-9.]+" fill="(#1f77b4|#ff7f0e|#2ca02c)" fill-opacity="0.7"/>)re");
  std::vector<double> xs, ws;
  for (std::sregex_iterator it(svg.begin(), svg.end(), seg), end; it != end; ++it) {
    xs.push_back(std::stod((*it)[1]));
    ws.push_back(std::stod((*it)[2]));
  }
  ASSERT_EQ(xs.size(), 3u + 3u);  // the segments, then the legend's swatches
  EXPECT_NEAR(xs[0] + ws[0], xs[1], 0.02);
  EXPECT_NEAR(xs[1] + ws[1], xs[2], 0.02);
  EXPECT_NEAR(ws[1], 2 * ws[0], 0.03);
  EXPECT_NEAR(ws[2], ws[0], 0.02);
  // The total right after the bar's end.
  static const std::regex total(
      R"re(<text x="([0-9.]+)" y="[0-9.]+" text-anchor="start" font-size="13">4.00</text>)re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, total));
  EXPECT_NEAR(std::stod(m[1]), xs[2] + ws[2] + 6, 0.02);
}

TEST(SvgStacked, SharedAxisSpansTheLargestTotalOfAllPanels) {
  StackedBarChart c;
  c.layer_names = {"direct", "indirect"};
  c.panels = {StackedBarPanel{"small", {{"x", {0.1, 0.1}}}}, StackedBarPanel{"large", {{"x", {3.0, 1.0}}}}};
  const std::string shared = RenderSvg(c);
  CheckDocument(shared);
  // Both panels' axes end at 4: the tick label "4" twice; the small panel never shows 0.2.
  EXPECT_EQ(Count(shared, ">4<"), 2u);
  EXPECT_FALSE(std::regex_search(shared, std::regex(">0\\.20?<")));
  c.shared_axis = false;
  const std::string own = RenderSvg(c);
  CheckDocument(own);
  EXPECT_EQ(Count(own, ">4<"), 1u);
  EXPECT_TRUE(std::regex_search(own, std::regex(">0\\.20?<")));  // its own axis ends at 0.2
  EXPECT_NE(shared, own);
}

TEST(SvgStacked, ZerosEmptyPanelsAndEmptyChartsAreValidDocuments) {
  CheckDocument(RenderSvg(StackedBarChart{}));
  StackedBarChart c;
  c.layer_names = {"direct", ""};  // an unnamed layer is left out of the legend
  c.frame.y_label = "feature";
  c.frame.height = 120;
  c.panels = {StackedBarPanel{"zeros", {{"nothing", {0.0, 0.0}}, {"some", {0.0, 0.5}}}},
              StackedBarPanel{"empty", {}}};
  const std::string svg = RenderSvg(c);
  const auto counts = CheckDocument(svg);
  EXPECT_EQ(counts.at("rect"), 1u + 1u + 1u);  // background, one swatch, one segment
  EXPECT_TRUE(Has(svg, ">0.000<"));
  EXPECT_TRUE(Has(svg, ">0.500<"));
  EXPECT_TRUE(Has(svg, ">feature<"));
  // Many panels in a narrow frame still give finite coordinates.
  StackedBarChart narrow = SampleChains();
  narrow.frame.width = 100;
  for (int k = 0; k < 5; ++k) narrow.panels.push_back(narrow.panels[0]);
  CheckDocument(RenderSvg(narrow));
}

TEST(SvgStacked, ErrorsNameChartPanelBarAndIndex) {
  StackedBarChart c = SampleChains();
  c.panels[1].bars[2].values[1] = kNaN;
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"stacked bar chart", "panel 'independent classifiers'",
                                                       "bar 'relationship'", "values[1]", "not finite"});
  c = SampleChains();
  c.panels[0].bars[1].values[0] = -0.25;
  ExpectError<InvalidArgument>([&] { RenderSvg(c); },
                               {"stacked bar chart", "panel 'Shapley Chains'", "bar 'hours_per_week'",
                                "values[0]", "negative", ">= 0"});
  c = SampleChains();
  c.panels[0].bars[0].values.push_back(0.1);
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"stacked bar chart", "panel 'Shapley Chains'",
                                                       "bar 'age'", "has 3 values, expected 2"});
  c = SampleChains();
  c.panels[1].title.clear();
  c.panels[1].bars[0].label.clear();
  c.panels[1].bars[0].values[0] = std::numeric_limits<double>::infinity();
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"stacked bar chart", "panel 1 bar 0 values[0]"});
  c = SampleChains();
  c.decimals = -1;
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"stacked bar chart", "decimals"});
}

}  // namespace
}}}  // namespace perfshap::detail
