// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The figures of a large explanation (issue 20): the beeswarm of 35,100 rows x 34 players (an
// adult-sized TreeSHAP run), bounded (report/figure_bounds.hpp: 1,000 evenly spaced rows, the top
// 20 players and one row for the others), against the unbounded beeswarm of every row and player
// that `--out` drew before; and the whole shap report (contributions.csv, the figures, result.json)
// in memory with --figures none and summary. Counters: the SVG's bytes.
// Run: build/<dir>/bench/perfshap_bench --benchmark_filter=Report
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/shap.hpp"
#include "report/figure_bounds.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/shap_report.hpp"
#include "report/svg.hpp"

namespace {

constexpr std::size_t kRows = 35100;
constexpr std::size_t kPlayers = 34;

/** A deterministic value in [-1, 1) for (r, j). */
double Unit(std::size_t r, std::size_t j) {
  std::uint64_t z = r * 0x9e3779b97f4a7c15ULL + j * 0xbf58476d1ce4e5b9ULL + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1.0p-52 - 1.0;
}

struct Synthetic {
  perfshap::ShapExplanation e;
  perfshap::detail::ShapRun run;
};

/** A TreeSHAP-like explanation: players of different importance, values for the colours. */
const Synthetic& Explanation() {
  static const Synthetic synthetic = [] {
    Synthetic s;
    perfshap::ShapExplanation& e = s.e;
    e.n_rows = kRows;
    e.n_outputs = 1;
    e.n_players = kPlayers;
    e.outputs = {"margin"};
    e.output = perfshap::ShapOutputScale::kMargin;
    e.approach = "tree";
    e.solve.solver = "treeshap";
    for (std::size_t j = 0; j < kPlayers; ++j) {
      std::string name("feature_");  // appended: GCC 12 warns falsely (-Wrestrict) on "feature_" + std::string
      name += std::to_string(j);
      e.players.push_back(std::move(name));
    }
    e.phi.resize(kRows * kPlayers);
    e.base.assign(kRows, -1.2);
    e.prediction.assign(kRows, -1.2);
    for (std::size_t r = 0; r < kRows; ++r)
      for (std::size_t j = 0; j < kPlayers; ++j) {
        const double phi = 0.05 * static_cast<double>(1 + (j * 7) % kPlayers) * Unit(r, j);
        e.phi[r * kPlayers + j] = phi;
        e.prediction[r] += phi;
      }
    const std::vector<std::size_t> shown = perfshap::detail::RowsShown(kRows);  // the beeswarm's colours
    s.run.player_values.resize(shown.size() * kPlayers);
    for (std::size_t k = 0; k < shown.size(); ++k)
      for (std::size_t j = 0; j < kPlayers; ++j) s.run.player_values[k * kPlayers + j] = Unit(shown[k], j + 1000);
    s.run.rows = {0, kRows};
    s.run.model = "synthetic";
    s.run.model_source = "bench";
    s.run.data = "synthetic";
    return s;
  }();
  return synthetic;
}

void BM_Report_Beeswarm(benchmark::State& state) {
  const Synthetic& s = Explanation();
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string svg = perfshap::detail::RenderSvg(
        perfshap::detail::ShapBeeswarmFigure(perfshap::detail::ShapReport{s.e, s.run}, 0));
    bytes = svg.size();
    benchmark::DoNotOptimize(svg.data());
  }
  state.counters["svg_bytes"] = static_cast<double>(bytes);
  state.counters["rows"] = static_cast<double>(kRows);
}
BENCHMARK(BM_Report_Beeswarm)->Unit(benchmark::kMillisecond)->UseRealTime();

/** What `--out` drew before the bound: every row of every player, by decreasing mean |phi|. */
void BM_Report_BeeswarmEveryRow(benchmark::State& state) {
  const Synthetic& s = Explanation();
  const std::vector<double> mean_abs = s.e.MeanAbs();
  std::vector<std::size_t> order(kPlayers);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return mean_abs[a] > mean_abs[b]; });
  perfshap::detail::StripChart chart;
  chart.frame.title = "SHAP values of every row";
  for (const std::size_t j : order) {
    perfshap::detail::StripRow row;
    row.label = s.e.players[j];
    for (std::size_t r = 0; r < kRows; ++r) {
      row.values.push_back(s.e(r, 0, j));
      row.color_values.push_back(s.run.player_values[r * kPlayers + j]);
    }
    chart.rows.push_back(std::move(row));
  }
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string svg = perfshap::detail::RenderSvg(chart);
    bytes = svg.size();
    benchmark::DoNotOptimize(svg.data());
  }
  state.counters["svg_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_Report_BeeswarmEveryRow)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

/** The whole shap report in memory: arg 0 = --figures none, 1 = summary. */
void BM_Report_ShapReport(benchmark::State& state) {
  const Synthetic& s = Explanation();
  const perfshap::detail::ReportOptions options{state.range(0) == 0 ? perfshap::detail::FigureSet::kNone
                                                                    : perfshap::detail::FigureSet::kSummary};
  for (auto _ : state) {
    perfshap::detail::ReportContent content(options);
    perfshap::detail::BuildShapReport(content, perfshap::detail::ShapReport{s.e, s.run});
    perfshap::detail::OutputDir out;
    perfshap::detail::WriteReport(out, std::move(content));
    benchmark::DoNotOptimize(out.contents().data());
  }
}
BENCHMARK(BM_Report_ShapReport)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
