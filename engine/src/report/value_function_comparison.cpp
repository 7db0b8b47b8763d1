// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/value_function_comparison.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <sstream>

#include "report/csv.hpp"
#include "report/format.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

// The players by decreasing conditional value (the figure's and the table's order).
std::vector<std::size_t> ByConditional(const ValueFunctionComparison& c) {
  return ValueFunctionComparison::Order(c.conditional_phi);
}

Chart ComparisonFigure(const ValueFunctionComparison& c) {
  BarChart chart;
  for (const std::size_t j : ByConditional(c)) {
    chart.labels.push_back(c.players[j] + " \u00b7 " + c.conditional);
    chart.values.push_back(c.conditional_phi[j]);
    chart.labels.push_back(c.players[j] + " \u00b7 marginal");
    chart.values.push_back(c.marginal_phi[j]);
    if (!c.conditional_se.empty()) {
      chart.stds.push_back(1.96 * c.conditional_se[j]);
      chart.stds.push_back(0.0);
    }
  }
  chart.frame.title = "Conditional (" + c.conditional + ") vs marginal value function" +
                      (c.conditional_se.empty() ? "" : " (95% bands)");
  chart.frame.x_label = c.quantity;
  chart.frame.width = 900;
  return chart;
}

}  // namespace

std::vector<std::size_t> ValueFunctionComparison::Order(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return values[a] > values[b]; });
  return order;
}

std::vector<int> ValueFunctionComparison::Ranks(const std::vector<double>& values) {
  const std::vector<std::size_t> order = Order(values);
  std::vector<int> rank(values.size());
  for (std::size_t r = 0; r < order.size(); ++r) rank[order[r]] = static_cast<int>(r + 1);
  return rank;
}

Json ComparisonJson(const ValueFunctionComparison& c) {
  const std::vector<int> rc = ValueFunctionComparison::Ranks(c.conditional_phi);
  const std::vector<int> rm = ValueFunctionComparison::Ranks(c.marginal_phi);
  Json players = Json::object();
  int largest = 0;
  for (std::size_t j = 0; j < c.players.size(); ++j) {
    Json p;
    p["conditional"] = c.conditional_phi[j];
    p["marginal"] = c.marginal_phi[j];
    p["difference"] = c.conditional_phi[j] - c.marginal_phi[j];
    p["rank_conditional"] = rc[j];
    p["rank_marginal"] = rm[j];
    players[c.players[j]] = p;
    largest = std::max(largest, std::abs(rc[j] - rm[j]));
  }
  Json j;
  j["value_function"] = c.conditional;
  j["players"] = players;
  j["largest_rank_change"] = largest;
  return j;
}

std::string ComparisonText(const ValueFunctionComparison& c) {
  const std::vector<int> rc = ValueFunctionComparison::Ranks(c.conditional_phi);
  const std::vector<int> rm = ValueFunctionComparison::Ranks(c.marginal_phi);
  std::vector<std::size_t> moved;
  for (const std::size_t j : ByConditional(c))
    if (rc[j] != rm[j]) moved.push_back(j);
  std::ostringstream s;
  s << "  beside the marginal value function: ";
  if (moved.empty()) {
    s << "every feature keeps its rank\n";
    return s.str();
  }
  s << moved.size() << " feature(s) change rank (conditional_vs_marginal.csv)\n";
  for (std::size_t t = 0; t < std::min<std::size_t>(moved.size(), 5); ++t) {
    const std::size_t j = moved[t];
    s << "    " << c.players[j] << ": rank " << rm[j] << " -> " << rc[j] << " ("
      << Fmt("%+.4g", c.marginal_phi[j]) << " -> " << Fmt("%+.4g", c.conditional_phi[j]) << ")\n";
  }
  return s.str();
}

void AddComparisonFiles(ReportContent& out, const ValueFunctionComparison& c) {
  const std::vector<int> rc = ValueFunctionComparison::Ranks(c.conditional_phi);
  const std::vector<int> rm = ValueFunctionComparison::Ranks(c.marginal_phi);
  CsvTable csv({"feature", "conditional", "conditional_se", "marginal", "difference", "rank_conditional",
                "rank_marginal"});
  for (const std::size_t j : ByConditional(c))
    csv.Row()
        .Text(c.players[j])
        .Number(c.conditional_phi[j])
        .Number(c.conditional_se.empty() ? 0.0 : c.conditional_se[j])
        .Number(c.marginal_phi[j])
        .Number(c.conditional_phi[j] - c.marginal_phi[j])
        .Count(static_cast<std::uint64_t>(rc[j]))
        .Count(static_cast<std::uint64_t>(rm[j]));
  out.Table("conditional_vs_marginal.csv", std::move(csv));
  out.Figure("conditional_vs_marginal.svg", FigureSet::kSummary, [&] { return ComparisonFigure(c); });
}

FeatureDependence DependenceOf(ColumnMatrix background, const std::vector<std::string>& names) {
  const std::size_t F = names.size(), n = background.n_rows;
  FeatureDependence d{names, n, std::vector<double>(F * F, std::numeric_limits<double>::quiet_NaN())};
  std::vector<double> centred(F * n), norm(F, 0.0);
  for (std::size_t j = 0; j < F; ++j) {
    const double* x = background.values.data() + j * n;
    double mean = 0.0;
    for (std::size_t r = 0; r < n; ++r) mean += x[r] / static_cast<double>(n);
    for (std::size_t r = 0; r < n; ++r) {
      centred[j * n + r] = x[r] - mean;
      norm[j] += centred[j * n + r] * centred[j * n + r];
    }
    norm[j] = std::sqrt(norm[j]);
  }
  for (std::size_t a = 0; a < F; ++a) {
    d.correlation[a * F + a] = 1.0;
    for (std::size_t b = a + 1; b < F; ++b) {
      if (!(norm[a] > 0.0 && norm[b] > 0.0)) continue;
      double dot = 0.0;
      for (std::size_t r = 0; r < n; ++r) dot += centred[a * n + r] * centred[b * n + r];
      const double c = std::clamp(dot / (norm[a] * norm[b]), -1.0, 1.0);
      d.correlation[a * F + b] = c;
      d.correlation[b * F + a] = c;
    }
  }
  return d;
}

Json DependenceJson(const FeatureDependence& d) {
  const std::size_t F = d.features.size();
  Json matrix = Json::array();
  for (std::size_t a = 0; a < F; ++a) {
    Json row = Json::array();
    for (std::size_t b = 0; b < F; ++b) row.push_back(NumberOrNull(d.correlation[a * F + b]));
    matrix.push_back(row);
  }
  Json j;
  j["method"] = "pearson";
  j["rows"] = d.rows;
  j["features"] = d.features;
  j["correlation"] = matrix;
  return j;
}

void AddDependenceFiles(ReportContent& out, const FeatureDependence& d) {
  const std::size_t F = d.features.size();
  if (F < 2 || F > kDependenceMapFeatures) return;
  out.Figure("dependence.svg", FigureSet::kSummary, [&] {
    HeatmapChart chart;
    chart.frame.title = "Feature correlations in the background (" + std::to_string(d.rows) + " rows)";
    chart.rows = F;
    chart.cols = F;
    chart.x_max = static_cast<double>(F);
    chart.y_max = static_cast<double>(F);
    chart.x_labels = d.features;
    // Row 0 at the bottom: the first feature on top.
    for (std::size_t a = F; a-- > 0;) {
      chart.y_labels.push_back(d.features[a]);
      for (std::size_t b = 0; b < F; ++b) {
        chart.values.push_back(d.correlation[a * F + b]);
        if (F <= 12) chart.cell_text.push_back(Fmt("%.2f", d.correlation[a * F + b]));
      }
    }
    chart.fixed_color = true;
    chart.color_min = -1.0;
    chart.color_max = 1.0;
    chart.color_label = "Pearson correlation";
    return Chart(chart);
  });
}

}}}  // namespace perfshap::detail
