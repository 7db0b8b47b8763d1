// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap chains`: Shapley Chains (Ayad et al.) of a classifier chain: direct contributions of
// each link by interventional SHAP, indirect ones by eqs. 4-6, per order or over every order, next
// to the same outputs explained by independent classifiers. Data: the paper's xor data (the
// default, generated), --data F --outputs a,b,c, or --adult FILE (prepared as the paper's section
// 4.2). Flags -> api::ChainsRequest -> api::RunChains (the data, the orders, ExplainChain per order
// and the independent classifiers) -> the chains reporter.
#include <memory>

#include "api/chains_request.hpp"
#include "commands.hpp"
#include "perfshap/error.hpp"
#include "report/chains_report.hpp"

namespace perfshap::inline v0::cli {

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

void RunChains(const ChainsCliOptions& o) {
  const CommonOptions& c = o.common;
  if (!o.orders.empty() && o.orders != "all") throw InvalidArgument("--orders takes 'all' (every chain order)");
  PrepareOut(c);
  api::ChainsRequest request;
  request.data = CommandData(c, 0, "");
  request.outputs = SplitList(o.outputs);
  request.adult = o.adult;
  request.xor_rows = o.xor_rows;
  if (!o.order.empty()) request.order = SplitList(o.order);
  request.all_orders = o.orders == "all";
  request.max_outputs = o.max_outputs;
  request.learner = CommandLearner(o.model, ModelParams(o.model_params));
  request.background = o.background;
  request.rows = o.rows;
  request.test_size = o.test_size;
  request.signed_weights = o.signed_weights;
  request.seed = c.seed;
  ApplySolverOptions(o.solver, c.seed, request.shap.solver, request.shap.solver_options);
  request.shap.solver_options.execution = MakeExecution(c, "coalitions");
  auto report = std::make_shared<const detail::ChainsReport>(api::RunChains(request));
  Report(c, [report](detail::OutputDir& out) { detail::WriteChainsReport(out, *report); });
  Say(c, detail::ChainsConsoleText(*report));
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
