// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "xper_montecarlo/montecarlo_report.hpp"

#include <algorithm>
#include <sstream>
#include <utility>

#include "perfshap/xper.hpp"
#include "report/csv.hpp"
#include "report/format.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

MonteCarloColumns MonteCarloDistributions(const XperMonteCarloResult& r) {
  const std::size_t n_samples = r.samples;
  const std::size_t q = r.features.size();
  MonteCarloColumns c;
  c.names = {"auc", "phi_0"};
  c.values = {r.auc, r.base};
  for (std::size_t j = 0; j < q; ++j) {
    std::vector<double> v(n_samples);
    for (std::size_t k = 0; k < n_samples; ++k) v[k] = r.phi[k * q + j];
    c.names.push_back("phi_" + r.features[j]);
    c.values.push_back(std::move(v));
  }
  for (std::size_t j = 0; j < q; ++j) {
    std::vector<double> v(n_samples);
    for (std::size_t k = 0; k < n_samples; ++k) v[k] = r.phi[k * q + j] / (r.auc[k] - r.base[k]);
    c.names.push_back("share_" + r.features[j]);
    c.values.push_back(std::move(v));
  }
  for (std::size_t j = 0; j <= q; ++j) {
    std::vector<double> v(n_samples);
    for (std::size_t k = 0; k < n_samples; ++k) v[k] = r.coefficients[k * (q + 1) + j];
    c.names.push_back(j == 0 ? std::string("beta_const") : "beta_" + r.features[j - 1]);
    c.values.push_back(std::move(v));
  }
  for (const auto& col : c.values) c.summaries.push_back(Summarize(col));
  return c;
}

std::string MonteCarloConsoleText(const XperMonteCarloResult& r, const MonteCarloColumns& columns,
                                  const std::string& out) {
  const std::size_t n_samples = r.samples;
  std::ostringstream s;
  s << "perfshap xper-montecarlo: " << n_samples << " pseudo-samples of the XPER paper's probit design, "
    << r.rows << " rows (" << r.train_rows << " train / " << r.rows - r.train_rows << " test)\n"
    << "  probit fitted on each train part; exact XPER of the test AUC, " << XperComparatorName(r.comparator)
    << " comparator\n\n"
    << "  quantity          mean       std        5%       50%       95%\n";
  for (std::size_t t = 0; t < columns.names.size(); ++t) {
    const auto& m = columns.summaries[t];
    s << "  " << PadRight(columns.names[t], 14, 1) << Fmt("%+10.4f", m.mean) << Fmt("%10.4f", m.std)
      << Fmt("%+10.4f", m.q05) << Fmt("%+10.4f", m.q50) << Fmt("%+10.4f", m.q95) << "\n";
  }
  s << "\n  " << n_samples << " samples in " << Fmt("%.1f", r.elapsed_seconds) << " s on " << r.threads
    << " thread(s) (" << Fmt("%.2f", 1000.0 * r.elapsed_seconds / static_cast<double>(n_samples))
    << " ms per sample)\n";
  if (!out.empty()) s << "  wrote " << out << "/ (result.json, samples.csv, xper_montecarlo_hist.svg)\n";
  return s.str();
}

Json MonteCarloResultJson(const XperMonteCarloResult& r, const XperMonteCarloOptions& options,
                          const MonteCarloColumns& columns) {
  Json result;
  result["metric"] = "auc";
  result["comparator"] = XperComparatorName(r.comparator);
  result["samples"] = r.samples;
  result["rows"] = r.rows;
  result["train_rows"] = r.train_rows;
  result["test_rows"] = r.rows - r.train_rows;
  result["design"] = {{"variances", options.design.variances},
                      {"beta", options.design.beta},
                      {"sample_seed", "first draw of RandomStream(seed, 0x584D43 << 32 + k)"}};
  result["quantiles"] = "linear interpolation (numpy.quantile default); std with ddof 1";
  Json dist;
  for (std::size_t t = 0; t < columns.names.size(); ++t)
    dist[columns.names[t]] = SummaryJson(columns.summaries[t]);
  result["distribution"] = dist;
  result["seconds_per_sample"] = r.elapsed_seconds / static_cast<double>(r.samples);
  return result;
}

CsvTable MonteCarloSamplesCsv(const XperMonteCarloResult& r, const MonteCarloColumns& columns) {
  std::vector<std::string> header{"k", "seed"};
  header.insert(header.end(), columns.names.begin(), columns.names.end());
  CsvTable csv(header, CsvTable::NonFinite::kEmpty);
  for (std::size_t k = 0; k < r.samples; ++k) {
    csv.Row().Count(k).Count(r.sample_seeds[k]);
    for (const auto& col : columns.values) csv.Number(col[k]);
  }
  return csv;
}

void BuildMonteCarloReport(ReportContent& out, const XperMonteCarloResult& r,
                           const XperMonteCarloOptions& options, const MonteCarloColumns& columns) {
  out.Table("samples.csv", MonteCarloSamplesCsv(r, columns));
  out.Figure("xper_montecarlo_hist.svg", FigureSet::kSummary, [&] { return MonteCarloHistogramFigure(r); });
  Json body = MonteCarloResultJson(r, options, columns);
  body["figures"] = out.figures();
  out.Result({"xper-montecarlo", r.features, options.seed, r.threads, r.elapsed_seconds}, body);
}

Json SummaryJson(const DistributionSummary& s) {
  return {{"mean", s.mean}, {"std", s.std}, {"min", s.min}, {"q05", s.q05}, {"q25", s.q25},
          {"q50", s.q50},   {"q75", s.q75}, {"q95", s.q95}, {"max", s.max}};
}

Chart MonteCarloHistogramFigure(const XperMonteCarloResult& r) {
  const std::size_t n_samples = r.samples;
  const std::size_t q = r.features.size();
  detail::PanelGrid grid;
  grid.columns = 3;
  const auto panel = [&](const std::string& title, std::vector<detail::HistogramSeries> series, bool marker) {
    detail::HistogramChart h;
    h.frame.title = title;
    h.frame.width = 460;
    h.frame.height = 330;
    h.frame.x_label = "value over the " + std::to_string(n_samples) + " samples";
    if (marker) {
      const DistributionSummary s = Summarize(series.front().values);
      h.markers.push_back({"mean " + Fmt("%.4g", s.mean), s.mean});
    }
    h.series = std::move(series);
    grid.panels.push_back(std::move(h));
  };
  panel("AUC", {{"AUC", r.auc}}, true);
  // With the full comparator the benchmark is exactly 1/2 in every sample (a random
  // predictor's AUC); the permuted comparator adds the permutation's noise.
  const bool constant_base =
      std::all_of(r.base.begin(), r.base.end(), [&](double v) { return v == r.base[0]; });
  panel(constant_base ? "benchmark \u03c6\u2080 (the same in every sample)" : "benchmark \u03c6\u2080",
        {{"phi_0", r.base}}, true);
  std::vector<detail::HistogramSeries> shares;
  for (std::size_t j = 0; j < q; ++j) {
    std::vector<double> v(n_samples), s(n_samples);
    for (std::size_t k = 0; k < n_samples; ++k) {
      v[k] = r.phi[k * q + j];
      const double spread = r.auc[k] - r.base[k];
      s[k] = spread != 0.0 ? 100.0 * v[k] / spread : 0.0;
    }
    panel("\u03c6 of " + r.features[j], {{"phi_" + r.features[j], v}}, true);
    shares.push_back({r.features[j], std::move(s)});
  }
  {
    detail::HistogramChart h;
    h.frame.title = "shares \u03c6\u2c7c / (AUC \u2212 \u03c6\u2080)";
    h.frame.width = 460;
    h.frame.height = 330;
    h.frame.x_label = "% of the AUC above the benchmark";
    h.bins = 60;
    h.series = std::move(shares);
    grid.panels.push_back(std::move(h));
  }
  grid.title = "XPER of the AUC over " + std::to_string(n_samples) +
               " pseudo-samples of the probit design (" + std::to_string(r.train_rows) + " train / " +
               std::to_string(r.rows - r.train_rows) + " test rows, " + XperComparatorName(r.comparator) +
               " comparator)";
  return grid;
}
}}}  // namespace perfshap::detail
