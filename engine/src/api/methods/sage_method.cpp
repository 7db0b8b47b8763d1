// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `sage`: SAGE, a model's performance metric decomposed over its features (api::RunSage: a given
// model or a learner fitted on a training sample, the features off a coalition imputed by a value
// function). The record's reporter is SAGE's (report/sage_report.hpp).
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/methods/method_kit.hpp"
#include "api/methods/prediction_options.hpp"
#include "api/registry.hpp"
#include "api/sage_request.hpp"
#include "api/shared_options.hpp"
#include "perfshap/blocks/metric_registry.hpp"

namespace perfshap { inline namespace v0 { namespace api {

// In a namespace of its own within the anonymous one: another method's file may share its
// unity unit, with helpers of the same names.
namespace {
namespace sage_method {

using Request = WithSolver<SageRequest>;

RequestOptions<Request> MakeOptions() {
  RequestOptions<Request> t("sage");
  t.Include<DataInput>(DataOptionGroup(), [](Request& r) -> DataInput& { return r.request.data; });
  DeclarePredictionModel<SageRequest>(t);
  std::vector<std::string> metrics = MetricNames("sage");
  t.Add<std::string>("metric", [](Request& r) -> std::string& { return r.request.metric; })
      .Choices(metrics)
      .Help(
          "the performance metric decomposed (default log_loss for a classifier, mse for a regressor); "
          "a loss is negated, so a positive value means the feature helps");
  t.Add<double>("threshold", [](Request& r) -> double& { return r.request.threshold; })
      .AtLeast(0)
      .AtMost(1)
      .Help("class rule of the 0/1 metrics: prediction > threshold");
  DeclareValueFunction<SageRequest>(t);
  // Model-variability bands: the learner fitted on every split, SAGE on its test part.
  t.Include<SplitInput>(SplitOptionGroup(), [](Request& r) -> SplitInput& {
    if (!r.request.splits) r.request.splits.emplace();
    return *r.request.splits;
  });
  t.DescribeDefault("cv", "");
  t.Add<bool>("compare_retrain", [](Request& r) -> bool& { return r.request.compare_retrain; })
      .Switch()
      .Help(
          "with cv or split: ShapAUC (robustness: the learner retrained on every coalition) on the "
          "same splits beside SAGE, one report (retrain vs marginalise): retrain_vs_marginalise.csv/.svg, "
          "result.json's retrain_comparison");
  DeclareBackground<SageRequest>(t,
                                 "background rows drawn with the seed from train (or data for a model_file): "
                                 "the imputed rows, or the sample the conditional distribution is fitted to; "
                                 "default 100");
  DeclareSeedSolverExecution<SageRequest>(
      t, Member<Request>(&Request::request, &ShapRequest::seed),
      "random seed (the background, a forest's trees, the draws, sampled solvers)",
      [](Request& r) -> ExecutionOptions& { return r.request.options.solver_options.execution; });
  t.SetDefault("solver", "auto");
  return t;
}

/** The run's record: phi, phi_se, metric_full, metric_empty and the players. */
MethodRun SageRun(SageResponse response, const std::string& out_dir) {
  auto r = std::make_shared<const SageResponse>(std::move(response));
  const SageValues& v = r->values;
  const std::size_t P = v.phi.size();
  MethodRun run;
  run.method = "sage";
  run.console = detail::SageConsoleText(r->Report(), out_dir);
  std::vector<double> se = v.phi_se;
  se.resize(P, 0.0);
  run.arrays = {{"phi", {P}, v.phi},
                {"phi_se", {P}, se},
                {"metric_full", {}, {v.metric_full}},
                {"metric_empty", {}, {v.metric_empty}}};
  if (!r->splits.empty()) {
    run.arrays.push_back({"phi_std", {P}, r->phi_std});
    std::vector<double> by_split;
    for (const SageValues& s : r->splits) by_split.insert(by_split.end(), s.phi.begin(), s.phi.end());
    run.arrays.push_back({"phi_by_split", {r->splits.size(), P}, by_split});
  }
  if (r->retrain) {
    run.arrays.push_back({"shapauc", {P}, r->retrain->shapauc});
    run.arrays.push_back({"shapauc_std", {P}, r->retrain->shapauc_std});
  }
  run.names = {{"players", v.players}};
  run.reporter =
      detail::ReporterOf([r](detail::ReportContent& out) { detail::BuildSageReport(out, r->Report()); });
  return run;
}

MethodRun Run(const MethodInputs& in, const GivenOptions& given) {
  Request parsed = ParseWith<Request, MakeOptions>(given);
  SageRequest& request = parsed.request;
  TakePredictionInputs(in, "sage", request);
  if (in.splits) request.splits.emplace();
  if (request.splits) {
    TakeSplits(in, given, "sage", *request.splits);
    if (!Named(given, "cv") && !request.splits->explicit_splits())
      throw InvalidArgument(
          "sage: test_size and stratify shape the splits of cv: give cv (or explicit splits, split) "
          "with them",
          {"test_size", "stratify", "cv"});
  }
  if (request.data.generated())
    throw InvalidArgument(
        "sage needs the rows whose performance it decomposes: give data (a CSV file or a table) "
        "with its label",
        {"data"});
  ShapOptions& opt = request.options;
  ApplySolver(parsed.solver, request.seed, opt.solver, opt.solver_options);
  in.Wire(opt.solver_options.execution, "coalitions");
  return SageRun(RunSage(request), in.out_dir);
}

}  // namespace sage_method
}  // namespace

MethodEntry SageMethod() {
  return {"sage",
          "SAGE: decompose a model's performance (log-loss, MSE, AUC...) over its features, marginal or "
          "conditional",
          {InputRole::kData, InputRole::kTrain, InputRole::kBackground, InputRole::kModel,
           InputRole::kLearner, InputRole::kSplits},
          OptionsOnce<sage_method::MakeOptions>().options(),
          sage_method::Run};
}

}}}  // namespace perfshap::api
