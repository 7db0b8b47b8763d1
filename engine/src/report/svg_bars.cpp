// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The row charts of svg.hpp, value axis horizontal: waterfalls, bar charts and stacked bars.

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

/// The layout of a row chart (waterfall, bars): the size, the plot area and the height per row.
struct RowLayout {
  double width = 0;
  double height = 0;
  Area area;
  double row_h = 0;
};

/// Lays out `rows` rows under the frame's title: the row labels (and the y label) left of the
/// plot, the printed values right of it.
RowLayout LayOutRows(const SvgFrame& frame, double rows, const std::vector<std::string>& labels,
                     const std::vector<std::string>& values) {
  const double value_width = WidestText(values, kLabelFont);
  RowLayout l;
  l.width = FrameWidth(frame);
  const double top = frame.title.empty() ? 20 : 48;
  l.height = FrameHeight(frame, top + rows * kRowHeight + 62);
  l.area.left = 16 + RowLabelWidth(labels) + 12 + (frame.y_label.empty() ? 0 : 22);
  l.area.top = top;
  l.area.right = l.width - value_width - 24;
  l.area.bottom = l.height - 62;
  if (l.area.Width() < 80) l.area.right = l.area.left + 80;  // very long labels: let the text overflow
  l.row_h = l.area.Height() / rows;
  return l;
}

/// A row chart's title, value axis and y label (turned, at the left edge).
void DrawRowFrame(SvgWriter& svg, const SvgFrame& frame, const RowLayout& l, const Scale& x,
                  const std::vector<double>& ticks) {
  DrawTitle(svg, frame, l.width);
  DrawXAxis(svg, l.area, x, ticks, frame.x_label);
  if (!frame.y_label.empty()) DrawRotatedLabel(svg, 20, (l.area.top + l.area.bottom) / 2, frame.y_label, -90);
}

/// A printed value followed by " ± sd" when sd > 0.
std::string WithStd(std::string s, double sd, int decimals) {
  if (sd > 0) s += " \u00b1 " + Fixed(sd, decimals);
  return s;
}

/// A std whisker with caps from center - sd to center + sd at height cy; none for sd <= 0.
void DrawWhisker(SvgWriter& svg, const Scale& x, double center, double sd, double cy) {
  if (sd <= 0) return;
  svg.Line(x(center - sd), cy, x(center + sd), cy, kInk, 1.4);
  svg.Line(x(center - sd), cy - 5, x(center - sd), cy + 5, kInk, 1.4);
  svg.Line(x(center + sd), cy - 5, x(center + sd), cy + 5, kInk, 1.4);
}

// ---- waterfall ----------------------------------------------------------------------------

/// The waterfall's lengths and finite values.
void CheckWaterfall(const WaterfallChart& c) {
  constexpr const char* kChart = "waterfall chart";
  const std::size_t n = c.labels.size();
  CheckSameLength(kChart, "contributions", n, c.contributions.size());
  if (!c.stds.empty()) CheckSameLength(kChart, "stds", n, c.stds.size());
  CheckFinite(kChart, "contributions", c.contributions);
  CheckFinite(kChart, "stds", c.stds);
  CheckFinite(kChart, "start_value", c.start_value);
  CheckFinite(kChart, "end_value", c.end_value);
  CheckFinite(kChart, "start_std", c.start_std);
  CheckFinite(kChart, "end_std", c.end_std);
}

/// Running sums c_0 = start, c_{k+1} = c_k + phi_k (n + 1 of them).
std::vector<double> RunningSums(const WaterfallChart& c) {
  const std::size_t n = c.labels.size();
  std::vector<double> running(n + 1);
  running[0] = c.start_value;
  for (std::size_t k = 0; k < n; ++k) running[k + 1] = running[k] + c.contributions[k];
  return running;
}

/// The value axis: 0, the start and end bars and every running sum, with their whiskers.
std::vector<double> WaterfallTicks(const WaterfallChart& c, const std::vector<double>& running) {
  const std::size_t n = c.labels.size();
  double lo = std::min({0.0, c.start_value - c.start_std, c.end_value - c.end_std});
  double hi = std::max({0.0, c.start_value + c.start_std, c.end_value + c.end_std});
  for (std::size_t k = 0; k <= n; ++k) {
    const double s = k > 0 && !c.stds.empty() ? c.stds[k - 1] : 0.0;
    lo = std::min(lo, running[k] - s);
    hi = std::max(hi, running[k] + s);
  }
  return NiceDomain(lo, hi);
}

/// The value column right of the plot: "0.5000", "+0.2684 ± 0.0123", ..., one per row.
std::vector<std::string> WaterfallValues(const WaterfallChart& c) {
  const std::size_t n = c.labels.size();
  std::vector<std::string> values;
  values.push_back(WithStd(Fixed(c.start_value, c.decimals), c.start_std, c.decimals));
  for (std::size_t k = 0; k < n; ++k) {
    values.push_back(
        WithStd(Fixed(c.contributions[k], c.decimals, true), c.stds.empty() ? 0.0 : c.stds[k], c.decimals));
  }
  values.push_back(WithStd(Fixed(c.end_value, c.decimals), c.end_std, c.decimals));
  return values;
}

/// One bar of a waterfall: from..to on the value axis, its colour and whisker.
struct WaterfallBar {
  double from = 0;
  double to = 0;
  const char* fill = kNeutral;
  double sd = 0;
};

/// Row r's bar: the start bar (r = 0), a contribution's, or the end bar (r = n + 1).
WaterfallBar WaterfallBarOf(const WaterfallChart& c, const std::vector<double>& running, std::size_t r) {
  const std::size_t n = c.labels.size();
  WaterfallBar bar;
  if (r == 0) {
    bar.to = c.start_value;
    bar.sd = c.start_std;
  } else if (r == n + 1) {
    bar.to = c.end_value;
    bar.fill = kTotal;
    bar.sd = c.end_std;
  } else {
    bar.from = running[r - 1];
    bar.to = running[r];
    bar.fill = c.contributions[r - 1] >= 0 ? kPositive : kNegative;
    bar.sd = c.stds.empty() ? 0.0 : c.stds[r - 1];
  }
  return bar;
}

/// The waterfall's rows: bar, whisker, connector to the next bar, label and value.
void DrawWaterfallRows(SvgWriter& svg, const WaterfallChart& c, const RowLayout& l, const Scale& x,
                       const std::vector<double>& running, const std::vector<std::string>& row_labels,
                       const std::vector<std::string>& values) {
  const std::size_t n = c.labels.size();
  const Area& area = l.area;
  const double bar_h = l.row_h * 0.62;
  for (std::size_t r = 0; r < n + 2; ++r) {
    const double cy = area.top + l.row_h * (static_cast<double>(r) + 0.5);
    const WaterfallBar bar = WaterfallBarOf(c, running, r);
    const double x0 = std::min(x(bar.from), x(bar.to));
    // A zero-width bar stays visible as a 1 px line.
    const double w = std::max(std::fabs(x(bar.to) - x(bar.from)), 1.0);
    svg.Rect(x0, cy - bar_h / 2, w, bar_h, bar.fill);
    DrawWhisker(svg, x, bar.to, bar.sd, cy);
    // Connector from this bar's end (the running sum, running[0] = start) to the next bar.
    if (r <= n) {
      svg.Line(x(running[r]), cy + bar_h / 2, x(running[r]), cy + l.row_h - bar_h / 2, kMuted, 1, true);
    }
    svg.Text(area.left - 10, cy + 4.5, row_labels[r], "end", kLabelFont,
             r == 0 || r == n + 1 ? " font-weight=\"bold\"" : "");
    svg.Text(area.right + 12, cy + 4.5, values[r], "start", kLabelFont,
             r == 0 || r == n + 1 ? " font-weight=\"bold\"" : "");
  }
}

// ---- stacked bars -------------------------------------------------------------------------

/// The bars' totals per panel, the panels' largest totals, the most bars of a panel (at least
/// 1) and whether a panel has a title.
struct StackTotals {
  std::vector<std::vector<double>> totals;
  std::vector<double> panel_hi;
  std::size_t rows = 1;
  bool any_title = false;
};

/// Checks every bar (one finite value >= 0 per layer) and sums its segments.
StackTotals SumStacks(const StackedBarChart& c) {
  constexpr const char* kChart = "stacked bar chart";
  const std::size_t layers = c.layer_names.size();
  const std::size_t n_panels = c.panels.size();
  const auto panel_name = [&](std::size_t p) {
    return "panel " + (c.panels[p].title.empty() ? std::to_string(p) : "'" + c.panels[p].title + "'");
  };
  StackTotals sums;
  sums.totals.resize(n_panels);
  sums.panel_hi.assign(n_panels, 0.0);
  for (std::size_t p = 0; p < n_panels; ++p) {
    const StackedBarPanel& panel = c.panels[p];
    sums.any_title = sums.any_title || !panel.title.empty();
    sums.rows = std::max(sums.rows, panel.bars.size());
    for (std::size_t b = 0; b < panel.bars.size(); ++b) {
      const StackedBar& bar = panel.bars[b];
      const std::string what = panel_name(p) + " bar " +
                               (bar.label.empty() ? std::to_string(b) : "'" + bar.label + "'") + " values";
      CheckSameLength(kChart, what + " (one per layer)", layers, bar.values.size());
      CheckFinite(kChart, what, bar.values);
      double total = 0;
      for (std::size_t l = 0; l < layers; ++l) {
        if (bar.values[l] < 0) {
          throw InvalidArgument(std::string(kChart) + ": " + what + "[" + std::to_string(l) + "] is negative (" +
                                Fixed(bar.values[l], c.decimals) +
                                "); stacked segments need values >= 0 (e.g. absolute contributions)");
        }
        total += bar.values[l];
      }
      sums.totals[p].push_back(total);
      sums.panel_hi[p] = std::max(sums.panel_hi[p], total);
    }
  }
  return sums;
}

/// Per panel: the row labels on the left, the totals' room on the right, the plot between;
/// legend_x moves right of every panel's totals, narrowest gets the narrowest plot's width.
std::vector<Area> StackedPanelAreas(const StackedBarChart& c, const std::vector<std::vector<std::string>>& texts,
                                    double slots_left, double slot, double top, double bottom, double& legend_x,
                                    double& narrowest) {
  const std::size_t n_panels = c.panels.size();
  std::vector<Area> areas(n_panels);
  for (std::size_t p = 0; p < n_panels; ++p) {
    std::vector<std::string> labels;
    for (const StackedBar& bar : c.panels[p].bars) labels.push_back(bar.label);
    const double value_width = WidestText(texts[p], kLabelFont);
    const double slot_left = slots_left + slot * static_cast<double>(p);
    Area& area = areas[p];
    area.left = slot_left + RowLabelWidth(labels) + 12;
    area.top = top;
    area.right = slot_left + slot - value_width - 20;
    area.bottom = bottom;
    if (area.Width() < 80) area.right = area.left + 80;
    legend_x = std::max(legend_x, area.right + value_width + 20);
    narrowest = std::min(narrowest, area.Width());
  }
  return areas;
}

/// One panel of stacked bars: its axis over [0, hi], its title, the segments, labels and
/// totals, and the zero line.
void DrawStackedPanel(SvgWriter& svg, const StackedBarChart& c, const StackedBarPanel& panel, const Area& area,
                      const std::vector<double>& totals, const std::vector<std::string>& texts, double hi,
                      int tick_target, double top, double row_h) {
  const std::size_t layers = c.layer_names.size();
  const std::vector<double> ticks = NiceDomain(0.0, hi > 0 ? hi : 1.0, tick_target);
  const Scale x{ticks.front(), ticks.back(), area.left, area.right};
  DrawXAxis(svg, area, x, ticks, c.frame.x_label);
  if (!panel.title.empty()) {
    svg.Text((area.left + area.right) / 2, top - 10, panel.title, "middle", kLabelFont, " font-weight=\"bold\"");
  }
  for (std::size_t b = 0; b < panel.bars.size(); ++b) {
    const StackedBar& bar = panel.bars[b];
    const double cy = area.top + row_h * (static_cast<double>(b) + 0.5);
    const double bar_h = row_h * 0.62;
    double run = 0;
    for (std::size_t l = 0; l < layers; ++l) {
      const double v = bar.values[l];
      if (v == 0.0) continue;
      svg.Rect(x(run), cy - bar_h / 2, x(run + v) - x(run), bar_h, kPalette[l % kPalette.size()],
               " fill-opacity=\"0.7\"");  // as the legend's swatches
      run += v;
    }
    svg.Text(area.left - 10, cy + 4.5, bar.label, "end", kLabelFont);
    svg.Text(x(totals[b]) + 6, cy + 4.5, texts[b], "start", kLabelFont);
  }
  svg.Line(x(0), area.top, x(0), area.bottom, kInk, 1.2);
}

}  // namespace

std::string RenderSvg(const WaterfallChart& c) {
  CheckWaterfall(c);
  const std::size_t n = c.labels.size();
  // Rows: start, one per contribution, end.
  const std::vector<double> running = RunningSums(c);
  const std::vector<double> ticks = WaterfallTicks(c, running);
  std::vector<std::string> row_labels;
  row_labels.push_back(c.start_label);
  row_labels.insert(row_labels.end(), c.labels.begin(), c.labels.end());
  row_labels.push_back(c.end_label);
  const std::vector<std::string> values = WaterfallValues(c);

  const RowLayout layout = LayOutRows(c.frame, static_cast<double>(n + 2), row_labels, values);
  const Area& area = layout.area;
  const Scale x{ticks.front(), ticks.back(), area.left, area.right};
  SvgWriter svg(layout.width, layout.height);
  DrawRowFrame(svg, c.frame, layout, x, ticks);
  svg.Line(x(0.0), area.top, x(0.0), area.bottom, kMuted, 1);
  DrawWaterfallRows(svg, c, layout, x, running, row_labels, values);
  return svg.Finish();
}

// ---- horizontal bar chart -------------------------------------------------------------------
std::string RenderSvg(const BarChart& c) {
  constexpr const char* kChart = "bar chart";
  const std::size_t n = c.labels.size();
  CheckSameLength(kChart, "values", n, c.values.size());
  if (!c.stds.empty()) CheckSameLength(kChart, "stds", n, c.stds.size());
  CheckFinite(kChart, "values", c.values);
  CheckFinite(kChart, "stds", c.stds);
  double lo = 0;
  double hi = 0;
  std::vector<std::string> texts;
  for (std::size_t k = 0; k < n; ++k) {
    const double sd = c.stds.empty() ? 0.0 : std::fabs(c.stds[k]);
    lo = std::min(lo, c.values[k] - sd);
    hi = std::max(hi, c.values[k] + sd);
    texts.push_back(WithStd(Fixed(c.values[k], c.decimals), sd, c.decimals));
  }
  const std::vector<double> ticks = NiceDomain(lo, hi);

  const RowLayout layout =
      LayOutRows(c.frame, static_cast<double>(std::max<std::size_t>(n, 1)), c.labels, texts);
  const Area& area = layout.area;
  const Scale x{ticks.front(), ticks.back(), area.left, area.right};
  SvgWriter svg(layout.width, layout.height);
  DrawRowFrame(svg, c.frame, layout, x, ticks);
  for (std::size_t k = 0; k < n; ++k) {
    const double cy = area.top + layout.row_h * (static_cast<double>(k) + 0.5);
    const double v = c.values[k];
    const double bar_h = layout.row_h * 0.62;
    svg.Rect(std::min(x(0), x(v)), cy - bar_h / 2, std::max(std::fabs(x(v) - x(0)), 1.0), bar_h,
             v >= 0 ? kTotal : kNegative);
    DrawWhisker(svg, x, v, c.stds.empty() ? 0.0 : std::fabs(c.stds[k]), cy);
    svg.Text(area.left - 10, cy + 4.5, c.labels[k], "end", kLabelFont);
    svg.Text(area.right + 12, cy + 4.5, texts[k], "start", kLabelFont);
  }
  svg.Line(x(0), area.top, x(0), area.bottom, kInk, 1.2);
  return svg.Finish();
}

// ---- stacked bars -------------------------------------------------------------------------
std::string RenderSvg(const StackedBarChart& c) {
  constexpr const char* kChart = "stacked bar chart";
  if (c.decimals < 0 || c.decimals > 12) {
    throw InvalidArgument(std::string(kChart) + ": decimals is " + std::to_string(c.decimals) +
                          ", expected 0..12");
  }
  const std::size_t layers = c.layer_names.size();
  const std::size_t n_panels = c.panels.size();
  // Totals per panel and bar; the panels' ranges [0, hi].
  const StackTotals sums = SumStacks(c);
  double all_hi = 0;
  for (const double h : sums.panel_hi) all_hi = std::max(all_hi, h);
  std::vector<std::vector<std::string>> texts(n_panels);
  for (std::size_t p = 0; p < n_panels; ++p) {
    for (const double t : sums.totals[p]) texts[p].push_back(Fixed(t, c.decimals));
  }

  std::vector<LegendEntry> legend;
  for (std::size_t l = 0; l < layers; ++l) {
    if (!c.layer_names[l].empty()) {
      legend.push_back({c.layer_names[l], kPalette[l % kPalette.size()], LegendEntry::kBox});
    }
  }
  const double width = FrameWidth(c.frame);
  const double top = (c.frame.title.empty() ? 20 : 48) + (sums.any_title ? 22 : 0);
  const double height = FrameHeight(c.frame, top + static_cast<double>(sums.rows) * kRowHeight + 62);
  const double y_label_w = c.frame.y_label.empty() ? 0 : 22;
  const double legend_w = LegendWidth(legend);
  const double slots_left = 16 + y_label_w;
  const double slots_right = std::max(width - 8 - legend_w, slots_left + 1);
  const double slot = (slots_right - slots_left) / static_cast<double>(std::max<std::size_t>(n_panels, 1));
  double bottom = height - 62;
  if (bottom - top < 40) bottom = top + 40;
  const double row_h = (bottom - top) / static_cast<double>(sums.rows);

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  if (!c.frame.y_label.empty()) DrawRotatedLabel(svg, 20, (top + bottom) / 2, c.frame.y_label, -90);
  double legend_x = slots_right;
  double narrowest = std::numeric_limits<double>::infinity();
  const std::vector<Area> areas = StackedPanelAreas(c, texts, slots_left, slot, top, bottom, legend_x, narrowest);
  // About one tick step per 45 px of the narrowest plot (2..6), the same for every panel.
  const int tick_target = std::clamp(static_cast<int>(narrowest / 45), 2, 6);
  for (std::size_t p = 0; p < n_panels; ++p) {
    DrawStackedPanel(svg, c, c.panels[p], areas[p], sums.totals[p], texts[p], c.shared_axis ? all_hi : sums.panel_hi[p],
                     tick_target, top, row_h);
  }
  DrawLegend(svg, std::min(legend_x, width - legend_w) + 8, top + 10, legend);
  return svg.Finish();
}

}}}  // namespace perfshap::detail
