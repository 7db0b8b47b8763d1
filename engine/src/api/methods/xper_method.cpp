// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `xper`: XPER, a model's performance metric decomposed over its features, globally and for every
// individual of the sample (api::RunXper: the model given by its coefficients, fitted on a
// training sample, or an XGBoost model; the heterogeneity analysis and the overfitting view); the
// record's reporter is XPER's (report/xper_report.hpp).
#include <charconv>
#include <utility>

#include "api/methods/method_kit.hpp"
#include "api/methods/prediction_options.hpp"
#include "api/registry.hpp"
#include "api/shared_options.hpp"
#include "api/xper_request.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/xper.hpp"

namespace perfshap { inline namespace v0 { namespace api {

// In a namespace of its own within the anonymous one: another method's file may share its
// unity unit, with helpers of the same names.
namespace {
namespace xper_method {

using Request = WithSolver<XperRequest>;
using Ctx = RequestOptions<Request>::ParseContext;

constexpr auto Option = [](auto field) { return Member<Request>(&Request::request, &XperRequest::options, field); };

void DeclareModel(RequestOptions<Request>& t) {
  t.Include<LearnerInput>(LearnerOptionGroup(), [](Request& r) -> LearnerInput& { return r.request.model.learner; });
  t.AddParsed("coef", OptionType::kText, "", [](const Ctx& c, Request& r) { r.request.model.coefficients = c.text; })
      .Value("FILE")
      .Sets("coefficients")
      .Help("CSV name,coef with 'const' first: an already-fitted model (probit, logistic or linear)");
  t.Include<GivenModelInput>(ModelFileOptionGroup(),
                             [](Request& r) -> GivenModelInput& { return r.request.model; });
  DeclareTrainFile<Request>(
      t, [](Request& r) -> std::optional<DataInput>& { return r.request.model.train; },
      "CSV with the same columns: fit model on it");
}

void DeclareMetric(RequestOptions<Request>& t) {
  std::string metrics;
  for (const std::string& name : MetricNames("xper")) metrics += (metrics.empty() ? "" : "|") + name;
  t.Add("metric", Option(&XperOptions::metric)).Help(metrics + ": the performance metric decomposed");
  t.Add("cfp", Option(&XperOptions::cfp)).Help("cost of a false positive (metric cost)");
  t.Add("cfn", Option(&XperOptions::cfn)).Help("cost of a false negative (metric cost)");
  t.Add("threshold", Option(&XperOptions::threshold)).Help("class rule of the 0/1 metrics: prediction > threshold");
  t.AddParsed("comparator", OptionType::kText, "full", [](const Ctx& c, Request& r) {
     r.request.options.comparator =
         ParseXperComparator(perfshap::detail::ParseTextOption(c.method, c.option.info, c.text));
   })
      .Choices({"full", "permuted"})
      .Help("AUC comparison sample: full (all n^2 hybrid points, exact) or permuted (one permutation, as the XPER "
            "package)");
  t.AddParsed("permutation", OptionType::kText, "", [](const Ctx& c, Request& r) { r.request.permutation_file = c.text; })
      .Value("FILE")
      .Help("file with pi for comparator permuted: one 0-based index per line");
}

void DeclareAnalyses(RequestOptions<Request>& t) {
  t.AddParsed("explain_row", OptionType::kInteger, "", [](const Ctx& c, Request& r) {
     r.request.explain_row = perfshap::detail::ParseUnsignedOption(c.method, c.option.info, c.text);
   })
      .AtLeast(0)
      .Help("print and record the decomposition of this sample row (0-based)");
  t.AddParsed("clusters", OptionType::kText, "", [](const Ctx& c, Request& r) {
     std::size_t k = 0;
     const auto [p, ec] = std::from_chars(c.text.data(), c.text.data() + c.text.size(), k);
     if (c.text == "auto")
       k = 0;
     else if (c.text.empty() || ec != std::errc() || p != c.text.data() + c.text.size() || k < 2)
       c.Refuse("auto (k = 2..10 by the silhouette) or a number of clusters >= 2");
     r.request.clusters = k;
   })
      .Value("auto|K")
      .Help("k-medoids (PAM) on the individual XPER values (of the train sample when given, then one model refitted "
            "per cluster); auto picks k = 2..10 by the silhouette");
  t.Add<bool>("overfit", [](Request& r) -> bool& { return r.request.overfit; })
      .Switch()
      .Help("with train: the same decomposition on the training and the test samples side by side");
  t.Add("interactions", Option(&XperOptions::interactions))
      .Switch()
      .Help("the features' pairwise Shapley interactions on the metric too (interactions.csv, result.json "
            "interactions, xper_interactions.svg; sampled with standard errors when the solver samples)");
}

RequestOptions<Request> MakeOptions() {
  RequestOptions<Request> t("xper");
  t.Include<DataInput>(DataOptionGroup(), [](Request& r) -> DataInput& { return r.request.data; });
  DeclareModel(t);
  DeclareMetric(t);
  DeclareAnalyses(t);
  DeclareValueFunction<XperRequest>(t);
  DeclareBackground<XperRequest>(
      t,
      "a conditional value function's training rows: this many drawn with the seed from the training sample "
      "(train) or the data (default: all of them)");
  DeclareExactLimit<Request>(t, Option(&XperOptions::max_features), "coalitions");
  DeclareSeedSolverExecution<XperRequest>(t, Option(&XperOptions::seed),
                                          "random seed (permutations, generated data, sampled solvers)",
                                          Option(&XperOptions::execution));
  t.SetDefault("seed", std::to_string(kXperDefaultSeed));
  return t;
}

MethodRun Run(const MethodInputs& in, const GivenOptions& given) {
  Request parsed = ParseWith<Request, MakeOptions>(given);
  XperRequest& request = parsed.request;
  TakeTable(in.data, request.data, "xper", "the data", "data");
  XperModelInput& m = request.model;
  TakeTable(in.train, m.train, "xper", "the training sample", "train");
  TakeTable(in.background, request.background_rows, "xper", "the background", "background_file");
  TakeModel(in.model, m, "xper");
  if (in.learner != nullptr) m.learner.learner = in.learner;
  if (m.iteration_range && !m.given())
    throw InvalidArgument("iteration_range selects boosting rounds of an XGBoost model: give the model (model_file)",
                          {"iteration_range", "model_file"});
  XperOptions& opt = request.options;
  ApplySolver(parsed.solver, opt.seed, opt.solver, opt.sampling);
  in.Wire(opt.execution, "coalitions");
  XperResponse response = RunXper(request);
  response.run.fixed_clusters = "fixed by clusters";  // the option that fixed k
  return XperMethodRun(std::move(response), in.out_dir);
}

}  // namespace xper_method
}  // namespace

MethodEntry XperMethod() {
  return {
      "xper",
      "XPER: decompose a model's performance metric over its features, globally and per individual",
      {InputRole::kData, InputRole::kTrain, InputRole::kBackground, InputRole::kModel, InputRole::kLearner},
      OptionsOnce<xper_method::MakeOptions>().options(),
      xper_method::Run};
}

}}}  // namespace perfshap::api
