// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The curve grids' options (perfshap/blocks/curves.hpp): the default grids, and the text forms
// of the curve points and the grid strategy that front ends parse and print.
#include "perfshap/blocks/curves.hpp"

#include <charconv>
#include <string>
#include <system_error>
#include <vector>

#include "common/enum_names.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {

std::vector<double> DefaultCurveGrid(CurveMode mode, int points) {
  PERFSHAP_CHECK(points >= 2, "DefaultCurveGrid: points = " + std::to_string(points) +
                                  " is below 2; a grid needs at least the ends 0 and 1");
  const auto n = static_cast<std::size_t>(points);
  std::vector<double> grid(n);
  const double last = static_cast<double>(points - 1);
  if (mode == CurveMode::kThresholds) {
    // numpy arange(0, 1 + step, step) fills start + j * step: for step = 0.01 this is j * 0.01,
    // and 1.0 / 100 is the same double as the literal 0.01.
    const double step = 1.0 / last;
    for (std::size_t j = 0; j + 1 < n; ++j) grid[j] = static_cast<double>(j) * step;
  } else {
    for (std::size_t j = 0; j + 1 < n; ++j) grid[j] = static_cast<double>(j) / last;
  }
  grid[n - 1] = 1.0;
  return grid;
}

void ParseCurvePoints(std::string_view text, CurveGridOptions& options) {
  const auto fail = [&]() {
    throw InvalidArgument("the curve points '" + std::string(text) +
                              "' are not understood; use 'exact', 'thresholds' or 'thresholds:T' "
                              "with an integer T >= 2 (the authors' scripts use thresholds:101)",
                          {"curves"});
  };
  if (text == "exact") {
    options.mode = CurveMode::kExact;
    return;
  }
  constexpr std::string_view kPrefix = "thresholds";
  if (text.substr(0, kPrefix.size()) != kPrefix) fail();
  std::string_view rest = text.substr(kPrefix.size());
  int t = 101;
  if (!rest.empty()) {
    if (rest.front() != ':') fail();
    rest.remove_prefix(1);
    const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), t);
    if (ec != std::errc() || ptr != rest.data() + rest.size() || t < 2 || t > 1000000) fail();
  }
  options.mode = CurveMode::kThresholds;
  options.thresholds = t;
}

namespace {

constexpr detail::EnumName<GridStrategy> kGridStrategyNames[] = {{GridStrategy::kOptimistic, "optimistic"},
                                                                 {GridStrategy::kPessimistic, "pessimistic"},
                                                                 {GridStrategy::kInterpolation, "interpolation"}};

}  // namespace

GridStrategy ParseGridStrategy(std::string_view text) {
  if (const auto strategy = detail::ValueOf(kGridStrategyNames, text)) return *strategy;
  throw InvalidArgument("the grid strategy '" + std::string(text) +
                            "' is not understood; use optimistic, pessimistic or interpolation",
                        {"strategy"});
}

std::string CurvePointsName(const CurveGridOptions& options) {
  if (options.mode == CurveMode::kExact) return "exact";
  return "thresholds:" + std::to_string(options.thresholds);
}

const char* GridStrategyName(GridStrategy strategy) {
  return detail::NameOf(kGridStrategyNames, strategy, "interpolation");
}

}}  // namespace perfshap
