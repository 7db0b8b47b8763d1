// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The SVG chart writer (engine/src/report/svg.hpp): well-formed XML, finite coordinates, the
// labels and legend entries present and escaped, deterministic bytes, clear errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

/// Checks that every tag is closed in order, text holds no raw '<' or stray '&', and every
/// geometric attribute is a finite number. Returns the element names seen (multiset as counts).
struct XmlStats {
  std::size_t elements = 0;
  std::size_t circles = 0;
  std::size_t rects = 0;
  std::size_t texts = 0;
};

bool IsEntity(const std::string& s, std::size_t amp) {
  for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"}) {
    if (s.compare(amp, std::char_traits<char>::length(e), e) == 0) return true;
  }
  return false;
}

void CheckNumber(const std::string& value, const std::string& context) {
  const char* begin = value.c_str();
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  EXPECT_TRUE(end != begin && *end == '\0' && std::isfinite(v))
      << "attribute value '" << value << "' in " << context;
}

XmlStats CheckWellFormed(const std::string& svg) {
  static const std::set<std::string> kNumeric = {
      "x",  "y", "x1",    "y1",     "x2",           "y2",        "cx",
      "cy", "r", "width", "height", "stroke-width", "font-size", "fill-opacity"};
  XmlStats stats;
  std::vector<std::string> stack;
  std::size_t i = 0;
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  while (i < svg.size()) {
    if (svg[i] != '<') {
      // Character data: no raw '<' (we are outside a tag) and every '&' starts an entity.
      if (svg[i] == '&') {
        EXPECT_TRUE(IsEntity(svg, i)) << svg.substr(i, 20);
      }
      if (svg[i] == '>') {
        ADD_FAILURE() << "raw '>' in text near " << svg.substr(i, 30);
      }
      ++i;
      continue;
    }
    const std::size_t close = svg.find('>', i);
    if (close == std::string::npos) {
      ADD_FAILURE() << "unterminated tag at " << i;
      break;
    }
    std::string tag = svg.substr(i + 1, close - i - 1);
    i = close + 1;
    if (tag.rfind("?", 0) == 0) continue;
    if (tag.rfind("/", 0) == 0) {
      const std::string name = tag.substr(1);
      if (stack.empty() || stack.back() != name) {
        ADD_FAILURE() << "closing </" << name << "> does not match <"
                      << (stack.empty() ? std::string("none") : stack.back()) << ">";
        return stats;
      }
      stack.pop_back();
      continue;
    }
    const bool self_closing = !tag.empty() && tag.back() == '/';
    if (self_closing) tag.pop_back();
    const std::size_t name_end = tag.find_first_of(" \n");
    const std::string name = tag.substr(0, name_end);
    ++stats.elements;
    stats.circles += name == "circle";
    stats.rects += name == "rect";
    stats.texts += name == "text";
    // Attributes: name="value" pairs; quotes balanced; numeric ones finite.
    std::size_t a = name_end;
    while (a != std::string::npos && a < tag.size()) {
      const std::size_t eq = tag.find("=\"", a);
      if (eq == std::string::npos) break;
      const std::size_t attr_begin = tag.find_last_of(' ', eq) + 1;
      const std::string attr = tag.substr(attr_begin, eq - attr_begin);
      const std::size_t end_quote = tag.find('"', eq + 2);
      EXPECT_NE(end_quote, std::string::npos) << tag;
      if (end_quote == std::string::npos) break;
      const std::string value = tag.substr(eq + 2, end_quote - eq - 2);
      EXPECT_EQ(value.find('<'), std::string::npos) << tag;
      if (kNumeric.count(attr) != 0) CheckNumber(value, name);
      if (attr == "points") {
        std::string token;
        for (const char ch : value + " ") {
          if (ch == ' ' || ch == ',') {
            if (!token.empty()) CheckNumber(token, name + " points");
            token.clear();
          } else {
            token += ch;
          }
        }
      }
      a = end_quote + 1;
    }
    if (!self_closing) stack.push_back(name);
  }
  EXPECT_TRUE(stack.empty()) << "unclosed <" << (stack.empty() ? "" : stack.back()) << ">";
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  return stats;
}

WaterfallChart SampleWaterfall() {
  WaterfallChart c;
  c.frame.title = "ShapAUC: contributions to the AUC";
  c.frame.x_label = "AUC";
  c.start_label = "random classifier";
  c.start_value = 0.5;
  c.labels = {"variance", "skewness", "curtosis", "entropy"};
  c.contributions = {0.2683503365, 0.1568133974, 0.018683202, -0.0051121847};
  c.stds = {0.012, 0.009, 0.004, 0.003};
  c.end_label = "AUC";
  c.end_value = 0.9387347512;
  c.end_std = 0.01;
  return c;
}

LineChart SampleLines() {
  LineChart c;
  c.frame.title = "ROC curve <mean \u00b1 std>";
  c.frame.x_label = "false positive rate";
  c.frame.y_label = "true positive rate";
  c.fixed_x = c.fixed_y = true;
  LineSeries roc{"ROC (mean)", {}, {}, {}, false, ""};
  LineSeries diagonal{"random classifier", {0, 1}, {0, 1}, {}, true, "#7f7f7f"};
  for (int j = 0; j <= 100; ++j) {
    const double f = j / 100.0;
    roc.x.push_back(f);
    roc.y.push_back(std::pow(f, 0.2));
    roc.std.push_back(0.05 * std::sin(3.0 * f) * std::sin(3.0 * f));
  }
  c.series = {roc, diagonal};
  c.x_markers = {0.2};
  return c;
}

TEST(Svg, NiceTicksUseRoundSteps) {
  EXPECT_EQ(NiceTicks(0, 1), (std::vector<double>{0, 0.2, 0.4, 0.6000000000000001, 0.8, 1}));
  const std::vector<double> t = NiceTicks(-0.013, 0.27);
  EXPECT_LE(t.front(), -0.013);
  EXPECT_GE(t.back(), 0.27);
  EXPECT_NEAR(t[1] - t[0], 0.05, 1e-15);
  const std::vector<double> big = NiceTicks(3, 2232);
  EXPECT_NEAR(big[1] - big[0], 500, 1e-9);
  const std::vector<double> flat = NiceTicks(0.5, 0.5);  // widened
  EXPECT_LT(flat.front(), 0.5);
  EXPECT_GT(flat.back(), 0.5);
  EXPECT_GE(NiceTicks(0, 0).size(), 2u);
}

TEST(Svg, EscapesText) {
  EXPECT_EQ(EscapeXml("a<b & \"c\" 'd' >"), "a&lt;b &amp; &quot;c&quot; &#39;d&#39; &gt;");
  EXPECT_EQ(EscapeXml(std::string("x\x01y")), "x?y");
}

TEST(Svg, WaterfallIsWellFormedAndLabelled) {
  WaterfallChart c = SampleWaterfall();
  c.labels[3] = "entropy <&> \"x\"";
  const std::string svg = RenderSvg(c);
  const XmlStats stats = CheckWellFormed(svg);
  EXPECT_GE(stats.rects, 7u);  // background + 6 bars
  for (const char* s :
       {"ShapAUC: contributions to the AUC", ">AUC<", "random classifier", "variance", "+0.2684", "-0.0051",
        "0.5000", "0.9387", "entropy &lt;&amp;&gt; &quot;x&quot;", "\u00b1 0.0120"}) {
    EXPECT_NE(svg.find(s), std::string::npos) << s;
  }
  EXPECT_EQ(svg, RenderSvg(c));  // deterministic
}

TEST(Svg, LineChartHasBandsLegendAndAxisLabels) {
  const LineChart c = SampleLines();
  const std::string svg = RenderSvg(c);
  CheckWellFormed(svg);
  for (const char* s : {"false positive rate", "true positive rate", "ROC (mean)", "random classifier",
                        "ROC curve &lt;mean \u00b1 std&gt;", "<polygon", "stroke-dasharray", ">0.20<"}) {
    EXPECT_NE(svg.find(s), std::string::npos) << s;
  }
  EXPECT_EQ(svg, RenderSvg(c));
}

TEST(Svg, BarChartHasWhiskersAndValues) {
  BarChart c;
  c.frame.title = "Normalised XPER values";
  c.frame.x_label = "share of AUC - benchmark";
  c.labels = {"x1", "x2", "a much longer feature name"};
  c.values = {0.61, 0.45, -0.06};
  c.stds = {0.05, 0.0, 0.02};
  const std::string svg = RenderSvg(c);
  CheckWellFormed(svg);
  for (const char* s : {"Normalised XPER values", "share of AUC - benchmark", "a much longer feature name",
                        "0.6100 \u00b1 0.0500", ">0.4500<", "-0.0600 \u00b1 0.0200"}) {
    EXPECT_NE(svg.find(s), std::string::npos) << s;
  }
}

TEST(Svg, StripChartDrawsEveryPointDeterministically) {
  StripChart c;
  c.frame.title = "Individual XPER values";
  c.frame.x_label = "contribution";
  c.color_label = "feature value";
  std::size_t points = 0;
  for (int f = 0; f < 4; ++f) {
    StripRow row;
    row.label = "feature " + std::to_string(f);
    for (int i = 0; i < 700; ++i) {
      const double u = static_cast<double>((i * 7919 + f * 13) % 1000) / 1000.0;
      row.values.push_back((u - 0.5) * (f + 1) * 0.01 + (i % 3 == 0 ? 0.0 : 0.001 * f));
      row.color_values.push_back(u);
    }
    points += row.values.size();
    c.rows.push_back(row);
  }
  const std::string svg = RenderSvg(c);
  const XmlStats stats = CheckWellFormed(svg);
  EXPECT_EQ(stats.circles, points);
  for (const char* s :
       {"feature 0", "feature 3", "high", "low", "feature value", "contribution", "linearGradient"}) {
    EXPECT_NE(svg.find(s), std::string::npos) << s;
  }
  EXPECT_EQ(svg, RenderSvg(c));
}

TEST(Svg, HistogramBinsEveryValueAndShowsMarkers) {
  HistogramChart c;
  c.frame.title = "AUC over 5000 samples";
  c.frame.x_label = "AUC";
  HistogramSeries s{"AUC", {}};
  for (int i = 0; i < 5000; ++i) {
    s.values.push_back(0.8 + 0.05 * std::sin(i * 0.37) * std::cos(i * 0.11));
  }
  c.series = {s, HistogramSeries{"phi_0", {0.5, 0.51, 0.52}}};
  c.markers = {{"mean", 0.8}, {"paper", 0.82}};
  c.bins = 30;
  const std::string svg = RenderSvg(c);
  CheckWellFormed(svg);
  for (const char* s2 : {"AUC over 5000 samples", ">count<", ">mean<", ">paper<", ">phi_0<"}) {
    EXPECT_NE(svg.find(s2), std::string::npos) << s2;
  }
  // One value only, automatic bins: still a valid chart.
  HistogramChart one;
  one.series = {HistogramSeries{"x", {3.0}}};
  CheckWellFormed(RenderSvg(one));
}

TEST(Svg, RejectsNonFiniteValuesAndLengthMismatch) {
  WaterfallChart w = SampleWaterfall();
  w.contributions[1] = std::nan("");
  try {
    RenderSvg(w);
    ADD_FAILURE() << "no error";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("contributions[1]"), std::string::npos) << e.what();
  }
  w = SampleWaterfall();
  w.stds.pop_back();
  EXPECT_THROW(RenderSvg(w), InvalidArgument);
  LineChart l = SampleLines();
  l.series[0].y[5] = INFINITY;
  EXPECT_THROW(RenderSvg(l), InvalidArgument);
  l = SampleLines();
  l.series[0].std.pop_back();
  EXPECT_THROW(RenderSvg(l), InvalidArgument);
  BarChart b;
  b.labels = {"a"};
  b.values = {1.0, 2.0};
  EXPECT_THROW(RenderSvg(b), InvalidArgument);
  StripChart st;
  st.rows = {StripRow{"a", {1.0, 2.0}, {1.0}}};
  EXPECT_THROW(RenderSvg(st), InvalidArgument);
  HistogramChart h;
  h.series = {HistogramSeries{"a", {1.0, std::nan("")}}};
  EXPECT_THROW(RenderSvg(h), InvalidArgument);
}

TEST(Svg, EmptyInputsStillGiveValidDocuments) {
  CheckWellFormed(RenderSvg(LineChart{}));
  CheckWellFormed(RenderSvg(BarChart{}));
  CheckWellFormed(RenderSvg(StripChart{}));
  CheckWellFormed(RenderSvg(HistogramChart{}));
  WaterfallChart w;
  w.end_value = 0.0;
  CheckWellFormed(RenderSvg(w));
}

}  // namespace
}}}  // namespace perfshap::detail
