// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/sage_request.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/blocks/split.hpp"
#include "perfshap/error.hpp"
#include "perfshap/robustness.hpp"
#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 { namespace api {

namespace {

SageOptions OptionsOf(const SageRequest& request, const ShapOptions& opt) {
  SageOptions options;
  options.metric = request.metric;
  options.threshold = request.threshold;
  options.conditional = opt.conditional;
  options.conditional_samples = opt.conditional_samples;
  options.regression_model = opt.regression_model;
  options.solver = opt.solver;
  options.solver_options = opt.solver_options;
  return options;
}

void RequireOneOutput(const SageRequest& request, const Model& model, const detail::ShapRun& run) {
  if (model.n_outputs() != 1)
    throw InvalidArgument("SAGE decomposes the metric of one prediction a row; the model " + run.model +
                              " gives " + std::to_string(model.n_outputs()) + " (one a class): " +
                              (request.model.given() ? "give a binary classifier or a regressor"
                                                     : "name the positive class for a binary label"),
                          {request.model.given() ? "model_file" : "learner"});
}

/** The splits' values reduced: phi's mean (with the mean's error) and standard deviation. */
void Reduce(SageResponse& response) {
  const std::vector<SageValues>& splits = response.splits;
  const double S = static_cast<double>(splits.size());
  SageValues mean = splits.front();
  const std::size_t P = mean.phi.size();
  response.phi_std.assign(P, 0.0);
  mean.n_rows = 0;
  mean.solve.n_evaluations = 0;
  mean.elapsed_seconds = 0.0;
  mean.metric_full = mean.metric_empty = 0.0;
  std::vector<double> se2(P, 0.0);
  for (std::size_t j = 0; j < P; ++j) mean.phi[j] = 0.0;
  for (const SageValues& v : splits) {
    for (std::size_t j = 0; j < P; ++j) {
      mean.phi[j] += v.phi[j] / S;
      if (!v.phi_se.empty()) se2[j] += v.phi_se[j] * v.phi_se[j] / (S * S);
    }
    mean.metric_full += v.metric_full / S;
    mean.metric_empty += v.metric_empty / S;
    mean.n_rows += v.n_rows;
    mean.solve.n_evaluations += v.solve.n_evaluations;
    mean.solve.converged = mean.solve.converged && v.solve.converged;
    mean.elapsed_seconds += v.elapsed_seconds;
  }
  // Standard errors where the splits have them (sampled solvers, conditional draws).
  mean.phi_se.clear();
  if (!splits.front().phi_se.empty()) mean.phi_se.resize(P);
  for (std::size_t j = 0; j < P; ++j) {
    if (!mean.phi_se.empty()) mean.phi_se[j] = std::sqrt(se2[j]);
    double d2 = 0.0;
    for (const SageValues& v : splits) d2 += (v.phi[j] - mean.phi[j]) * (v.phi[j] - mean.phi[j]);
    response.phi_std[j] = splits.size() > 1 ? std::sqrt(d2 / (S - 1.0)) : 0.0;
  }
  response.values = std::move(mean);
}

/** ShapAUC (the robustness method: the learner retrained on every coalition) on the same splits
 *  of the same rows (the data as read once, `p`) with the same learner, beside the SAGE values. */
detail::RetrainComparison RetrainBeside(const PreparedModelRows& p, const ShapOptions& opt,
                                        const SplitPlan& plan, const SageResponse& sage) {
  RobustnessOptions r;
  r.learner = p.learner;
  r.players = p.players;
  r.features = p.model_columns;
  r.plan_name = sage.plan;
  r.solver = opt.solver;
  r.sampling = opt.solver_options;
  r.execution = opt.solver_options.execution;
  r.execution.on_estimate = nullptr;
  const RobustnessResult shapauc = ExplainRobustness(p.data, plan, r);
  detail::RetrainComparison c;
  c.sage_metric = sage.values.metric;
  c.plan = sage.plan;
  c.splits = plan.size();
  c.players = sage.values.players;
  c.sage = sage.values.phi;
  c.sage_std = sage.phi_std;
  for (const std::string& name : c.players) {
    const auto at = std::find(shapauc.features.begin(), shapauc.features.end(), name);
    PERFSHAP_CHECK(at != shapauc.features.end(), "ShapAUC's players differ from SAGE's: " + name);
    const auto j = static_cast<std::size_t>(at - shapauc.features.begin());
    c.shapauc.push_back(shapauc.phi_auc_mean[j]);
    c.shapauc_std.push_back(shapauc.phi_auc_std[j]);
  }
  return c;
}

/** SAGE on every split of the plan: the learner fitted on the training part, the values of its
 *  test part against background rows drawn from the training part. */
SageResponse RunSageAcrossSplits(const SageRequest& request, ShapOptions opt) {
  // The option that asked for splits: a drawn plan (cv) or explicit ones (split).
  const std::string by = request.splits->explicit_splits() ? "split" : "cv";
  if (request.model.given())
    throw InvalidArgument(
        by + " fits the learner on every split's training part: give a learner, not a fitted model",
        {by, "model_file"});
  if (request.model.train)
    throw InvalidArgument(by + " takes the training parts from the data: drop the training sample",
                          {by, "train"});
  if (request.background_rows)
    throw InvalidArgument(by + " draws the background from each split's training part: give a number of rows",
                          {by, "background_file"});
  // The data read as the training sample is (its design and 0/1 labels), once.
  SageRequest whole = request;
  whole.model.train = request.data;
  SageResponse response;
  const PreparedModelRows p = PrepareModelRows(whole, opt, response.run, true);
  RequireOneOutput(request, *p.model, response.run);
  const Dataset& d = p.data;
  const SplitPlan plan =
      HeldSplitPlan(*request.splits, d.n_rows(), request.seed, d.label(), opt.solver_options.execution);
  const SageOptions options = OptionsOf(request, opt);
  for (const Split& split : plan) {
    const std::shared_ptr<const Model> model = p.learner->Train(d, split.train, p.model_columns);
    const std::vector<double> x = Gather(d, p.model_columns, split.test);
    std::vector<double> labels;
    for (const std::size_t r : split.test) labels.push_back(d.label()[r]);
    std::vector<std::size_t> drawn =
        DrawRows(split.train.size(), request.background.value_or(100), request.seed);
    for (std::size_t& r : drawn) r = split.train[r];
    const std::vector<double> bg = Gather(d, p.model_columns, drawn);
    response.splits.push_back(ExplainSage(*model, ColumnMatrix{x, split.test.size()}, labels,
                                          ColumnMatrix{bg, drawn.size()}, p.players, p.feature_names,
                                          options));
  }
  response.plan = request.splits->plan_name();
  response.run.background_rows =
      std::min<std::size_t>(request.background.value_or(100), plan.front().train.size());
  response.run.background_source = "drawn from each split's training part with the seed";
  response.run.model_source = "fitted on each split's training part";
  Reduce(response);
  if (request.compare_retrain) response.retrain = RetrainBeside(p, opt, plan, response);
  return response;
}

}  // namespace

SageResponse RunSage(const SageRequest& request) {
  ShapOptions opt = request.options;
  opt.solver_options.max_players = kShapExactPlayerLimit;
  opt.output = ShapOutputScale::kPrediction;
  if (request.splits) return RunSageAcrossSplits(request, opt);
  if (request.compare_retrain)
    throw InvalidArgument(
        "compare_retrain puts ShapAUC beside SAGE on the same splits: give cv (or explicit splits, split)",
        {"compare_retrain", "cv"});
  SageResponse response;
  const PreparedModelRows p = PrepareModelRows(request, opt, response.run, true);
  RequireOneOutput(request, *p.model, response.run);
  const std::size_t F = std::max<std::size_t>(p.feature_names.size(), 1);
  const ColumnMatrix background{p.background, p.background.size() / F};
  const SageOptions options = OptionsOf(request, opt);
  response.values = ExplainSage(*p.model, ColumnMatrix{p.x, p.n_rows}, p.labels, background, p.players,
                                p.feature_names, options);
  if (options.conditional != ShapConditional::kMarginal)
    response.dependence = detail::DependenceOf(background, p.feature_names);
  if (options.conditional != ShapConditional::kMarginal &&
      detail::MarginalCostsNoMore(background.n_rows, options.conditional_samples,
                                  response.values.conditional_distinct_draws)) {
    SageOptions marginal = options;
    marginal.conditional = ShapConditional::kMarginal;
    marginal.regression_model = "linear";
    marginal.solver_options.execution.on_estimate = nullptr;
    response.marginal = ExplainSage(*p.model, ColumnMatrix{p.x, p.n_rows}, p.labels, background, p.players,
                                    p.feature_names, marginal);
  }
  return response;
}
}}}  // namespace perfshap::api
