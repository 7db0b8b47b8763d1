// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/svg.hpp"

// The text and tick helpers of svg.hpp; the charts are in svg_bars.cpp, svg_curves.cpp,
// svg_beeswarm.cpp, svg_box.cpp and svg_heatmap.cpp, over the primitives of svg_canvas.cpp.

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

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

}}}  // namespace perfshap::detail
