// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/svg.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/error.hpp"

namespace perfshap::inline v0::detail {
namespace {

// Tableau 10: distinct, and readable on white.
constexpr std::array<const char*, 10> kPalette = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                                  "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr const char* kPositive = "#2e9d4a";
constexpr const char* kNegative = "#d1495b";
constexpr const char* kNeutral = "#8a939b";
constexpr const char* kTotal = "#1f77b4";
constexpr const char* kInk = "#222222";
constexpr const char* kMuted = "#555555";
constexpr const char* kGrid = "#e3e3e3";

constexpr double kTitleFont = 16;
constexpr double kLabelFont = 13;
constexpr double kTickFont = 12;
constexpr double kRowHeight = 30;  // px per row of the row charts

/// A coordinate or length with at most 2 decimals, trailing zeros dropped; locale-free.
std::string Num(double v) {
  PERFSHAP_DCHECK(std::isfinite(v));
  if (std::fabs(v) < 0.005) v = 0.0;  // no "-0"
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, 2);
  std::string s(buf, res.ptr);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

/// A value printed with `decimals` digits (locale-free), optional explicit sign.
std::string Fixed(double v, int decimals, bool sign = false) {
  const double unit = std::pow(10.0, -decimals);
  if (std::fabs(v) < unit / 2) v = 0.0;
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, decimals);
  std::string s(buf, res.ptr);
  if (sign && v >= 0.0) s.insert(s.begin(), '+');
  return s;
}

/// Digits that show every tick of a step exactly (0.25 -> 2, 5 -> 0, 2.5 -> 1).
int TickDecimals(double step) {
  int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  while (decimals < 12) {
    const double scaled = step * std::pow(10.0, decimals);
    if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) break;
    ++decimals;
  }
  return decimals;
}

/// Approximate rendered width of a sans-serif string (average glyph 0.58 em).
double TextWidth(const std::string& s, double font) {
  std::size_t glyphs = 0;
  for (const char ch : s) glyphs += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return 0.58 * font * static_cast<double>(glyphs);
}

/// `what` names the array, e.g. "series 'ROC' y"; the message adds the index.
void CheckFinite(const char* chart, const std::string& what, const std::vector<double>& v) {
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      throw InvalidArgument(std::string(chart) + ": " + what + "[" + std::to_string(i) +
                            "] is not finite; charts need finite values");
    }
  }
}

void CheckFinite(const char* chart, const std::string& what, double v) {
  if (!std::isfinite(v)) {
    throw InvalidArgument(std::string(chart) + ": " + what +
                          " is not finite; charts need finite "
                          "values");
  }
}

void CheckSameLength(const char* chart, const std::string& what, std::size_t expected, std::size_t got) {
  if (expected != got) {
    throw InvalidArgument(std::string(chart) + ": " + what + " has " + std::to_string(got) +
                          " values, expected " + std::to_string(expected));
  }
}

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
  SvgWriter(double width, double height) {
    out_.reserve(16384);
    out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out_ += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + Num(width) +
            "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(width) + " " + Num(height) +
            "\" font-family=\"Helvetica, Arial, 'DejaVu Sans', sans-serif\" font-size=\"" + Num(kLabelFont) +
            "\" fill=\"" + kInk + "\">\n";
    out_ += "<rect x=\"0\" y=\"0\" width=\"" + Num(width) + "\" height=\"" + Num(height) +
            "\" fill=\"#ffffff\"/>\n";
  }
  void Raw(const std::string& s) { out_ += s; }
  void Rect(double x, double y, double w, double h, const std::string& fill, const std::string& extra = "") {
    out_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(std::max(w, 0.0)) +
            "\" height=\"" + Num(std::max(h, 0.0)) + "\" fill=\"" + fill + "\"" + extra + "/>\n";
  }
  void Line(double x1, double y1, double x2, double y2, const std::string& stroke, double width,
            bool dashed = false) {
    out_ += "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) + "\" y2=\"" + Num(y2) +
            "\" stroke=\"" + stroke + "\" stroke-width=\"" + Num(width) + "\"" +
            (dashed ? " stroke-dasharray=\"5 4\"" : "") + "/>\n";
  }
  /// anchor: start | middle | end.
  void Text(double x, double y, const std::string& text, const char* anchor, double size,
            const std::string& extra = "") {
    out_ += "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" text-anchor=\"" + anchor + "\" font-size=\"" +
            Num(size) + "\"" + extra + ">" + EscapeXml(text) + "</text>\n";
  }
  void Polyline(const std::vector<double>& xs, const std::vector<double>& ys, const std::string& stroke,
                double width, bool dashed, const std::string& extra = "") {
    out_ += "<polyline fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"" + Num(width) +
            "\" stroke-linejoin=\"round\"" + (dashed ? " stroke-dasharray=\"6 4\"" : "") + extra +
            " points=\"";
    AppendPoints(xs, ys);
    out_ += "\"/>\n";
  }
  void Polygon(const std::vector<double>& xs, const std::vector<double>& ys, const std::string& fill,
               double opacity, const std::string& extra = "") {
    out_ += "<polygon fill=\"" + fill + "\" fill-opacity=\"" + Num(opacity) + "\" stroke=\"none\"" + extra +
            " points=\"";
    AppendPoints(xs, ys);
    out_ += "\"/>\n";
  }
  void Circle(double cx, double cy, double r, const std::string& fill, double opacity) {
    out_ += "<circle cx=\"" + Num(cx) + "\" cy=\"" + Num(cy) + "\" r=\"" + Num(r) + "\" fill=\"" + fill +
            "\" fill-opacity=\"" + Num(opacity) + "\"/>\n";
  }
  std::string Finish() {
    out_ += "</svg>\n";
    return std::move(out_);
  }

 private:
  void AppendPoints(const std::vector<double>& xs, const std::vector<double>& ys) {
    for (std::size_t i = 0; i < xs.size(); ++i) {
      if (i > 0) out_ += ' ';
      out_ += Num(xs[i]);
      out_ += ',';
      out_ += Num(ys[i]);
    }
  }
  std::string out_;
};

void DrawTitle(SvgWriter& svg, const SvgFrame& frame, double width) {
  if (!frame.title.empty()) {
    svg.Text(width / 2, 26, frame.title, "middle", kTitleFont, " font-weight=\"bold\"");
  }
}

/// Ticks inside [lo, hi] (both ends included) of a nice step.
std::vector<double> TicksWithin(double lo, double hi, int target = 6) {
  std::vector<double> ticks = NiceTicks(lo, hi, target);
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0;
  std::vector<double> inside;
  for (const double t : ticks) {
    if (t >= lo - step * 1e-9 && t <= hi + step * 1e-9) inside.push_back(t);
  }
  return inside;
}

double TickStep(const std::vector<double>& ticks) { return ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0; }

/// Width of the widest tick label.
double TickLabelWidth(const std::vector<double>& ticks) {
  const int decimals = TickDecimals(TickStep(ticks));
  double w = 0;
  for (const double t : ticks) w = std::max(w, TextWidth(Fixed(t, decimals), kTickFont));
  return w;
}

/// Numeric x axis at the bottom of the area: grid lines, ticks, labels, axis label.
void DrawXAxis(SvgWriter& svg, const Area& area, const Scale& x, const std::vector<double>& ticks,
               const std::string& label) {
  const int decimals = TickDecimals(TickStep(ticks));
  for (const double t : ticks) {
    const double px = x(t);
    svg.Line(px, area.top, px, area.bottom, kGrid, 1);
    svg.Line(px, area.bottom, px, area.bottom + 5, kMuted, 1);
    svg.Text(px, area.bottom + 19, Fixed(t, decimals), "middle", kTickFont,
             std::string(" fill=\"") + kMuted + "\"");
  }
  svg.Line(area.left, area.bottom, area.right, area.bottom, kMuted, 1);
  if (!label.empty()) {
    svg.Text((area.left + area.right) / 2, area.bottom + 40, label, "middle", kLabelFont);
  }
}

/// Numeric y axis on the left of the area.
void DrawYAxis(SvgWriter& svg, const Area& area, const Scale& y, const std::vector<double>& ticks,
               const std::string& label) {
  const int decimals = TickDecimals(TickStep(ticks));
  for (const double t : ticks) {
    const double py = y(t);
    svg.Line(area.left, py, area.right, py, kGrid, 1);
    svg.Line(area.left - 5, py, area.left, py, kMuted, 1);
    svg.Text(area.left - 8, py + 4, Fixed(t, decimals), "end", kTickFont,
             std::string(" fill=\"") + kMuted + "\"");
  }
  svg.Line(area.left, area.top, area.left, area.bottom, kMuted, 1);
  if (!label.empty()) {
    const double lx = area.left - TickLabelWidth(ticks) - 22;
    const double ly = (area.top + area.bottom) / 2;
    svg.Text(lx, ly, label, "middle", kLabelFont,
             " transform=\"rotate(-90 " + Num(lx) + " " + Num(ly) + ")\"");
  }
}

/// Legend entries drawn in a column right of the plot area.
struct LegendEntry {
  std::string name;
  std::string color;
  enum Kind { kLine, kDashed, kBox } kind = kLine;
};

double LegendWidth(const std::vector<LegendEntry>& entries) {
  double w = 0;
  for (const LegendEntry& e : entries) w = std::max(w, TextWidth(e.name, kTickFont));
  return entries.empty() ? 0.0 : w + 46;
}

void DrawLegend(SvgWriter& svg, double x, double y, const std::vector<LegendEntry>& entries) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const LegendEntry& e = entries[i];
    const double cy = y + 20.0 * static_cast<double>(i);
    if (e.kind == LegendEntry::kBox) {
      svg.Rect(x, cy - 6, 22, 12, e.color, " fill-opacity=\"0.7\"");
    } else {
      svg.Line(x, cy, x + 22, cy, e.color, 2.5, e.kind == LegendEntry::kDashed);
    }
    svg.Text(x + 30, cy + 4, e.name, "start", kTickFont);
  }
}

/// Data range [lo, hi] extended to nice ticks; returns the ticks (domain = front..back).
std::vector<double> NiceDomain(double lo, double hi, int target = 6) { return NiceTicks(lo, hi, target); }

/// Categorical rows (top to bottom) left of a horizontal value axis: the label column width.
double RowLabelWidth(const std::vector<std::string>& labels) {
  double w = 0;
  for (const std::string& s : labels) w = std::max(w, TextWidth(s, kLabelFont));
  return w;
}

/// Blue (low) to red (high) through purple, t in [0, 1].
std::string ColorRamp(double t) {
  t = std::clamp(t, 0.0, 1.0);
  const double low[3] = {0, 139, 251};  // #008bfb
  const double high[3] = {255, 0, 81};  // #ff0051
  char buf[8];
  const auto channel = [&](int k) { return static_cast<int>(std::lround(low[k] + (high[k] - low[k]) * t)); };
  std::snprintf(buf, sizeof(buf), "#%02x%02x%02x", channel(0), channel(1), channel(2));
  return buf;
}

double FrameHeight(const SvgFrame& frame, double automatic) {
  return frame.height > 0 ? static_cast<double>(frame.height) : automatic;
}

double FrameWidth(const SvgFrame& frame) { return static_cast<double>(std::max(frame.width, 320)); }

}  // namespace

std::string EscapeXml(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        // Control characters other than tab / newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
          out += '?';
        } else {
          out += ch;
        }
    }
  }
  return out;
}

std::vector<double> NiceTicks(double lo, double hi, int target) {
  PERFSHAP_DCHECK(std::isfinite(lo) && std::isfinite(hi));
  if (lo > hi) std::swap(lo, hi);
  if (!(hi > lo)) {
    const double pad = lo == 0.0 ? 1.0 : std::fabs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  target = std::max(target, 2);
  const double raw = (hi - lo) / target;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * magnitude;
  for (const double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * magnitude >= raw * (1 - 1e-9)) {
      step = m * magnitude;
      break;
    }
  }
  const auto first = static_cast<long long>(std::floor(lo / step + 1e-9));
  const auto last = static_cast<long long>(std::ceil(hi / step - 1e-9));
  std::vector<double> ticks;
  for (long long k = first; k <= last; ++k) ticks.push_back(static_cast<double>(k) * step);
  if (ticks.size() < 2) ticks.push_back(ticks.back() + step);
  return ticks;
}

// ---- waterfall ----------------------------------------------------------------------------
std::string RenderSvg(const WaterfallChart& c) {
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

  // Rows: start, one per contribution, end. Running sums c_0 = start, c_{k+1} = c_k + phi_k.
  std::vector<double> running(n + 1);
  running[0] = c.start_value;
  for (std::size_t k = 0; k < n; ++k) running[k + 1] = running[k] + c.contributions[k];
  double lo = std::min({0.0, c.start_value - c.start_std, c.end_value - c.end_std});
  double hi = std::max({0.0, c.start_value + c.start_std, c.end_value + c.end_std});
  for (std::size_t k = 0; k <= n; ++k) {
    const double s = k > 0 && !c.stds.empty() ? c.stds[k - 1] : 0.0;
    lo = std::min(lo, running[k] - s);
    hi = std::max(hi, running[k] + s);
  }
  const std::vector<double> ticks = NiceDomain(lo, hi);

  std::vector<std::string> row_labels;
  row_labels.push_back(c.start_label);
  row_labels.insert(row_labels.end(), c.labels.begin(), c.labels.end());
  row_labels.push_back(c.end_label);
  // The value column right of the plot: "0.5000", "+0.2684 ± 0.0123".
  std::vector<std::string> values;
  const auto with_std = [&](std::string s, double sd) {
    if (sd > 0) s += " \u00b1 " + Fixed(sd, c.decimals);
    return s;
  };
  values.push_back(with_std(Fixed(c.start_value, c.decimals), c.start_std));
  for (std::size_t k = 0; k < n; ++k) {
    values.push_back(with_std(Fixed(c.contributions[k], c.decimals, true), c.stds.empty() ? 0.0 : c.stds[k]));
  }
  values.push_back(with_std(Fixed(c.end_value, c.decimals), c.end_std));
  double value_width = 0;
  for (const std::string& v : values) value_width = std::max(value_width, TextWidth(v, kLabelFont));

  const double width = FrameWidth(c.frame);
  const double rows = static_cast<double>(n + 2);
  const double top = c.frame.title.empty() ? 20 : 48;
  const double height = FrameHeight(c.frame, top + rows * kRowHeight + 62);
  Area area;
  area.left = 16 + RowLabelWidth(row_labels) + 12 + (c.frame.y_label.empty() ? 0 : 22);
  area.top = top;
  area.right = width - value_width - 24;
  area.bottom = height - 62;
  if (area.Width() < 80) area.right = area.left + 80;  // very long labels: let the text overflow
  const double row_h = area.Height() / rows;
  const Scale x{ticks.front(), ticks.back(), area.left, area.right};

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  DrawXAxis(svg, area, x, ticks, c.frame.x_label);
  if (!c.frame.y_label.empty()) {
    const double lx = 20;
    const double ly = (area.top + area.bottom) / 2;
    svg.Text(lx, ly, c.frame.y_label, "middle", kLabelFont,
             " transform=\"rotate(-90 " + Num(lx) + " " + Num(ly) + ")\"");
  }
  svg.Line(x(0.0), area.top, x(0.0), area.bottom, kMuted, 1);

  const double bar_h = row_h * 0.62;
  const auto whisker = [&](double center, double sd, double cy) {
    if (sd <= 0) return;
    svg.Line(x(center - sd), cy, x(center + sd), cy, kInk, 1.4);
    svg.Line(x(center - sd), cy - 5, x(center - sd), cy + 5, kInk, 1.4);
    svg.Line(x(center + sd), cy - 5, x(center + sd), cy + 5, kInk, 1.4);
  };
  for (std::size_t r = 0; r < n + 2; ++r) {
    const double cy = area.top + row_h * (static_cast<double>(r) + 0.5);
    double from = 0;
    double to = 0;
    const char* fill = kNeutral;
    double sd = 0;
    if (r == 0) {
      to = c.start_value;
      sd = c.start_std;
    } else if (r == n + 1) {
      to = c.end_value;
      fill = kTotal;
      sd = c.end_std;
    } else {
      from = running[r - 1];
      to = running[r];
      fill = c.contributions[r - 1] >= 0 ? kPositive : kNegative;
      sd = c.stds.empty() ? 0.0 : c.stds[r - 1];
    }
    const double x0 = std::min(x(from), x(to));
    // A zero-width bar stays visible as a 1 px line.
    const double w = std::max(std::fabs(x(to) - x(from)), 1.0);
    svg.Rect(x0, cy - bar_h / 2, w, bar_h, fill);
    whisker(to, sd, cy);
    // Connector from this bar's end (the running sum, running[0] = start) to the next bar.
    if (r <= n) {
      svg.Line(x(running[r]), cy + bar_h / 2, x(running[r]), cy + row_h - bar_h / 2, kMuted, 1, true);
    }
    svg.Text(area.left - 10, cy + 4.5, row_labels[r], "end", kLabelFont,
             r == 0 || r == n + 1 ? " font-weight=\"bold\"" : "");
    svg.Text(area.right + 12, cy + 4.5, values[r], "start", kLabelFont,
             r == 0 || r == n + 1 ? " font-weight=\"bold\"" : "");
  }
  return svg.Finish();
}

// ---- line chart ---------------------------------------------------------------------------
std::string RenderSvg(const LineChart& c) {
  constexpr const char* kChart = "line chart";
  double x_lo = std::numeric_limits<double>::infinity();
  double x_hi = -x_lo;
  double y_lo = x_lo;
  double y_hi = -x_lo;
  for (const LineSeries& s : c.series) {
    CheckSameLength(kChart, "series '" + s.name + "' y", s.x.size(), s.y.size());
    if (!s.std.empty()) CheckSameLength(kChart, "series '" + s.name + "' std", s.x.size(), s.std.size());
    CheckFinite(kChart, "series '" + s.name + "' x", s.x);
    CheckFinite(kChart, "series '" + s.name + "' y", s.y);
    CheckFinite(kChart, "series '" + s.name + "' std", s.std);
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      const double sd = s.std.empty() ? 0.0 : std::fabs(s.std[i]);
      x_lo = std::min(x_lo, s.x[i]);
      x_hi = std::max(x_hi, s.x[i]);
      y_lo = std::min(y_lo, s.y[i] - sd);
      y_hi = std::max(y_hi, s.y[i] + sd);
    }
  }
  CheckFinite(kChart, "x_markers", c.x_markers);
  if (!(x_lo <= x_hi)) {  // no points at all
    x_lo = 0;
    x_hi = 1;
    y_lo = 0;
    y_hi = 1;
  }
  if (c.zero_line) {
    y_lo = std::min(y_lo, 0.0);
    y_hi = std::max(y_hi, 0.0);
  }
  // One axis: the user's fixed limits (ticks inside them) or a nice domain around the data.
  const auto axis = [](bool fixed, double min, double max, double lo, double hi, const char* name,
                       std::vector<double>& ticks, double& d0, double& d1) {
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
  };
  std::vector<double> xticks;
  std::vector<double> yticks;
  double xd0, xd1, yd0, yd1;
  axis(c.fixed_x, c.x_min, c.x_max, x_lo, x_hi, "x", xticks, xd0, xd1);
  axis(c.fixed_y, c.y_min, c.y_max, y_lo, y_hi, "y", yticks, yd0, yd1);

  std::vector<LegendEntry> legend;
  std::vector<std::string> colors;
  std::size_t next_color = 0;
  for (const LineSeries& s : c.series) {
    colors.push_back(!s.color.empty() ? s.color : kPalette[next_color++ % kPalette.size()]);
    if (!s.name.empty()) {
      legend.push_back({s.name, colors.back(), s.dashed ? LegendEntry::kDashed : LegendEntry::kLine});
    }
  }

  const double width = FrameWidth(c.frame);
  const double height = FrameHeight(c.frame, 480);
  Area area;
  area.left = 20 + TickLabelWidth(yticks) + (c.frame.y_label.empty() ? 0 : 24);
  area.top = c.frame.title.empty() ? 20 : 48;
  area.right = width - 20 - LegendWidth(legend);
  area.bottom = height - 58;
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
  const int marker_decimals = TickDecimals(TickStep(xticks)) + 1;
  for (const double m : c.x_markers) {
    if (m < xd0 || m > xd1) continue;
    svg.Line(x(m), area.top, x(m), area.bottom, kInk, 1.2, true);
    svg.Text(x(m) + 4, area.top + 14, Fixed(m, marker_decimals), "start", kTickFont);
  }
  DrawLegend(svg, area.right + 16, area.top + 10, legend);
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
    std::string t = Fixed(c.values[k], c.decimals);
    if (sd > 0) t += " \u00b1 " + Fixed(sd, c.decimals);
    texts.push_back(std::move(t));
  }
  const std::vector<double> ticks = NiceDomain(lo, hi);
  double value_width = 0;
  for (const std::string& t : texts) value_width = std::max(value_width, TextWidth(t, kLabelFont));

  const double width = FrameWidth(c.frame);
  const double top = c.frame.title.empty() ? 20 : 48;
  const double height =
      FrameHeight(c.frame, top + static_cast<double>(std::max<std::size_t>(n, 1)) * kRowHeight + 62);
  Area area;
  area.left = 16 + RowLabelWidth(c.labels) + 12 + (c.frame.y_label.empty() ? 0 : 22);
  area.top = top;
  area.right = width - value_width - 24;
  area.bottom = height - 62;
  if (area.Width() < 80) area.right = area.left + 80;
  const double row_h = area.Height() / static_cast<double>(std::max<std::size_t>(n, 1));
  const Scale x{ticks.front(), ticks.back(), area.left, area.right};

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  DrawXAxis(svg, area, x, ticks, c.frame.x_label);
  if (!c.frame.y_label.empty()) {
    const double lx = 20;
    const double ly = (area.top + area.bottom) / 2;
    svg.Text(lx, ly, c.frame.y_label, "middle", kLabelFont,
             " transform=\"rotate(-90 " + Num(lx) + " " + Num(ly) + ")\"");
  }
  for (std::size_t k = 0; k < n; ++k) {
    const double cy = area.top + row_h * (static_cast<double>(k) + 0.5);
    const double v = c.values[k];
    const double bar_h = row_h * 0.62;
    svg.Rect(std::min(x(0), x(v)), cy - bar_h / 2, std::max(std::fabs(x(v) - x(0)), 1.0), bar_h,
             v >= 0 ? kTotal : kNegative);
    const double sd = c.stds.empty() ? 0.0 : std::fabs(c.stds[k]);
    if (sd > 0) {
      svg.Line(x(v - sd), cy, x(v + sd), cy, kInk, 1.4);
      svg.Line(x(v - sd), cy - 5, x(v - sd), cy + 5, kInk, 1.4);
      svg.Line(x(v + sd), cy - 5, x(v + sd), cy + 5, kInk, 1.4);
    }
    svg.Text(area.left - 10, cy + 4.5, c.labels[k], "end", kLabelFont);
    svg.Text(area.right + 12, cy + 4.5, texts[k], "start", kLabelFont);
  }
  svg.Line(x(0), area.top, x(0), area.bottom, kInk, 1.2);
  return svg.Finish();
}

// ---- beeswarm strip plot ------------------------------------------------------------------
std::string RenderSvg(const StripChart& c) {
  constexpr const char* kChart = "strip chart";
  const std::size_t n = c.rows.size();
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  bool any_color = false;
  std::vector<std::string> labels;
  for (const StripRow& row : c.rows) {
    CheckFinite(kChart, "row '" + row.label + "' values", row.values);
    if (!row.color_values.empty()) {
      CheckSameLength(kChart, "row '" + row.label + "' color_values", row.values.size(),
                      row.color_values.size());
      CheckFinite(kChart, "row '" + row.label + "' color_values", row.color_values);
      any_color = true;
    }
    for (const double v : row.values) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    labels.push_back(row.label);
  }
  if (!(lo <= hi)) {
    lo = -1;
    hi = 1;
  }
  lo = std::min(lo, 0.0);  // contributions are read against 0
  hi = std::max(hi, 0.0);
  const std::vector<double> ticks = NiceDomain(lo, hi);
  const double row_px = 44;
  const double width = FrameWidth(c.frame);
  const double top = c.frame.title.empty() ? 20 : 48;
  const double height =
      FrameHeight(c.frame, top + static_cast<double>(std::max<std::size_t>(n, 1)) * row_px + 62);
  Area area;
  area.left = 16 + RowLabelWidth(labels) + 12;
  area.top = top;
  area.right = width - (any_color ? 96 : 24);
  area.bottom = height - 62;
  const double row_h = area.Height() / static_cast<double>(std::max<std::size_t>(n, 1));
  const Scale x{ticks.front(), ticks.back(), area.left, area.right};

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  DrawXAxis(svg, area, x, ticks, c.frame.x_label);
  svg.Line(x(0), area.top, x(0), area.bottom, kMuted, 1.2);
  const double r = std::max(c.point_radius, 0.8);
  const double half = row_h / 2 - r - 1;  // room above and below the centre line
  std::vector<std::size_t> order;
  std::vector<double> placed_x;
  std::vector<double> placed_y;
  for (std::size_t k = 0; k < n; ++k) {
    const StripRow& row = c.rows[k];
    const double cy = area.top + row_h * (static_cast<double>(k) + 0.5);
    if (k > 0) svg.Line(area.left, cy - row_h / 2, area.right, cy - row_h / 2, kGrid, 1);
    svg.Text(area.left - 10, cy + 4.5, row.label, "end", kLabelFont);
    double c_lo = 0;
    double c_hi = 0;
    if (!row.color_values.empty()) {
      c_lo = *std::min_element(row.color_values.begin(), row.color_values.end());
      c_hi = *std::max_element(row.color_values.begin(), row.color_values.end());
    }
    // Deterministic beeswarm: points in order of value, each at the smallest offset
    // 0, +d, -d, +2d, ... that does not overlap a placed point within 2r horizontally; when
    // the row is full, a fixed pseudo-random offset (hash of the index).
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
      double offset = 0;
      bool found = false;
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
        if (clear) {
          offset = candidate;
          found = true;
          break;
        }
      }
      if (!found) {
        // SplitMix64 of the index: the same jitter on every run.
        std::uint64_t z = static_cast<std::uint64_t>(i) + 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        const double u = static_cast<double>(z >> 11) * 0x1.0p-53;
        offset = (2 * u - 1) * std::max(half, 0.0);
      }
      placed_x.push_back(px);
      placed_y.push_back(offset);
      std::string fill = kTotal;
      if (!row.color_values.empty()) {
        fill = ColorRamp(c_hi > c_lo ? (row.color_values[i] - c_lo) / (c_hi - c_lo) : 0.5);
      }
      svg.Circle(px, cy + offset, r, fill, opacity);
    }
  }
  if (any_color) {
    // Colour legend: a vertical ramp, "high" on top.
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
    svg.Text(lx, ly, c.color_label, "middle", kTickFont,
             " transform=\"rotate(90 " + Num(lx) + " " + Num(ly) + ")\"");
  }
  return svg.Finish();
}

// ---- histogram ----------------------------------------------------------------------------
std::string RenderSvg(const HistogramChart& c) {
  constexpr const char* kChart = "histogram";
  std::vector<double> pooled;
  for (const HistogramSeries& s : c.series) {
    CheckFinite(kChart, "series '" + s.name + "' values", s.values);
    pooled.insert(pooled.end(), s.values.begin(), s.values.end());
  }
  for (const HistogramMarker& m : c.markers) CheckFinite(kChart, "marker '" + m.label + "'", m.x);
  double lo = 0;
  double hi = 1;
  if (!pooled.empty()) {
    std::sort(pooled.begin(), pooled.end());
    lo = pooled.front();
    hi = pooled.back();
  }
  if (!(hi > lo)) {
    const double pad = lo == 0.0 ? 0.5 : std::fabs(lo) * 0.05;
    lo -= pad;
    hi += pad;
  }
  int bins = c.bins;
  if (bins <= 0) {
    // Freedman-Diaconis: width 2 IQR n^(-1/3), within 10..60 bins.
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
  }
  const double bin_w = (hi - lo) / bins;
  std::vector<std::vector<double>> heights;
  double y_hi = 0;
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
  double x_lo = lo;
  double x_hi = hi;
  for (const HistogramMarker& m : c.markers) {
    x_lo = std::min(x_lo, m.x);
    x_hi = std::max(x_hi, m.x);
  }
  const std::vector<double> xticks = NiceDomain(x_lo, x_hi);
  const std::vector<double> yticks = NiceDomain(0, y_hi > 0 ? y_hi * 1.05 : 1.0, 5);

  std::vector<LegendEntry> legend;
  const bool several = c.series.size() > 1;
  for (std::size_t k = 0; k < c.series.size(); ++k) {
    if (several && !c.series[k].name.empty()) {
      legend.push_back({c.series[k].name, kPalette[k % kPalette.size()], LegendEntry::kBox});
    }
  }
  std::vector<std::string> marker_colors;
  for (std::size_t k = 0; k < c.markers.size(); ++k) {
    marker_colors.push_back(k == 0 ? kInk : kPalette[(c.series.size() + k) % kPalette.size()]);
    legend.push_back({c.markers[k].label, marker_colors.back(), LegendEntry::kDashed});
  }

  const double width = FrameWidth(c.frame);
  const double height = FrameHeight(c.frame, 480);
  Area area;
  area.left = 20 + TickLabelWidth(yticks) + (c.frame.y_label.empty() ? 0 : 24);
  area.top = c.frame.title.empty() ? 20 : 48;
  area.right = width - 20 - LegendWidth(legend);
  area.bottom = height - 58;
  const Scale x{xticks.front(), xticks.back(), area.left, area.right};
  const Scale y{yticks.front(), yticks.back(), area.bottom, area.top};

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  DrawXAxis(svg, area, x, xticks, c.frame.x_label);
  DrawYAxis(svg, area, y, yticks,
            c.frame.y_label.empty() ? (c.density ? "density" : "count") : c.frame.y_label);
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
  // Markers: dashed lines, labelled in the legend.
  for (std::size_t k = 0; k < c.markers.size(); ++k) {
    const double mx = x(c.markers[k].x);
    svg.Line(mx, area.top, mx, area.bottom, marker_colors[k], 1.8, true);
  }
  DrawLegend(svg, area.right + 16, area.top + 10, legend);
  return svg.Finish();
}

// ---- box plots ----------------------------------------------------------------------------
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

std::string Hex(double r, double g, double b) {
  char buf[8];
  std::snprintf(buf, sizeof(buf), "#%02x%02x%02x", static_cast<int>(std::lround(r)), static_cast<int>(std::lround(g)),
                static_cast<int>(std::lround(b)));
  return buf;
}

std::string Viridis(double t) {
  t = std::clamp(t, 0.0, 1.0) * static_cast<double>(kViridis.size() - 1);
  const auto k = std::min(static_cast<std::size_t>(t), kViridis.size() - 2);
  const double f = t - static_cast<double>(k);
  const auto& a = kViridis[k];
  const auto& b = kViridis[k + 1];
  return Hex(a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f);
}

/// A label turned by `degrees` about its centre (x, y).
void DrawRotatedLabel(SvgWriter& svg, double x, double y, const std::string& label, int degrees) {
  svg.Text(x, y, label, "middle", kLabelFont,
           " transform=\"rotate(" + std::to_string(degrees) + " " + Num(x) + " " + Num(y) + ")\"");
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

std::string RenderSvg(const BoxChart& c) {
  constexpr const char* kChart = "box chart";
  const std::size_t series = std::max<std::size_t>(1, c.series_names.size());
  if (!c.series_colors.empty()) CheckSameLength(kChart, "series_colors", series, c.series_colors.size());
  const auto series_name = [&](std::size_t s) {
    return s < c.series_names.size() && !c.series_names[s].empty() ? "'" + c.series_names[s] + "'" : std::to_string(s);
  };
  double lo = std::numeric_limits<double>::infinity();
  double hi = -lo;
  // summaries[g][s]; an empty sample has none.
  std::vector<std::vector<std::vector<BoxSummary>>> summaries;
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
  Area area;
  area.left = 20 + TickLabelWidth(yticks) + (c.frame.y_label.empty() ? 0 : 24);
  area.top = c.frame.title.empty() ? 20 : 48;
  area.right = width - 20 - LegendWidth(legend);
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
    if (turned) {
      const double ly = area.bottom + 16;
      svg.Text(cx_group, ly, c.groups[g].label, "end", kLabelFont,
               " transform=\"rotate(-35 " + Num(cx_group) + " " + Num(ly) + ")\"");
    } else {
      svg.Text(cx_group, area.bottom + 19, c.groups[g].label, "middle", kLabelFont);
    }
    for (std::size_t s = 0; s < series; ++s) {
      if (summaries[g][s].empty()) continue;
      const BoxSummary& b = summaries[g][s].front();
      const double cx = slot_left + slot * 0.1 + step * (static_cast<double>(s) + 0.5);
      const std::string& color = colors[s];
      // Whiskers and caps, then the box over them, the median, the outliers.
      svg.Line(cx, y(b.q3), cx, y(b.whisker_high), kInk, 1.2);
      svg.Line(cx, y(b.q1), cx, y(b.whisker_low), kInk, 1.2);
      svg.Line(cx - box_w / 4, y(b.whisker_high), cx + box_w / 4, y(b.whisker_high), kInk, 1.2);
      svg.Line(cx - box_w / 4, y(b.whisker_low), cx + box_w / 4, y(b.whisker_low), kInk, 1.2);
      svg.Rect(cx - box_w / 2, y(b.q3), box_w, y(b.q1) - y(b.q3), color,
               " fill-opacity=\"0.45\" stroke=\"" + color + "\" stroke-width=\"1.5\"");
      svg.Line(cx - box_w / 2, y(b.median), cx + box_w / 2, y(b.median), kInk, 2);
      for (const double o : b.outliers) svg.Circle(cx, y(o), 2.5, color, 0.8);
    }
  }
  if (!c.frame.x_label.empty()) {
    svg.Text((area.left + area.right) / 2, area.bottom + 40 + label_drop, c.frame.x_label, "middle", kLabelFont);
  }
  DrawLegend(svg, area.right + 16, area.top + 10, legend);
  return svg.Finish();
}

// ---- heat map -----------------------------------------------------------------------------
std::string RenderSvg(const HeatmapChart& c) {
  constexpr const char* kChart = "heatmap";
  if (c.values.size() != c.rows * c.cols) {
    throw InvalidArgument(std::string(kChart) + ": values has " + std::to_string(c.values.size()) +
                          " values, expected rows x cols = " + std::to_string(c.rows) + " x " + std::to_string(c.cols));
  }
  bool any_missing = false;
  double v_lo = std::numeric_limits<double>::infinity();
  double v_hi = -v_lo;
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    const double v = c.values[i];
    if (std::isnan(v)) {
      any_missing = true;
    } else if (std::isinf(v)) {
      throw InvalidArgument(std::string(kChart) + ": values[" + std::to_string(i) + "] (row " +
                            std::to_string(i / c.cols) + ", column " + std::to_string(i % c.cols) +
                            ") is infinite; heat map cells are finite values or NaN (no value)");
    } else {
      v_lo = std::min(v_lo, v);
      v_hi = std::max(v_hi, v);
    }
  }
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
  double c_lo = v_lo;
  double c_hi = v_hi;
  if (c.fixed_color) {
    CheckFinite(kChart, "color_min", c.color_min);
    CheckFinite(kChart, "color_max", c.color_max);
    PERFSHAP_CHECK(c.color_max > c.color_min, "heatmap: color_max must exceed color_min");
    c_lo = c.color_min;
    c_hi = c.color_max;
  } else if (!(v_lo <= v_hi)) {  // no finite value
    c_lo = 0;
    c_hi = 1;
  } else if (!(v_hi > v_lo)) {  // one value: in the middle of a widened scale
    const double pad = v_lo == 0.0 ? 1.0 : std::fabs(v_lo) * 0.1;
    c_lo = v_lo - pad;
    c_hi = v_hi + pad;
  }
  // The plotted extent: the tiles' range, or the lattice's half a step beyond its end points.
  const auto extent = [&](double min, double max, std::size_t cells, double& lo, double& hi) {
    const double half = c.lattice && cells > 1 ? (max - min) / static_cast<double>(cells - 1) / 2 : 0.0;
    lo = min - half;
    hi = max + half;
  };
  double x_lo, x_hi, y_lo, y_hi;
  extent(c.x_min, c.x_max, c.cols, x_lo, x_hi);
  extent(c.y_min, c.y_max, c.rows, y_lo, y_hi);
  const std::vector<double> xticks = TicksWithin(x_lo, x_hi);
  const std::vector<double> yticks = TicksWithin(y_lo, y_hi);
  const std::vector<double> cticks = TicksWithin(c_lo, c_hi);
  const bool categories = !c.x_labels.empty() || !c.y_labels.empty();
  if (categories)
    PERFSHAP_CHECK(c.x_labels.size() == c.cols && c.y_labels.size() == c.rows,
                   "heatmap: " + std::to_string(c.x_labels.size()) + " column labels and " +
                       std::to_string(c.y_labels.size()) + " row labels for a grid of " + std::to_string(c.rows) +
                       " x " + std::to_string(c.cols));
  PERFSHAP_CHECK(c.cell_text.empty() || c.cell_text.size() == c.rows * c.cols,
                 "heatmap: cell_text has " + std::to_string(c.cell_text.size()) + " texts, expected rows x cols");
  double x_label_width = 0.0;
  double y_label_width = 0.0;
  for (const std::string& l : c.x_labels) x_label_width = std::max(x_label_width, TextWidth(l, kTickFont));
  for (const std::string& l : c.y_labels) y_label_width = std::max(y_label_width, TextWidth(l, kTickFont));

  const double width = FrameWidth(c.frame);
  const double bar_w = 16;
  const double right_margin = 20 + bar_w + 8 + TickLabelWidth(cticks) + (c.color_label.empty() ? 0 : 26) + 16;
  Area area;
  area.left = 20 + (categories ? y_label_width : TickLabelWidth(yticks)) + (c.frame.y_label.empty() ? 0 : 24);
  area.top = c.frame.title.empty() ? 20 : 48;
  area.right = width - right_margin;
  if (area.Width() < 80) area.right = area.left + 80;
  const double below = categories ? 16 + x_label_width + (c.frame.x_label.empty() ? 0 : 24) : 58;
  const double height = FrameHeight(c.frame, area.top + area.Width() + below);
  area.bottom = height - below;
  if (area.Height() < 80) area.bottom = area.top + 80;
  const Scale x{x_lo, x_hi, area.left, area.right};
  const Scale y{y_lo, y_hi, area.bottom, area.top};

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  if (categories) {
    // Each label at its cell's centre: the columns' written upwards below the plot.
    const double cw = area.Width() / static_cast<double>(std::max<std::size_t>(c.cols, 1));
    const double ch = area.Height() / static_cast<double>(std::max<std::size_t>(c.rows, 1));
    for (std::size_t k = 0; k < c.cols; ++k) {
      const double px = area.left + cw * (static_cast<double>(k) + 0.5) + 4;
      const double py = area.bottom + 8;
      svg.Text(px, py, c.x_labels[k], "end", kTickFont,
               " transform=\"rotate(-90 " + Num(px) + " " + Num(py) + ")\"");
    }
    for (std::size_t r = 0; r < c.rows; ++r)
      svg.Text(area.left - 6, area.bottom - ch * (static_cast<double>(r) + 0.5) + 4, c.y_labels[r], "end", kTickFont);
    if (!c.frame.x_label.empty())
      svg.Text((area.left + area.right) / 2, area.bottom + 16 + x_label_width + 14, c.frame.x_label, "middle",
               kLabelFont);
    if (!c.frame.y_label.empty()) DrawRotatedLabel(svg, 18, (area.top + area.bottom) / 2, c.frame.y_label, -90);
  } else {
    DrawXAxis(svg, area, x, xticks, c.frame.x_label);
    DrawYAxis(svg, area, y, yticks, c.frame.y_label);
  }
  // Cells over the grid lines, edge to edge; row 0 at the bottom.
  svg.Raw("<g shape-rendering=\"crispEdges\">\n");
  const double cell_w = (x_hi - x_lo) / static_cast<double>(std::max<std::size_t>(c.cols, 1));
  const double cell_h = (y_hi - y_lo) / static_cast<double>(std::max<std::size_t>(c.rows, 1));
  for (std::size_t r = 0; r < c.rows; ++r) {
    const double top = y(y_lo + cell_h * static_cast<double>(r + 1));
    const double bottom = y(y_lo + cell_h * static_cast<double>(r));
    for (std::size_t k = 0; k < c.cols; ++k) {
      const double v = c.values[r * c.cols + k];
      const double left = x(x_lo + cell_w * static_cast<double>(k));
      const double right = x(x_lo + cell_w * static_cast<double>(k + 1));
      svg.Rect(left, top, right - left, bottom - top, std::isnan(v) ? kNoValue : Viridis((v - c_lo) / (c_hi - c_lo)));
    }
  }
  svg.Raw("</g>\n");
  if (!c.cell_text.empty()) {
    for (std::size_t r = 0; r < c.rows; ++r)
      for (std::size_t k = 0; k < c.cols; ++k) {
        const std::string& text = c.cell_text[r * c.cols + k];
        if (text.empty()) continue;
        const double v = c.values[r * c.cols + k];
        // Viridis is dark below about 0.6 of its range: white text there, black above.
        const bool dark = std::isnan(v) || (v - c_lo) / (c_hi - c_lo) < 0.6;
        svg.Text(x(x_lo + cell_w * (static_cast<double>(k) + 0.5)), y(y_lo + cell_h * (static_cast<double>(r) + 0.5)) + 4,
                 text, "middle", kTickFont - 2, std::string(" fill=\"") + (dark ? "#ffffff" : kInk) + "\"");
      }
  }
  svg.Rect(area.left, area.top, area.Width(), area.Height(), "none",
           std::string(" stroke=\"") + kMuted + "\" stroke-width=\"1\"");
  if (c.marker && c.marker_x >= x_lo && c.marker_x <= x_hi && c.marker_y >= y_lo && c.marker_y <= y_hi) {
    for (const auto& [stroke, line] : {std::pair{"#ffffff", 3.5}, std::pair{kInk, 1.5}}) {
      svg.Raw("<circle cx=\"" + Num(x(c.marker_x)) + "\" cy=\"" + Num(y(c.marker_y)) +
              "\" r=\"6\" fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"" + Num(line) + "\"/>\n");
    }
  }

  // Colour bar: low at the bottom, ticks on its right, the label turned beside them.
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
  const Scale bar{c_lo, c_hi, bar_bottom, bar_top};
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
  const auto panel_name = [&](std::size_t p) {
    return "panel " + (c.panels[p].title.empty() ? std::to_string(p) : "'" + c.panels[p].title + "'");
  };
  // Totals per panel and bar; the panels' ranges [0, hi].
  std::vector<std::vector<double>> totals(n_panels);
  std::vector<double> panel_hi(n_panels, 0.0);
  std::size_t rows = 1;
  bool any_title = false;
  for (std::size_t p = 0; p < n_panels; ++p) {
    const StackedBarPanel& panel = c.panels[p];
    any_title = any_title || !panel.title.empty();
    rows = std::max(rows, panel.bars.size());
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
      totals[p].push_back(total);
      panel_hi[p] = std::max(panel_hi[p], total);
    }
  }
  double all_hi = 0;
  for (const double h : panel_hi) all_hi = std::max(all_hi, h);
  std::vector<std::vector<std::string>> texts(n_panels);
  for (std::size_t p = 0; p < n_panels; ++p) {
    for (const double t : totals[p]) texts[p].push_back(Fixed(t, c.decimals));
  }

  std::vector<LegendEntry> legend;
  for (std::size_t l = 0; l < layers; ++l) {
    if (!c.layer_names[l].empty()) legend.push_back({c.layer_names[l], kPalette[l % kPalette.size()], LegendEntry::kBox});
  }
  const double width = FrameWidth(c.frame);
  const double top = (c.frame.title.empty() ? 20 : 48) + (any_title ? 22 : 0);
  const double height = FrameHeight(c.frame, top + static_cast<double>(rows) * kRowHeight + 62);
  const double y_label_w = c.frame.y_label.empty() ? 0 : 22;
  const double legend_w = LegendWidth(legend);
  const double slots_left = 16 + y_label_w;
  const double slots_right = std::max(width - 8 - legend_w, slots_left + 1);
  const double slot = (slots_right - slots_left) / static_cast<double>(std::max<std::size_t>(n_panels, 1));
  double bottom = height - 62;
  if (bottom - top < 40) bottom = top + 40;
  const double row_h = (bottom - top) / static_cast<double>(rows);

  SvgWriter svg(width, height);
  DrawTitle(svg, c.frame, width);
  if (!c.frame.y_label.empty()) {
    const double lx = 20;
    const double ly = (top + bottom) / 2;
    svg.Text(lx, ly, c.frame.y_label, "middle", kLabelFont,
             " transform=\"rotate(-90 " + Num(lx) + " " + Num(ly) + ")\"");
  }
  // Per panel: the row labels on the left, the totals' room on the right, the plot between.
  std::vector<Area> areas(n_panels);
  double legend_x = slots_right;
  double narrowest = std::numeric_limits<double>::infinity();
  for (std::size_t p = 0; p < n_panels; ++p) {
    std::vector<std::string> labels;
    for (const StackedBar& bar : c.panels[p].bars) labels.push_back(bar.label);
    double value_width = 0;
    for (const std::string& t : texts[p]) value_width = std::max(value_width, TextWidth(t, kLabelFont));
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
  // About one tick step per 45 px of the narrowest plot (2..6), the same for every panel.
  const int tick_target = std::clamp(static_cast<int>(narrowest / 45), 2, 6);
  for (std::size_t p = 0; p < n_panels; ++p) {
    const StackedBarPanel& panel = c.panels[p];
    const Area& area = areas[p];
    const double hi = c.shared_axis ? all_hi : panel_hi[p];
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
      svg.Text(x(totals[p][b]) + 6, cy + 4.5, texts[p][b], "start", kLabelFont);
    }
    svg.Line(x(0), area.top, x(0), area.bottom, kInk, 1.2);
  }
  DrawLegend(svg, std::min(legend_x, width - legend_w) + 8, top + 10, legend);
  return svg.Finish();
}

}  // namespace perfshap::detail
