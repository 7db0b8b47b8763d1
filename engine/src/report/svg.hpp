// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Dependency-free SVG charts for the CLI reports: each Render*Svg returns a complete SVG 1.1
// document (write it with WriteFileAtomic). Text is XML-escaped; sans-serif fonts of 12 px and
// more; tick values at "nice" steps (1, 2, 2.5, 5 x 10^k). The output depends only on the input
// (no clock, no randomness: the beeswarm jitter is a deterministic packing), so the same input
// gives the same bytes. Every chart @throws InvalidArgument for a non-finite value or a length
// mismatch, naming the chart, the series and the index.

#include <string>
#include <vector>

namespace perfshap::detail {

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

std::string RenderSvg(const WaterfallChart& chart);
std::string RenderSvg(const LineChart& chart);
std::string RenderSvg(const BarChart& chart);
std::string RenderSvg(const StripChart& chart);
std::string RenderSvg(const HistogramChart& chart);

/** @brief "Nice" axis ticks covering [lo, hi] with about `target` steps of 1, 2, 2.5 or 5 x 10^k;
 *  the first and last ticks enclose [lo, hi]. lo == hi is widened. Exposed for tests. */
std::vector<double> NiceTicks(double lo, double hi, int target = 6);

/** @brief Text made safe for XML character data and attribute values (& < > " '). */
std::string EscapeXml(const std::string& text);

}  // namespace perfshap::detail
