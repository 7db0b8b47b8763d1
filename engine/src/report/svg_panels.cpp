// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/svg_panels.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "perfshap/error.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

// The numeric value of attribute `name` in the tag `tag`.
double Attribute(const std::string& tag, const std::string& name, std::size_t panel) {
  const std::string key = " " + name + "=\"";
  const auto at = tag.find(key);
  if (at == std::string::npos)
    throw InvalidArgument("SVG panel " + std::to_string(panel) + ": the root <svg> has no " + name + " attribute");
  const char* start = tag.c_str() + at + key.size();
  char* end = nullptr;
  const double v = std::strtod(start, &end);
  if (end == start || *end != '"' || !(v > 0))
    throw InvalidArgument("SVG panel " + std::to_string(panel) + ": the root " + name + " is not a positive number");
  return v;
}

std::string Px(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string ComposeSvgPanels(const std::vector<std::string>& panels, int columns, const std::string& title) {
  if (panels.empty()) throw InvalidArgument("SVG panels: no panel to lay out");
  if (columns < 1) throw InvalidArgument("SVG panels: need at least one column");
  const auto cols = static_cast<std::size_t>(columns);
  const std::size_t rows = (panels.size() + cols - 1) / cols;
  struct Body {
    std::string text;  // the panel from its root <svg (the XML declaration removed)
    double width = 0;
    double height = 0;
  };
  std::vector<Body> bodies;
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const auto root = panels[p].find("<svg");
    if (root == std::string::npos)
      throw InvalidArgument("SVG panel " + std::to_string(p) + ": no root <svg> element");
    const auto close = panels[p].find('>', root);
    if (close == std::string::npos) throw InvalidArgument("SVG panel " + std::to_string(p) + ": unterminated <svg> tag");
    const std::string tag = panels[p].substr(root, close - root);
    bodies.push_back({panels[p].substr(root), Attribute(tag, "width", p), Attribute(tag, "height", p)});
  }
  std::vector<double> col_w(cols, 0.0);
  std::vector<double> row_h(rows, 0.0);
  for (std::size_t p = 0; p < bodies.size(); ++p) {
    col_w[p % cols] = std::max(col_w[p % cols], bodies[p].width);
    row_h[p / cols] = std::max(row_h[p / cols], bodies[p].height);
  }
  const double top = title.empty() ? 0.0 : 40.0;
  double width = 0;
  double height = top;
  for (double w : col_w) width += w;
  for (double h : row_h) height += h;

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + Px(width) + "\" height=\"" +
         Px(height) + "\" viewBox=\"0 0 " + Px(width) + " " + Px(height) +
         "\" font-family=\"Helvetica, Arial, 'DejaVu Sans', sans-serif\">\n";
  out += "<rect x=\"0\" y=\"0\" width=\"" + Px(width) + "\" height=\"" + Px(height) + "\" fill=\"#ffffff\"/>\n";
  if (!title.empty())
    out += "<text x=\"" + Px(width / 2) + "\" y=\"27\" text-anchor=\"middle\" font-size=\"18\" font-weight=\"bold\">" +
           EscapeXml(title) + "</text>\n";
  double y = top;
  for (std::size_t r = 0; r < rows; ++r) {
    double x = 0;
    for (std::size_t c = 0; c < cols && r * cols + c < bodies.size(); ++c) {
      const Body& b = bodies[r * cols + c];
      // Nested <svg>: its own viewport at (x, y); the xmlns of the inner root is redundant
      // but harmless.
      out += "<svg x=\"" + Px(x) + "\" y=\"" + Px(y) + "\"" + b.text.substr(4);
      if (out.back() != '\n') out += '\n';
      x += col_w[c];
    }
    y += row_h[r];
  }
  out += "</svg>\n";
  return out;
}

std::string RenderSvg(const Chart& chart) {
  return std::visit(
      [](const auto& spec) -> std::string {
        using Spec = std::decay_t<decltype(spec)>;
        if constexpr (std::is_same_v<Spec, PanelGrid>) {
          std::vector<std::string> panels;
          panels.reserve(spec.panels.size());
          for (const Chart& panel : spec.panels) panels.push_back(RenderSvg(panel));
          return ComposeSvgPanels(panels, spec.columns, spec.title);
        } else {
          return RenderSvg(spec);
        }
      },
      chart.spec);
}
}}}  // namespace perfshap::detail
