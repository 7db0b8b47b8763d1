// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/figure_bounds.hpp"

#include <algorithm>
#include <cmath>

namespace perfshap { inline namespace v0 { namespace detail {

std::vector<std::size_t> RowsShown(std::size_t n, std::size_t max) {
  const std::size_t m = std::min(n, max);
  std::vector<std::size_t> rows(m);
  // floor(k n / m) in integers: exact, distinct (n / m >= 1) and the same on every machine;
  // as k q + floor(k rem / m) with n = q m + rem, so that no product overflows (k rem < m^2).
  if (m == 0) return rows;
  const std::size_t q = n / m;
  const std::size_t rem = n % m;
  for (std::size_t k = 0; k < m; ++k) rows[k] = k * q + k * rem / m;
  return rows;
}

std::string WithThousands(std::size_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string RowsShownNote(std::size_t shown, std::size_t total, const std::string& unit) {
  if (shown >= total) return "";
  return "; " + WithThousands(shown) + " of " + WithThousands(total) + " " + unit + " shown (evenly spaced)";
}

std::size_t FeaturesShown(std::size_t n) { return n <= kMaxFeaturesShown + 1 ? n : kMaxFeaturesShown; }

std::string OtherFeaturesLabel(std::size_t n_other) {
  return std::to_string(n_other) + (n_other == 1 ? " other feature" : " other features");
}

std::vector<StripRow> BoundedStripRows(const std::vector<std::size_t>& order,
                                       const std::vector<std::size_t>& rows,
                                       const std::vector<std::string>& labels,
                                       const std::function<double(std::size_t, std::size_t)>& value,
                                       const std::function<double(std::size_t, std::size_t)>& colour) {
  const std::size_t shown = FeaturesShown(order.size());
  std::vector<StripRow> strip;
  strip.reserve(shown + 1);
  for (std::size_t k = 0; k < shown; ++k) {
    const std::size_t j = order[k];
    StripRow row;
    row.label = labels[j];
    row.values.reserve(rows.size());
    row.color_values.reserve(rows.size());
    bool coloured = static_cast<bool>(colour);
    for (const std::size_t r : rows) {
      row.values.push_back(value(r, j));
      if (coloured) {
        const double c = colour(r, j);
        coloured = std::isfinite(c);
        row.color_values.push_back(c);
      }
    }
    if (!coloured) row.color_values.clear();
    strip.push_back(std::move(row));
  }
  if (shown < order.size()) {
    StripRow other;
    other.label = OtherFeaturesLabel(order.size() - shown);
    other.values.assign(rows.size(), 0.0);
    // Summed feature by feature in the order of importance: the same sum on every run.
    for (std::size_t k = shown; k < order.size(); ++k)
      for (std::size_t i = 0; i < rows.size(); ++i) other.values[i] += value(rows[i], order[k]);
    strip.push_back(std::move(other));
  }
  return strip;
}

void BoundWaterfall(WaterfallChart& chart) {
  const std::size_t n = chart.contributions.size();
  const std::size_t shown = FeaturesShown(n);
  if (shown == n) return;
  double rest = 0.0;
  for (std::size_t k = shown; k < n; ++k) rest += chart.contributions[k];
  chart.labels.resize(shown);
  chart.contributions.resize(shown);
  chart.labels.push_back(OtherFeaturesLabel(n - shown));
  chart.contributions.push_back(rest);
  if (!chart.stds.empty()) {
    chart.stds.resize(shown);
    chart.stds.push_back(0.0);
  }
}

}}}  // namespace perfshap::detail
