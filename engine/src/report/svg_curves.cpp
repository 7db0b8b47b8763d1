// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The charts of svg.hpp over two numeric axes: line charts (curves with bands) and histograms.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/error.hpp"
#include "report/svg.hpp"
#include "report/svg_internal.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
using namespace svg_canvas;

namespace {

// ---- line chart ---------------------------------------------------------------------------

/// The range of a chart's data on both axes.
struct DataRange {
  double x_lo = 0;
  double x_hi = 0;
  double y_lo = 0;
  double y_hi = 0;
};

/// Checks every series and the markers; the range of the points (y +- |std|), [0, 1] x [0, 1]
/// without any, extended to y = 0 for the zero line.
DataRange LineDataRange(const LineChart& c) {
  constexpr const char* kChart = "line chart";
  DataRange r;
  r.x_lo = std::numeric_limits<double>::infinity();
  r.x_hi = -r.x_lo;
  r.y_lo = r.x_lo;
  r.y_hi = -r.x_lo;
  for (const LineSeries& s : c.series) {
    CheckSameLength(kChart, "series '" + s.name + "' y", s.x.size(), s.y.size());
    if (!s.std.empty()) CheckSameLength(kChart, "series '" + s.name + "' std", s.x.size(), s.std.size());
    CheckFinite(kChart, "series '" + s.name + "' x", s.x);
    CheckFinite(kChart, "series '" + s.name + "' y", s.y);
    CheckFinite(kChart, "series '" + s.name + "' std", s.std);
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      const double sd = s.std.empty() ? 0.0 : std::fabs(s.std[i]);
      r.x_lo = std::min(r.x_lo, s.x[i]);
      r.x_hi = std::max(r.x_hi, s.x[i]);
      r.y_lo = std::min(r.y_lo, s.y[i] - sd);
      r.y_hi = std::max(r.y_hi, s.y[i] + sd);
    }
  }
  CheckFinite(kChart, "x_markers", c.x_markers);
  if (!(r.x_lo <= r.x_hi)) {  // no points at all
    r.x_lo = 0;
    r.x_hi = 1;
    r.y_lo = 0;
    r.y_hi = 1;
  }
  if (c.zero_line) {
    r.y_lo = std::min(r.y_lo, 0.0);
    r.y_hi = std::max(r.y_hi, 0.0);
  }
  return r;
}

/// One axis: the user's fixed limits (ticks inside them) or a nice domain around the data.
void LineAxis(bool fixed, double min, double max, double lo, double hi, const char* name, std::vector<double>& ticks,
              double& d0, double& d1) {
  constexpr const char* kChart = "line chart";
  if (fixed) {
    CheckFinite(kChart, std::string(name) + "_min", min);
    CheckFinite(kChart, std::string(name) + "_max", max);
    PERFSHAP_CHECK(max > min, std::string("line chart: ") + name + "_max must exceed " + name + "_min");
    ticks = TicksWithin(min, max);
    d0 = min;
    d1 = max;
  } else {
    ticks = NiceDomain(lo, hi);
    d0 = ticks.front();
    d1 = ticks.back();
  }
}

/// Each series' colour (its own, or the next of the palette) and the legend of the named ones.
void LineColors(const LineChart& c, std::vector<std::string>& colors, std::vector<LegendEntry>& legend) {
  std::size_t next_color = 0;
  for (const LineSeries& s : c.series) {
    colors.push_back(!s.color.empty() ? s.color : kPalette[next_color++ % kPalette.size()]);
    if (!s.name.empty()) {
      legend.push_back({s.name, colors.back(), s.dashed ? LegendEntry::kDashed : LegendEntry::kLine});
    }
  }
}

/// The +-std bands of the series that have them: shaded polygons, clipped by `clip`.
void DrawBands(SvgWriter& svg, const LineChart& c, const Scale& x, const Scale& y,
               const std::vector<std::string>& colors, const std::string& clip) {
  for (std::size_t k = 0; k < c.series.size(); ++k) {
    const LineSeries& s = c.series[k];
    if (s.std.empty() || s.x.empty()) continue;
    std::vector<double> px;
    std::vector<double> py;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      px.push_back(x(s.x[i]));
      py.push_back(y(s.y[i] + std::fabs(s.std[i])));
    }
    for (std::size_t i = s.x.size(); i-- > 0;) {
      px.push_back(x(s.x[i]));
      py.push_back(y(s.y[i] - std::fabs(s.std[i])));
    }
    svg.Polygon(px, py, colors[k], 0.18, clip);
  }
}

/// The curves, one polyline per series, clipped by `clip`.
void DrawCurves(SvgWriter& svg, const LineChart& c, const Scale& x, const Scale& y,
                const std::vector<std::string>& colors, const std::string& clip) {
  for (std::size_t k = 0; k < c.series.size(); ++k) {
    const LineSeries& s = c.series[k];
    std::vector<double> px;
    std::vector<double> py;
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      px.push_back(x(s.x[i]));
      py.push_back(y(s.y[i]));
    }
    svg.Polyline(px, py, colors[k], 2.2, s.dashed, clip);
  }
}

/// The x markers within [xd0, xd1]: dashed vertical lines, their values printed at the top.
void DrawXMarkers(SvgWriter& svg, const LineChart& c, const Area& area, const Scale& x,
                  const std::vector<double>& xticks, double xd0, double xd1) {
  const int marker_decimals = TickDecimals(TickStep(xticks)) + 1;
  for (const double m : c.x_markers) {
    if (m < xd0 || m > xd1) continue;
    svg.Line(x(m), area.top, x(m), area.bottom, kInk, 1.2, true);
    svg.Text(x(m) + 4, area.top + 14, Fixed(m, marker_decimals), "start", kTickFont);
  }
}

// ---- histogram ----------------------------------------------------------------------------

/// Checks the samples and the markers; every value of every sample, sorted.
std::vector<double> PooledSorted(const HistogramChart& c) {
  constexpr const char* kChart = "histogram";
  std::vector<double> pooled;
  for (const HistogramSeries& s : c.series) {
    CheckFinite(kChart, "series '" + s.name + "' values", s.values);
    pooled.insert(pooled.end(), s.values.begin(), s.values.end());
  }
  for (const HistogramMarker& m : c.markers) CheckFinite(kChart, "marker '" + m.label + "'", m.x);
  if (!pooled.empty()) std::sort(pooled.begin(), pooled.end());
  return pooled;
}

/// The number of bins: `bins`, or for 0 Freedman-Diaconis (width 2 IQR n^(-1/3)) within 10..60.
int HistogramBins(const std::vector<double>& pooled, double lo, double hi, int bins) {
  if (bins > 0) return bins;
  bins = 10;
  if (pooled.size() >= 4) {
    const auto q = [&](double f) {
      return pooled[static_cast<std::size_t>(f * static_cast<double>(pooled.size() - 1))];
    };
    const double iqr = q(0.75) - q(0.25);
    if (iqr > 0) {
      const double h = 2 * iqr * std::cbrt(1.0 / static_cast<double>(pooled.size()));
      bins = static_cast<int>(std::clamp(std::ceil((hi - lo) / h), 10.0, 60.0));
    }
  }
  return bins;
}

/// Per sample the bins' counts (or densities) over lo + [0, bins) bin_w; y_hi gets the highest.
std::vector<std::vector<double>> BinHeights(const HistogramChart& c, double lo, double bin_w, int bins,
                                            double& y_hi) {
  std::vector<std::vector<double>> heights;
  for (const HistogramSeries& s : c.series) {
    std::vector<double> h(static_cast<std::size_t>(bins), 0.0);
    for (const double v : s.values) {
      auto b = static_cast<std::ptrdiff_t>(std::floor((v - lo) / bin_w));
      b = std::clamp<std::ptrdiff_t>(b, 0, bins - 1);  // the maximum falls in the last bin
      h[static_cast<std::size_t>(b)] += 1;
    }
    if (c.density && !s.values.empty()) {
      for (double& v : h) v /= static_cast<double>(s.values.size()) * bin_w;
    }
    for (const double v : h) y_hi = std::max(y_hi, v);
    heights.push_back(std::move(h));
  }
  return heights;
}

/// The legend: the named samples (when there are several), then the markers, whose colours
/// go to marker_colors.
std::vector<LegendEntry> HistogramLegend(const HistogramChart& c, std::vector<std::string>& marker_colors) {
  std::vector<LegendEntry> legend;
  const bool several = c.series.size() > 1;
  for (std::size_t k = 0; k < c.series.size(); ++k) {
    if (several && !c.series[k].name.empty()) {
      legend.push_back({c.series[k].name, kPalette[k % kPalette.size()], LegendEntry::kBox});
    }
  }
  for (std::size_t k = 0; k < c.markers.size(); ++k) {
    marker_colors.push_back(k == 0 ? kInk : kPalette[(c.series.size() + k) % kPalette.size()]);
    legend.push_back({c.markers[k].label, marker_colors.back(), LegendEntry::kDashed});
  }
  return legend;
}

/// The bars of every sample, overlaid (translucent when there are several); empty bins none.
void DrawHistogramBars(SvgWriter& svg, const std::vector<std::vector<double>>& heights, double lo, double bin_w,
                       const Scale& x, const Scale& y, bool several) {
  for (std::size_t k = 0; k < heights.size(); ++k) {
    const std::string color = kPalette[k % kPalette.size()];
    for (std::size_t b = 0; b < heights[k].size(); ++b) {
      if (heights[k][b] <= 0) continue;
      const double x0 = x(lo + bin_w * static_cast<double>(b));
      const double x1 = x(lo + bin_w * static_cast<double>(b + 1));
      svg.Rect(x0, y(heights[k][b]), x1 - x0, y(0) - y(heights[k][b]), color,
               std::string(" fill-opacity=\"") + (several ? "0.5" : "0.8") +
                   "\" stroke=\"#ffffff\" stroke-width=\"0.6\"");
    }
  }
}

}  // namespace

// ---- line chart ---------------------------------------------------------------------------
std::string RenderSvg(const LineChart& c) {
  const DataRange range = LineDataRange(c);
  std::vector<double> xticks;
  std::vector<double> yticks;
  double xd0, xd1, yd0, yd1;
  LineAxis(c.fixed_x, c.x_min, c.x_max, range.x_lo, range.x_hi, "x", xticks, xd0, xd1);
  LineAxis(c.fixed_y, c.y_min, c.y_max, range.y_lo, range.y_hi, "y", yticks, yd0, yd1);

  std::vector<LegendEntry> legend;
  std::vector<std::string> colors;
  LineColors(c, colors, legend);

  const double width = FrameWidth(c.frame);
  const double height = FrameHeight(c.frame, 480);
  const Area area = LegendPlotArea(c.frame, width, height, yticks, legend);
  const Scale x{xd0, xd1, area.left, area.right};
  const Scale y{yd0, yd1, area.bottom, area.top};

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  DrawXAxis(svg, area, x, xticks, c.frame.x_label);
  DrawYAxis(svg, area, y, yticks, c.frame.y_label);
  // Curves stay inside the plot area even with fixed limits narrower than the data.
  svg.Raw("<defs><clipPath id=\"plot-area\"><rect x=\"" + Num(area.left) + "\" y=\"" + Num(area.top) +
          "\" width=\"" + Num(area.Width()) + "\" height=\"" + Num(area.Height()) +
          "\"/></clipPath></defs>\n");
  if (c.zero_line && yd0 <= 0 && yd1 >= 0) svg.Line(area.left, y(0), area.right, y(0), kMuted, 1.2);
  const std::string clip = " clip-path=\"url(#plot-area)\"";
  // Bands first, so every line stays visible above every band.
  DrawBands(svg, c, x, y, colors, clip);
  DrawCurves(svg, c, x, y, colors, clip);
  DrawXMarkers(svg, c, area, x, xticks, xd0, xd1);
  DrawLegend(svg, area.right + 16, area.top + 10, legend);
  return svg.Finish();
}

// ---- histogram ----------------------------------------------------------------------------
std::string RenderSvg(const HistogramChart& c) {
  const std::vector<double> pooled = PooledSorted(c);
  double lo = 0;
  double hi = 1;
  if (!pooled.empty()) {
    lo = pooled.front();
    hi = pooled.back();
  }
  if (!(hi > lo)) {
    const double pad = lo == 0.0 ? 0.5 : std::fabs(lo) * 0.05;
    lo -= pad;
    hi += pad;
  }
  const int bins = HistogramBins(pooled, lo, hi, c.bins);
  const double bin_w = (hi - lo) / bins;
  double y_hi = 0;
  const std::vector<std::vector<double>> heights = BinHeights(c, lo, bin_w, bins, y_hi);
  double x_lo = lo;
  double x_hi = hi;
  for (const HistogramMarker& m : c.markers) {
    x_lo = std::min(x_lo, m.x);
    x_hi = std::max(x_hi, m.x);
  }
  const std::vector<double> xticks = NiceDomain(x_lo, x_hi);
  const std::vector<double> yticks = NiceDomain(0, y_hi > 0 ? y_hi * 1.05 : 1.0, 5);

  std::vector<std::string> marker_colors;
  const std::vector<LegendEntry> legend = HistogramLegend(c, marker_colors);

  // The y axis always has a label (its default one included), so the plot area leaves it room.
  SvgFrame frame = c.frame;
  if (frame.y_label.empty()) frame.y_label = c.density ? "density" : "count";
  const double width = FrameWidth(frame);
  const double height = FrameHeight(frame, 480);
  const Area area = LegendPlotArea(frame, width, height, yticks, legend);
  const Scale x{xticks.front(), xticks.back(), area.left, area.right};
  const Scale y{yticks.front(), yticks.back(), area.bottom, area.top};

  SvgWriter svg(width, height);
  DrawTitle(svg, frame, width);
  DrawXAxis(svg, area, x, xticks, frame.x_label);
  DrawYAxis(svg, area, y, yticks, frame.y_label);
  DrawHistogramBars(svg, heights, lo, bin_w, x, y, c.series.size() > 1);
  // Markers: dashed lines, labelled in the legend.
  for (std::size_t k = 0; k < c.markers.size(); ++k) {
    const double mx = x(c.markers[k].x);
    svg.Line(mx, area.top, mx, area.bottom, marker_colors[k], 1.8, true);
  }
  DrawLegend(svg, area.right + 16, area.top + 10, legend);
  return svg.Finish();
}

}}}  // namespace perfshap::detail
