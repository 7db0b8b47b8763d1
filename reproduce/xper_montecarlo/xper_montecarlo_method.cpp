// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `xper-montecarlo`: the XPER paper's Monte Carlo experiment. K pseudo-samples of the probit
// design, a probit fitted on the first T rows of each, exact XPER of the AUC on the rest
// (RunXperMonteCarlo); the record holds every sample's numbers and its reporter writes the
// distributions, samples.csv and the histogram figure (montecarlo_report.hpp). A reproduction
// registered as a method: this folder and one line in engine/src/api/methods/method_list.inc.
#include <memory>
#include <utility>
#include <vector>

#include "api/method_run.hpp"
#include "api/methods/method_kit.hpp"
#include "api/registry.hpp"
#include "api/shared_options.hpp"
#include "perfshap/xper.hpp"
#include "xper_montecarlo/montecarlo_report.hpp"
#include "xper_montecarlo/xper_montecarlo.hpp"

namespace perfshap { inline namespace v0 { namespace api {

namespace {

using Options = XperMonteCarloOptions;

RequestOptions<Options> MakeOptions() {
  RequestOptions<Options> t("xper-montecarlo");
  t.Add<std::size_t>("samples", [](Options& o) -> std::size_t& { return o.samples; })
      .Help("number of pseudo-samples K");
  t.Add<std::size_t>("rows", [](Options& o) -> std::size_t& { return o.rows; })
      .Help("rows per pseudo-sample (train + test)");
  t.Add<std::size_t>("train_rows", [](Options& o) -> std::size_t& { return o.train_rows; })
      .Help("rows of each pseudo-sample used to fit the probit");
  t.AddParsed("comparator", OptionType::kText, "full",
              [](const RequestOptions<Options>::ParseContext& c, Options& o) {
                o.comparator = ParseXperComparator(perfshap::detail::ParseTextOption(c.method, c.option.info, c.text));
              })
      .Choices({"full", "permuted"})
      .Help("AUC comparison sample: full (all n^2 hybrid points, exact) or permuted (one permutation per "
            "sample, drawn from its seed, as the XPER package)");
  t.Add<std::uint64_t>("seed", [](Options& o) -> std::uint64_t& { return o.seed; })
      .Help("master seed: sample k uses a seed derived from (seed, k)");
  t.Include<ExecutionOptions>(ExecutionOptionGroup(), [](Options& o) -> ExecutionOptions& { return o.execution; });
  return t;
}

/** The experiment's record: per sample the test AUC, the benchmark, the features' values and the
 *  probit's coefficients, the distributions' columns, the console text and the reporter. */
MethodRun MonteCarloRecord(XperMonteCarloResult result, const XperMonteCarloOptions& options,
                           const std::string& out_dir) {
  auto r = std::make_shared<const XperMonteCarloResult>(std::move(result));
  const detail::MonteCarloColumns columns = detail::MonteCarloDistributions(*r);
  MethodRun run;
  run.method = "xper-montecarlo";
  run.console = detail::MonteCarloConsoleText(*r, columns, out_dir);
  // Per sample: the test AUC, the benchmark, the features' values and the probit's coefficients.
  const std::size_t K = r->auc.size(), q = r->features.size();
  run.arrays = {{"auc", {K}, r->auc},
                {"base", {K}, r->base},
                {"phi", {K, q}, r->phi},
                {"coefficients", {K, q + 1}, r->coefficients}};
  run.names = {{"feature_names", r->features}, {"columns", columns.names}};
  ResultArray distributions{"distributions", {columns.names.size(), K}, {}};
  for (const std::vector<double>& c : columns.values) distributions.owned.insert(distributions.owned.end(), c.begin(), c.end());
  run.arrays.push_back(std::move(distributions));
  run.reporter = detail::ReporterOf([r, options, columns](detail::ReportContent& out) {
    detail::BuildMonteCarloReport(out, *r, options, columns);
  });
  return run;
}

MethodRun Run(const MethodInputs& in, const GivenOptions& given) {
  Options o = ParseWith<Options, MakeOptions>(given);
  in.Wire(o.execution, "samples");
  return MonteCarloRecord(RunXperMonteCarlo(o), o, in.out_dir);
}

}  // namespace

MethodEntry XperMonteCarloMethod() {
  return {"xper-montecarlo",
          "the XPER paper's Monte Carlo experiment: distributions of the AUC decomposition over K probit samples",
          {},
          OptionsOnce<MakeOptions>().options(),
          Run};
}

}}}  // namespace perfshap::api
