// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `xper`: XPER, a model's performance metric decomposed over its features, globally and for every
// individual of the sample (api::RunXper: the model given by its coefficients, fitted on a
// training sample, or an XGBoost model; the heterogeneity analysis and the overfitting view); the
// record's reporter is XPER's (report/xper_report.hpp).
#include <charconv>
#include <utility>

#include "api/registry.hpp"
#include "api/shared_options.hpp"
#include "api/xper_request.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/xper.hpp"

namespace perfshap::inline v0::api {

namespace {

/** What the options set: the request, and the solver before it goes into the options. */
struct Request {
  XperRequest request;
  SolverChoice solver;
};
using Ctx = RequestOptions<Request>::ParseContext;

template <class V>
std::function<V&(Request&)> Option(V XperOptions::*field) {
  return [field](Request& r) -> V& { return r.request.options.*field; };
}

/** "A:B" or "A,B" (a list from JSON and Python): two whole numbers >= 0. */
bool WholePair(const std::string& text, std::int64_t& a, std::int64_t& b) {
  const std::size_t at = text.find_first_of(":,");
  if (at == std::string::npos) return false;
  const auto number = [](const char* first, const char* last, std::int64_t& v) {
    const auto [p, ec] = std::from_chars(first, last, v);
    return first != last && ec == std::errc() && p == last && v >= 0;
  };
  return number(text.data(), text.data() + at, a) && number(text.data() + at + 1, text.data() + text.size(), b);
}

void DeclareModel(RequestOptions<Request>& t) {
  t.Include<LearnerInput>(LearnerOptionGroup(), [](Request& r) -> LearnerInput& { return r.request.model.learner; });
  t.AddParsed("coef", OptionType::kText, "", [](const Ctx& c, Request& r) { r.request.model.coefficients = c.text; })
      .Value("FILE")
      .Sets("coefficients")
      .Help("CSV name,coef with 'const' first: an already-fitted model (probit, logistic or linear)");
  t.AddParsed("model_file", OptionType::kText, "", [](const Ctx& c, Request& r) {
     r.request.model.name = r.request.model.tree_file = c.text;
   })
      .Value("FILE")
      .Help("an XGBoost model saved as JSON (binary:logistic or reg:squarederror)");
  t.AddParsed("iteration_range", OptionType::kText, "", [](const Ctx& c, Request& r) {
     std::int64_t begin = 0, end = 0;
     if (!WholePair(c.text, begin, end))
       c.Refuse("BEGIN:END, the boosting rounds [BEGIN, END) to use (0-based, END 0 = to the last round)");
     r.request.model.iteration_range = IterationRange{begin, end};
   })
      .Value("BEGIN:END")
      .TakesList()
      .Help("the boosting rounds [BEGIN, END) of model_file to use (END 0 = to the last; 0:0 = all). Default: up "
            "to the model's best_iteration after early stopping, else all");
  t.AddParsed("train", OptionType::kText, "", [](const Ctx& c, Request& r) {
     DataInput train;
     train.path = c.text;
     r.request.model.train = train;
   })
      .Value("FILE")
      .Help("CSV with the same columns: fit model on it");
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
  t.Add("exact_limit", Option(&XperOptions::max_features))
      .AtLeast(1)
      .AtMost(30)
      .Alias("max_features")
      .Sets("max_players")
      .Help("largest number of players solved exactly (2^n coalitions)");
  t.Add("seed", Option(&XperOptions::seed)).Help("random seed (permutations, generated data, sampled solvers)");
  t.SetDefault("seed", std::to_string(kXperDefaultSeed));
  t.Include<SolverChoice>(SolverOptionGroup(), [](Request& r) -> SolverChoice& { return r.solver; });
  t.Include<ExecutionOptions>(ExecutionOptionGroup(),
                              [](Request& r) -> ExecutionOptions& { return r.request.options.execution; });
  return t;
}

const RequestOptions<Request>& OptionsOf() {
  static const RequestOptions<Request> t = MakeOptions();
  return t;
}

MethodRun Run(const MethodInputs& in, const GivenOptions& given) {
  Request parsed;
  OptionsOf().Parse(given, parsed);
  XperRequest& request = parsed.request;
  if (in.data != nullptr) {
    if (!request.data.path.empty())
      throw InvalidArgument("xper: give the data as a table or as a file (data), not both", {"data"});
    request.data.table = in.data;
  }
  XperModelInput& m = request.model;
  if (in.train != nullptr) {
    if (m.train) throw InvalidArgument("xper: give the training sample as a table or as a file (train), not both", {"train"});
    DataInput train;
    train.table = in.train;
    m.train = train;
  }
  if (in.model) {
    if (!m.tree_file.empty())
      throw InvalidArgument("xper: give the model in memory or as a file (model_file), not both", {"model_file"});
    const std::optional<IterationRange> range = m.iteration_range;  // an option, not the model's
    static_cast<GivenModelInput&>(m) = *in.model;
    m.iteration_range = range;
  }
  if (in.learner != nullptr) m.learner.learner = in.learner;
  if (m.iteration_range && !m.given())
    throw InvalidArgument("iteration_range selects boosting rounds of an XGBoost model: give the model (model_file)",
                          {"iteration_range", "model_file"});
  XperOptions& opt = request.options;
  opt.solver = parsed.solver.solver;
  opt.sampling = parsed.solver.sampling;
  opt.sampling.seed = opt.seed;
  in.Wire(opt.execution, "coalitions");
  XperResponse response = RunXper(request);
  response.run.fixed_clusters = "fixed by clusters";  // the option that fixed k
  return XperMethodRun(std::move(response), in.out_dir);
}

}  // namespace

MethodEntry XperMethod() {
  return {"xper",
          "XPER: decompose a model's performance metric over its features, globally and per individual",
          {InputRole::kData, InputRole::kTrain, InputRole::kModel, InputRole::kLearner},
          OptionsOf().options(),
          Run};
}

}  // namespace perfshap::api
