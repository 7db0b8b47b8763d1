// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The box and heat-map charts of engine/src/report/svg.hpp: the box statistics against numpy /
// matplotlib, well-formed XML with finite coordinates, labels and legends present and escaped,
// the cells where the header puts them, deterministic bytes, one-line errors.
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

// ---- box plots ----------------------------------------------------------------------------

TEST(SvgBox, SummaryIsNumpysQuartilesAndMatplotlibsWhiskers) {
  // Reference: numpy.quantile(x, [0.25, 0.5, 0.75]) and matplotlib.cbook.boxplot_stats(x)
  // (numpy 1.24.2, matplotlib 3.6.3).
  BoxSummary s = BoxSummaryOf({1, 2, 3, 4, 5, 6, 7, 8, 9, 40});
  EXPECT_EQ(s.q1, 3.25);
  EXPECT_EQ(s.median, 5.5);
  EXPECT_EQ(s.q3, 7.75);
  EXPECT_EQ(s.whisker_low, 1.0);
  EXPECT_EQ(s.whisker_high, 9.0);
  EXPECT_EQ(s.outliers, (std::vector<double>{40}));

  s = BoxSummaryOf({0.1, 0.4, 0.2, 0.9, 0.3, -2.0});
  EXPECT_EQ(s.q1, 0.125);
  EXPECT_EQ(s.median, 0.25);
  EXPECT_EQ(s.q3, 0.375);
  EXPECT_EQ(s.whisker_low, 0.1);
  EXPECT_EQ(s.whisker_high, 0.4);
  EXPECT_EQ(s.outliers, (std::vector<double>{-2.0, 0.9}));

  // The lowest value within the fence lies above q1: the whisker stops at q1.
  s = BoxSummaryOf({0, 0, 10, 10, 10, 10, 10, 10});
  EXPECT_EQ(s.q1, 7.5);
  EXPECT_EQ(s.median, 10.0);
  EXPECT_EQ(s.q3, 10.0);
  EXPECT_EQ(s.whisker_low, 7.5);
  EXPECT_EQ(s.whisker_high, 10.0);
  EXPECT_EQ(s.outliers, (std::vector<double>{0, 0}));

  s = BoxSummaryOf({3.5});
  EXPECT_EQ(s.q1, 3.5);
  EXPECT_EQ(s.q3, 3.5);
  EXPECT_EQ(s.whisker_low, 3.5);
  EXPECT_EQ(s.whisker_high, 3.5);
  EXPECT_TRUE(s.outliers.empty());
}

/// Three data sets, three models each (the paper's Fig. 6 layout); deterministic values.
BoxChart SampleBoxes() {
  BoxChart c;
  c.frame.title = "L_bar per test point <lower = more robust>";
  c.frame.y_label = "L_bar";
  c.frame.x_label = "data set";
  c.series_names = {"Decision Tree", "Random Forest", "AXOM & co"};
  for (const char* name : {"wine", "glass", "seeds"}) {
    BoxGroup g;
    g.label = name;
    for (int m = 0; m < 3; ++m) {
      std::vector<double> v;
      for (int i = 0; i < 40; ++i) v.push_back(0.2 * m + 0.01 * ((i * 37 + m * 11) % 50));
      v.push_back(3.0 + m);  // an outlier per box
      g.values.push_back(v);
    }
    c.groups.push_back(g);
  }
  return c;
}

TEST(SvgBox, GroupedChartHasBoxesOutliersLegendAndLabels) {
  const BoxChart c = SampleBoxes();
  const std::string svg = RenderSvg(c);
  const auto counts = CheckDocument(svg);
  EXPECT_EQ(counts.at("circle"), 9u);          // one outlier per box
  EXPECT_EQ(counts.at("rect"), 1u + 9u + 3u);  // background, boxes, legend swatches
  for (const char* part :
       {"L_bar per test point &lt;lower = more robust&gt;", ">L_bar<", ">data set<", ">wine<", ">glass<", ">seeds<",
        ">Decision Tree<", ">Random Forest<", ">AXOM &amp; co<", "#1f77b4", "#ff7f0e", "#2ca02c"}) {
    EXPECT_TRUE(Has(svg, part)) << part;
  }
  EXPECT_EQ(svg, RenderSvg(c));  // deterministic
  // Colours of one's own.
  BoxChart own = c;
  own.series_colors = {"#111111", "#222222", "#333333"};
  const std::string recoloured = RenderSvg(own);
  EXPECT_TRUE(Has(recoloured, "#333333"));
  EXPECT_FALSE(Has(recoloured, "#2ca02c"));
}

TEST(SvgBox, UngroupedChartHasOneColourNoLegendAndTurnsLongLabels) {
  BoxChart c;
  c.frame.y_label = "value";
  c.zero_line = true;
  for (int k = 0; k < 12; ++k) {
    BoxGroup g;
    g.label = "a rather long label " + std::to_string(k);
    g.values = {{1.0 + k, 2.0 + k, 4.0 + k, 8.0 + k}};
    c.groups.push_back(g);
  }
  const std::string svg = RenderSvg(c);
  const auto counts = CheckDocument(svg);
  EXPECT_EQ(counts.at("rect"), 1u + 12u);  // no legend
  EXPECT_TRUE(Has(svg, "rotate(-35 "));
  EXPECT_TRUE(Has(svg, ">a rather long label 11<"));
  EXPECT_FALSE(Has(svg, "#ff7f0e"));
  // A fixed height still leaves a plot.
  c.frame.height = 200;
  CheckDocument(RenderSvg(c));
}

TEST(SvgBox, EmptySamplesAndEmptyChartsAreValidDocuments) {
  CheckDocument(RenderSvg(BoxChart{}));
  BoxChart c = SampleBoxes();
  c.groups[1].values[2].clear();  // no box there
  const auto counts = CheckDocument(RenderSvg(c));
  EXPECT_EQ(counts.at("rect"), 1u + 8u + 3u);
  BoxChart flat;
  flat.groups = {BoxGroup{"one value", {{0.5}}}, BoxGroup{"equal values", {{2.0, 2.0, 2.0}}}};
  CheckDocument(RenderSvg(flat));
}

TEST(SvgBox, RejectsNonFiniteValuesAndMissingSamples) {
  BoxChart c = SampleBoxes();
  c.groups[0].values[2][5] = kNaN;
  ExpectError<InvalidArgument>([&] { RenderSvg(c); },
                               {"box chart", "group 'wine'", "series 'AXOM & co'", "values[5]", "not finite"});
  c = SampleBoxes();
  c.groups[1].values.pop_back();
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"box chart", "group 'glass' has 2 samples", "(3)"});
  c = SampleBoxes();
  c.series_colors = {"#000000"};
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"box chart", "series_colors"});
  BoxChart unnamed;
  unnamed.groups = {BoxGroup{"g", {{1.0, std::numeric_limits<double>::infinity()}}}};
  ExpectError<InvalidArgument>([&] { RenderSvg(unnamed); }, {"box chart", "group 'g' series 0 values[1]"});
}

// ---- heat maps ----------------------------------------------------------------------------

/// A 21 x 21 lattice over [-0.05, 0.05]^2 around a point: a smooth bowl, NaN in one corner.
HeatmapChart SampleHeatmap() {
  HeatmapChart c;
  c.frame.title = "eq. 3: ratio <around x_m>";
  c.frame.x_label = "petal length - x_i";
  c.frame.y_label = "petal width - x_i";
  c.rows = c.cols = 21;
  for (std::size_t r = 0; r < 21; ++r) {
    for (std::size_t k = 0; k < 21; ++k) {
      const double dx = (static_cast<double>(k) - 10) / 200;
      const double dy = (static_cast<double>(r) - 10) / 200;
      c.values.push_back(r + k < 4 ? kNaN : dx * dx + 2 * dy * dy);
    }
  }
  c.x_min = c.y_min = -0.05;
  c.x_max = c.y_max = 0.05;
  c.lattice = true;
  c.marker = true;
  c.color_label = "||g(x_i) - g(x_m)|| & more";
  return c;
}

TEST(SvgHeatmap, GridHasEveryCellAColourBarAndTheMarker) {
  const HeatmapChart c = SampleHeatmap();
  const std::string svg = RenderSvg(c);
  const auto counts = CheckDocument(svg);
  // Background, 441 cells, the plot frame, the colour bar and the "no value" swatch.
  EXPECT_EQ(counts.at("rect"), 1u + 441u + 1u + 1u + 1u);
  EXPECT_EQ(counts.at("circle"), 2u);  // the ring, white under dark
  EXPECT_EQ(counts.at("stop"), 9u);
  for (const char* part : {"eq. 3: ratio &lt;around x_m&gt;", ">petal length - x_i<", ">petal width - x_i<",
                           "||g(x_i) - g(x_m)|| &amp; more", ">no value<", "linearGradient", "#c4c4c4", "#440154",
                           "#fde725", ">-0.04<", ">0.04<"}) {
    EXPECT_TRUE(Has(svg, part)) << part;
  }
  EXPECT_EQ(svg, RenderSvg(c));
  // The default height makes the plot square: the frame rect is as high as wide.
  const std::regex frame(R"re(<rect x="[0-9.]+" y="[0-9.]+" width="([0-9.]+)" height="([0-9.]+)" fill="none")re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, frame));
  EXPECT_EQ(m[1].str(), m[2].str());
}

struct Cell {
  double x, y;
};

/// The position of the first rect filled with `color`.
Cell CellOf(const std::string& svg, const std::string& color) {
  const std::regex rect("<rect x=\"([0-9.]+)\" y=\"([0-9.]+)\" width=\"[0-9.]+\" height=\"[0-9.]+\" fill=\"" + color +
                        "\"/>");
  std::smatch m;
  if (!std::regex_search(svg, m, rect)) {
    ADD_FAILURE() << "no cell of colour " << color;
    return {0, 0};
  }
  return {std::stod(m[1]), std::stod(m[2])};
}

TEST(SvgHeatmap, RowZeroIsAtTheBottomAndColumnZeroAtTheLeft) {
  HeatmapChart c;
  c.rows = 2;
  c.cols = 3;
  c.values = {0, 1, 2, 3, 4, 10};  // lowest bottom-left, highest top-right
  const std::string svg = RenderSvg(c);
  CheckDocument(svg);
  const Cell low = CellOf(svg, "#440154");
  const Cell high = CellOf(svg, "#fde725");
  EXPECT_LT(low.x, high.x);
  EXPECT_GT(low.y, high.y);
  EXPECT_FALSE(Has(svg, "no value"));
  EXPECT_FALSE(Has(svg, "<circle"));
}

TEST(SvgHeatmap, FixedColourScaleClampsAndDegenerateGridsStillDraw) {
  HeatmapChart c;
  c.rows = 1;
  c.cols = 3;
  c.values = {-5.0, 0.5, 7.0};
  c.fixed_color = true;
  c.color_min = 0.0;
  c.color_max = 1.0;
  c.marker = true;
  c.marker_x = 3.0;  // outside the plot: not drawn
  std::string svg = RenderSvg(c);
  CheckDocument(svg);
  EXPECT_TRUE(Has(svg, "fill=\"#440154\"/>"));
  EXPECT_TRUE(Has(svg, "fill=\"#fde725\"/>"));
  EXPECT_FALSE(Has(svg, "<circle"));
  // Every value equal, every value missing, no cell at all.
  HeatmapChart flat;
  flat.rows = flat.cols = 2;
  flat.values = {0.3, 0.3, 0.3, 0.3};
  CheckDocument(RenderSvg(flat));
  flat.values.assign(4, kNaN);
  svg = RenderSvg(flat);
  CheckDocument(svg);
  EXPECT_TRUE(Has(svg, ">no value<"));
  CheckDocument(RenderSvg(HeatmapChart{}));
  // A lattice of one column tiles its range.
  HeatmapChart column;
  column.rows = 3;
  column.cols = 1;
  column.lattice = true;
  column.values = {1, 2, 3};
  CheckDocument(RenderSvg(column));
}

TEST(SvgHeatmap, RejectsInfiniteCellsBadRangesAndLengthMismatch) {
  HeatmapChart c;
  c.rows = c.cols = 2;
  c.values = {1, 2, 3};
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"heatmap", "values has 3 values", "rows x cols = 2 x 2"});
  c.values = {1, 2, -std::numeric_limits<double>::infinity(), 4};
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"heatmap", "values[2] (row 1, column 0) is infinite"});
  c.values = {1, 2, 3, 4};
  c.x_max = c.x_min;
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"heatmap", "x_max must exceed x_min"});
  c.x_max = 1.0;
  c.y_min = kNaN;
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"heatmap", "y_min is not finite"});
  c.y_min = 0.0;
  c.marker = true;
  c.marker_y = kNaN;
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"heatmap", "marker_y is not finite"});
  c.marker = false;
  c.fixed_color = true;
  c.color_min = 2.0;
  c.color_max = 2.0;
  ExpectError<InvalidArgument>([&] { RenderSvg(c); }, {"heatmap", "color_max must exceed color_min"});
}

}  // namespace
}}}  // namespace perfshap::detail
