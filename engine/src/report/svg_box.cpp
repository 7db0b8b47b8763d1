// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The box plots of svg.hpp (value axis vertical, groups of boxes side by side) and BoxSummaryOf.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "report/svg.hpp"
#include "report/svg_internal.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
using namespace svg_canvas;

namespace {

/// numpy's linear quantile of sorted values (numpy.quantile, method "linear"): the order
/// statistics around position q (n - 1), interpolated as numpy's _lerp does.
double LinearQuantile(const std::vector<double>& sorted, double q) {
  const double h = q * static_cast<double>(sorted.size() - 1);
  const double lo = std::floor(h);
  const auto i = static_cast<std::size_t>(lo);
  const double t = h - lo;
  if (t == 0.0 || i + 1 >= sorted.size()) return sorted[i];
  const double a = sorted[i];
  const double b = sorted[i + 1];
  const double diff = b - a;
  return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

/// summaries[g][s]: the box of group g's sample s, none for an empty sample.
using BoxSummaries = std::vector<std::vector<std::vector<BoxSummary>>>;

/// Checks every group (one finite sample per series) and summarises its samples; lo and hi get
/// the range of all values (unchanged without any).
BoxSummaries SummariseBoxes(const BoxChart& c, std::size_t series, double& lo, double& hi) {
  constexpr const char* kChart = "box chart";
  const auto series_name = [&](std::size_t s) {
    return s < c.series_names.size() && !c.series_names[s].empty() ? "'" + c.series_names[s] + "'" : std::to_string(s);
  };
  BoxSummaries summaries;
  for (const BoxGroup& g : c.groups) {
    if (g.values.size() != series) {
      throw InvalidArgument(std::string(kChart) + ": group '" + g.label + "' has " + std::to_string(g.values.size()) +
                            " samples, expected one per series (" + std::to_string(series) + ")");
    }
    summaries.emplace_back();
    for (std::size_t s = 0; s < series; ++s) {
      const std::vector<double>& v = g.values[s];
      CheckFinite(kChart, "group '" + g.label + "' series " + series_name(s) + " values", v);
      summaries.back().emplace_back();
      if (v.empty()) continue;
      summaries.back().back().push_back(BoxSummaryOf(v));
      const auto [min_it, max_it] = std::minmax_element(v.begin(), v.end());
      lo = std::min(lo, *min_it);
      hi = std::max(hi, *max_it);
    }
  }
  return summaries;
}

/// A group's label under its slot at cx: level, or turned by 35 degrees when too wide.
void DrawGroupLabel(SvgWriter& svg, const Area& area, double cx, const std::string& label, bool turned) {
  if (turned) {
    const double ly = area.bottom + 16;
    svg.Text(cx, ly, label, "end", kLabelFont, " transform=\"rotate(-35 " + Num(cx) + " " + Num(ly) + ")\"");
  } else {
    svg.Text(cx, area.bottom + 19, label, "middle", kLabelFont);
  }
}

/// One box at cx, box_w wide: whiskers and caps, then the box over them, the median, the
/// outliers.
void DrawBox(SvgWriter& svg, const Scale& y, const BoxSummary& b, double cx, double box_w, const std::string& color) {
  svg.Line(cx, y(b.q3), cx, y(b.whisker_high), kInk, 1.2);
  svg.Line(cx, y(b.q1), cx, y(b.whisker_low), kInk, 1.2);
  svg.Line(cx - box_w / 4, y(b.whisker_high), cx + box_w / 4, y(b.whisker_high), kInk, 1.2);
  svg.Line(cx - box_w / 4, y(b.whisker_low), cx + box_w / 4, y(b.whisker_low), kInk, 1.2);
  svg.Rect(cx - box_w / 2, y(b.q3), box_w, y(b.q1) - y(b.q3), color,
           " fill-opacity=\"0.45\" stroke=\"" + color + "\" stroke-width=\"1.5\"");
  svg.Line(cx - box_w / 2, y(b.median), cx + box_w / 2, y(b.median), kInk, 2);
  for (const double o : b.outliers) svg.Circle(cx, y(o), 2.5, color, 0.8);
}

}  // namespace

BoxSummary BoxSummaryOf(std::vector<double> values) {
  PERFSHAP_DCHECK(!values.empty());
  std::sort(values.begin(), values.end());
  BoxSummary s;
  s.q1 = LinearQuantile(values, 0.25);
  s.median = LinearQuantile(values, 0.5);
  s.q3 = LinearQuantile(values, 0.75);
  const double iqr = s.q3 - s.q1;
  const double low_fence = s.q1 - 1.5 * iqr;
  const double high_fence = s.q3 + 1.5 * iqr;
  s.whisker_low = s.q1;
  s.whisker_high = s.q3;
  for (const double v : values) {
    if (v >= low_fence) {
      s.whisker_low = std::min(v, s.q1);
      break;
    }
  }
  for (auto it = values.rbegin(); it != values.rend(); ++it) {
    if (*it <= high_fence) {
      s.whisker_high = std::max(*it, s.q3);
      break;
    }
  }
  for (const double v : values) {
    if (v < low_fence || v > high_fence) s.outliers.push_back(v);
  }
  return s;
}

// ---- box plots ----------------------------------------------------------------------------
std::string RenderSvg(const BoxChart& c) {
  constexpr const char* kChart = "box chart";
  const std::size_t series = std::max<std::size_t>(1, c.series_names.size());
  if (!c.series_colors.empty()) CheckSameLength(kChart, "series_colors", series, c.series_colors.size());
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  const BoxSummaries summaries = SummariseBoxes(c, series, lo, hi);
  if (!(lo <= hi)) {  // no value at all
    lo = 0;
    hi = 1;
  }
  if (c.zero_line) {
    lo = std::min(lo, 0.0);
    hi = std::max(hi, 0.0);
  }
  const std::vector<double> yticks = NiceDomain(lo, hi);

  std::vector<std::string> colors;
  std::vector<LegendEntry> legend;
  for (std::size_t s = 0; s < series; ++s) {
    colors.push_back(c.series_colors.empty() ? kPalette[s % kPalette.size()] : c.series_colors[s]);
    if (s < c.series_names.size() && !c.series_names[s].empty()) {
      legend.push_back({c.series_names[s], colors.back(), LegendEntry::kBox});
    }
  }

  const double width = FrameWidth(c.frame);
  const double height = FrameHeight(c.frame, 480);
  const std::size_t groups = std::max<std::size_t>(1, c.groups.size());
  Area area = LegendPlotArea(c.frame, width, height, yticks, legend);
  if (area.Width() < 80) area.right = area.left + 80;
  const double slot = area.Width() / static_cast<double>(groups);
  // Group labels that do not fit their slot are turned by 35 degrees; the plot makes room.
  double label_width = 0;
  for (const BoxGroup& g : c.groups) label_width = std::max(label_width, TextWidth(g.label, kLabelFont));
  const bool turned = label_width > slot - 6;
  const double label_drop = turned ? std::min(label_width * 0.574, 160.0) : 0.0;
  area.bottom = height - 58 - label_drop;
  if (area.Height() < 80) area.bottom = area.top + 80;
  const Scale y{yticks.front(), yticks.back(), area.bottom, area.top};

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  DrawYAxis(svg, area, y, yticks, c.frame.y_label);
  svg.Line(area.left, area.bottom, area.right, area.bottom, kMuted, 1);
  if (c.zero_line) svg.Line(area.left, y(0), area.right, y(0), kMuted, 1.2);
  const double step = slot * 0.8 / static_cast<double>(series);
  const double box_w = std::min(step * 0.75, 60.0);
  for (std::size_t g = 0; g < c.groups.size(); ++g) {
    const double slot_left = area.left + slot * static_cast<double>(g);
    const double cx_group = slot_left + slot / 2;
    if (g > 0 && series > 1) svg.Line(slot_left, area.top, slot_left, area.bottom, kGrid, 1);
    svg.Line(cx_group, area.bottom, cx_group, area.bottom + 5, kMuted, 1);
    DrawGroupLabel(svg, area, cx_group, c.groups[g].label, turned);
    for (std::size_t s = 0; s < series; ++s) {
      if (summaries[g][s].empty()) continue;
      const double cx = slot_left + slot * 0.1 + step * (static_cast<double>(s) + 0.5);
      DrawBox(svg, y, summaries[g][s].front(), cx, box_w, colors[s]);
    }
  }
  if (!c.frame.x_label.empty()) {
    svg.Text((area.left + area.right) / 2, area.bottom + 40 + label_drop, c.frame.x_label, "middle", kLabelFont);
  }
  DrawLegend(svg, area.right + 16, area.top + 10, legend);
  return svg.Finish();
}

}}}  // namespace perfshap::detail
