// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap chains`: Shapley Chains (Ayad et al.) of a classifier chain: direct contributions of
// each link by interventional SHAP, indirect ones by eqs. 4-6, per order or over every order, next
// to the same outputs explained by independent classifiers. Data: the paper's xor data (the
// default, generated), --data F --outputs a,b,c, or --adult FILE (prepared as the paper's section
// 4.2). Flags -> MultiOutputData, orders -> ExplainChain per order -> the chains reporter.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "commands.hpp"
#include "perfshap/chains.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "perfshap/generators.hpp"
#include "perfshap/learner.hpp"
#include "perfshap/split.hpp"
#include "report/chains_report.hpp"

namespace perfshap::cli {

namespace {

struct ChainsCliOptions {
  CommonOptions common;
  std::string outputs;
  std::string adult;
  std::string order;
  std::string orders;
  std::string model = "logistic";
  std::vector<std::string> model_params;
  std::size_t background = 100;
  std::size_t rows = 0;
  std::size_t xor_rows = 1000;
  double test_size = 0.2;
  bool signed_weights = false;
  std::size_t max_outputs = 6;
  SolverCliOptions solver;
};

MultiOutputData FromFile(const ChainsCliOptions& o) {
  const CommonOptions& c = o.common;
  const std::vector<std::string> names = SplitList(o.outputs);
  if (names.empty()) throw InvalidArgument("--data needs --outputs a,b,c: the binary output columns of the chain");
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (names[i] == names[k]) throw InvalidArgument("--outputs lists '" + names[i] + "' twice");
  CsvOptions csv;
  csv.allow_no_label = true;
  csv.missing = MissingPolicy(c);
  const Dataset raw = ReadInput(c.data, csv);
  MultiOutputData m;
  std::vector<std::string> feature_names;
  std::vector<std::vector<double>> columns;
  for (const std::string& name : names) {
    const auto& all = raw.feature_names();
    const auto it = std::find(all.begin(), all.end(), name);
    if (it == all.end())
      throw DataError(c.data + " has no column '" + name + "' (an output of --outputs); its columns: " + Join(all, ", "));
    const auto col = raw.column(static_cast<std::size_t>(it - all.begin()));
    m.output_names.push_back(name);
    m.outputs.emplace_back(col.begin(), col.end());
  }
  for (std::size_t j = 0; j < raw.n_features(); ++j) {
    const std::string& name = raw.feature_names()[j];
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    if (raw.encoding(j))
      throw DataError(c.data + ": column '" + name +
                      "' holds text; chains takes numeric features (encode it, or use --adult for the Adult data)");
    feature_names.push_back(name);
    columns.emplace_back(raw.column(j).begin(), raw.column(j).end());
  }
  if (feature_names.empty()) throw DataError(c.data + " has no feature column besides the outputs");
  m.features = Dataset(feature_names, std::move(columns), {}, "");
  m.features.set_source(c.data);
  return m;
}

std::vector<std::size_t> ParseOrder(const std::string& text, const MultiOutputData& m) {
  std::vector<std::size_t> order;
  for (const std::string& name : SplitList(text)) {
    const auto it = std::find(m.output_names.begin(), m.output_names.end(), name);
    if (it == m.output_names.end())
      throw InvalidArgument("--order names '" + name + "', which is not an output (" + Join(m.output_names, ", ") + ")");
    const auto k = static_cast<std::size_t>(it - m.output_names.begin());
    if (std::find(order.begin(), order.end(), k) != order.end())
      throw InvalidArgument("--order lists '" + name + "' twice");
    order.push_back(k);
  }
  if (order.size() != m.output_names.size())
    throw InvalidArgument("--order must list every output once (" + Join(m.output_names, ", ") + ")");
  return order;
}

void RunChains(const ChainsCliOptions& o) {
  const CommonOptions& c = o.common;
  if (!o.order.empty() && !o.orders.empty()) throw InvalidArgument("give either --order a,b,c or --orders all, not both");
  if (!o.orders.empty() && o.orders != "all") throw InvalidArgument("--orders takes 'all' (every chain order)");
  if (!c.data.empty() && !o.adult.empty()) throw InvalidArgument("give either --data FILE --outputs ... or --adult FILE");
  if (c.data.empty() && !o.outputs.empty()) throw InvalidArgument("--outputs names columns of --data FILE");
  if (o.background == 0) throw InvalidArgument("--background must be at least 1 row");
  PrepareOut(c);
  const auto t0 = std::chrono::steady_clock::now();
  MultiOutputData m;
  if (!o.adult.empty()) {
    m = PrepareAdultChains(o.adult);
  } else if (!c.data.empty()) {
    m = FromFile(o);
  } else {
    const LogicChainData d = GenerateLogicChainData(o.xor_rows, c.seed);
    m.features = d.data;
    m.output_names = d.output_names;
    m.outputs = d.outputs;
  }
  std::vector<std::vector<std::size_t>> orders;
  if (o.orders == "all") {
    orders = AllChainOrders(m.output_names.size(), o.max_outputs);
  } else if (!o.order.empty()) {
    orders.push_back(ParseOrder(o.order, m));
  } else {
    std::vector<std::size_t> natural(m.output_names.size());
    std::iota(natural.begin(), natural.end(), std::size_t{0});
    orders.push_back(natural);
  }
  const Split split = HoldoutSplit(m.features.n_rows(), o.test_size, c.seed);
  std::vector<std::size_t> explain = split.test;
  if (o.rows > 0 && o.rows < explain.size()) explain.resize(o.rows);
  const auto learner = MakeCommandLearner(o.model, ModelParams(o.model_params));
  ChainOptions co;
  co.background = o.background;
  co.seed = c.seed;
  co.signed_weights = o.signed_weights;
  ApplySolverOptions(o.solver, c.seed, co.shap.solver, co.shap.solver_options);
  co.shap.solver_options.execution = MakeExecution(c, "coalitions");
  {
    // Every order and the independent classifiers, before the first chain is fitted.
    const std::size_t nb = std::min(o.background, split.train.size());
    const std::size_t F = m.features.n_features();
    const std::size_t M = m.output_names.size();
    CheckCost(CostEstimate::Sequence(
                  "chains", {EstimateFitCost("chains", *learner, split.train.size(), F + M),
                             EstimateChainsCost(explain.size(), nb, F, M, orders.size(), co.shap),
                             EstimateChainsCost(explain.size(), nb, F, 1, M, co.shap)}),
              co.shap.solver_options.execution, kChainsRemedy, {"rows", "background", "solver", "budget"});
    co.shap.solver_options.execution.on_estimate = nullptr;  // said once
  }
  detail::ChainsReport report;
  report.data = m.features.source();
  report.output_names = m.output_names;
  report.features = m.features.feature_names();
  report.rows = explain;
  report.background = std::min(o.background, split.train.size());
  report.signed_weights = o.signed_weights;
  report.learner = learner->name();
  report.learner_params = learner->params();
  report.seed = c.seed;
  report.threads = ResolvedThreads(co.shap.solver_options.execution);
  for (const auto& order : orders) report.orders.push_back(ExplainChain(*learner, m, order, split.train, explain, co));
  // Independent classifiers: each output alone over the features, a chain of one.
  for (std::size_t out = 0; out < m.output_names.size(); ++out) {
    MultiOutputData single;
    single.features = m.features;
    single.output_names = {m.output_names[out]};
    single.outputs = {m.outputs[out]};
    const ChainOrderExplanation e = ExplainChain(*learner, single, {0}, split.train, explain, co);
    report.independent.push_back(e.global_direct[0]);
  }
  report.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Say(c, detail::ChainsConsoleText(report));
  Report(c, [report = std::move(report)](detail::OutputDir& out) { detail::WriteChainsReport(out, report); });
  if (!c.out.empty()) Say(c, "  wrote " + c.out + "/result.json, direct.csv, indirect.csv and the SVGs\n");
}

}  // namespace

void SetupChains(CLI::App& app) {
  auto o = std::make_shared<ChainsCliOptions>();
  AddCommonOptions(app, o->common, 0);
  app.add_option("--outputs", o->outputs, "with --data: the binary output columns, comma-separated");
  app.add_option("--adult", o->adult, "the UCI Adult CSV, prepared as the paper's section 4.2 (outputs sex, income, occupation_white_collar)");
  app.add_option("--order", o->order, "the chain order, comma-separated outputs (default: as listed)");
  app.add_option("--orders", o->orders, "all: every order of the outputs (eq. 3 averages them)");
  app.add_option("--max-outputs", o->max_outputs, "--orders all refuses more outputs than this")->capture_default_str();
  app.add_option("--model", o->model, Join(LearnerNames(), "|") + ": the links' binary learner")->capture_default_str();
  AddModelParamOption(app, o->model_params);
  app.add_option("--background", o->background, "background rows of the links' SHAP, drawn from the training rows")
      ->capture_default_str();
  app.add_option("--rows", o->rows, "explain the first N test rows (default: every test row)");
  app.add_option("--xor-rows", o->xor_rows, "rows of the generated xor data")->capture_default_str();
  app.add_option("--test-size", o->test_size, "test fraction of the split")->capture_default_str()->check(CLI::Range(0.01, 0.99));
  app.add_flag("--signed", o->signed_weights, "eq. 6 with the signed direct contributions in W's numerator");
  AddSolverOptions(app, o->solver, "coalitions per link");
  o->solver.solver = "auto";
  app.callback([o] { RunChains(*o); });
}

}  // namespace perfshap::cli
