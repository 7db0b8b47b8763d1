// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Prediction explanations: the games of games/prediction_game.hpp through a solver, and
// TreeSHAP, into one ShapExplanation.
#include "perfshap/shap.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <utility>

#include "common/allocation.hpp"
#include "explain/conditional_groups.hpp"
#include "explain/finite_result.hpp"
#include "explain/prediction_parts.hpp"
#include "explain/solver_choice.hpp"
#include "games/conditional_game.hpp"
#include "games/prediction_game.hpp"
#include "games/regression_value_game.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "perfshap/treeshap.hpp"
#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 {

std::vector<double> ShapExplanation::MeanAbs() const {
  std::vector<double> m(n_outputs * n_players, 0.0);
  for (std::size_t r = 0; r < n_rows; ++r)
    for (std::size_t o = 0; o < n_outputs; ++o)
      for (std::size_t j = 0; j < n_players; ++j) m[o * n_players + j] += std::fabs((*this)(r, o, j));
  for (double& v : m) v /= static_cast<double>(std::max<std::size_t>(n_rows, 1));
  return m;
}

std::vector<double> ShapExplanation::Mean() const {
  std::vector<double> m(n_outputs * n_players, 0.0);
  for (std::size_t r = 0; r < n_rows; ++r)
    for (std::size_t o = 0; o < n_outputs; ++o)
      for (std::size_t j = 0; j < n_players; ++j) m[o * n_players + j] += (*this)(r, o, j);
  for (double& v : m) v /= static_cast<double>(std::max<std::size_t>(n_rows, 1));
  return m;
}

namespace detail {

std::vector<Player> DefaultPlayers(std::size_t n_features, std::span<const Player> players,
                                   std::span<const std::string> names) {
  if (!players.empty()) return {players.begin(), players.end()};
  PERFSHAP_CHECK(names.empty() || names.size() == n_features,
                 "there are " + std::to_string(names.size()) + " feature names for " +
                     std::to_string(n_features) + " model features");
  std::vector<Player> out;
  for (std::size_t j = 0; j < n_features; ++j) {
    std::string name = names.empty() ? std::string("x") : names[j];
    if (names.empty()) name += std::to_string(j);
    out.push_back(Player{name, {j}, {name}});
  }
  return out;
}

/** Whether the model's output on the scale is affine in x (a GLM on its margin, a linear
 *  regression): additive terms, an identity link or the margin, and each term's differences
 *  equal between 0, 1 and 2. */
bool LinearOnScale(const Model& model, ShapOutputScale scale) {
  const std::size_t F = model.n_features();
  if (model.n_outputs() != 1) return false;
  std::vector<double> x(3 * F), terms(3 * F);
  for (std::size_t j = 0; j < F; ++j)
    for (std::size_t r = 0; r < 3; ++r) x[j * 3 + r] = static_cast<double>(r);
  double intercept = 0.0;
  Link link = Link::kIdentity;
  if (!model.AdditiveTerms(x, 3, intercept, terms, link)) return false;
  if (link != Link::kIdentity && scale != ShapOutputScale::kMargin) return false;
  for (std::size_t j = 0; j < F; ++j) {
    const double* t = terms.data() + j * 3;
    const double d1 = t[1] - t[0], d2 = t[2] - t[1];
    if (std::abs(d2 - d1) > 1e-12 * (std::abs(d1) + std::abs(d2) + 1.0)) return false;
  }
  return true;
}

void CheckRegressionModel(ShapConditional conditional, const std::string& regression_model) {
  if (conditional != ShapConditional::kRegression && regression_model != "linear")
    throw InvalidArgument(
        "the regression model " + regression_model +
            " is the regressor of the regression value function, and the value function is " +
            ShapConditionalName(conditional) + ": give conditional regression, or drop it",
        {"regression_model", "conditional"});
}

std::unique_ptr<ConditionalFeatures> FitConditional(ShapConditional conditional, std::size_t samples,
                                                    ColumnMatrix background, std::size_t n_features) {
  if (samples < kConditionalGroups || samples > 10'000'000)
    throw InvalidArgument("the conditional draws a coalition and row must be " +
                              std::to_string(kConditionalGroups) + " to 10,000,000, not " +
                              std::to_string(samples),
                          {"conditional_samples"});
  return MakeConditionalFeatures(conditional, background, n_features);
}

}  // namespace detail

namespace {

using detail::DefaultPlayers;
using detail::LinearOnScale;

/** Output names of a model on a scale. */
std::vector<std::string> OutputNames(const Model& model, ShapOutputScale scale) {
  const std::size_t K = model.n_outputs();
  const std::string prefix = scale == ShapOutputScale::kMargin ? "margin" : "";
  if (K == 1) {
    if (scale == ShapOutputScale::kMargin) return {"margin"};
    return {model.is_classifier() ? "P(y=1)" : "prediction"};
  }
  std::vector<std::string> classes;
  if (const auto* trees = dynamic_cast<const TreeEnsemble*>(&model);
      trees != nullptr && trees->info().class_names.size() == K)
    classes = trees->info().class_names;
  std::vector<std::string> names;
  for (std::size_t o = 0; o < K; ++o) {
    const std::string cls = classes.empty() ? "class " + std::to_string(o) : classes[o];
    names.push_back(scale == ShapOutputScale::kMargin ? "margin " + cls : "P(" + cls + ")");
  }
  return names;
}

/** A solver's values (players x (rows * K)) as an explanation (rows x K x players). */
ShapExplanation FromShapley(const ShapleyValues& sv, const detail::SolverChoice& choice,
                            const SamplingOptions& sampling, std::size_t n_rows, std::size_t K) {
  ShapExplanation e;
  e.players = sv.players;
  e.n_rows = n_rows;
  e.n_outputs = K;
  e.n_players = static_cast<std::size_t>(sv.n_players);
  const std::size_t P = e.n_players;
  detail::ResizeOrThrow(e.phi, n_rows * K * P, "the SHAP values (rows x outputs x players)");
  if (!sv.phi_se.empty()) detail::ResizeOrThrow(e.phi_se, n_rows * K * P, "the SHAP values' standard errors");
  for (std::size_t j = 0; j < P; ++j)
    for (std::size_t out = 0; out < n_rows * K; ++out) {
      e.phi[out * P + j] = sv.phi[j * sv.n_outputs + out];
      if (!sv.phi_se.empty()) e.phi_se[out * P + j] = sv.phi_se[j * sv.n_outputs + out];
    }
  e.base = sv.base;
  e.prediction = sv.full;
  e.solve = detail::ReportOf(choice, sv, sampling);
  return e;
}

/** The last guard of the result path (explain/finite_result.hpp): phi, base and prediction. */
void RequireFiniteExplanation(const ShapExplanation& e) {
  const std::size_t P = std::max<std::size_t>(e.n_players, 1);
  const std::size_t K = std::max<std::size_t>(e.n_outputs, 1);
  const auto row_output = [&](std::size_t t) {
    return "row " + std::to_string(t / K) + (K > 1 ? ", output " + std::to_string(t % K) : std::string());
  };
  detail::RequireFinite("SHAP", "phi", e.phi, [&](std::size_t t) {
    const std::size_t j = t % P;
    return row_output(t / P) + ", feature '" + (j < e.players.size() ? e.players[j] : std::to_string(j)) +
           "'";
  });
  detail::RequireFinite("SHAP", "the base value", e.base, row_output);
  detail::RequireFinite("SHAP", "the prediction", e.prediction, row_output);
}

/** The solved game as an explanation of n_rows rows and K outputs. */
ShapExplanation SolveExplanation(const Game& game, const ShapOptions& options, std::size_t n_rows,
                                 std::size_t K, const std::function<void()>& before_solving = {}) {
  SolverOptions solver_options;
  const detail::SolverChoice choice =
      detail::ShapSolver(static_cast<std::size_t>(game.n_players()), options, solver_options);
  if (before_solving) before_solving();
  return FromShapley(choice.Make(solver_options)->Solve(game), choice, solver_options, n_rows, K);
}

double Seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/** ExplainInterventional with the marginal value function (the background rows). */
ShapExplanation ExplainMarginal(const Model& model, ColumnMatrix rows, ColumnMatrix background,
                                std::span<const Player> players, std::span<const std::string> feature_names,
                                const ShapOptions& options) {
  const detail::PredictionGame game(model, rows, background,
                                    DefaultPlayers(model.n_features(), players, feature_names),
                                    options.output, options.row_block);
  return SolveExplanation(game, options, rows.n_rows, model.n_outputs(), [&] {
    ShapShape shape;
    shape.rows = rows.n_rows;
    shape.background = background.n_rows;
    shape.features = model.n_features();
    shape.players = static_cast<std::size_t>(game.n_players());
    shape.outputs = model.n_outputs();
    CheckCost(EstimateShapCost(shape, options), options.solver_options.execution, kShapRemedy,
              {"rows", "background", "solver", "budget"});
  });
}

/** ExplainInterventional with the regression value function: one regression a coalition. */
ShapExplanation ExplainRegression(const Model& model, ColumnMatrix rows, ColumnMatrix background,
                                  std::span<const Player> players, std::span<const std::string> feature_names,
                                  const ShapOptions& options) {
  const std::shared_ptr<const Learner> learner = detail::RegressionLearner(options.regression_model);
  const detail::RegressionValueGame game(model, rows, background,
                                         DefaultPlayers(model.n_features(), players, feature_names),
                                         options.output, *learner);
  ShapExplanation e = SolveExplanation(game, options, rows.n_rows, model.n_outputs(), [&] {
    ShapShape shape;
    shape.approach = "retrain";
    shape.rows = rows.n_rows;
    shape.train_rows = background.n_rows;
    shape.features = model.n_features();
    shape.players = static_cast<std::size_t>(game.n_players());
    shape.outputs = model.n_outputs();
    CheckCost(EstimateShapCost(shape, options), options.solver_options.execution, kShapRemedy,
              {"rows", "background", "solver", "budget"});
  });
  e.conditional = options.conditional;
  e.regression_model = options.regression_model;
  return e;
}

/** ExplainInterventional with a conditional value function: the game's groups of draws solved
 *  as outputs of their own, then averaged (explain/conditional_groups.hpp). */
ShapExplanation ExplainConditional(const Model& model, ColumnMatrix rows, ColumnMatrix background,
                                   std::span<const Player> players,
                                   std::span<const std::string> feature_names, const ShapOptions& options) {
  if (options.conditional == ShapConditional::kRegression)
    return ExplainRegression(model, rows, background, players, feature_names, options);
  const std::size_t samples = options.conditional_samples;
  const std::unique_ptr<detail::ConditionalFeatures> features =
      detail::FitConditional(options.conditional, samples, background, model.n_features());
  if (options.conditional == ShapConditional::kGaussian && LinearOnScale(model, options.output)) {
    // E[f(x_S, X_O) | x_S] = f(x_S, E[X_O | x_S]) for a model linear in x: one draw, at the mean.
    const detail::ConditionalPredictionGame game(model, rows, *features,
                                                 DefaultPlayers(model.n_features(), players, feature_names),
                                                 options.output, 1, 1, options.solver_options.seed, true);
    ShapExplanation e = SolveExplanation(game, options, rows.n_rows, model.n_outputs());
    e.conditional = options.conditional;
    e.conditional_exact = true;
    return e;
  }
  const detail::ConditionalPredictionGame game(
      model, rows, *features, DefaultPlayers(model.n_features(), players, feature_names), options.output,
      samples, kConditionalGroups, options.solver_options.seed);
  const ShapExplanation grouped =
      SolveExplanation(game, options, rows.n_rows, model.n_outputs() * kConditionalGroups, [&] {
        ShapShape shape;
        shape.rows = rows.n_rows;
        shape.background = samples;
        shape.features = model.n_features();
        shape.players = static_cast<std::size_t>(game.n_players());
        shape.outputs = model.n_outputs() * kConditionalGroups;
        CheckCost(EstimateShapCost(shape, options), options.solver_options.execution, kShapRemedy,
                  {"rows", "conditional_samples", "solver", "budget"});
      });
  ShapExplanation e = detail::AverageConditionalGroups(grouped, kConditionalGroups);
  e.conditional = options.conditional;
  e.conditional_samples = samples;
  e.conditional_exact = false;
  e.conditional_distinct_draws = game.draw_count().mean();
  return e;
}

/** ExplainInterventionalInteractions with a conditional value function: the interaction values of
 *  the conditional game's groups of draws, averaged (a linear model under gaussian: exact, one
 *  draw at the conditional mean). */
InteractionValues ConditionalInteractions(const Model& model, ColumnMatrix rows, ColumnMatrix background,
                                          std::span<const std::string> feature_names,
                                          const ShapOptions& options) {
  if (options.conditional == ShapConditional::kRegression)
    throw InvalidArgument(
        "interaction values take a value function that draws (gaussian, copula, empirical, ctree); the "
        "regression one fits a regressor a coalition: drop interactions or choose another",
        {"conditional", "interactions"});
  const std::unique_ptr<detail::ConditionalFeatures> features = detail::FitConditional(
      options.conditional, options.conditional_samples, background, model.n_features());
  const bool exact =
      options.conditional == ShapConditional::kGaussian && LinearOnScale(model, options.output);
  const std::size_t groups = exact ? 1 : kConditionalGroups;
  const detail::ConditionalPredictionGame game(
      model, rows, *features, DefaultPlayers(model.n_features(), {}, feature_names), options.output,
      exact ? 1 : options.conditional_samples, groups, options.solver_options.seed, exact);
  SolverOptions solver_options;
  const detail::SolverChoice choice =
      detail::ShapSolver(static_cast<std::size_t>(game.n_players()), options, solver_options);
  const InteractionValues grouped =
      choice.exact && choice.given == nullptr
          ? ExactInteractions(game, InteractionIndex::kShapley, solver_options)
          : SampledInteractions(game, InteractionIndex::kShapley, solver_options);
  return exact ? grouped : detail::AverageInteractionGroups(grouped, groups);
}

}  // namespace

const char* ShapConditionalName(ShapConditional conditional) noexcept {
  switch (conditional) {
    case ShapConditional::kGaussian:
      return "gaussian";
    case ShapConditional::kCopula:
      return "copula";
    case ShapConditional::kEmpirical:
      return "empirical";
    case ShapConditional::kCtree:
      return "ctree";
    case ShapConditional::kRegression:
      return "regression";
    case ShapConditional::kMarginal:
      break;
  }
  return "marginal";
}

ShapExplanation ExplainInterventional(const Model& model, ColumnMatrix rows, ColumnMatrix background,
                                      std::span<const Player> players,
                                      std::span<const std::string> feature_names,
                                      const ShapOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  detail::CheckRegressionModel(options.conditional, options.regression_model);
  ShapExplanation e = options.conditional != ShapConditional::kMarginal
                          ? ExplainConditional(model, rows, background, players, feature_names, options)
                          : ExplainMarginal(model, rows, background, players, feature_names, options);
  e.outputs = OutputNames(model, options.output);
  e.approach = "interventional";
  e.output = options.output;
  RequireFiniteExplanation(e);
  e.elapsed_seconds = Seconds(t0);
  return e;
}

InteractionValues ExplainInterventionalInteractions(const Model& model, ColumnMatrix rows, ColumnMatrix background,
                                                    std::span<const std::string> feature_names,
                                                    const ShapOptions& options) {
  if (options.conditional != ShapConditional::kMarginal)
    return ConditionalInteractions(model, rows, background, feature_names, options);
  const detail::PredictionGame game(model, rows, background,
                                    DefaultPlayers(model.n_features(), {}, feature_names), options.output,
                                    options.row_block);
  SolverOptions solver_options;
  const detail::SolverChoice choice =
      detail::ShapSolver(static_cast<std::size_t>(game.n_players()), options, solver_options);
  return choice.exact && choice.given == nullptr
             ? ExactInteractions(game, InteractionIndex::kShapley, solver_options)
             : SampledInteractions(game, InteractionIndex::kShapley, solver_options);
}

ShapExplanation ExplainByRetraining(const Learner& learner, const Dataset& train,
                                    std::span<const std::size_t> train_rows, const Dataset& explain,
                                    std::span<const std::size_t> explain_rows,
                                    std::span<const Player> players, const ShapOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  PERFSHAP_CHECK(train.feature_names() == explain.feature_names(),
                 "the explained rows must have the training data's columns, in its order");
  {
    ShapShape shape;
    shape.approach = "retrain";
    shape.rows = explain_rows.size();
    shape.features = train.n_features();
    shape.players = players.empty() ? train.n_features() : players.size();
    shape.train_rows = train_rows.size();
    SolverOptions checked;
    (void)detail::ShapSolver(shape.players, options, checked);
    CheckCost(EstimateShapCost(shape, options), options.solver_options.execution, kShapRemedy,
              {"rows", "solver", "budget"});
  }
  // One data set holding the training rows and then the explained ones: the split's test rows.
  std::vector<std::vector<double>> columns(train.n_features());
  std::vector<double> label;
  std::vector<std::size_t> rows_train;
  std::vector<std::size_t> rows_test;
  auto append = [&](const Dataset& from, std::span<const std::size_t> rows, const char* what,
                    std::vector<std::size_t>& positions) {
    for (std::size_t i : rows) {
      PERFSHAP_CHECK(i < from.n_rows(), std::string(what) + " row " + std::to_string(i) + " is out of range");
      positions.push_back(label.size());
      label.push_back(from.label().empty() ? 0.0 : from.label()[i]);
      for (std::size_t j = 0; j < columns.size(); ++j) columns[j].push_back(from.column(j)[i]);
    }
  };
  append(train, train_rows, "training", rows_train);
  append(explain, explain_rows, "explained", rows_test);
  Dataset both(train.feature_names(), std::move(columns), std::move(label), train.label_name());
  both.set_source(train.source());
  for (std::size_t j = 0; j < train.n_features(); ++j)
    if (train.encoding(j)) both.set_encoding(j, *train.encoding(j));
  const std::vector<Player> ps = players.empty()
                                     ? SingleColumnPlayers(both,
                                                           [&] {
                                                             std::vector<std::size_t> all(train.n_features());
                                                             for (std::size_t j = 0; j < all.size(); ++j)
                                                               all[j] = j;
                                                             return all;
                                                           }())
                                     : std::vector<Player>(players.begin(), players.end());
  const auto split = learner.Prepare(both, ps, rows_train, rows_test, "the training rows");
  const detail::RetrainPredictionGame game(*split, options.output);
  ShapExplanation e = SolveExplanation(game, options, explain_rows.size(), 1);
  if (options.output == ShapOutputScale::kMargin) {
    e.outputs = {"margin"};
  } else {
    e.outputs = {learner.is_classifier() ? "P(y=1)" : "prediction"};
  }
  e.approach = "retrain";
  e.output = options.output;
  RequireFiniteExplanation(e);
  e.elapsed_seconds = Seconds(t0);
  return e;
}

ShapExplanation ExplainTrees(const TreeEnsemble& model, ColumnMatrix rows, ColumnMatrix background,
                             std::span<const std::string> feature_names, const ExecutionOptions& execution) {
  return ExplainTrees(model, FeatureColumns::ColumnMajor(rows.values, rows.n_rows, model.n_features()),
                      background, feature_names, execution);
}

namespace {

ShapShape TreeShape(const TreeEnsemble& model, std::size_t rows, std::size_t background) {
  ShapShape shape;
  shape.approach = "tree";
  shape.rows = rows;
  shape.background = background;
  shape.features = model.n_features();
  shape.players = model.n_features();
  shape.outputs = model.n_outputs();
  shape.trees = model.trees().size();
  for (const Tree& tree : model.trees())
    for (std::size_t i = 0; i < tree.n_nodes(); ++i) shape.leaves += tree.is_leaf(i) ? 1 : 0;
  shape.depth = static_cast<std::size_t>(model.max_depth());
  return shape;
}

}  // namespace

TreeShapInteractionValues ExplainTreeInteractions(const TreeEnsemble& model, const FeatureColumns& rows,
                                                  ColumnMatrix background, const TreeInteractionOptions& options,
                                                  const ExecutionOptions& execution) {
  ShapShape shape = TreeShape(model, rows.n_rows, background.n_rows);
  shape.interaction_rows = options.features.empty() ? model.n_features() + 1 : options.features.size();
  ShapOptions cost;
  cost.solver_options.execution = execution;
  CheckCost(EstimateShapCost(shape, cost), execution, kTreeInteractionRemedy,
            {"rows", "interaction_features"});
  return background.n_rows > 0 ? InterventionalTreeShapInteractions(model, rows, background.values,
                                                                    background.n_rows, options, execution)
                               : TreeShapInteractions(model, rows, options, execution);
}

ShapExplanation ExplainTrees(const TreeEnsemble& model, const FeatureColumns& rows, ColumnMatrix background,
                             std::span<const std::string> feature_names, const ExecutionOptions& execution) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool interventional = background.n_rows > 0;
  {
    const ShapShape shape = TreeShape(model, rows.n_rows, background.n_rows);
    ShapOptions options;
    options.solver_options.execution = execution;
    CheckCost(EstimateShapCost(shape, options), execution, kTreeShapRemedy, {"rows", "background"});
  }
  TreeShapValues v =
      interventional ? InterventionalTreeShapPhi(model, rows, background.values, background.n_rows, execution)
                     : TreeShapPhi(model, rows, execution);
  const std::size_t F = model.n_features();
  const std::size_t K = model.n_outputs();
  ShapExplanation e;
  for (const Player& p : DefaultPlayers(
           F, {},
           feature_names.empty() ? std::span<const std::string>(model.info().feature_names) : feature_names))
    e.players.push_back(p.name);
  e.outputs = OutputNames(model, ShapOutputScale::kMargin);
  e.n_rows = rows.n_rows;
  e.n_outputs = K;
  e.n_players = F;
  e.base.resize(rows.n_rows * K);
  e.prediction.resize(rows.n_rows * K);
  for (std::size_t ro = 0; ro < rows.n_rows * K; ++ro) {
    const double* phi = v.phi.data() + ro * F;
    double sum = v.base[ro % K];
    for (std::size_t j = 0; j < F; ++j) sum += phi[j];
    e.prediction[ro] = sum;
    e.base[ro] = v.base[ro % K];
  }
  e.phi = std::move(v.phi);
  e.approach = interventional ? "tree-interventional" : "tree";
  e.solve.solver = "treeshap";
  e.output = ShapOutputScale::kMargin;
  RequireFiniteExplanation(e);
  e.elapsed_seconds = Seconds(t0);
  return e;
}

}}  // namespace perfshap
