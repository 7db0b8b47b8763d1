// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap shap` and `perfshap treeshap`: Shapley values of a model's predictions for rows of
// --data. The model is an XGBoost JSON file (--model-file) or a learner fitted on --train
// (--model NAME); the approach is interventional (one model, a background sample), retrain
// (the learner retrained on every coalition) or tree (TreeSHAP of a tree model's margins;
// `treeshap` is `shap --approach tree`). Flags -> api::ShapRequest -> api::RunShap (the model,
// the explained and background rows in the model's feature order, ExplainInterventional /
// ExplainByRetraining / ExplainTrees) -> the shap reporter (report/shap_report.hpp).
#include <charconv>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>

#include "api/shap_request.hpp"
#include "commands.hpp"
#include "embed.hpp"
#include "perfshap/error.hpp"
#include "perfshap/shap.hpp"
#include "report/shap_report.hpp"

namespace perfshap::inline v0::cli {

namespace {

struct ShapCliOptions {
  CommonOptions common;
  std::string model_file;
  std::string iteration_range;
  std::string model;
  std::string train;
  std::string approach = "interventional";
  std::string output = "probability";
  std::size_t background = 100;
  std::string background_file;
  std::string rows;
  long long explain_row = -1;
  bool interactions = false;
  std::vector<std::string> interaction_features;
  int trees = 100;
  int max_depth = 0;
  std::vector<std::string> model_params;
  SolverCliOptions solver;
  CLI::Option* trees_option = nullptr;
  CLI::Option* max_depth_option = nullptr;
  CLI::Option* output_option = nullptr;
  CLI::Option* background_option = nullptr;
};

/** --rows I..J (0-based, both included); none for "" (every row). */
std::optional<std::pair<std::size_t, std::size_t>> ParseRows(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const auto dots = text.find("..");
  std::size_t first = 0;
  std::size_t last = 0;
  auto number = [](std::string_view s, std::size_t& v) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
  };
  const bool ok = dots == std::string::npos ? number(text, first) && (last = first, true)
                                            : number(std::string_view(text).substr(0, dots), first) &&
                                                  number(std::string_view(text).substr(dots + 2), last);
  if (!ok || first > last)
    throw InvalidArgument("--rows " + text +
                          ": give I..J, the first and last rows to explain (0-based, I <= J)");
  return std::make_pair(first, last);
}

void RunShap(const ShapCliOptions& o) {
  const CommonOptions& c = o.common;
  if (c.data.empty()) throw InvalidArgument("shap needs --data FILE: the rows to explain");
  PrepareOut(c);
  api::ShapRequest request;
  request.approach = api::ParseShapApproach(o.approach);
  // TreeSHAP explains the margin: --output is the request's only when given there.
  if (request.approach != api::ShapApproach::kTree || o.output_option->count() > 0)
    request.output = api::ParseShapOutput(o.output);
  request.data = CommandData(c, 0, "");
  request.seed = c.seed;
  // The model: --model-file (an XGBoost file) or --model NAME --train.
  api::ShapModelInput& m = request.model;
  m.learner = CommandLearner(o.model, ModelParams(o.model_params));
  if (!o.train.empty()) m.train = TableInput(o.train);
  if (o.max_depth_option->count() > 0) m.max_depth = o.max_depth;
  if (o.trees_option->count() > 0) m.trees = o.trees;
  m.iteration_range = ModelReadOptions(o.iteration_range, o.model_file).iteration_range;
  if (!o.model_file.empty()) {
    m.name = o.model_file;
    m.tree_file = o.model_file;
  }
  if (o.background_option != nullptr && o.background_option->count() > 0) request.background = o.background;
  if (!o.background_file.empty()) request.background_rows = TableInput(o.background_file);
  request.rows = ParseRows(o.rows);
  if (o.explain_row >= 0) request.explain_row = static_cast<std::size_t>(o.explain_row);
  request.interactions = o.interactions;
  request.interaction_features = o.interaction_features;
  ShapOptions& opt = request.options;
  ApplySolverOptions(o.solver, c.seed, opt.solver, opt.solver_options);
  opt.solver_options.execution = MakeExecution(c, "coalitions");

  auto r = std::make_shared<api::ShapResponse>(api::RunShap(request));
  // result.json names where the model and the background come from in the command's words.
  if (o.model_file.empty()) r->run.model_source = "--model " + o.model + " trained on " + o.train;
  if (o.background_file.empty() && r->run.background_rows > 0)
    r->run.background_source =
        (o.model_file.empty() ? "drawn from --train " + o.train : "drawn from --data " + c.data) +
        " with the seed";
  // The reporter owns what it reads (it may run after this function returns: Report). The files
  // first: the console then says they were written.
  Report(c, [r](detail::OutputDir& out) { detail::WriteShapReport(out, r->Report()); });
  Say(c, detail::ShapConsoleText(r->Report(), c.out));
}

void Setup(CLI::App& app, bool treeshap) {
  auto o = std::make_shared<ShapCliOptions>();
  if (treeshap) o->approach = "tree";
  AddCommonOptions(app, o->common, 0);
  app.add_option("--model-file", o->model_file,
                 "an XGBoost model saved as JSON (Booster.save_model(\"m.json\"))");
  AddIterationRangeOption(app, o->iteration_range);
  app.add_option("--model", o->model, Join(LearnerNames(), "|") + " fitted on --train");
  app.add_option("--train", o->train, "CSV with the columns of --data and the label: fit --model on it");
  if (!treeshap)
    app.add_option(
           "--approach", o->approach,
           "interventional (one model, features off the coalition from background rows), retrain (the "
           "learner refitted on every coalition) or tree (TreeSHAP of a tree model's margin)")
        ->capture_default_str();
  o->output_option = app.add_option("--output", o->output,
                                    "probability (the model's prediction) or margin (log-odds / raw score)")
                         ->capture_default_str();
  o->background_option =
      app.add_option("--background", o->background,
                     treeshap
                         ? "with it, interventional TreeSHAP against N rows drawn with the seed (default: "
                           "path-dependent, by the trees' covers)"
                         : "background rows drawn with the seed from --train (or --data for a --model-file)")
          ->capture_default_str();
  app.add_option("--background-file", o->background_file,
                 "CSV of background rows with the model's feature columns (a label column is ignored)");
  app.add_option("--rows", o->rows,
                 "I..J: explain rows I to J of --data (0-based, both included; default all)");
  app.add_option("--explain-row", o->explain_row,
                 "the row of --data the waterfall shows (default: the first explained)");
  app.add_flag("--interactions", o->interactions,
               std::string("SHAP interaction values too (") +
                   (treeshap ? "" : "tree or interventional approach, sampled with se past exact: ") +
                   "interactions.csv, result.json interactions, shap_interactions.svg)");
  app.add_option(
         "--interaction-features", o->interaction_features,
         "a,b,c: only the interactions of these k features with every other (memory: rows x k x features "
         "instead of rows x features^2); implies --interactions")
      ->delimiter(',');
  o->trees_option = app.add_option("--trees", o->trees, "--model forest: number of trees")
                        ->capture_default_str()
                        ->check(CLI::Range(1, 100000));
  o->max_depth_option =
      app.add_option("--max-depth", o->max_depth, "--model tree|forest: largest depth (0 = unlimited)")
          ->capture_default_str()
          ->check(CLI::Range(0, 1000));
  AddModelParamOption(app, o->model_params);
  if (!treeshap) {
    AddSolverOptions(app, o->solver, "coalitions per block of explained rows");
    o->solver.solver = "auto";
  }
  app.callback([o] { RunShap(*o); });
}

}  // namespace

void SetupShap(CLI::App& app) { Setup(app, false); }
void SetupTreeShap(CLI::App& app) { Setup(app, true); }

}  // namespace perfshap::inline v0::cli
