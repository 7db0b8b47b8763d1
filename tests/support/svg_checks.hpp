// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Structural checks of the SVG documents the report layer writes, shared by the chart tests.

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace perfshap { inline namespace v0 { namespace testing {

/// Counts of the elements of a document that is well-formed as far as these charts go: tags
/// closed in order, text without a raw '<' or '>' or a stray '&', every geometric attribute a
/// finite number, no "nan" or "inf" anywhere.
inline std::map<std::string, std::size_t> CheckDocument(const std::string& svg) {
  static const std::set<std::string> kNumeric = {
      "x", "y",     "x1",     "y1",     "x2",        "y2",           "cx",          "cy",
      "r", "width", "height", "offset", "font-size", "stroke-width", "fill-opacity"};
  std::map<std::string, std::size_t> counts;
  std::vector<std::string> open;
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  std::size_t i = 0;
  while (i < svg.size()) {
    if (svg[i] != '<') {
      if (svg[i] == '>') ADD_FAILURE() << "raw '>' near " << svg.substr(i, 30);
      if (svg[i] == '&') {
        const std::size_t semi = svg.find(';', i);
        const std::string entity = svg.substr(i, semi == std::string::npos ? 1 : semi - i + 1);
        EXPECT_TRUE(entity == "&amp;" || entity == "&lt;" || entity == "&gt;" || entity == "&quot;" ||
                    entity == "&#39;")
            << entity;
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
    if (tag[0] == '?') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) {
        ADD_FAILURE() << "</" << tag.substr(1) << "> closes <" << (open.empty() ? "nothing" : open.back())
                      << ">";
        return counts;
      }
      open.pop_back();
      continue;
    }
    const bool empty = tag.back() == '/';
    if (empty) tag.pop_back();
    const std::string name = tag.substr(0, tag.find(' '));
    ++counts[name];
    static const std::regex attribute(R"re(([a-z-]+)="([^"<]*)")re");
    for (std::sregex_iterator it(tag.begin(), tag.end(), attribute), end; it != end; ++it) {
      if (kNumeric.count((*it)[1]) == 0) continue;
      const std::string value = (*it)[2];
      char* stop = nullptr;
      const double v = std::strtod(value.c_str(), &stop);
      EXPECT_TRUE(stop != value.c_str() && *stop == '\0' && std::isfinite(v))
          << name << " " << (*it)[1] << "=\"" << value << "\"";
    }
    if (!empty) open.push_back(name);
  }
  EXPECT_TRUE(open.empty()) << "unclosed <" << (open.empty() ? "" : open.back()) << ">";
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  return counts;
}

}}}  // namespace perfshap::testing
