// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Bounded figures (report/figure_bounds.hpp): the beeswarm of 35,100 rows x 34 players draws
// 1,000 evenly spaced rows of the top 20 players plus one row "14 other features" (their sum), says
// so in its title and stays under 2 MB; under the bounds it is the plain beeswarm of every row and
// player, byte for byte; a row's waterfall keeps its top 20 steps and sums the rest.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "perfshap/shap.hpp"
#include "report/figure_bounds.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/shap_report.hpp"
#include "report/svg.hpp"
#include "support/svg_checks.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

/** A deterministic value in [-1, 1) for (r, j). */
double Unit(std::size_t r, std::size_t j) {
  std::uint64_t z = r * 0x9e3779b97f4a7c15ULL + j * 0xbf58476d1ce4e5b9ULL + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
}

/** prefix + k, built by appending (GCC 12 warns falsely, -Wrestrict, on "p" + std::string). */
std::string Named(const char* prefix, std::size_t k) {
  std::string name(prefix);
  name += std::to_string(k);
  return name;
}

/** Player j's scale: a permutation of 1..P, so that the order by mean |phi| is known. */
double Scale(std::size_t j, std::size_t players) { return static_cast<double>(1 + (j * 7) % players); }

/** A TreeSHAP-like explanation of `rows` x `players` (one output) with player values for colour. */
struct Synthetic {
  ShapExplanation e;
  ShapRun run;
};

Synthetic MakeExplanation(std::size_t rows, std::size_t players) {
  Synthetic s;
  ShapExplanation& e = s.e;
  e.n_rows = rows;
  e.n_outputs = 1;
  e.n_players = players;
  e.outputs = {"margin"};
  e.output = ShapOutputScale::kMargin;
  e.approach = "tree";
  e.solve.solver = "treeshap";
  for (std::size_t j = 0; j < players; ++j) e.players.push_back(Named("p", j));
  e.phi.resize(rows * players);
  e.base.assign(rows, 0.25);
  e.prediction.assign(rows, 0.25);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < players; ++j) {
      e.phi[r * players + j] = 0.01 * Scale(j, players) * Unit(r, j);
      e.prediction[r] += e.phi[r * players + j];
    }
  // The colours of the rows the beeswarm shows, in that order.
  const std::vector<std::size_t> shown = RowsShown(rows);
  s.run.player_values.resize(shown.size() * players);
  for (std::size_t k = 0; k < shown.size(); ++k)
    for (std::size_t j = 0; j < players; ++j) s.run.player_values[k * players + j] = Unit(shown[k], j + 1000);
  s.run.rows = {0, rows};
  s.run.model = "synthetic";
  s.run.model_source = "test";
  s.run.data = "synthetic";
  return s;
}

/** The labels of a strip chart's rows as drawn, top to bottom (text elements in document order
 *  that name a player or the others' row). */
std::vector<std::string> RowLabels(const std::string& svg, const std::vector<std::string>& candidates) {
  std::vector<std::pair<std::size_t, std::string>> found;
  for (const std::string& label : candidates) {
    const std::size_t at = svg.find(">" + label + "</text>");
    if (at != std::string::npos) found.emplace_back(at, label);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> labels;
  for (const auto& [at, label] : found) labels.push_back(label);
  return labels;
}

TEST(FigureBounds, RowsShownAreAllOrEvenlySpaced) {
  EXPECT_EQ(RowsShown(5, 1000), std::vector<std::size_t>({0, 1, 2, 3, 4}));
  EXPECT_TRUE(RowsShown(0, 1000).empty());
  const std::vector<std::size_t> rows = RowsShown(35100, 1000);
  ASSERT_EQ(rows.size(), 1000u);
  EXPECT_EQ(rows.front(), 0u);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k], k * 35100 / 1000);  // floor(k n / m)
    if (k > 0) {
      EXPECT_GT(rows[k], rows[k - 1]);
    }
  }
  EXPECT_LT(rows.back(), 35100u);
  const std::vector<std::size_t> odd = RowsShown(1001, 1000);  // n just above the bound: still distinct
  EXPECT_EQ(std::set<std::size_t>(odd.begin(), odd.end()).size(), 1000u);
  EXPECT_EQ(WithThousands(35100), "35,100");
  EXPECT_EQ(WithThousands(1000000), "1,000,000");
  EXPECT_EQ(WithThousands(999), "999");
  EXPECT_EQ(RowsShownNote(1000, 35100, "rows"), "; 1,000 of 35,100 rows shown (evenly spaced)");
  EXPECT_EQ(RowsShownNote(700, 700, "rows"), "");
}

TEST(FigureBounds, BeeswarmOf35100RowsBy34PlayersIsBounded) {
  const std::size_t n = 35100;
  const std::size_t P = 34;
  const Synthetic s = MakeExplanation(n, P);
  const std::string svg = RenderSvg(ShapBeeswarmFigure(ShapReport{s.e, s.run}, 0));
  const auto counts = testing::CheckDocument(svg);
  // 20 players by name and the others' row, 1,000 points each.
  EXPECT_EQ(counts.at("circle"), (kMaxFeaturesShown + 1) * kMaxPointsPerFeature);
  EXPECT_LT(svg.size(), 2u * 1000 * 1000) << "bytes";
  EXPECT_NE(svg.find("1,000 of 35,100 rows shown"), std::string::npos);
  // Top 20 by mean |phi| (scale P, P-1, ...), in that order, then "14 other features".
  std::vector<std::size_t> by_scale(P);
  std::iota(by_scale.begin(), by_scale.end(), std::size_t{0});
  std::sort(by_scale.begin(), by_scale.end(),
            [&](std::size_t a, std::size_t b) { return Scale(a, P) > Scale(b, P); });
  std::vector<std::string> expected;
  for (std::size_t k = 0; k < kMaxFeaturesShown; ++k) expected.push_back(s.e.players[by_scale[k]]);
  expected.push_back("14 other features");
  std::vector<std::string> candidates = s.e.players;
  candidates.push_back("14 other features");
  EXPECT_EQ(RowLabels(svg, candidates), expected);
  // The same bytes every time (no clock, no randomness, nothing from the thread count).
  EXPECT_EQ(svg, RenderSvg(ShapBeeswarmFigure(ShapReport{s.e, s.run}, 0)));
}

TEST(FigureBounds, OtherFeaturesRowSumsTheRestAtTheRowsShown) {
  const std::size_t P = 25;
  std::vector<std::size_t> order(P);
  std::iota(order.rbegin(), order.rend(), std::size_t{0});  // P-1, ..., 0
  std::vector<std::string> labels;
  for (std::size_t j = 0; j < P; ++j) labels.push_back(Named("f", j));
  const std::vector<std::size_t> rows = {0, 3, 9};
  const auto value = [](std::size_t r, std::size_t j) { return static_cast<double>(r * 100 + j); };
  const auto colour = [](std::size_t r, std::size_t j) {
    return j == 23 ? std::nan("") : static_cast<double>(r + j);  // f23: no colour (a group)
  };
  const std::vector<StripRow> strip = BoundedStripRows(order, rows, labels, value, colour);
  ASSERT_EQ(strip.size(), kMaxFeaturesShown + 1);
  EXPECT_EQ(strip[0].label, "f24");
  EXPECT_EQ(strip[0].values, std::vector<double>({24, 324, 924}));
  EXPECT_EQ(strip[0].color_values, std::vector<double>({24, 27, 33}));
  EXPECT_TRUE(strip[1].color_values.empty());  // f23
  const StripRow& other = strip.back();
  EXPECT_EQ(other.label, "5 other features");
  EXPECT_TRUE(other.color_values.empty());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    double sum = 0.0;
    for (std::size_t j = 0; j < 5; ++j) sum += value(rows[i], j);  // f4 .. f0, the last five
    EXPECT_EQ(other.values[i], sum);
  }
  // One feature over the bound is shown by name, not as "1 other feature".
  std::vector<std::size_t> order21(kMaxFeaturesShown + 1);
  std::iota(order21.begin(), order21.end(), std::size_t{0});
  const std::vector<StripRow> all = BoundedStripRows(order21, rows, labels, value, nullptr);
  ASSERT_EQ(all.size(), kMaxFeaturesShown + 1);
  EXPECT_EQ(all.back().label, "f20");
}

TEST(FigureBounds, UnderTheBoundsTheBeeswarmIsThePlainOne) {
  const std::size_t n = 700;
  const std::size_t P = 8;
  const Synthetic s = MakeExplanation(n, P);
  // The plain beeswarm: every row of every player, by decreasing mean |phi|, coloured by value.
  const std::vector<double> mean_abs = s.e.MeanAbs();
  std::vector<std::size_t> order(P);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return mean_abs[a] > mean_abs[b]; });
  StripChart plain;
  plain.frame.title = "SHAP values of 700 rows (margin)";
  plain.frame.x_label = "phi (margin scale)";
  for (const std::size_t j : order) {
    StripRow row;
    row.label = s.e.players[j];
    for (std::size_t r = 0; r < n; ++r) {
      row.values.push_back(s.e(r, 0, j));
      row.color_values.push_back(s.run.player_values[r * P + j]);
    }
    plain.rows.push_back(std::move(row));
  }
  EXPECT_EQ(RenderSvg(ShapBeeswarmFigure(ShapReport{s.e, s.run}, 0)), RenderSvg(plain));
}

TEST(FigureBounds, WaterfallKeepsTheTopStepsAndSumsTheRest) {
  WaterfallChart chart;
  chart.start_value = 0.5;
  double total = 0.0;
  for (int k = 0; k < 34; ++k) {
    chart.labels.push_back(Named("p", static_cast<std::size_t>(k)));
    chart.contributions.push_back((k % 2 == 0 ? 1.0 : -1.0) / (k + 1));
    chart.stds.push_back(0.01);
    total += chart.contributions.back();
  }
  WaterfallChart small = chart;
  small.labels.resize(21);
  small.contributions.resize(21);
  small.stds.resize(21);
  const WaterfallChart small_before = small;
  BoundWaterfall(small);
  EXPECT_EQ(small.labels, small_before.labels);  // within the bound: unchanged
  EXPECT_EQ(small.contributions, small_before.contributions);
  BoundWaterfall(chart);
  ASSERT_EQ(chart.labels.size(), kMaxFeaturesShown + 1);
  EXPECT_EQ(chart.labels[19], "p19");
  EXPECT_EQ(chart.labels.back(), "14 other features");
  EXPECT_EQ(chart.stds.back(), 0.0);
  double after = 0.0;
  for (double c : chart.contributions) after += c;
  EXPECT_NEAR(after, total, 1e-12);
  const auto counts = testing::CheckDocument(RenderSvg(chart));
  EXPECT_GT(counts.at("text"), 21u);
}

TEST(FigureBounds, ShapReportWithoutFiguresListsNone) {
  const Synthetic s = MakeExplanation(50, 4);
  ReportContent none(ReportOptions{FigureSet::kNone});
  BuildShapReport(none, ShapReport{s.e, s.run});
  OutputDir written;
  WriteReport(written, none);
  for (const ReportFile& f : written.contents()) EXPECT_EQ(f.name.find(".svg"), std::string::npos) << f.name;
  const std::string& json = written.contents().back().content;
  EXPECT_NE(json.find("\"figures\": []"), std::string::npos) << json.substr(json.size() - 400);
  ReportContent all(ReportOptions{FigureSet::kAll});
  BuildShapReport(all, ShapReport{s.e, s.run});
  // The bar, the beeswarm, and one waterfall per row (50 < kMaxRowFigures).
  EXPECT_EQ(all.figures().size(), 2u + 50u);
  EXPECT_EQ(all.figures()[2], "shap_waterfall_row0.svg");
}

}  // namespace
}}}  // namespace perfshap::detail
