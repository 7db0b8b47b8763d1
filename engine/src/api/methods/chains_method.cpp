// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `chains`: Shapley Chains, the direct and indirect contributions of the features to every output
// of a classifier chain (api::RunChains); the record's reporter is the chains' (report/
// chains_report.hpp).
#include <memory>
#include <utility>

#include "api/chains_request.hpp"
#include "api/registry.hpp"
#include "api/methods/method_kit.hpp"
#include "api/shared_options.hpp"

namespace perfshap { inline namespace v0 { namespace api {

// In a namespace of its own within the anonymous one: another method's file may share its
// unity unit, with helpers of the same names.
namespace {
namespace chains_method {

using Request = WithSolver<ChainsRequest>;
using Ctx = RequestOptions<Request>::ParseContext;

constexpr auto Field = [](auto field) { return Member<Request>(&Request::request, field); };

RequestOptions<Request> MakeOptions() {
  RequestOptions<Request> t("chains");
  t.Include<DataInput>(DataOptionGroup(), Field(&ChainsRequest::data));
  t.Add("outputs", Field(&ChainsRequest::outputs)).Value("A,B,...").Help("with data: the binary output columns");
  t.Add("adult", Field(&ChainsRequest::adult))
      .Value("FILE")
      .Help("the UCI Adult CSV, prepared as the paper's section 4.2 (outputs sex, income, occupation_white_collar)");
  t.AddParsed("order", OptionType::kList, "", [](const Ctx& c, Request& r) {
     r.request.order = perfshap::detail::ParseListOption(c.method, c.option.info, c.text);
   })
      .Value("A,B,...")
      .Help("the chain order, the outputs (default: as listed)");
  t.AddParsed("orders", OptionType::kText, "", [](const Ctx& c, Request& r) {
     r.request.all_orders = perfshap::detail::ParseTextOption(c.method, c.option.info, c.text) == "all";
   })
      .Choices({"all"})
      .Help("all: every order of the outputs (eq. 3 averages them)");
  t.Add("max_outputs", Field(&ChainsRequest::max_outputs)).Help("orders=all refuses more outputs than this");
  t.Include<LearnerInput>(LearnerOptionGroup(), Field(&ChainsRequest::learner));
  t.SetDefault("model", "logistic");
  t.Add("background", Field(&ChainsRequest::background))
      .AtLeast(1)
      .Help("background rows of the links' SHAP, drawn from the training rows");
  t.Add("rows", Field(&ChainsRequest::rows)).Help("explain the first N test rows (0: every test row)");
  t.Add("xor_rows", Field(&ChainsRequest::xor_rows)).Help("rows of the generated xor data");
  t.Add("test_size", Field(&ChainsRequest::test_size)).AtLeast(0.01).AtMost(0.99).Help("test fraction of the split");
  t.Add("signed", Field(&ChainsRequest::signed_weights))
      .Switch()
      .Help("eq. 6 with the signed direct contributions in W's numerator");
  DeclareSeedSolverExecution<ChainsRequest>(
      t, Field(&ChainsRequest::seed), "random seed (the split, the background, generated data)",
      [](Request& r) -> ExecutionOptions& { return r.request.shap.solver_options.execution; });
  t.SetDefault("solver", "auto");
  return t;
}

MethodRun Run(const MethodInputs& in, const GivenOptions& given) {
  Request parsed = ParseWith<Request, MakeOptions>(given);
  ChainsRequest& request = parsed.request;
  TakeTable(in.data, request.data, "chains", "the data", "data");
  if (in.learner != nullptr) request.learner.learner = in.learner;
  ApplySolver(parsed.solver, request.seed, request.shap.solver, request.shap.solver_options);
  in.Wire(request.shap.solver_options.execution, "coalitions");
  MethodRun run = ChainsMethodRun(RunChains(request));
  if (!in.out_dir.empty()) run.console += "  wrote " + in.out_dir + "/result.json, direct.csv, indirect.csv and the SVGs\n";
  return run;
}

}  // namespace chains_method
}  // namespace

MethodEntry ChainsMethod() {
  return {
      "chains",
      "Shapley Chains: direct and indirect contributions of features to every output of a classifier chain",
      {InputRole::kData, InputRole::kLearner},
      OptionsOnce<chains_method::MakeOptions>().options(),
      chains_method::Run};
}

}}}  // namespace perfshap::api
