// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The beeswarm strip plot of svg.hpp: one row per feature, points packed deterministically.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "report/svg.hpp"
#include "report/svg_internal.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
using namespace svg_canvas;

namespace {

/// The value range of every row, whether a row has colour values, and the row labels.
struct StripRange {
  double lo = 0;
  double hi = 0;
  bool any_color = false;
  std::vector<std::string> labels;
};

/// Checks every row; the range of the values, [-1, 1] without any, extended to include 0.
StripRange StripRangeOf(const StripChart& c) {
  constexpr const char* kChart = "strip chart";
  StripRange r;
  r.lo = std::numeric_limits<double>::infinity();
  r.hi = -r.lo;
  for (const StripRow& row : c.rows) {
    CheckFinite(kChart, "row '" + row.label + "' values", row.values);
    if (!row.color_values.empty()) {
      CheckSameLength(kChart, "row '" + row.label + "' color_values", row.values.size(),
                      row.color_values.size());
      CheckFinite(kChart, "row '" + row.label + "' color_values", row.color_values);
      r.any_color = true;
    }
    for (const double v : row.values) {
      r.lo = std::min(r.lo, v);
      r.hi = std::max(r.hi, v);
    }
    r.labels.push_back(row.label);
  }
  if (!(r.lo <= r.hi)) {
    r.lo = -1;
    r.hi = 1;
  }
  r.lo = std::min(r.lo, 0.0);  // contributions are read against 0
  r.hi = std::max(r.hi, 0.0);
  return r;
}

/// The vertical offset of a point at px: the smallest of 0, +d, -d, +2d, ... within `half`
/// that keeps d from the placed points from window_start on; when the row is full, a fixed
/// pseudo-random offset (hash of the index i).
double BeeswarmOffset(double px, std::size_t i, double d, double half, const std::vector<double>& placed_x,
                      const std::vector<double>& placed_y, std::size_t window_start) {
  for (int attempt = 0; attempt < 64; ++attempt) {
    // Offsets 0, +d, -d, +2d, -2d, ...: level (attempt + 1) / 2 (integer), sign alternating.
    const int level = (attempt + 1) / 2;
    const double candidate = (attempt % 2 == 1 ? 1.0 : -1.0) * d * static_cast<double>(level);
    if (std::fabs(candidate) > half) break;
    bool clear = true;
    for (std::size_t j = window_start; j < placed_x.size(); ++j) {
      const double dx = placed_x[j] - px;
      const double dy = placed_y[j] - candidate;
      if (dx * dx + dy * dy < d * d) {
        clear = false;
        break;
      }
    }
    if (clear) return candidate;
  }
  // SplitMix64 of the index: the same jitter on every run.
  std::uint64_t z = static_cast<std::uint64_t>(i) + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  const double u = static_cast<double>(z >> 11) * 0x1.0p-53;
  return (2 * u - 1) * std::max(half, 0.0);
}

/// The scratch buffers of the rows' packing, reused from row to row.
struct SwarmScratch {
  std::vector<std::size_t> order;
  std::vector<double> placed_x;
  std::vector<double> placed_y;
};

/// One row's points around the centre line cy, radius r, within half above and below,
/// coloured by the row's colour values normalised to the row.
void DrawStripRow(SvgWriter& svg, const StripRow& row, const Scale& x, double cy, double r, double half,
                  SwarmScratch& scratch) {
  double c_lo = 0;
  double c_hi = 0;
  if (!row.color_values.empty()) {
    c_lo = *std::min_element(row.color_values.begin(), row.color_values.end());
    c_hi = *std::max_element(row.color_values.begin(), row.color_values.end());
  }
  // Deterministic beeswarm: points in order of value, each at the smallest offset
  // 0, +d, -d, +2d, ... that does not overlap a placed point within 2r horizontally; when
  // the row is full, a fixed pseudo-random offset (hash of the index).
  std::vector<std::size_t>& order = scratch.order;
  std::vector<double>& placed_x = scratch.placed_x;
  std::vector<double>& placed_y = scratch.placed_y;
  order.resize(row.values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return row.values[a] < row.values[b]; });
  placed_x.clear();
  placed_y.clear();
  std::size_t window_start = 0;
  const double d = 2 * r * 0.95;
  const double opacity = row.values.size() > 400 ? 0.6 : 0.85;
  for (const std::size_t i : order) {
    const double px = x(row.values[i]);
    while (window_start < placed_x.size() && placed_x[window_start] < px - 2 * r) ++window_start;
    const double offset = BeeswarmOffset(px, i, d, half, placed_x, placed_y, window_start);
    placed_x.push_back(px);
    placed_y.push_back(offset);
    std::string fill = kTotal;
    if (!row.color_values.empty()) {
      fill = ColorRamp(c_hi > c_lo ? (row.color_values[i] - c_lo) / (c_hi - c_lo) : 0.5);
    }
    svg.Circle(px, cy + offset, r, fill, opacity);
  }
}

/// Colour legend right of the plot: a vertical ramp, "high" on top, the label turned beside it.
void DrawColorLegend(SvgWriter& svg, const Area& area, const std::string& color_label) {
  const double bx = area.right + 24;
  const double by = area.top + 8;
  const double bh = std::min(160.0, area.Height() - 16);
  svg.Raw(
      "<defs><linearGradient id=\"strip-ramp\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">"
      "<stop offset=\"0\" stop-color=\"" +
      ColorRamp(0) +
      "\"/><stop offset=\"1\" "
      "stop-color=\"" +
      ColorRamp(1) + "\"/></linearGradient></defs>\n");
  svg.Rect(bx, by, 12, bh, "url(#strip-ramp)");
  svg.Text(bx + 18, by + 10, "high", "start", kTickFont);
  svg.Text(bx + 18, by + bh, "low", "start", kTickFont);
  const double lx = bx + 52;
  const double ly = by + bh / 2;
  svg.Text(lx, ly, color_label, "middle", kTickFont, " transform=\"rotate(90 " + Num(lx) + " " + Num(ly) + ")\"");
}

}  // namespace

// ---- beeswarm strip plot ------------------------------------------------------------------
std::string RenderSvg(const StripChart& c) {
  const std::size_t n = c.rows.size();
  const StripRange range = StripRangeOf(c);
  const std::vector<double> ticks = NiceDomain(range.lo, range.hi);
  const double row_px = 44;
  const double width = FrameWidth(c.frame);
  const double top = c.frame.title.empty() ? 20 : 48;
  const double height =
      FrameHeight(c.frame, top + static_cast<double>(std::max<std::size_t>(n, 1)) * row_px + 62);
  Area area;
  area.left = 16 + RowLabelWidth(range.labels) + 12;
  area.top = top;
  area.right = width - (range.any_color ? 96 : 24);
  area.bottom = height - 62;
  const double row_h = area.Height() / static_cast<double>(std::max<std::size_t>(n, 1));
  const Scale x{ticks.front(), ticks.back(), area.left, area.right};

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  DrawXAxis(svg, area, x, ticks, c.frame.x_label);
  svg.Line(x(0), area.top, x(0), area.bottom, kMuted, 1.2);
  const double r = std::max(c.point_radius, 0.8);
  const double half = row_h / 2 - r - 1;  // room above and below the centre line
  SwarmScratch scratch;
  for (std::size_t k = 0; k < n; ++k) {
    const StripRow& row = c.rows[k];
    const double cy = area.top + row_h * (static_cast<double>(k) + 0.5);
    if (k > 0) svg.Line(area.left, cy - row_h / 2, area.right, cy - row_h / 2, kGrid, 1);
    svg.Text(area.left - 10, cy + 4.5, row.label, "end", kLabelFont);
    DrawStripRow(svg, row, x, cy, r, half, scratch);
  }
  if (range.any_color) DrawColorLegend(svg, area, c.color_label);
  return svg.Finish();
}

}}}  // namespace perfshap::detail
