// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/retrain_comparison.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "report/csv.hpp"
#include "report/format.hpp"
#include "report/svg.hpp"
#include "report/value_function_comparison.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

// The players by decreasing SAGE value (the figure's and the table's order).
std::vector<std::size_t> BySage(const RetrainComparison& c) { return ValueFunctionComparison::Order(c.sage); }

Chart RetrainFigure(const RetrainComparison& c) {
  BarChart chart;
  for (const std::size_t j : BySage(c)) {
    chart.labels.push_back(c.players[j] + " \u00b7 SAGE");
    chart.values.push_back(c.sage[j]);
    chart.stds.push_back(c.sage_std[j]);
    chart.labels.push_back(c.players[j] + " \u00b7 ShapAUC");
    chart.values.push_back(c.shapauc[j]);
    chart.stds.push_back(c.shapauc_std[j]);
  }
  chart.frame.title = "Marginalise (SAGE, " + c.sage_metric + ") vs retrain (ShapAUC), +-1 std over " +
                      std::to_string(c.splits) + " splits";
  chart.frame.x_label = "contribution";
  chart.frame.width = 900;
  return chart;
}

}  // namespace

Json RetrainComparisonJson(const RetrainComparison& c) {
  const std::vector<int> rs = ValueFunctionComparison::Ranks(c.sage);
  const std::vector<int> rr = ValueFunctionComparison::Ranks(c.shapauc);
  Json players = Json::object();
  int largest = 0;
  for (std::size_t j = 0; j < c.players.size(); ++j) {
    players[c.players[j]] = {{"sage", NumberOrNull(c.sage[j])},
                             {"sage_std", NumberOrNull(c.sage_std[j])},
                             {"shapauc", NumberOrNull(c.shapauc[j])},
                             {"shapauc_std", NumberOrNull(c.shapauc_std[j])},
                             {"rank_sage", rs[j]},
                             {"rank_shapauc", rr[j]}};
    largest = std::max(largest, std::abs(rs[j] - rr[j]));
  }
  return {{"plan", c.plan},
          {"splits", c.splits},
          {"sage_metric", c.sage_metric},
          {"players", players},
          {"largest_rank_change", largest}};
}

std::string RetrainComparisonText(const RetrainComparison& c) {
  const std::vector<int> rs = ValueFunctionComparison::Ranks(c.sage);
  const std::vector<int> rr = ValueFunctionComparison::Ranks(c.shapauc);
  std::size_t width = 16;
  for (const std::string& name : c.players) width = std::max(width, name.size() + 2);
  std::ostringstream s;
  s << "  retrain vs marginalise on the same " << c.splits << " splits (retrain_vs_marginalise.csv):\n"
    << "    " << PadRight("feature", width, 1) << "  SAGE (" << c.sage_metric
    << ")           ShapAUC (AUC, retrained)\n";
  const std::vector<std::size_t> order = BySage(c);
  for (std::size_t t = 0; t < std::min<std::size_t>(order.size(), 5); ++t) {
    const std::size_t j = order[t];
    s << "    " << PadRight(c.players[j], width, 1) << Fmt("%+10.4g", c.sage[j]) << " +- "
      << Fmt("%-9.3g", c.sage_std[j]) << Fmt("%+10.4g", c.shapauc[j]) << " +- "
      << Fmt("%.3g", c.shapauc_std[j]) << "\n";
  }
  std::vector<std::size_t> moved;
  for (const std::size_t j : order)
    if (rs[j] != rr[j]) moved.push_back(j);
  if (moved.empty()) {
    s << "    every feature has the same rank under both\n";
    return s.str();
  }
  s << "    " << moved.size() << " feature(s) rank differently; the largest moves:\n";
  std::stable_sort(moved.begin(), moved.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(rs[a] - rr[a]) > std::abs(rs[b] - rr[b]);
  });
  for (std::size_t t = 0; t < std::min<std::size_t>(moved.size(), 5); ++t) {
    const std::size_t j = moved[t];
    s << "      " << c.players[j] << ": rank " << rs[j] << " by SAGE, " << rr[j] << " by ShapAUC\n";
  }
  return s.str();
}

void AddRetrainComparisonFiles(ReportContent& out, const RetrainComparison& c) {
  const std::vector<int> rs = ValueFunctionComparison::Ranks(c.sage);
  const std::vector<int> rr = ValueFunctionComparison::Ranks(c.shapauc);
  CsvTable csv({"feature", "sage", "sage_std", "shapauc", "shapauc_std", "rank_sage", "rank_shapauc"});
  for (const std::size_t j : BySage(c))
    csv.Row()
        .Text(c.players[j])
        .Number(c.sage[j])
        .Number(c.sage_std[j])
        .Number(c.shapauc[j])
        .Number(c.shapauc_std[j])
        .Count(static_cast<std::uint64_t>(rs[j]))
        .Count(static_cast<std::uint64_t>(rr[j]));
  out.Table("retrain_vs_marginalise.csv", std::move(csv));
  out.Figure("retrain_vs_marginalise.svg", FigureSet::kSummary, [&] { return RetrainFigure(c); });
}

}}}  // namespace perfshap::detail
