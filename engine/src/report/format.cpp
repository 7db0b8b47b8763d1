// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/format.hpp"

#include <cstdio>

namespace perfshap { inline namespace v0 { namespace detail {

std::string Fmt(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string PadRight(std::string text, std::size_t width, std::size_t min_gap) {
  const std::size_t target = text.size() + min_gap > width ? text.size() + min_gap : width;
  text.append(target - text.size(), ' ');
  return text;
}

std::string MeanStdCell(double mean, double std, int decimals, bool sign) {
  char buf[96];
  std::snprintf(buf, sizeof buf, sign ? "%+.*f +- %.*f" : "%.*f +- %.*f", decimals, mean, decimals, std);
  return buf;
}

std::string BandCell(double mean, double std, std::size_t n_splits, bool sign) {
  return n_splits > 1 ? MeanStdCell(mean, std, 4, sign) : Fmt(sign ? "%+.6f" : "%.6f", mean);
}

}}}  // namespace perfshap::detail
