// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The heat map of svg.hpp: a grid of cells in viridis with a colour bar, numeric or category axes.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
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

constexpr const char* kChart = "heatmap";

/// Viridis at 0, 1/8, ..., 1 (matplotlib's colour map), interpolated linearly in RGB.
constexpr std::array<std::array<double, 3>, 9> kViridis = {{{68, 1, 84},
                                                            {71, 45, 123},
                                                            {59, 82, 139},
                                                            {44, 114, 142},
                                                            {33, 145, 140},
                                                            {40, 174, 128},
                                                            {94, 201, 98},
                                                            {173, 220, 48},
                                                            {253, 231, 37}}};
constexpr const char* kNoValue = "#c4c4c4";
constexpr double kColorBarWidth = 16;

/// "#rrggbb" of channels in [0, 255], rounded.
std::string Hex(double r, double g, double b) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "#%02x%02x%02x", static_cast<int>(std::lround(r)), static_cast<int>(std::lround(g)),
                static_cast<int>(std::lround(b)));
  return buf;
}

/// The viridis colour at t in [0, 1] (clamped).
std::string Viridis(double t) {
  t = std::clamp(t, 0.0, 1.0) * static_cast<double>(kViridis.size() - 1);
  const auto k = std::min(static_cast<std::size_t>(t), kViridis.size() - 2);
  const double f = t - static_cast<double>(k);
  const auto& a = kViridis[k];
  const auto& b = kViridis[k + 1];
  return Hex(a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f);
}

/// The finite values' range and whether a cell has no value (NaN).
struct CellValues {
  bool any_missing = false;
  double v_lo = std::numeric_limits<double>::infinity();
  double v_hi = -std::numeric_limits<double>::infinity();
};

/// Checks the grid's size and that no cell is infinite; the range of the finite cells.
CellValues ScanCells(const HeatmapChart& c) {
  if (c.values.size() != c.rows * c.cols) {
    throw InvalidArgument(std::string(kChart) + ": values has " + std::to_string(c.values.size()) +
                          " values, expected rows x cols = " + std::to_string(c.rows) + " x " + std::to_string(c.cols));
  }
  CellValues cells;
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    const double v = c.values[i];
    if (std::isnan(v)) {
      cells.any_missing = true;
    } else if (std::isinf(v)) {
      throw InvalidArgument(std::string(kChart) + ": values[" + std::to_string(i) + "] (row " +
                            std::to_string(i / c.cols) + ", column " + std::to_string(i % c.cols) +
                            ") is infinite; heat map cells are finite values or NaN (no value)");
    } else {
      cells.v_lo = std::min(cells.v_lo, v);
      cells.v_hi = std::max(cells.v_hi, v);
    }
  }
  return cells;
}

/// Checks the axis limits (finite, increasing) and the marker's position (finite).
void CheckHeatmapLimits(const HeatmapChart& c) {
  CheckFinite(kChart, "x_min", c.x_min);
  CheckFinite(kChart, "x_max", c.x_max);
  CheckFinite(kChart, "y_min", c.y_min);
  CheckFinite(kChart, "y_max", c.y_max);
  PERFSHAP_CHECK(c.x_max > c.x_min, "heatmap: x_max must exceed x_min");
  PERFSHAP_CHECK(c.y_max > c.y_min, "heatmap: y_max must exceed y_min");
  if (c.marker) {
    CheckFinite(kChart, "marker_x", c.marker_x);
    CheckFinite(kChart, "marker_y", c.marker_y);
  }
}

/// What the cells span: the plotted extent on both axes and the colour scale.
struct HeatGrid {
  double x_lo = 0, x_hi = 0, y_lo = 0, y_hi = 0;
  double c_lo = 0, c_hi = 0;
};

/// The colour scale: fixed, or the finite values' range ([0, 1] without any, widened around a
/// single value).
void ColorDomain(const HeatmapChart& c, const CellValues& cells, HeatGrid& grid) {
  grid.c_lo = cells.v_lo;
  grid.c_hi = cells.v_hi;
  if (c.fixed_color) {
    CheckFinite(kChart, "color_min", c.color_min);
    CheckFinite(kChart, "color_max", c.color_max);
    PERFSHAP_CHECK(c.color_max > c.color_min, "heatmap: color_max must exceed color_min");
    grid.c_lo = c.color_min;
    grid.c_hi = c.color_max;
  } else if (!(cells.v_lo <= cells.v_hi)) {  // no finite value
    grid.c_lo = 0;
    grid.c_hi = 1;
  } else if (!(cells.v_hi > cells.v_lo)) {  // one value: in the middle of a widened scale
    const double pad = cells.v_lo == 0.0 ? 1.0 : std::fabs(cells.v_lo) * 0.1;
    grid.c_lo = cells.v_lo - pad;
    grid.c_hi = cells.v_hi + pad;
  }
}

/// The plotted extent: the tiles' range, or the lattice's half a step beyond its end points.
void PlotExtent(const HeatmapChart& c, double min, double max, std::size_t cells, double& lo, double& hi) {
  const double half = c.lattice && cells > 1 ? (max - min) / static_cast<double>(cells - 1) / 2 : 0.0;
  lo = min - half;
  hi = max + half;
}

/// Checks the category labels (one per column and one per row, or none) and the cell texts.
void CheckHeatmapTexts(const HeatmapChart& c, bool categories) {
  if (categories)
    PERFSHAP_CHECK(c.x_labels.size() == c.cols && c.y_labels.size() == c.rows,
                   "heatmap: " + std::to_string(c.x_labels.size()) + " column labels and " +
                       std::to_string(c.y_labels.size()) + " row labels for a grid of " + std::to_string(c.rows) +
                       " x " + std::to_string(c.cols));
  PERFSHAP_CHECK(c.cell_text.empty() || c.cell_text.size() == c.rows * c.cols,
                 "heatmap: cell_text has " + std::to_string(c.cell_text.size()) + " texts, expected rows x cols");
}

/// The plot area (square for height 0) between the axis labels on the left and below and the
/// colour bar on the right; height gets the chart's height.
Area HeatmapArea(const HeatmapChart& c, bool categories, double width, const std::vector<double>& yticks,
                 const std::vector<double>& cticks, double x_label_width, double y_label_width, double& height) {
  const double bar_w = kColorBarWidth;
  const double right_margin = 20 + bar_w + 8 + TickLabelWidth(cticks) + (c.color_label.empty() ? 0 : 26) + 16;
  Area area;
  area.left = 20 + (categories ? y_label_width : TickLabelWidth(yticks)) + (c.frame.y_label.empty() ? 0 : 24);
  area.top = c.frame.title.empty() ? 20 : 48;
  area.right = width - right_margin;
  if (area.Width() < 80) area.right = area.left + 80;
  const double below = categories ? 16 + x_label_width + (c.frame.x_label.empty() ? 0 : 24) : 58;
  height = FrameHeight(c.frame, area.top + area.Width() + below);
  area.bottom = height - below;
  if (area.Height() < 80) area.bottom = area.top + 80;
  return area;
}

/// Category axes: each label at its cell's centre, the columns' written upwards below the plot,
/// the rows' left of it, and the axis labels.
void DrawCategoryAxes(SvgWriter& svg, const HeatmapChart& c, const Area& area, double x_label_width) {
  const double cw = area.Width() / static_cast<double>(std::max<std::size_t>(c.cols, 1));
  const double ch = area.Height() / static_cast<double>(std::max<std::size_t>(c.rows, 1));
  for (std::size_t k = 0; k < c.cols; ++k) {
    const double px = area.left + cw * (static_cast<double>(k) + 0.5) + 4;
    const double py = area.bottom + 8;
    svg.Text(px, py, c.x_labels[k], "end", kTickFont, " transform=\"rotate(-90 " + Num(px) + " " + Num(py) + ")\"");
  }
  for (std::size_t r = 0; r < c.rows; ++r)
    svg.Text(area.left - 6, area.bottom - ch * (static_cast<double>(r) + 0.5) + 4, c.y_labels[r], "end", kTickFont);
  if (!c.frame.x_label.empty())
    svg.Text((area.left + area.right) / 2, area.bottom + 16 + x_label_width + 14, c.frame.x_label, "middle",
             kLabelFont);
  if (!c.frame.y_label.empty()) DrawRotatedLabel(svg, 18, (area.top + area.bottom) / 2, c.frame.y_label, -90);
}

/// The cells over the grid lines, edge to edge, row 0 at the bottom; NaN cells grey.
void DrawCells(SvgWriter& svg, const HeatmapChart& c, const HeatGrid& grid, const Scale& x, const Scale& y,
               double cell_w, double cell_h) {
  svg.Raw("<g shape-rendering=\"crispEdges\">\n");
  for (std::size_t r = 0; r < c.rows; ++r) {
    const double top = y(grid.y_lo + cell_h * static_cast<double>(r + 1));
    const double bottom = y(grid.y_lo + cell_h * static_cast<double>(r));
    for (std::size_t k = 0; k < c.cols; ++k) {
      const double v = c.values[r * c.cols + k];
      const double left = x(grid.x_lo + cell_w * static_cast<double>(k));
      const double right = x(grid.x_lo + cell_w * static_cast<double>(k + 1));
      svg.Rect(left, top, right - left, bottom - top,
               std::isnan(v) ? kNoValue : Viridis((v - grid.c_lo) / (grid.c_hi - grid.c_lo)));
    }
  }
  svg.Raw("</g>\n");
}

/// The cells' texts at their centres, white on dark cells and black on light ones.
void DrawCellTexts(SvgWriter& svg, const HeatmapChart& c, const HeatGrid& grid, const Scale& x, const Scale& y,
                   double cell_w, double cell_h) {
  for (std::size_t r = 0; r < c.rows; ++r)
    for (std::size_t k = 0; k < c.cols; ++k) {
      const std::string& text = c.cell_text[r * c.cols + k];
      if (text.empty()) continue;
      const double v = c.values[r * c.cols + k];
      // Viridis is dark below about 0.6 of its range: white text there, black above.
      const bool dark = std::isnan(v) || (v - grid.c_lo) / (grid.c_hi - grid.c_lo) < 0.6;
      svg.Text(x(grid.x_lo + cell_w * (static_cast<double>(k) + 0.5)),
               y(grid.y_lo + cell_h * (static_cast<double>(r) + 0.5)) + 4, text, "middle", kTickFont - 2,
               std::string(" fill=\"") + (dark ? "#ffffff" : kInk) + "\"");
    }
}

/// The colour bar right of the plot: low at the bottom, ticks on its right, the label turned
/// beside them, and the grey "no value" swatch under it when a cell has none.
void DrawColorBar(SvgWriter& svg, const HeatmapChart& c, const Area& area, const HeatGrid& grid,
                  const std::vector<double>& cticks, bool any_missing) {
  const double bar_w = kColorBarWidth;
  const double bar_x = area.right + 20;
  const double bar_top = area.top;
  const double bar_bottom = any_missing ? area.bottom - 30 : area.bottom;
  std::string stops;
  for (std::size_t k = 0; k < kViridis.size(); ++k) {
    const double f = static_cast<double>(k) / static_cast<double>(kViridis.size() - 1);
    stops += "<stop offset=\"" + Num(f) + "\" stop-color=\"" + Viridis(f) + "\"/>";
  }
  svg.Raw("<defs><linearGradient id=\"heatmap-ramp\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">" + stops +
          "</linearGradient></defs>\n");
  svg.Rect(bar_x, bar_top, bar_w, bar_bottom - bar_top, "url(#heatmap-ramp)",
           std::string(" stroke=\"") + kMuted + "\" stroke-width=\"0.8\"");
  const Scale bar{grid.c_lo, grid.c_hi, bar_bottom, bar_top};
  const int decimals = TickDecimals(TickStep(cticks));
  for (const double t : cticks) {
    svg.Line(bar_x + bar_w, bar(t), bar_x + bar_w + 4, bar(t), kMuted, 1);
    svg.Text(bar_x + bar_w + 7, bar(t) + 4, Fixed(t, decimals), "start", kTickFont,
             std::string(" fill=\"") + kMuted + "\"");
  }
  if (!c.color_label.empty()) {
    DrawRotatedLabel(svg, bar_x + bar_w + 8 + TickLabelWidth(cticks) + 14, (bar_top + bar_bottom) / 2, c.color_label,
                     90);
  }
  if (any_missing) {
    svg.Rect(bar_x, area.bottom - 14, bar_w, 14, kNoValue);
    svg.Text(bar_x + bar_w + 7, area.bottom - 3, "no value", "start", kTickFont);
  }
}

}  // namespace

// ---- heat map -----------------------------------------------------------------------------
std::string RenderSvg(const HeatmapChart& c) {
  const CellValues cells = ScanCells(c);
  CheckHeatmapLimits(c);
  HeatGrid grid;
  ColorDomain(c, cells, grid);
  PlotExtent(c, c.x_min, c.x_max, c.cols, grid.x_lo, grid.x_hi);
  PlotExtent(c, c.y_min, c.y_max, c.rows, grid.y_lo, grid.y_hi);
  const std::vector<double> xticks = TicksWithin(grid.x_lo, grid.x_hi);
  const std::vector<double> yticks = TicksWithin(grid.y_lo, grid.y_hi);
  const std::vector<double> cticks = TicksWithin(grid.c_lo, grid.c_hi);
  const bool categories = !c.x_labels.empty() || !c.y_labels.empty();
  CheckHeatmapTexts(c, categories);
  const double x_label_width = WidestText(c.x_labels, kTickFont);
  const double y_label_width = WidestText(c.y_labels, kTickFont);

  const double width = FrameWidth(c.frame);
  double height = 0;
  const Area area = HeatmapArea(c, categories, width, yticks, cticks, x_label_width, y_label_width, height);
  const Scale x{grid.x_lo, grid.x_hi, area.left, area.right};
  const Scale y{grid.y_lo, grid.y_hi, area.bottom, area.top};

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  if (categories) {
    DrawCategoryAxes(svg, c, area, x_label_width);
  } else {
    DrawXAxis(svg, area, x, xticks, c.frame.x_label);
    DrawYAxis(svg, area, y, yticks, c.frame.y_label);
  }
  const double cell_w = (grid.x_hi - grid.x_lo) / static_cast<double>(std::max<std::size_t>(c.cols, 1));
  const double cell_h = (grid.y_hi - grid.y_lo) / static_cast<double>(std::max<std::size_t>(c.rows, 1));
  DrawCells(svg, c, grid, x, y, cell_w, cell_h);
  if (!c.cell_text.empty()) DrawCellTexts(svg, c, grid, x, y, cell_w, cell_h);
  svg.Rect(area.left, area.top, area.Width(), area.Height(), "none",
           std::string(" stroke=\"") + kMuted + "\" stroke-width=\"1\"");
  if (c.marker && c.marker_x >= grid.x_lo && c.marker_x <= grid.x_hi && c.marker_y >= grid.y_lo &&
      c.marker_y <= grid.y_hi) {
    for (const auto& [stroke, line] : {std::pair{"#ffffff", 3.5}, std::pair{kInk, 1.5}}) {
      svg.Raw("<circle cx=\"" + Num(x(c.marker_x)) + "\" cy=\"" + Num(y(c.marker_y)) +
              "\" r=\"6\" fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"" + Num(line) + "\"/>\n");
    }
  }
  DrawColorBar(svg, c, area, grid, cticks, cells.any_missing);
  return svg.Finish();
}

}}}  // namespace perfshap::detail
