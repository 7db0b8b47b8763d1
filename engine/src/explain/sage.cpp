// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// SAGE values (perfshap/sage.hpp): the prediction game of the value function asked for
// (games/prediction_game.hpp, games/conditional_game.hpp) under SAGE's metric game
// (games/sage_game.hpp), through a solver; the draws' jackknife as their Monte Carlo error.
#include "perfshap/sage.hpp"

#include <chrono>
#include <cmath>
#include <memory>
#include <numeric>
#include <utility>

#include "explain/finite_result.hpp"
#include "explain/prediction_parts.hpp"
#include "explain/solver_choice.hpp"
#include "games/conditional_game.hpp"
#include "games/prediction_game.hpp"
#include "games/regression_value_game.hpp"
#include "games/sage_game.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 {

double SageValues::Total() const { return std::accumulate(phi.begin(), phi.end(), 0.0); }

namespace {

/** The metric asked for (the default by the model's kind). */
const MetricDefinition& SageMetric(const Model& model, const SageOptions& options) {
  const std::string name =
      options.metric.empty() ? (model.is_classifier() ? "log_loss" : "mse") : options.metric;
  return FindMetric(name, "sage");
}

/** A metric of probabilities on a model that is not a classifier (a user's function): its
 *  predictions of the rows must be probabilities. */
void CheckProbabilities(const Model& model, ColumnMatrix rows, const MetricDefinition& m) {
  if (m.input != MetricInput::kProbability || model.is_classifier()) return;
  std::vector<double> p(rows.n_rows);
  model.Predict(rows.values, rows.n_rows, p);
  for (std::size_t r = 0; r < p.size(); ++r)
    if (!(p[r] >= 0.0 && p[r] <= 1.0))
      throw InvalidArgument(
          "the metric " + m.name + " reads probabilities and the model's prediction of row " +
              std::to_string(r) + " is " + std::to_string(p[r]) +
              ": give a classifier's probabilities or a regression metric (mse, mae, rmse, r2)",
          {"metric"});
}

/** The labels as the metric needs them: 0/1 with the classes it needs, or a real target. */
void CheckSageLabels(const MetricDefinition& m, std::span<const double> y) {
  bool positive = false, negative = false, varies = false;
  for (std::size_t r = 0; r < y.size(); ++r) {
    if (!std::isfinite(y[r]))
      throw DataError(
          "the label of row " + std::to_string(r) + " is not a number; SAGE needs every row's label",
          {"label"});
    if (!m.regression() && y[r] != 0.0 && y[r] != 1.0)
      throw DataError("the label of row " + std::to_string(r) + " is " + std::to_string(y[r]) +
                          ": the metric " + m.name + " needs 0/1 labels (name the positive class)",
                      {"label", "positive"});
    positive = positive || y[r] == 1.0;
    negative = negative || y[r] == 0.0;
    varies = varies || y[r] != y[0];
  }
  const auto refuse = [&](const std::string& what) {
    throw DataError("the metric " + m.name + " needs " + what + " among the labels; explain more rows",
                    {"metric", "label"});
  };
  if (m.needs_positive && !positive) refuse("a positive (1)");
  if (m.needs_negative && !negative) refuse("a negative (0)");
  if (m.needs_target_variance && !varies) refuse("a target that varies");
}

/** The solved SAGE game: output 0's values, the draws' jackknife over outputs 1..G as their
 *  Monte Carlo error, combined with the solver's. */
SageValues FromSolved(const ShapleyValues& sv, std::size_t groups, const MetricDefinition& m) {
  SageValues out;
  const std::size_t P = static_cast<std::size_t>(sv.n_players);
  const std::size_t k = sv.n_outputs;
  const double sign = m.loss ? -1.0 : 1.0;
  out.players = sv.players;
  out.metric = m.name;
  out.metric_label = m.label;
  out.loss = m.loss;
  out.metric_full = sign * sv.full[0];
  out.metric_empty = sign * sv.base[0];
  out.phi.resize(P);
  const bool sampled = !sv.phi_se.empty() || groups > 1;
  if (sampled) out.phi_se.assign(P, 0.0);
  for (std::size_t j = 0; j < P; ++j) {
    out.phi[j] = sv.phi[j * k];
    if (!sampled) continue;
    const double solver_se = sv.phi_se.empty() ? 0.0 : sv.phi_se[j * k];
    double mc = 0.0;
    if (groups > 1) {
      double mean = 0.0;
      for (std::size_t g = 0; g < groups; ++g) mean += sv.phi[j * k + 1 + g] / static_cast<double>(groups);
      for (std::size_t g = 0; g < groups; ++g) {
        const double d = sv.phi[j * k + 1 + g] - mean;
        mc += d * d;
      }
      mc *= static_cast<double>(groups - 1) / static_cast<double>(groups);
    }
    out.phi_se[j] = std::sqrt(solver_se * solver_se + mc);
  }
  return out;
}

/** SAGE's game over `predictions` through the solver the options choose, after the cost check. */
SageValues Solve(const Game& predictions, std::size_t groups, std::span<const double> labels,
                 const MetricDefinition& m, const SageOptions& options, ShapShape shape) {
  const detail::SageGame game(predictions, labels, m, options.threshold, groups);
  ShapOptions shap;
  shap.solver = options.solver;
  shap.solver_options = options.solver_options;
  SolverOptions solver_options;
  const detail::SolverChoice choice =
      detail::ShapSolver(static_cast<std::size_t>(game.n_players()), shap, solver_options, "SAGE");
  shape.players = static_cast<std::size_t>(game.n_players());
  // SHAP's estimate of the same game, named for SAGE (its per-row values are the game's).
  CostEstimate cost = EstimateShapCost(shape, shap);
  cost.method = "sage";
  for (CostEstimate::Part& part : cost.memory)
    if (part.name == "SHAP values") part.name = "per-row values";
  CheckCost(cost, solver_options.execution, kShapRemedy,
            {"rows", "background", "conditional_samples", "solver", "budget"});
  const ShapleyValues sv = choice.Make(solver_options)->Solve(game);
  SageValues out = FromSolved(sv, groups, m);
  out.solve = detail::ReportOf(choice, sv, solver_options);
  return out;
}

}  // namespace

SageValues ExplainSage(const Model& model, ColumnMatrix rows, std::span<const double> labels,
                       ColumnMatrix background, std::span<const Player> players,
                       std::span<const std::string> feature_names, const SageOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  if (model.n_outputs() != 1)
    throw InvalidArgument(
        "SAGE decomposes the metric of one prediction a row (a binary classifier's P(y=1), a "
        "regressor's value); the model has " +
            std::to_string(model.n_outputs()) + " outputs",
        {"model_file"});
  if (labels.size() != rows.n_rows)
    throw InvalidArgument(
        "SAGE has " + std::to_string(labels.size()) + " labels for " + std::to_string(rows.n_rows) + " rows",
        {"label"});
  detail::CheckRegressionModel(options.conditional, options.regression_model);
  const MetricDefinition& m = SageMetric(model, options);
  CheckSageLabels(m, labels);
  CheckProbabilities(model, rows, m);
  std::vector<Player> p = detail::DefaultPlayers(model.n_features(), players, feature_names);
  ShapShape shape;
  shape.rows = rows.n_rows;
  shape.features = model.n_features();
  SageValues out;
  if (options.conditional == ShapConditional::kMarginal) {
    const detail::PredictionGame predictions(model, rows, background, std::move(p),
                                             ShapOutputScale::kPrediction);
    shape.background = background.n_rows;
    out = Solve(predictions, 1, labels, m, options, shape);
  } else if (options.conditional == ShapConditional::kRegression) {
    // Each row's prediction given S is the regression's (no draws).
    const std::shared_ptr<const Learner> learner = detail::RegressionLearner(options.regression_model);
    const detail::RegressionValueGame predictions(model, rows, background, std::move(p),
                                                  ShapOutputScale::kPrediction, *learner);
    shape.approach = "retrain";
    shape.train_rows = background.n_rows;
    out = Solve(predictions, 1, labels, m, options, shape);
    out.regression_model = options.regression_model;
  } else {
    const std::size_t samples = options.conditional_samples;
    const std::unique_ptr<detail::ConditionalFeatures> features =
        detail::FitConditional(options.conditional, samples, background, model.n_features());
    const bool exact = options.conditional == ShapConditional::kGaussian &&
                       detail::LinearOnScale(model, ShapOutputScale::kPrediction);
    // A model linear in x: E[f(x_S, X_O) | x_S] = f(x_S, E[X_O | x_S]), one draw at the mean.
    const std::size_t draws = exact ? 1 : samples;
    const std::size_t groups = exact ? 1 : kConditionalGroups;
    const detail::ConditionalPredictionGame predictions(model, rows, *features, std::move(p),
                                                        ShapOutputScale::kPrediction, draws, groups,
                                                        options.solver_options.seed, exact);
    shape.background = draws;
    out = Solve(predictions, groups, labels, m, options, shape);
    out.conditional_samples = exact ? 0 : samples;
    out.conditional_exact = exact;
    if (!exact) out.conditional_distinct_draws = predictions.draw_count().mean();
  }
  out.conditional = options.conditional;
  out.n_rows = rows.n_rows;
  detail::RequireFinite("SAGE", "phi", out.phi,
                        [&](std::size_t j) { return "feature '" + out.players[j] + "'"; });
  out.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}}  // namespace perfshap
