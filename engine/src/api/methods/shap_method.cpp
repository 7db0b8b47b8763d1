// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `shap` and `treeshap`: SHAP values of a model's predictions, per row and globally
// (api::RunShap: interventional, by retraining, or TreeSHAP of a tree model's margin);
// `treeshap` is `shap` with the tree approach and no solver. The record's reporter is SHAP's
// (report/shap_report.hpp).
#include <charconv>
#include <string>
#include <utility>

#include "api/methods/method_kit.hpp"
#include "api/methods/prediction_options.hpp"
#include "api/registry.hpp"
#include "api/shap_request.hpp"
#include "api/shared_options.hpp"

namespace perfshap { inline namespace v0 { namespace api {

// In a namespace of its own within the anonymous one: another method's file may share its
// unity unit, with helpers of the same names.
namespace {
namespace shap_method {

using Request = WithSolver<ShapRequest>;
using Ctx = RequestOptions<Request>::ParseContext;

/** "I..J", "I,J" (a pair from JSON and Python) or "I": rows I to J, 0-based, I <= J. */
bool RowRange(const std::string& text, std::size_t& first, std::size_t& last) {
  const auto number = [](const char* a, const char* b, std::size_t& v) {
    const auto [p, ec] = std::from_chars(a, b, v);
    return a != b && ec == std::errc() && p == b;
  };
  const char* begin = text.data();
  const char* end = begin + text.size();
  std::size_t at = text.find("..");
  std::size_t skip = 2;
  if (at == std::string::npos) at = text.find(','), skip = 1;
  if (at == std::string::npos) return number(begin, end, first) && ((last = first), true);
  return number(begin, begin + at, first) && number(begin + at + skip, end, last) && first <= last;
}

void DeclareRows(RequestOptions<Request>& t, bool treeshap) {
  t.AddParsed("output", OptionType::kText, "", [](const Ctx& c, Request& r) {
     r.request.output = ParseShapOutput(perfshap::detail::ParseTextOption(c.method, c.option.info, c.text));
   })
      .Choices({"probability", "margin"})
      .Help("probability (the model's prediction) or margin (log-odds / raw score); default: probability, the "
            "margin for TreeSHAP");
  DeclareBackground<ShapRequest>(
      t,
      treeshap
          ? "with it, interventional TreeSHAP against N rows drawn with the seed (default: path-dependent, "
            "by the trees' covers)"
          : "background rows drawn with the seed from train (or data for a model_file); default 100");
  t.AddParsed("rows", OptionType::kText, "", [](const Ctx& c, Request& r) {
     std::size_t first = 0, last = 0;
     if (!RowRange(c.text, first, last)) c.Refuse("I..J, the first and last rows to explain (0-based, I <= J)");
     r.request.rows = std::make_pair(first, last);
   })
      .Value("I..J")
      .TakesList()
      .Help("explain rows I to J of data (0-based, both included; default all)");
  t.AddParsed("explain_row", OptionType::kInteger, "", [](const Ctx& c, Request& r) {
     r.request.explain_row = perfshap::detail::ParseUnsignedOption(c.method, c.option.info, c.text);
   })
      .AtLeast(0)
      .Help("the row of data the waterfall shows (default: the first explained)");
  t.Add<bool>("interactions", [](Request& r) -> bool& { return r.request.interactions; })
      .Switch()
      .Help(std::string("SHAP interaction values too (") +
            (treeshap ? "" : "tree or interventional approach, sampled with se past exact: ") +
            "interactions.csv, result.json interactions, shap_interactions.svg)");
  t.Add<std::vector<std::string>>("interaction_features",
                                  [](Request& r) -> std::vector<std::string>& { return r.request.interaction_features; })
      .Value("A,B,...")
      .Help("only the interactions of these k features with every other (memory: rows x k x features instead of "
            "rows x features^2); implies interactions");
}

RequestOptions<Request> MakeOptions(bool treeshap) {
  RequestOptions<Request> t(treeshap ? "treeshap" : "shap");
  t.Include<DataInput>(DataOptionGroup(), [](Request& r) -> DataInput& { return r.request.data; });
  DeclarePredictionModel<ShapRequest>(t);
  if (!treeshap)
    t.AddParsed("approach", OptionType::kText, "interventional", [](const Ctx& c, Request& r) {
       r.request.approach = ParseShapApproach(perfshap::detail::ParseTextOption(c.method, c.option.info, c.text));
     })
        .Choices({"interventional", "retrain", "tree"})
        .Help("interventional (one model, features off the coalition from background rows), retrain (the learner "
              "refitted on every coalition) or tree (TreeSHAP of a tree model's margin)");
  if (!treeshap) DeclareValueFunction<ShapRequest>(t);
  DeclareRows(t, treeshap);
  DeclareSeedSolverExecution<ShapRequest>(
      t, Member<Request>(&Request::request, &ShapRequest::seed),
      "random seed (the background, a forest's trees, sampled solvers)",
      [](Request& r) -> ExecutionOptions& { return r.request.options.solver_options.execution; }, !treeshap);
  if (!treeshap) t.SetDefault("solver", "auto");
  return t;
}

const RequestOptions<Request>& OptionsOf(bool treeshap) {
  static const RequestOptions<Request> shap = MakeOptions(false);
  static const RequestOptions<Request> tree = MakeOptions(true);
  return treeshap ? tree : shap;
}

MethodRun Run(const MethodInputs& in, const GivenOptions& given, bool treeshap) {
  const std::string method = treeshap ? "treeshap" : "shap";
  Request parsed;
  if (treeshap) parsed.solver.solver = std::string("exact");  // unused by TreeSHAP
  OptionsOf(treeshap).Parse(given, parsed);
  ShapRequest& request = parsed.request;
  if (treeshap) request.approach = ShapApproach::kTree;
  TakePredictionInputs(in, method, request);
  if (request.data.generated())
    throw InvalidArgument(method + " needs the rows to explain: give data (a CSV file or a table)", {"data"});
  if (request.model.iteration_range && !request.model.given())
    throw InvalidArgument("iteration_range selects boosting rounds of an XGBoost model: give the model (model_file)",
                          {"iteration_range", "model_file"});
  ShapOptions& opt = request.options;
  ApplySolver(parsed.solver, request.seed, opt.solver, opt.solver_options);
  in.Wire(opt.solver_options.execution, "coalitions");
  return ShapMethodRun(RunShap(request), in.out_dir, method);
}

/** shap's and treeshap's entries: the same inputs, their own options (OptionsOf). */
MethodEntry Entry(bool tree, std::string name, std::string description) {
  return {std::move(name),
          std::move(description),
          {InputRole::kData, InputRole::kTrain, InputRole::kBackground, InputRole::kModel, InputRole::kLearner},
          OptionsOf(tree).options(),
          [tree](const MethodInputs& in, const GivenOptions& given) { return Run(in, given, tree); }};
}

}  // namespace shap_method
}  // namespace

MethodEntry ShapMethod() {
  return shap_method::Entry(false, "shap",
                            "SHAP: explain a model's predictions (interventional, by retraining, or "
                            "TreeSHAP), per row and globally");
}

MethodEntry TreeShapMethod() {
  return shap_method::Entry(
      true, "treeshap",
      "TreeSHAP: exact SHAP of a tree model's margins (XGBoost JSON, model tree|forest), threaded");
}

}}}  // namespace perfshap::api
