// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `robustness`: ShapAUC, ShapROC, ShapPRC and ShapAUPRC by retraining the learner on coalitions,
// with bands over the splits (api::RunRobustness); the record's reporter is robustness's
// (report/robustness_report.hpp).
#include <algorithm>
#include <utility>

#include "api/registry.hpp"
#include "api/robustness_request.hpp"
#include "api/methods/method_kit.hpp"
#include "api/shared_options.hpp"
#include "perfshap/blocks/curves.hpp"
#include "perfshap/robustness.hpp"
#include "report/format.hpp"

namespace perfshap { inline namespace v0 { namespace api {

// In a namespace of its own within the anonymous one: another method's file may share its
// unity unit, with helpers of the same names.
namespace {
namespace robustness_method {

using Request = WithSolver<RobustnessRequest>;
using Ctx = RequestOptions<Request>::ParseContext;

constexpr auto Field = [](auto field) { return Member<Request>(&Request::request, field); };
constexpr auto Option = [](auto field) {
  return Member<Request>(&Request::request, &RobustnessRequest::options, field);
};

/** A learner option with a name of its own (C, no_standardize), refused with model_param's. */
void SetLearnerParam(const Ctx& c, Request& r, const std::string& key, std::string value) {
  if (r.request.learner.params.count(key) != 0)
    throw InvalidArgument(c.method + ": options " + c.option.info.name + " and model_param both set " + key +
                              "; give one of them",
                          {c.option.info.name, "model_param"});
  r.request.learner.params[key] = std::move(value);
}

void DeclareLearner(RequestOptions<Request>& t) {
  t.Include<LearnerInput>(LearnerOptionGroup(), Field(&RobustnessRequest::learner));
  t.SetDefault("model", "gnb");
  t.AddParsed("C", OptionType::kNumber, "", [](const Ctx& c, Request& r) {
     const double v = perfshap::detail::ParseNumberOption(c.method, c.option.info, c.text);
     SetLearnerParam(c, r, "C", detail::Fmt("%.17g", v));
   })
      .Above(0)
      .Help("logistic: inverse L2 strength (sklearn LogisticRegression C); a learner option, as model_param C=");
  t.AddParsed("no_standardize", OptionType::kBool, "", [](const Ctx& c, Request& r) {
     if (perfshap::detail::ParseBoolOption(c.method, c.option.info, c.text)) SetLearnerParam(c, r, "standardize", "false");
   })
      .Switch()
      .Help("logistic/probit/linear: fit on raw columns (no StandardScaler); as model_param standardize=false");
}

void DeclareCurves(RequestOptions<Request>& t) {
  t.Add("grid", Option(&RobustnessOptions::grid_points))
      .Sets("grid_points")
      .AtLeast(2)
      .AtMost(100001)
      .Help("points of the FPR and recall grids from 0 to 1");
  t.AddParsed("strategy", OptionType::kText, "interpolation", [](const Ctx& c, Request& r) {
     r.request.options.curves.strategy =
         ParseGridStrategy(perfshap::detail::ParseTextOption(c.method, c.option.info, c.text));
   })
      .Choices({"optimistic", "pessimistic", "interpolation"})
      .Help("reading between curve points");
  t.AddParsed("curve_points", OptionType::kText, "exact",
              [](const Ctx& c, Request& r) { ParseCurvePoints(c.text, r.request.options.curves); })
      .Value("exact|thresholds:T")
      .Sets("curves")
      .Help("exact (every distinct score) or thresholds:101 (the authors' scripts)");
  t.AddParsed("prc_baseline", OptionType::kText, "0.5",
              [](const Ctx& c, Request& r) { r.request.options.prc_baseline = ParsePrcBaseline(c.text); })
      .Value("B|prevalence")
      .Help("b of ShapPRC/ShapAUPRC: 0.5 (paper) or prevalence");
  t.Add("slice_fpr", Field(&RobustnessRequest::slice_fpr))
      .AtLeast(0)
      .AtMost(1)
      .Help("FPR of the waterfall slice figure");
}

RequestOptions<Request> MakeOptions() {
  RequestOptions<Request> t("robustness");
  t.Include<DataInput>(DataOptionGroup(), Field(&RobustnessRequest::data));
  t.Add<std::size_t>("rows", [](Request& r) -> std::size_t& { return r.request.data.generated_rows; })
      .AtLeast(10)
      .AtMost(100000000)
      .Help("rows of the built-in probit design (without data)");
  DeclareLearner(t);
  t.Include<SplitInput>(SplitOptionGroup(), Field(&RobustnessRequest::splits));
  DeclareCurves(t);
  t.Add("select", Option(&RobustnessOptions::select))
      .Switch()
      .Help("retrain without the flagged features (section 4.4), report before/after");
  t.Add("interactions", Option(&RobustnessOptions::interactions))
      .Switch()
      .Help("the Shapley interaction index of every feature pair on the AUC, mean and std over the splits (exact "
            "solver, up to 20 features): interactions.csv and result.json's interactions");
  t.Add("checkpoint", Option(&RobustnessOptions::checkpoint))
      .Value("DIR")
      .Help("keeps every finished split: a run killed and started again with the same options skips them and gives "
            "bitwise the uninterrupted result (under MPI, on a file system all processes see)");
  t.Add("metrics", Option(&RobustnessOptions::extra_metrics))
      .Value("A,B,...")
      .Sets("extra_metrics")
      .Sets("metric").Help("extra metrics explained too");
  DeclareExactLimit<Request>(t, Option(&RobustnessOptions::max_features), "trainings per split");
  DeclareSeedSolverExecution<RobustnessRequest>(t, Field(&RobustnessRequest::seed),
                                                "random seed (splits, generated data, sampled solvers)",
                                                Option(&RobustnessOptions::execution));
  return t;
}

MethodRun Run(const MethodInputs& in, const GivenOptions& given) {
  Request parsed = ParseWith<Request, MakeOptions>(given);
  RobustnessRequest& request = parsed.request;
  request.warm_up_pool = true;  // the pool starts while the data and the splits are read
  TakeTable(in.data, request.data, "robustness", "the data", "data");
  if (in.learner != nullptr) request.learner.learner = in.learner;
  TakeSplits(in, given, "robustness", request.splits);
  RobustnessOptions& opt = request.options;
  ApplySolver(parsed.solver, request.seed, opt.solver, opt.sampling);
  opt.checkpoint_fingerprint = "perfshap robustness";
  in.Wire(opt.execution, "coalitions");
  return RobustnessMethodRun(RunRobustness(request), in.out_dir);
}

}  // namespace robustness_method
}  // namespace

MethodEntry RobustnessMethod() {
  return {"robustness",
          "ShapAUC/ShapROC/ShapPRC: explain AUC and the ROC/PR curves by retraining on coalitions "
          "(all, or sampled), with CV bands",
          {InputRole::kData, InputRole::kLearner, InputRole::kSplits},
          OptionsOnce<robustness_method::MakeOptions>().options(),
          robustness_method::Run};
}

}}}  // namespace perfshap::api
