// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap xper-montecarlo`: the XPER paper's Monte Carlo experiment. K pseudo-samples of the
// probit design, a probit fitted on the first T rows of each, exact XPER of the AUC on the
// rest; the distributions of the AUC, phi_0 and every phi_j, a CSV of all samples and the
// histogram figure.
#include <cstdio>
#include <sstream>

#include "commands.hpp"
#include "perfshap/error.hpp"
#include "perfshap/xper_montecarlo.hpp"
#include "report/output.hpp"
#include "xper_report.hpp"

namespace perfshap::cli {

namespace {

struct MonteCarloCliOptions {
  CommonOptions common;
  std::size_t samples = 5000;
  std::size_t rows = 1000;
  std::size_t train_rows = 700;
  std::string comparator = "full";
};

void RunMonteCarlo(const MonteCarloCliOptions& o) {
  const CommonOptions& c = o.common;
  PrepareOut(c);
  XperMonteCarloOptions opt;
  opt.samples = o.samples;
  opt.rows = o.rows;
  opt.train_rows = o.train_rows;
  opt.comparator = ParseXperComparator(o.comparator);
  opt.seed = c.seed;
  opt.execution = MakeExecution(c, "samples");
  const XperMonteCarloResult r = RunXperMonteCarlo(opt);
  const std::size_t n_samples = r.samples;
  const std::size_t q = r.features.size();

  // The distributions: AUC, phi_0, phi_j, the shares phi_j / (AUC - phi_0), the coefficients.
  std::vector<std::string> names{"auc", "phi_0"};
  std::vector<std::vector<double>> columns{r.auc, r.base};
  for (std::size_t j = 0; j < q; ++j) {
    std::vector<double> v(n_samples);
    for (std::size_t k = 0; k < n_samples; ++k) v[k] = r.phi[k * q + j];
    names.push_back("phi_" + r.features[j]);
    columns.push_back(std::move(v));
  }
  for (std::size_t j = 0; j < q; ++j) {
    std::vector<double> v(n_samples);
    for (std::size_t k = 0; k < n_samples; ++k) v[k] = r.phi[k * q + j] / (r.auc[k] - r.base[k]);
    names.push_back("share_" + r.features[j]);
    columns.push_back(std::move(v));
  }
  for (std::size_t j = 0; j <= q; ++j) {
    std::vector<double> v(n_samples);
    for (std::size_t k = 0; k < n_samples; ++k) v[k] = r.coefficients[k * (q + 1) + j];
    names.push_back(j == 0 ? std::string("beta_const") : "beta_" + r.features[j - 1]);
    columns.push_back(std::move(v));
  }
  std::vector<DistributionSummary> summaries;
  for (const auto& col : columns) summaries.push_back(Summarize(col));

  std::ostringstream s;
  s << "perfshap xper-montecarlo: " << n_samples << " pseudo-samples of the XPER paper's probit design, " << r.rows
    << " rows (" << r.train_rows << " train / " << r.rows - r.train_rows << " test)\n"
    << "  probit fitted on each train part; exact XPER of the test AUC, " << XperComparatorName(r.comparator)
    << " comparator\n\n"
    << "  quantity          mean       std        5%       50%       95%\n";
  for (std::size_t t = 0; t < names.size(); ++t) {
    const auto& m = summaries[t];
    s << "  " << names[t] << std::string(14 - std::min<std::size_t>(13, names[t].size()), ' ')
      << Fmt("%+10.4f", m.mean) << Fmt("%10.4f", m.std) << Fmt("%+10.4f", m.q05) << Fmt("%+10.4f", m.q50)
      << Fmt("%+10.4f", m.q95) << "\n";
  }
  s << "\n  " << n_samples << " samples in " << Fmt("%.1f", r.elapsed_seconds) << " s on " << r.threads << " thread(s) ("
    << Fmt("%.2f", 1000.0 * r.elapsed_seconds / static_cast<double>(n_samples)) << " ms per sample)\n";
  if (!c.out.empty()) s << "  wrote " << c.out << "/ (result.json, samples.csv, xper_montecarlo_hist.svg)\n";
  Say(c, s.str());
  if (c.out.empty()) return;

  Json result;
  result["metric"] = "auc";
  result["comparator"] = XperComparatorName(r.comparator);
  result["samples"] = n_samples;
  result["rows"] = r.rows;
  result["train_rows"] = r.train_rows;
  result["test_rows"] = r.rows - r.train_rows;
  result["design"] = {{"variances", opt.design.variances},
                      {"beta", opt.design.beta},
                      {"sample_seed", "first draw of RandomStream(seed, 0x584D43 << 32 + k)"}};
  result["quantiles"] = "linear interpolation (numpy.quantile default); std with ddof 1";
  Json dist;
  for (std::size_t t = 0; t < names.size(); ++t) dist[names[t]] = SummaryJson(summaries[t]);
  result["distribution"] = dist;
  result["seconds_per_sample"] = r.elapsed_seconds / static_cast<double>(n_samples);

  std::string csv = "k,seed";
  for (const auto& n : names) csv += "," + n;
  csv += "\n";
  for (std::size_t k = 0; k < n_samples; ++k) {
    csv += std::to_string(k) + "," + std::to_string(r.sample_seeds[k]);
    for (const auto& col : columns) csv += "," + CsvNumber(col[k]);
    csv += "\n";
  }
  const std::filesystem::path out(c.out);
  detail::WriteFileAtomic(out / "samples.csv", csv);
  detail::WriteFileAtomic(out / "xper_montecarlo_hist.svg", MonteCarloHistogramSvg(r));
  WriteResult(c, result, "xper-montecarlo", r.features, r.threads, r.elapsed_seconds);
}

}  // namespace

void SetupXperMonteCarlo(CLI::App& app) {
  auto o = std::make_shared<MonteCarloCliOptions>();
  CommonOptions& c = o->common;
  c.seed = 2024;
  app.add_option("--samples", o->samples, "number of pseudo-samples K")->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--rows", o->rows, "rows per pseudo-sample (train + test)")->capture_default_str();
  app.add_option("--train-rows", o->train_rows, "rows of each pseudo-sample used to fit the probit")
      ->capture_default_str();
  app.add_option("--comparator", o->comparator,
                 "AUC comparison sample: full (all n^2 hybrid points, exact) or permuted (one permutation per "
                 "sample, drawn from its seed, as the XPER package)")
      ->capture_default_str();
  AddRunOptions(app, c, c.seed, "master seed: sample k uses a seed derived from (seed, k)",
                "output directory for result.json, samples.csv and the histogram SVG");
  app.callback([o] { RunMonteCarlo(*o); });
}

}  // namespace perfshap::cli
