// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap xper-montecarlo`: the XPER paper's Monte Carlo experiment. K pseudo-samples of the
// probit design, a probit fitted on the first T rows of each, exact XPER of the AUC on the
// rest. Flags -> XperMonteCarloOptions -> RunXperMonteCarlo -> the Monte Carlo reporter
// (report/montecarlo_report.hpp: the distributions, samples.csv, the histogram figure).
#include "commands.hpp"
#include "perfshap/xper.hpp"
#include "perfshap/xper_montecarlo.hpp"
#include "report/montecarlo_report.hpp"

namespace perfshap::inline v0::cli {

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
  XperMonteCarloResult r = RunXperMonteCarlo(opt);

  const detail::MonteCarloColumns columns = detail::MonteCarloDistributions(r);
  const std::string console = detail::MonteCarloConsoleText(r, columns, c.out);
  Report(c, [r = std::move(r), opt, columns](detail::OutputDir& out) { detail::WriteMonteCarloReport(out, r, opt, columns); });
  Say(c, console);  // after the files, which it says were written
}

}  // namespace

void SetupXperMonteCarlo(CLI::App& app) {
  auto o = std::make_shared<MonteCarloCliOptions>();
  CommonOptions& c = o->common;
  c.seed = 2024;
  app.add_option("--samples", o->samples, "number of pseudo-samples K")->capture_default_str();
  app.add_option("--rows", o->rows, "rows per pseudo-sample (train + test)")->capture_default_str();
  app.add_option("--train-rows", o->train_rows, "rows of each pseudo-sample used to fit the probit")
      ->capture_default_str();
  app.add_option(
         "--comparator", o->comparator,
         "AUC comparison sample: full (all n^2 hybrid points, exact) or permuted (one permutation per "
         "sample, drawn from its seed, as the XPER package)")
      ->capture_default_str();
  AddRunOptions(app, c, c.seed, "master seed: sample k uses a seed derived from (seed, k)",
                "output directory for result.json, samples.csv and the histogram SVG");
  app.callback([o] { RunMonteCarlo(*o); });
}

}  // namespace perfshap::cli
