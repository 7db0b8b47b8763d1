// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The drawing primitives the charts of svg.hpp share (declared in svg_internal.hpp).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "report/svg_internal.hpp"

namespace perfshap { inline namespace v0 { namespace detail::svg_canvas {

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

std::string Fixed(double v, int decimals, bool sign) {
  const double unit = std::pow(10.0, -decimals);
  if (std::fabs(v) < unit / 2) v = 0.0;
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed, decimals);
  std::string s(buf, res.ptr);
  if (sign && v >= 0.0) s.insert(s.begin(), '+');
  return s;
}

int TickDecimals(double step) {
  int decimals = std::max(0, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
  while (decimals < 12) {
    const double scaled = step * std::pow(10.0, decimals);
    if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) break;
    ++decimals;
  }
  return decimals;
}

double TextWidth(const std::string& s, double font) {
  std::size_t glyphs = 0;
  for (const char ch : s) glyphs += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return 0.58 * font * static_cast<double>(glyphs);
}

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

double WidestText(const std::vector<std::string>& texts, double font) {
  double w = 0;
  for (const std::string& s : texts) w = std::max(w, TextWidth(s, font));
  return w;
}

SvgWriter::SvgWriter(double width, double height) {
  out_.reserve(16384);
  out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out_ += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + Num(width) +
          "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(width) + " " + Num(height) +
          "\" font-family=\"Helvetica, Arial, 'DejaVu Sans', sans-serif\" font-size=\"" + Num(kLabelFont) +
          "\" fill=\"" + kInk + "\">\n";
  out_ += "<rect x=\"0\" y=\"0\" width=\"" + Num(width) + "\" height=\"" + Num(height) +
          "\" fill=\"#ffffff\"/>\n";
}

void SvgWriter::Rect(double x, double y, double w, double h, const std::string& fill, const std::string& extra) {
  out_ += "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(std::max(w, 0.0)) +
          "\" height=\"" + Num(std::max(h, 0.0)) + "\" fill=\"" + fill + "\"" + extra + "/>\n";
}

void SvgWriter::Line(double x1, double y1, double x2, double y2, const std::string& stroke, double width,
                     bool dashed) {
  out_ += "<line x1=\"" + Num(x1) + "\" y1=\"" + Num(y1) + "\" x2=\"" + Num(x2) + "\" y2=\"" + Num(y2) +
          "\" stroke=\"" + stroke + "\" stroke-width=\"" + Num(width) + "\"" +
          (dashed ? " stroke-dasharray=\"5 4\"" : "") + "/>\n";
}

void SvgWriter::Text(double x, double y, const std::string& text, const char* anchor, double size,
                     const std::string& extra) {
  out_ += "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" text-anchor=\"" + anchor + "\" font-size=\"" +
          Num(size) + "\"" + extra + ">" + EscapeXml(text) + "</text>\n";
}

void SvgWriter::Polyline(const std::vector<double>& xs, const std::vector<double>& ys, const std::string& stroke,
                         double width, bool dashed, const std::string& extra) {
  out_ += "<polyline fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"" + Num(width) +
          "\" stroke-linejoin=\"round\"" + (dashed ? " stroke-dasharray=\"6 4\"" : "") + extra +
          " points=\"";
  AppendPoints(xs, ys);
  out_ += "\"/>\n";
}

void SvgWriter::Polygon(const std::vector<double>& xs, const std::vector<double>& ys, const std::string& fill,
                        double opacity, const std::string& extra) {
  out_ += "<polygon fill=\"" + fill + "\" fill-opacity=\"" + Num(opacity) + "\" stroke=\"none\"" + extra +
          " points=\"";
  AppendPoints(xs, ys);
  out_ += "\"/>\n";
}

void SvgWriter::Circle(double cx, double cy, double r, const std::string& fill, double opacity) {
  out_ += "<circle cx=\"" + Num(cx) + "\" cy=\"" + Num(cy) + "\" r=\"" + Num(r) + "\" fill=\"" + fill +
          "\" fill-opacity=\"" + Num(opacity) + "\"/>\n";
}

void SvgWriter::AppendPoints(const std::vector<double>& xs, const std::vector<double>& ys) {
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i > 0) out_ += ' ';
    out_ += Num(xs[i]);
    out_ += ',';
    out_ += Num(ys[i]);
  }
}

void DrawTitle(SvgWriter& svg, const SvgFrame& frame, double width) {
  if (!frame.title.empty()) {
    svg.Text(width / 2, 26, frame.title, "middle", kTitleFont, " font-weight=\"bold\"");
  }
}

void DrawRotatedLabel(SvgWriter& svg, double x, double y, const std::string& label, int degrees) {
  svg.Text(x, y, label, "middle", kLabelFont,
           " transform=\"rotate(" + std::to_string(degrees) + " " + Num(x) + " " + Num(y) + ")\"");
}

std::vector<double> TicksWithin(double lo, double hi, int target) {
  std::vector<double> ticks = NiceTicks(lo, hi, target);
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0;
  std::vector<double> inside;
  for (const double t : ticks) {
    if (t >= lo - step * 1e-9 && t <= hi + step * 1e-9) inside.push_back(t);
  }
  return inside;
}

double TickStep(const std::vector<double>& ticks) { return ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0; }

double TickLabelWidth(const std::vector<double>& ticks) {
  const int decimals = TickDecimals(TickStep(ticks));
  double w = 0;
  for (const double t : ticks) w = std::max(w, TextWidth(Fixed(t, decimals), kTickFont));
  return w;
}

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
    DrawRotatedLabel(svg, lx, ly, label, -90);
  }
}

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

std::vector<double> NiceDomain(double lo, double hi, int target) { return NiceTicks(lo, hi, target); }

double RowLabelWidth(const std::vector<std::string>& labels) { return WidestText(labels, kLabelFont); }

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

Area LegendPlotArea(const SvgFrame& frame, double width, double height, const std::vector<double>& yticks,
                    const std::vector<LegendEntry>& legend) {
  Area area;
  area.left = 20 + TickLabelWidth(yticks) + (frame.y_label.empty() ? 0 : 24);
  area.top = frame.title.empty() ? 20 : 48;
  area.right = width - 20 - LegendWidth(legend);
  area.bottom = height - 58;
  return area;
}

}}}  // namespace perfshap::detail::svg_canvas
