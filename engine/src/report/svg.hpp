// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Dependency-free SVG charts for the reports: a figure is data (a Chart: one of the chart specs
// below, or a grid of them), built by a method's report (ReportContent::Figure) and drawn by the
// SVG writer, RenderSvg, as a complete SVG 1.1 document. Text is XML-escaped; sans-serif fonts of 12 px and
// more; tick values at "nice" steps (1, 2, 2.5, 5 x 10^k). The output depends only on the input
// (no clock, no randomness: the beeswarm jitter is a deterministic packing), so the same input
// gives the same bytes. Every chart @throws InvalidArgument for a non-finite value or a length
// mismatch, naming the chart, the series and the index (a heat map takes NaN cells: no value).

#include <concepts>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief What every chart has: title, axis labels and pixel size. */
struct SvgFrame {
  std::string title;
  std::string x_label;
  std::string y_label;
  /// Width in px (>= 320).
  int width = 760;
  /// Height in px; 0 = automatic (line charts and histograms 480, row charts from the rows).
  int height = 0;
};

/**
 * @brief Waterfall of contributions from a start value to an end value (SHAP-style, one row per
 * step, value axis horizontal): a start bar (e.g. "random classifier" 0.5), one floating bar per
 * feature from the running sum to the running sum + contribution (green up, red down) with its
 * signed value printed, and an end bar (e.g. the AUC). Optional std whiskers as in the paper's
 * figures 8b / 9b. Bars are drawn in the order given (sort them before, e.g. by |phi|).
 */
struct WaterfallChart {
  SvgFrame frame;
  std::string start_label = "base";
  double start_value = 0.0;
  double start_std = 0.0;  ///< 0 = no whisker
  std::vector<std::string> labels;
  std::vector<double> contributions;
  std::vector<double> stds;  ///< empty, or one per contribution (0 = no whisker)
  std::string end_label = "value";
  double end_value = 0.0;
  double end_std = 0.0;
  int decimals = 4;  ///< digits of the printed values
};

/** @brief One curve of a line chart, with an optional +-std band (shaded polygon). */
struct LineSeries {
  std::string name;  ///< legend entry; an empty name is left out of the legend
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> std;  ///< empty, or one per point: band y +- std
  bool dashed = false;
  std::string color;  ///< "#rrggbb"; empty = next palette colour
};

/** @brief Line chart with several series, bands, optional fixed axis limits and vertical
 *  marker lines (e.g. the slice FPR); legend on the right of the plot. */
struct LineChart {
  SvgFrame frame;
  std::vector<LineSeries> series;
  bool fixed_x = false;  ///< use x_min..x_max instead of the data range
  double x_min = 0.0;
  double x_max = 1.0;
  bool fixed_y = false;
  double y_min = 0.0;
  double y_max = 1.0;
  std::vector<double> x_markers;  ///< dashed vertical lines
  bool zero_line = false;         ///< solid line at y = 0
};

/** @brief Horizontal bars (one row per label, in the order given) with std whiskers, printed
 *  values and a zero line; positive and negative bars in two colours. */
struct BarChart {
  SvgFrame frame;
  std::vector<std::string> labels;
  std::vector<double> values;
  std::vector<double> stds;  ///< empty, or one per bar
  int decimals = 4;
};

/** @brief One row of a strip chart: the values of one feature (e.g. individual XPER values)
 *  and optionally a colour value per point (e.g. the feature's value for that row). */
struct StripRow {
  std::string label;
  std::vector<double> values;
  std::vector<double> color_values;  ///< empty (one colour) or one per value
};

/**
 * @brief Beeswarm-style strip plot: one row per feature, points packed deterministically around
 * the row's centre line (no overlap while the row has room), coloured from blue (low) to red
 * (high) by color_values normalised per row, with a colour legend.
 */
struct StripChart {
  SvgFrame frame;
  std::vector<StripRow> rows;
  std::string color_label = "feature value";
  double point_radius = 2.5;
};

/** @brief A vertical reference line of a histogram (e.g. the mean or the reference value). */
struct HistogramMarker {
  std::string label;
  double x = 0.0;
};

/** @brief One sample of a histogram. */
struct HistogramSeries {
  std::string name;
  std::vector<double> values;
};

/** @brief Histogram of one or several samples over shared bins (overlaid, translucent). */
struct HistogramChart {
  SvgFrame frame;
  std::vector<HistogramSeries> series;
  int bins = 0;          ///< 0 = automatic (Freedman-Diaconis, 10..60 bins)
  bool density = false;  ///< y = density instead of counts
  std::vector<HistogramMarker> markers;
};

/** @brief One group of boxes of a box chart (e.g. one data set): one sample per series (e.g. per
 *  model), in the order of BoxChart::series_names. An empty sample draws no box. */
struct BoxGroup {
  std::string label;
  std::vector<std::vector<double>> values;
};

/**
 * @brief Box plots, value axis vertical: per sample a box from the first to the third quartile
 * with the median, whiskers to the most extreme values within 1.5 IQR of the box, and the values
 * beyond them as dots (BoxSummaryOf). Groups side by side along the horizontal axis, labelled
 * below it; within a group one box per series, coloured per series and named in a legend on the
 * right (e.g. the paper's Fig. 6: per data set DT, RF and AXOM). Without grouping: one group per
 * box, each with one sample, and series_names empty (one colour, no legend).
 */
struct BoxChart {
  SvgFrame frame;
  /// Legend entries, one per series; empty = one unnamed series. Every group has one sample per
  /// series (max(1, series_names.size()) samples).
  std::vector<std::string> series_names;
  /// Empty, or one "#rrggbb" per series; empty = the palette's colours in order.
  std::vector<std::string> series_colors;
  std::vector<BoxGroup> groups;
  bool zero_line = false;  ///< solid line at y = 0, the axis extended to include 0
};

/** @brief What a box shows of one sample. Quartiles by numpy's default (linear interpolation
 *  between the order statistics at position q (n - 1)); whiskers at the smallest value >= q1 -
 *  1.5 IQR and the largest <= q3 + 1.5 IQR (matplotlib's boxplot); outliers the values beyond
 *  them, in increasing order. Exposed for tests. */
struct BoxSummary {
  double q1 = 0.0;
  double median = 0.0;
  double q3 = 0.0;
  double whisker_low = 0.0;
  double whisker_high = 0.0;
  std::vector<double> outliers;
};

/** @brief BoxSummaryOf of n >= 1 finite values (any order). */
BoxSummary BoxSummaryOf(std::vector<double> values);

/**
 * @brief Heat map of a rows x cols grid over [x_min, x_max] x [y_min, y_max], e.g. the
 * difference or incremental-ratio map of an explanation around a point: one cell per value in a
 * sequential colour scale (viridis: dark blue, low, to yellow, high) with a colour bar on the
 * right, NaN cells grey ("no value" in the legend), and an optional ring marker at a point (the
 * centre). Height 0 makes the plot area square.
 */
struct HeatmapChart {
  SvgFrame frame;
  std::size_t rows = 0;
  std::size_t cols = 0;
  /// rows x cols values, row-major: row 0 at y_min (the bottom row), column 0 at x_min. NaN = no
  /// value (grey); infinities are rejected.
  std::vector<double> values;
  double x_min = 0.0;
  double x_max = 1.0;
  double y_min = 0.0;
  double y_max = 1.0;
  /// false: the cells tile [x_min, x_max] x [y_min, y_max]; true: the values are samples of a
  /// lattice whose first and last points are x_min, x_max (y_min, y_max), e.g. numpy.linspace,
  /// and each cell is centred on its point, the plot reaching half a step beyond.
  bool lattice = false;
  bool marker = false;  ///< ring at (marker_x, marker_y), drawn when inside the plot
  double marker_x = 0.0;
  double marker_y = 0.0;
  std::string color_label;   ///< title of the colour bar (rotated, right of it); may be empty
  bool fixed_color = false;  ///< colour scale color_min..color_max (values beyond get the end colours)
  double color_min = 0.0;    ///< instead of the range of the finite values
  double color_max = 1.0;
  /// Category axes instead of numeric ones (e.g. a matrix of features): one label per column,
  /// left to right, written upwards under the plot, and one per row, bottom to top, left of it;
  /// both or neither (x_min.. and y_min.. then only place the cells).
  std::vector<std::string> x_labels;
  std::vector<std::string> y_labels;
  /// Optional text in each cell (rows x cols, row-major as values; may be empty), e.g. a mean
  /// and its band, in black or white, whichever the cell's colour reads better with.
  std::vector<std::string> cell_text;
};

/** @brief One stacked bar: a label and one value per layer (StackedBarChart::layer_names), each
 *  >= 0 (a negative value is rejected: split signed contributions into layers of their own, e.g.
 *  their absolute values). A zero value draws no segment. */
struct StackedBar {
  std::string label;
  std::vector<double> values;
};

/** @brief One panel of a stacked bar chart: a title above it and its bars, top to bottom. */
struct StackedBarPanel {
  std::string title;
  std::vector<StackedBar> bars;
};

/**
 * @brief Horizontal stacked bars, value axis horizontal from 0: per bar one segment per layer
 * (left to right in the order of layer_names, coloured per layer and named in a legend on the
 * right, e.g. "direct", "indirect") and the bar's total printed at its end. Panels side by side,
 * each with its title, row labels and axis, rows aligned across panels (e.g. a chain's direct +
 * indirect contributions per output next to the same outputs explained by independent
 * classifiers); shared_axis: every panel's axis spans the largest total of all panels, so bars
 * compare across panels; otherwise each panel spans its own. Every bar has one value per layer.
 */
struct StackedBarChart {
  SvgFrame frame;
  std::vector<std::string> layer_names;  ///< legend entries; an empty name is left out of it
  std::vector<StackedBarPanel> panels;
  int decimals = 3;  ///< digits of the printed totals (0..12)
  bool shared_axis = true;
};

struct Chart;

/** @brief Several charts side by side in one figure, `columns` to a row, under an optional title
 *  (e.g. the Monte Carlo histograms of the AUC, phi_0 and each phi_j). */
struct PanelGrid {
  std::vector<Chart> panels;
  int columns = 1;
  std::string title;
};

/** @brief A figure as data: one chart spec above, or a grid of them; RenderSvg draws it. */
struct Chart {
  using Spec = std::variant<WaterfallChart, LineChart, BarChart, StripChart, HistogramChart, BoxChart,
                            HeatmapChart, StackedBarChart, PanelGrid>;
  Spec spec;

  /** @brief Any chart spec (or grid) as a figure. */
  template <class C>
  requires(!std::same_as<std::remove_cvref_t<C>, Chart> && std::constructible_from<Spec, C>) Chart(C&& chart)
      : spec(std::forward<C>(chart)) {}  // NOLINT(google-explicit-constructor): a spec is a figure
};

/** @brief The SVG writer: draws a figure (each panel of a grid, then ComposeSvgPanels). */
std::string RenderSvg(const Chart& chart);

std::string RenderSvg(const WaterfallChart& chart);
std::string RenderSvg(const LineChart& chart);
std::string RenderSvg(const BarChart& chart);
std::string RenderSvg(const StripChart& chart);
std::string RenderSvg(const HistogramChart& chart);
std::string RenderSvg(const BoxChart& chart);
std::string RenderSvg(const HeatmapChart& chart);
std::string RenderSvg(const StackedBarChart& chart);

/** @brief "Nice" axis ticks covering [lo, hi] with about `target` steps of 1, 2, 2.5 or 5 x 10^k;
 *  the first and last ticks enclose [lo, hi]. lo == hi is widened. Exposed for tests. */
std::vector<double> NiceTicks(double lo, double hi, int target = 6);

/** @brief Text made safe for XML character data and attribute values (& < > " '). */
std::string EscapeXml(const std::string& text);

}}}  // namespace perfshap::detail
