// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the charts of svg.hpp share (svg_canvas.cpp): the colours and font sizes, the number
// formats, the input checks, the SVG text writer, and the pieces every chart draws the same way
// (title, numeric axes, legend, rotated labels). Each figure kind lives in its own file:
// svg_bars.cpp (waterfall, bars, stacked bars), svg_curves.cpp (lines, histograms),
// svg_beeswarm.cpp (strip plots), svg_box.cpp (box plots), svg_heatmap.cpp (heat maps).

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail::svg_canvas {

// Tableau 10: distinct, and readable on white.
inline constexpr std::array<const char*, 10> kPalette = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                                         "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
inline constexpr const char* kPositive = "#2e9d4a";
inline constexpr const char* kNegative = "#d1495b";
inline constexpr const char* kNeutral = "#8a939b";
inline constexpr const char* kTotal = "#1f77b4";
inline constexpr const char* kInk = "#222222";
inline constexpr const char* kMuted = "#555555";
inline constexpr const char* kGrid = "#e3e3e3";

inline constexpr double kTitleFont = 16;
inline constexpr double kLabelFont = 13;
inline constexpr double kTickFont = 12;
inline constexpr double kRowHeight = 30;  // px per row of the row charts

/// A coordinate or length with at most 2 decimals, trailing zeros dropped; locale-free.
std::string Num(double v);

/// A value printed with `decimals` digits (locale-free), optional explicit sign.
std::string Fixed(double v, int decimals, bool sign = false);

/// Digits that show every tick of a step exactly (0.25 -> 2, 5 -> 0, 2.5 -> 1).
int TickDecimals(double step);

/// Approximate rendered width of a sans-serif string (average glyph 0.58 em).
double TextWidth(const std::string& s, double font);

/// The width of the widest of `texts` at `font` (0 for none).
double WidestText(const std::vector<std::string>& texts, double font);

/// `what` names the array, e.g. "series 'ROC' y"; the message adds the index.
void CheckFinite(const char* chart, const std::string& what, const std::vector<double>& v);

/// `what` names the value, e.g. "start_value".
void CheckFinite(const char* chart, const std::string& what, double v);

/// Throws unless `what` has `expected` values.
void CheckSameLength(const char* chart, const std::string& what, std::size_t expected, std::size_t got);

/// Maps a data interval onto a pixel interval (p1 < p0 for an upward y axis).
struct Scale {
  double d0 = 0, d1 = 1, p0 = 0, p1 = 1;
  double operator()(double v) const { return p0 + (v - d0) * (p1 - p0) / (d1 - d0); }
};

/// The plot rectangle in px.
struct Area {
  double left = 0, top = 0, right = 0, bottom = 0;
  double Width() const { return right - left; }
  double Height() const { return bottom - top; }
};

/// Builds the SVG text; every number goes through Num().
class SvgWriter {
 public:
  SvgWriter(double width, double height);
  void Raw(const std::string& s) { out_ += s; }
  void Rect(double x, double y, double w, double h, const std::string& fill, const std::string& extra = "");
  void Line(double x1, double y1, double x2, double y2, const std::string& stroke, double width,
            bool dashed = false);
  /// anchor: start | middle | end.
  void Text(double x, double y, const std::string& text, const char* anchor, double size,
            const std::string& extra = "");
  void Polyline(const std::vector<double>& xs, const std::vector<double>& ys, const std::string& stroke,
                double width, bool dashed, const std::string& extra = "");
  void Polygon(const std::vector<double>& xs, const std::vector<double>& ys, const std::string& fill,
               double opacity, const std::string& extra = "");
  void Circle(double cx, double cy, double r, const std::string& fill, double opacity);
  std::string Finish() {
    out_ += "</svg>\n";
    return std::move(out_);
  }

 private:
  void AppendPoints(const std::vector<double>& xs, const std::vector<double>& ys);
  std::string out_;
};

/// The chart's title, bold and centred at the top (nothing for an empty title).
void DrawTitle(SvgWriter& svg, const SvgFrame& frame, double width);

/// A label (kLabelFont) turned by `degrees` about its centre (x, y).
void DrawRotatedLabel(SvgWriter& svg, double x, double y, const std::string& label, int degrees);

/// Ticks inside [lo, hi] (both ends included) of a nice step.
std::vector<double> TicksWithin(double lo, double hi, int target = 6);

/// The step between two ticks (1 for a single tick).
double TickStep(const std::vector<double>& ticks);

/// Width of the widest tick label.
double TickLabelWidth(const std::vector<double>& ticks);

/// Numeric x axis at the bottom of the area: grid lines, ticks, labels, axis label.
void DrawXAxis(SvgWriter& svg, const Area& area, const Scale& x, const std::vector<double>& ticks,
               const std::string& label);

/// Numeric y axis on the left of the area.
void DrawYAxis(SvgWriter& svg, const Area& area, const Scale& y, const std::vector<double>& ticks,
               const std::string& label);

/// Legend entries drawn in a column right of the plot area.
struct LegendEntry {
  std::string name;
  std::string color;
  enum Kind { kLine, kDashed, kBox } kind = kLine;
};

/// The room the legend takes right of the plot (0 without entries).
double LegendWidth(const std::vector<LegendEntry>& entries);

/// The legend's entries one under the other from (x, y): a swatch and the name.
void DrawLegend(SvgWriter& svg, double x, double y, const std::vector<LegendEntry>& entries);

/// Data range [lo, hi] extended to nice ticks; returns the ticks (domain = front..back).
std::vector<double> NiceDomain(double lo, double hi, int target = 6);

/// Categorical rows (top to bottom) left of a horizontal value axis: the label column width.
double RowLabelWidth(const std::vector<std::string>& labels);

/// Blue (low) to red (high) through purple, t in [0, 1].
std::string ColorRamp(double t);

/// The frame's height, or `automatic` for height 0.
double FrameHeight(const SvgFrame& frame, double automatic);

/// The frame's width, at least 320 px.
double FrameWidth(const SvgFrame& frame);

/// The plot area of a chart with a numeric y axis on the left and a legend on the right (line
/// charts, histograms, box plots): bottom at height - 58.
Area LegendPlotArea(const SvgFrame& frame, double width, double height, const std::vector<double>& yticks,
                    const std::vector<LegendEntry>& legend);

}}}  // namespace perfshap::detail::svg_canvas
