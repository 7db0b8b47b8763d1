// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap robustness`: ShapAUC, ShapROC, ShapPRC and ShapAUPRC by coalition retraining
// (shapauc-shaproc-robustness sections 3-4), over a holdout split, K folds, Monte-Carlo splits
// or explicit --split files, with mean +- std bands, the Eq. (12) check and the section 4.4
// feature selection. Flags -> api::RobustnessRequest -> api::RunRobustness -> the robustness
// reporter (report/robustness_report.hpp: console, result.json, CSV tables, SVG figures).
#include "api/robustness_request.hpp"
#include "commands.hpp"
#include "perfshap/blocks/curves.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/blocks/split.hpp"
#include "report/robustness_report.hpp"

namespace perfshap::inline v0::cli {

namespace {

struct RobustnessCliOptions {
  CommonOptions common;
  std::string model = "gnb";
  std::vector<std::string> model_params;
  double C = 1.0;
  bool no_standardize = false;
  std::string cv = "holdout";
  double test_size = 0.2;
  bool stratify = false;
  std::string split;
  int grid = 101;
  std::string strategy = "interpolation";
  std::string curve_points = "exact";
  std::string prc_baseline = "0.5";
  double slice_fpr = 0.2;
  bool select = false;
  bool interactions = false;
  std::string checkpoint;
  std::string metrics;
  std::string features;
  int exact_limit = 20;
  SolverCliOptions solver;
  std::size_t rows = 1000;
  CLI::Option* cv_option = nullptr;
  CLI::Option* C_option = nullptr;
};

void RunRobustness(const RobustnessCliOptions& o) {
  const CommonOptions& c = o.common;
  PrepareOut(c);
  api::RobustnessRequest request;
  request.warm_up_pool = true;  // the pool starts while the data and the splits are read
  RobustnessOptions& opt = request.options;
  opt.execution = MakeExecution(c, "coalitions");
  LearnerParams params;
  if (o.C_option != nullptr && o.C_option->count() > 0) params["C"] = Fmt("%.17g", o.C);
  if (o.no_standardize) params["standardize"] = "false";
  request.learner =
      CommandLearner(o.model, ModelParams(o.model_params, params, {{"C", "--C"}, {"standardize", "--no-standardize"}}));
  // The players: --features, text columns as the learner takes them, --groups.
  request.data = CommandData(c, o.rows, o.features);
  ParseCurvePoints(o.curve_points, opt.curves);
  opt.curves.strategy = ParseGridStrategy(o.strategy);
  opt.grid_points = o.grid;
  opt.prc_baseline = ParsePrcBaseline(o.prc_baseline);
  opt.extra_metrics = SplitList(o.metrics);
  opt.select = o.select;
  opt.interactions = o.interactions;
  opt.checkpoint = o.checkpoint;
  opt.checkpoint_fingerprint = "perfshap robustness";
  opt.max_features = o.exact_limit;
  ApplySolverOptions(o.solver, c.seed, opt.solver, opt.sampling);
  request.slice_fpr = o.slice_fpr;
  request.seed = c.seed;
  // The split plan: --split FILE, or --cv holdout|mc:R|kfold:K.
  if (!o.split.empty() && o.cv_option != nullptr && o.cv_option->count() > 0)
    throw InvalidArgument("give either --cv or --split FILE, not both");
  request.splits.plan = o.cv;
  request.splits.test_size = o.test_size;
  request.splits.stratify = o.stratify;
  request.splits.file = o.split;
  if (!o.split.empty()) request.splits.name = "--split " + o.split;

  api::RobustnessResponse r = api::RunRobustness(request);
  // The console says "wrote" once the files are in place: written first.
  const std::string console = detail::RobustnessConsoleText(r.result, r.run, c.out);
  Report(c, [r = std::move(r)](detail::OutputDir& out) { detail::WriteRobustnessReport(out, r.result, r.run); });
  Say(c, console);
}

}  // namespace

void SetupRobustness(CLI::App& app) {
  auto o = std::make_shared<RobustnessCliOptions>();
  AddCommonOptions(app, o->common, 0);
  app.add_option("--model", o->model, "learner retrained on every coalition: " + Join(LearnerNames(), "|"))
      ->capture_default_str();
  o->C_option = app.add_option("--C", o->C, "logistic: inverse L2 strength (sklearn LogisticRegression C)")
                    ->capture_default_str();
  app.add_flag("--no-standardize", o->no_standardize,
               "logistic/probit/linear: fit on raw columns (no StandardScaler)");
  AddModelParamOption(app, o->model_params);
  o->cv_option =
      app.add_option("--cv", o->cv, "splits: holdout, mc:R (Monte-Carlo) or kfold:K")->capture_default_str();
  app.add_option("--test-size", o->test_size, "test fraction of holdout and mc splits")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 0.99));
  app.add_flag("--stratify", o->stratify, "split each class in the same proportion");
  app.add_option("--split", o->split,
                 "JSON with explicit splits: {\"train\":[..],\"test\":[..]} or {\"splits\":[..]}");
  app.add_option("--grid", o->grid, "points of the FPR and recall grids from 0 to 1")
      ->capture_default_str()
      ->check(CLI::Range(2, 100001));
  app.add_option("--strategy", o->strategy,
                 "reading between curve points: optimistic|pessimistic|interpolation")
      ->capture_default_str();
  app.add_option("--curve-points", o->curve_points,
                 "exact (every distinct score) or thresholds:101 (the authors' scripts)")
      ->capture_default_str();
  app.add_option("--prc-baseline", o->prc_baseline, "b of ShapPRC/ShapAUPRC: 0.5 (paper) or prevalence")
      ->capture_default_str();
  app.add_option("--slice-fpr", o->slice_fpr, "FPR of the waterfall slice figure")->capture_default_str();
  app.add_flag("--select", o->select,
               "retrain without the flagged features (section 4.4), report before/after");
  app.add_flag("--interactions", o->interactions,
               "the Shapley interaction index of every feature pair on the AUC, mean and std over the splits "
               "(exact solver, up to 20 features): interactions.csv and result.json's interactions");
  app.add_option("--checkpoint", o->checkpoint,
                 "DIR keeps every finished split: a run killed and started again with the same arguments skips "
                 "them and gives bitwise the uninterrupted result (under mpirun, on a file system all ranks see)");
  app.add_option("--metrics", o->metrics,
                 "extra metrics explained too, comma-separated: " + Join(MetricNames("robustness"), ", "));
  app.add_option("--features", o->features, "comma-separated feature columns (default: all but the label)");
  app.add_option("--exact-limit", o->exact_limit,
                 "largest number of features solved exactly (2^n trainings per split)")
      ->capture_default_str()
      ->check(CLI::Range(1, 30));
  AddSolverOptions(app, o->solver, "trainings per split");
  app.add_option("--rows", o->rows, "rows of the built-in probit design (without --data)")
      ->capture_default_str()
      ->check(CLI::Range(10, 100000000));
  app.callback([o] { RunRobustness(*o); });
}

}  // namespace perfshap::cli
