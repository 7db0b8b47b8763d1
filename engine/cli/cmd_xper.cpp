// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap xper`: XPER decomposition of a model's performance metric over its features,
// globally and for every individual of the sample. The model is given by its coefficients
// (--model probit|logistic|linear --coef FILE) or fitted on a training file (--model M
// --train FILE); with no --data, the XPER paper's probit design is generated. --overfit adds the
// training sample's decomposition, --clusters the paper's heterogeneity analysis (k-medoids on
// individual XPER values, one model refitted per cluster). Flags -> XperOptions (the sample and
// the model: xper_inputs.hpp) -> ExplainXper, ClusterXper, RefitPerCluster -> the XPER reporter
// (report/xper_report.hpp).
#include <charconv>
#include <memory>
#include <optional>

#include "commands.hpp"
#include "perfshap/cluster.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "perfshap/metric_registry.hpp"
#include "perfshap/split.hpp"
#include "perfshap/xper.hpp"
#include "report/xper_report.hpp"
#include "xper_inputs.hpp"

namespace perfshap::cli {

namespace {

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
  XperOptions opt;
  opt.metric = FindMetric(o.metric, "xper").name;
  opt.comparator = ParseXperComparator(o.comparator);
  opt.cfp = o.cfp;
  opt.cfn = o.cfn;
  opt.threshold = o.threshold;
  opt.seed = c.seed;
  opt.max_features = o.max_features;
  ApplySolverOptions(o.solver, c.seed, opt.solver, opt.sampling);
  if (static_cast<int>(!o.coef.empty()) + static_cast<int>(!o.train.empty()) + static_cast<int>(!o.model_file.empty()) > 1)
    throw InvalidArgument("give one model: --coef FILE, --train FILE or --model-file m.json");
  if (!o.model_file.empty() && !o.model.empty())
    throw InvalidArgument("--model-file is the model: drop --model " + o.model);
  if (!o.model_file.empty() && (o.overfit || !o.clusters.empty()))
    throw InvalidArgument("--overfit and --clusters refit on a --train file; a --model-file model is explained as it is");
  if ((!o.coef.empty() || !o.train.empty()) && o.model.empty())
    throw InvalidArgument(std::string(o.coef.empty() ? "--train" : "--coef") +
                          " needs --model (probit, logistic or linear" + (o.coef.empty() ? ", gnb" : "") +
                          ")");
  const Dataset data = LoadXperSample(o, FindMetric(opt.metric, "xper").regression());

  std::vector<std::string> features = XperFeatures(o, data);
  const std::size_t clusters_k = o.clusters.empty() ? 0 : ParseClusters(o.clusters);
  if (o.overfit && o.train.empty())
    throw InvalidArgument(
        "--overfit compares the training and test samples: it needs --model M --train FILE");

  // The model: coefficients, or a learner fitted on --train, after the request's estimate (a
  // fit of thousands of columns is not started for a request the solver or the memory refuses).
  opt.execution = MakeExecution(c, "coalitions");
  const BeforeFit before_fit = [&](std::size_t train_rows, std::size_t columns, std::size_t players,
                                   const Learner& learner) {
    XperShape shape;
    shape.rows = data.n_rows();
    shape.columns = columns;
    shape.players = players;
    shape.additive = learner.makes_additive_models();
    const CostEstimate xper = EstimateXperCost(shape, opt);
    CheckCost(EstimateFitCost("xper", learner, train_rows, columns), opt.execution, kFitRemedy, {"features", "groups"});
    CheckCost(xper, opt.execution, kXperRemedy, {"comparator", "solver", "budget"});
    opt.execution.on_estimate = nullptr;  // said once
  };
  XperModel m = MakeXperModel(o, data, features, before_fit);
  const Dataset& sample = m.sample;
  opt.players = m.players;
  const std::size_t n = sample.n_rows();
  if (o.explain_row >= 0 && static_cast<std::size_t>(o.explain_row) >= n)
    throw InvalidArgument("--explain-row " + std::to_string(o.explain_row) + " is outside 0.." +
                          std::to_string(n - 1) + " (the sample has " + std::to_string(n) + " rows)");
  if (!o.permutation.empty()) {
    if (opt.comparator != XperComparator::kPermuted)
      throw InvalidArgument(
          "--permutation needs --comparator permuted (the full comparator uses every pair)");
    opt.permutation = ReadRowPermutation(o.permutation, n);
  }
  XperResult r = ExplainXper(*m.model, sample, opt);

  // The training sample's decomposition, with the same model and options: the overfitting
  // view compares it with the test sample's, and the paper clusters the training individuals.
  const bool have_train = !o.train.empty();
  const bool clustering = !o.clusters.empty();
  XperResult train_r;
  if (have_train && (o.overfit || clustering)) {
    XperOptions train_opt = opt;
    train_opt.permutation.clear();  // a --permutation file is the test sample's; draw from --seed
    train_opt.execution = MakeExecution(c, "coalitions (train)");
    train_opt.execution.on_estimate = nullptr;
    train_r = ExplainXper(*m.model, m.train_sample, train_opt);
  }
  // Heterogeneity (paper, three-step approach): K-medoids on the training individuals' XPER
  // values, one model per cluster, test rows placed by the nearest training medoid. Without
  // --train, the sample at hand is clustered and profiled (nothing to refit).
  std::optional<XperClusters> clusters;
  std::optional<XperClusterRefit> refit;
  if (clustering) {
    XperClusterOptions co;
    co.clusters = clusters_k;
    co.execution.threads = c.threads;
    clusters = ClusterXper(have_train ? train_r : r, have_train ? m.train_sample : sample, co);
    if (have_train)
      refit = RefitPerCluster(*m.learner, m.train_sample, *clusters, *m.model, sample, r, o.threshold);
  }

  detail::XperRun run;
  run.model = m.info;
  run.data = data.source();
  run.metric = o.metric;
  run.threshold = o.threshold;
  run.cfp = o.cfp;
  run.cfn = o.cfn;
  run.permutation = o.permutation.empty() ? "drawn from --seed" : o.permutation;
  run.train_permutation = "drawn from --seed";
  run.fixed_clusters = "fixed by --clusters";
  if (o.explain_row >= 0) run.explain_row = static_cast<std::size_t>(o.explain_row);
  run.overfit = o.overfit;
  run.have_train = have_train;
  run.seed = c.seed;
  run.missing = c.missing;
  run.dropped_rows = data.dropped_rows();
  run.groups = c.groups;
  const detail::XperReport report{r,
                                  sample,
                                  have_train && (o.overfit || clustering) ? &train_r : nullptr,
                                  clusters ? &*clusters : nullptr,
                                  refit ? &*refit : nullptr,
                                  run};
  Say(c, detail::XperConsoleText(report, c.out));
  // The reporter owns what it reads (it may run after this function returns: Report).
  struct Kept {
    XperResult r, train_r;
    Dataset sample;
    bool with_train;
    std::optional<XperClusters> clusters;
    std::optional<XperClusterRefit> refit;
    detail::XperRun run;
  };
  auto kept = std::make_shared<Kept>(Kept{std::move(r), std::move(train_r), std::move(m.sample),
                                          report.train != nullptr, std::move(clusters), std::move(refit),
                                          std::move(run)});
  Report(c, [kept](detail::OutputDir& out) {
    const Kept& k = *kept;
    detail::WriteXperReport(out, detail::XperReport{k.r, k.sample, k.with_train ? &k.train_r : nullptr,
                                                    k.clusters ? &*k.clusters : nullptr, k.refit ? &*k.refit : nullptr,
                                                    k.run});
  });
}

}  // namespace

void SetupXper(CLI::App& app) {
  auto o = std::make_shared<XperCliOptions>();
  AddCommonOptions(app, o->common, 2024);
  app.add_option("--metric", o->metric, Join(MetricNames("xper"), "|"))->capture_default_str();
  app.add_option("--cfp", o->cfp, "cost of a false positive (metric cost)")->capture_default_str();
  app.add_option("--cfn", o->cfn, "cost of a false negative (metric cost)")->capture_default_str();
  app.add_option("--threshold", o->threshold, "class rule of the 0/1 metrics: prediction > threshold")
      ->capture_default_str();
  app.add_option("--model", o->model,
                 Join(GlmModelNames(), "|") + " with --coef; " + Join(LearnerNames(), "|") +
                     " with --train (default with no --data: probit with the design's true coefficients)");
  AddModelParamOption(app, o->model_params);
  app.add_option("--coef", o->coef, "CSV name,coef with 'const' first: an already-fitted model");
  app.add_option("--model-file", o->model_file, "an XGBoost model saved as JSON (binary:logistic or reg:squarederror)");
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
  app.add_option("--max-features", o->max_features, "largest number of features solved exactly")
      ->capture_default_str()
      ->check(CLI::Range(1, 30));
  AddSolverOptions(app, o->solver, "coalitions");
  app.callback([o] { RunXper(*o); });
}

}  // namespace perfshap::cli
