// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap xper`: XPER decomposition of a model's performance metric over its features,
// globally and for every individual of the sample. The model is given by its coefficients
// (--model probit|logistic|linear --coef FILE) or fitted on a training file (--model M
// --train FILE); with no --data, the XPER paper's probit design is generated. --overfit adds the
// training sample's decomposition, --clusters the paper's heterogeneity analysis (k-medoids on
// individual XPER values, one model refitted per cluster). Flags -> XperOptions (the sample and
// the model: api::XperRequest) -> api::RunXper (ExplainXper, ClusterXper, RefitPerCluster) ->
// the XPER reporter (report/xper_report.hpp).
#include <charconv>
#include <memory>
#include <optional>

#include "api/method_run.hpp"
#include "api/xper_request.hpp"
#include "commands.hpp"
#include "embed.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/cluster.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "perfshap/xper.hpp"
#include "report/xper_report.hpp"

namespace perfshap::inline v0::cli {

namespace {

/** Flags of `perfshap xper`. */
struct XperCliOptions {
  CommonOptions common;
  std::string metric = "auc";
  double cfp = 1.0;
  double cfn = 1.0;
  double threshold = 0.5;
  std::string model;
  /** --model-param KEY=VALUE: options of the --model learner. */
  std::vector<std::string> model_params;
  std::string coef;
  std::string train;
  /** --model-file: an XGBoost JSON model (binary or regression), explained as it is. */
  std::string model_file;
  /** --iteration-range BEGIN:END: the rounds of --model-file used. */
  std::string iteration_range;
  std::string comparator = "full";
  std::string permutation;
  std::string features;
  long long explain_row = -1;
  int max_features = 20;
  SolverCliOptions solver;
  std::string clusters;  // "", "auto" or a number of clusters
  bool overfit = false;
  bool interactions = false;
};

// --clusters: 0 = auto (largest silhouette), else the number of clusters.
std::size_t ParseClusters(const std::string& text) {
  if (text == "auto") return 0;
  std::size_t k = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), k);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size() || k < 2)
    throw InvalidArgument("--clusters " + text + ": use auto (k = 2..10 by the silhouette) or a number >= 2");
  return k;
}

void RunXper(const XperCliOptions& o) {
  const CommonOptions& c = o.common;
  PrepareOut(c);
  api::XperRequest request;
  XperOptions& opt = request.options;
  opt.metric = o.metric;
  opt.comparator = ParseXperComparator(o.comparator);
  opt.cfp = o.cfp;
  opt.cfn = o.cfn;
  opt.threshold = o.threshold;
  opt.seed = c.seed;
  opt.max_features = o.max_features;
  opt.interactions = o.interactions;
  ApplySolverOptions(o.solver, c.seed, opt.solver, opt.sampling);
  // The sample: --data (or the generated design), its --features and --groups.
  request.data = CommandData(c, 0, o.features);
  // The model: --coef, --train, or --model-file (an XGBoost file).
  api::XperModelInput& m = request.model;
  m.learner = CommandLearner(o.model, ModelParams(o.model_params));
  m.coefficients = o.coef;
  if (!o.train.empty()) m.train = TableInput(o.train);
  m.iteration_range = ModelReadOptions(o.iteration_range, o.model_file).iteration_range;
  if (!o.model_file.empty()) {
    m.name = o.model_file;
    m.tree_file = o.model_file;
  }
  request.permutation_file = o.permutation;
  if (o.explain_row >= 0) request.explain_row = static_cast<std::size_t>(o.explain_row);
  if (!o.clusters.empty()) request.clusters = ParseClusters(o.clusters);
  request.overfit = o.overfit;
  opt.execution = MakeExecution(c, "coalitions");

  api::XperResponse response = api::RunXper(request);
  // result.json names where the permutations and a fixed k come from in the command's words.
  response.run.permutation = o.permutation.empty() ? "drawn from --seed" : o.permutation;
  response.run.train_permutation = "drawn from --seed";
  response.run.fixed_clusters = "fixed by --clusters";
  // The reporter owns what it reads (it may run after this function returns: Report).
  const api::MethodRun run = api::XperMethodRun(std::move(response), c.out);
  Report(c, run.reporter);  // before the console, which says what was written
  Say(c, run.console);
}

}  // namespace

void SetupXper(CLI::App& app) {
  auto o = std::make_shared<XperCliOptions>();
  AddCommonOptions(app, o->common, api::kXperDefaultSeed);
  app.add_option("--metric", o->metric, Join(MetricNames("xper"), "|"))->capture_default_str();
  app.add_option("--cfp", o->cfp, "cost of a false positive (metric cost)")->capture_default_str();
  app.add_option("--cfn", o->cfn, "cost of a false negative (metric cost)")->capture_default_str();
  app.add_option("--threshold", o->threshold, "class rule of the 0/1 metrics: prediction > threshold")
      ->capture_default_str();
  app.add_option("--model", o->model,
                 Join(api::GlmModelNames(), "|") + " with --coef; " + Join(LearnerNames(), "|") +
                     " with --train (default with no --data: probit with the design's true coefficients)");
  AddModelParamOption(app, o->model_params);
  app.add_option("--coef", o->coef, "CSV name,coef with 'const' first: an already-fitted model");
  app.add_option("--model-file", o->model_file,
                 "an XGBoost model saved as JSON (binary:logistic or reg:squarederror)");
  AddIterationRangeOption(app, o->iteration_range);
  app.add_option("--train", o->train, "CSV with the same columns: fit --model on it");
  app.add_option("--features", o->features, "comma-separated feature columns (default: all but the label)");
  app.add_option(
         "--comparator", o->comparator,
         "AUC comparison sample: full (all n^2 hybrid points, exact) or permuted (one permutation, as the "
         "XPER package)")
      ->capture_default_str();
  app.add_option("--permutation", o->permutation,
                 "file with pi for --comparator permuted: one 0-based index per line");
  app.add_option("--explain-row", o->explain_row,
                 "print and record the decomposition of this sample row (0-based)");
  app.add_option("--clusters", o->clusters,
                 "auto|K: k-medoids (PAM) on the individual XPER values (of the --train sample when given, "
                 "then one model refitted per cluster); auto picks k = 2..10 by the silhouette");
  app.add_flag("--overfit", o->overfit,
               "with --train: the same decomposition on the training and the test samples side by side");
  app.add_flag("--interactions", o->interactions,
               "the features' pairwise Shapley interactions on the metric too (interactions.csv, result.json "
               "interactions, xper_interactions.svg; sampled with standard errors when the solver samples)");
  app.add_option("--max-features", o->max_features, "largest number of features solved exactly")
      ->capture_default_str()
      ->check(CLI::Range(1, 30));
  AddSolverOptions(app, o->solver, "coalitions");
  app.callback([o] { RunXper(*o); });
}

}  // namespace perfshap::inline v0::cli
