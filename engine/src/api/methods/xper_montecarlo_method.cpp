// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `xper-montecarlo`: the XPER paper's Monte Carlo experiment. K pseudo-samples of the probit
// design, a probit fitted on the first T rows of each, exact XPER of the AUC on the rest
// (RunXperMonteCarlo); the record's reporter writes the distributions, samples.csv and the
// histogram figure (report/montecarlo_report.hpp).
#include <utility>

#include "api/methods/method_kit.hpp"
#include "api/registry.hpp"
#include "api/shared_options.hpp"
#include "perfshap/xper.hpp"
#include "perfshap/xper_montecarlo.hpp"

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

MethodRun Run(const MethodInputs& in, const GivenOptions& given) {
  Options o = ParseWith<Options, MakeOptions>(given);
  in.Wire(o.execution, "samples");
  return XperMonteCarloMethodRun(RunXperMonteCarlo(o), o, in.out_dir);
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
