// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Prediction explanations (shared/seeds/shap-primer.txt): the Shapley values of each explained
// row's prediction over the features (players), three ways.
// - interventional: v_x(S) = mean over background rows b of f(x_S, b_notS) (the SHAP package's
//   KernelExplainer game), one model, solved exactly or sampled by any solver;
// - retrain: v_x(S) = the prediction for x of the learner retrained on S's columns (the primer's
//   first approach; the empty coalition predicts the training prior / mean);
// - tree: TreeSHAP of a tree ensemble's margins (treeshap.hpp), path-dependent, or
//   interventional against the background when one is given.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/game_settings.hpp"
#include "perfshap/blocks/interactions.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/treeshap.hpp"

namespace perfshap { inline namespace v0 {

/** @brief Options of the explanation functions. */
/** @brief The value function of a coalition in the interventional approach. */
enum class ShapConditional {
  /** v_x(S) = the mean over the background rows b of f(x_S, b_notS): the features off S drawn
   *  ignoring x_S (shap's KernelExplainer, interventional). */
  kMarginal,
  /** v_x(S) = E[f(x_S, X_notS) | X_S = x_S] with the features jointly normal (the background's
   *  mean and covariance): shapr's "gaussian" approach, by conditional draws. */
  kGaussian,
  /** The same with a Gaussian copula: each feature's margin is the background's empirical
   *  distribution, the dependence that of the normal scores (shapr's "copula"). */
  kCopula,
  /** The background rows weighted by their Mahalanobis closeness to x on S (fixed sigma 0.1,
   *  the weights' top 95%), the features off S taken from them (shapr's "empirical"). */
  kEmpirical,
  /** The background rows of x_S's leaf in a conditional inference tree fitted per coalition,
   *  the features on S its inputs and those off S its responses (shapr's "ctree"). */
  kCtree,
  /** No draws: v_x(S) = a regression of f on the features in S fitted to the background rows,
   *  at x_S (shapr's "regression_separate"); the regressor is ShapOptions::regression_model. */
  kRegression,
};

/** @brief "marginal", "gaussian", "copula", "empirical", "ctree" or "regression". */
PERFSHAP_EXPORT const char* ShapConditionalName(ShapConditional conditional) noexcept;

struct ShapOptions {
  ShapOutputScale output = ShapOutputScale::kPrediction;
  /** The value function of the interventional approach (ExplainInterventional). */
  ShapConditional conditional = ShapConditional::kMarginal;
  /** Draws a coalition and explained row of a conditional value function (shapr's default);
   *  at least kConditionalGroups. */
  std::size_t conditional_samples = 1000;
  /** The regressor of the regression value function: "linear" (least squares, shapr's default),
   *  "tree" or "forest". */
  std::string regression_model = "linear";
  /** The solver: a name (MakeSolver: "exact", "permutation", "kernel", "auto"), made with
   *  solver_options, or a solver object used as it is (SolverSpec). Not used by TreeSHAP. */
  SolverSpec solver = "auto";
  /** Budget, tolerance, seed of the sampled solvers; the exact limit (max_players, clamped to
   *  kExactPlayerLimit); threads, progress, cancellation (these three for an object too). */
  SolverOptions solver_options;
  /** Explained rows per block of the interventional game: one coalition's hybrid rows are built
   *  for this many explained rows at once (0 = chosen from the background size). */
  std::size_t row_block = 0;
};

/**
 * @brief Shapley values of n_rows explained rows' predictions.
 *
 * phi is rows x outputs x players, row-major: phi[(r * n_outputs + o) * n_players + j]; base and
 * prediction are rows x outputs (base, v(empty), is the same for every row: the mean prediction
 * over the background, the trees' expected margin, or the retrained learner's prior). Efficiency: sum_j phi +
 * base = prediction.
 */
struct PERFSHAP_EXPORT ShapExplanation {
  std::vector<std::string> players;
  /** Output names: "P(y=1)", the classes, "prediction" or "margin". */
  std::vector<std::string> outputs;
  std::size_t n_rows = 0;
  std::size_t n_outputs = 0;
  std::size_t n_players = 0;
  std::vector<double> phi;
  /** Standard errors of phi (same shape); empty when exact. */
  std::vector<double> phi_se;
  std::vector<double> base;
  std::vector<double> prediction;
  /** "interventional", "retrain", "tree" (path-dependent) or "tree-interventional". */
  std::string approach;
  /** The interventional approach's value function, and its draws a coalition and row (0 for
   *  the marginal one). With a conditional one phi_se includes the draws' Monte Carlo error. */
  ShapConditional conditional = ShapConditional::kMarginal;
  std::size_t conditional_samples = 0;
  /** The conditional draws the model predicted, on average a coalition (one that draws) and
   *  row: at most conditional_samples, fewer where drawn background rows repeat (empirical,
   *  ctree: a repeated draw is predicted once); 0 when none were drawn. */
  double conditional_distinct_draws = 0.0;
  /** The gaussian value function of a model affine in x (a GLM's margin, a linear regression):
   *  v(S) = f(x_S, E[X_O | x_S]) exactly, no draws (conditional_samples 0). */
  bool conditional_exact = false;
  /** The regression value function's regressor ("linear", ...); empty for the others. */
  std::string regression_model;
  ShapOutputScale output = ShapOutputScale::kPrediction;
  /** How it was solved: the solver that ran ("exact", "kernel", ... or "treeshap"), the
   *  coalitions evaluated, whether it converged and why it stopped. */
  SolveReport solve;
  double elapsed_seconds = 0.0;

  double operator()(std::size_t r, std::size_t o, std::size_t j) const {
    return phi[(r * n_outputs + o) * n_players + j];
  }
  /** @brief Global importance: mean over rows of |phi|, outputs x players. */
  std::vector<double> MeanAbs() const;
  /** @brief Signed mean over rows of phi, outputs x players. */
  std::vector<double> Mean() const;
};

/** @brief A conditional value function's draws fall into this many groups: the spread of the
 *  groups' values is the Monte Carlo standard error. */
inline constexpr std::size_t kConditionalGroups = 10;

/**
 * @brief Interventional SHAP of `model` on `rows`, against `background`, both in the model's
 * feature order. `players` are groups of model features (empty: one per feature, named by
 * `feature_names`). With options.conditional kGaussian the background is the sample the
 * features' joint normal distribution is estimated from, and the features off a coalition are
 * drawn from it given those on it (options.conditional_samples draws a coalition and row, common
 * random numbers from the solver's seed).
 * @throws InvalidArgument for sizes that do not match, an empty background, kMargin on a model
 *   that has no margin (neither a GLM nor a tree ensemble), or the solver's refusals.
 */
PERFSHAP_EXPORT ShapExplanation ExplainInterventional(const Model& model, ColumnMatrix rows,
                                                      ColumnMatrix background, std::span<const Player> players,
                                                      std::span<const std::string> feature_names,
                                                      const ShapOptions& options = {});

/**
 * @brief SHAP by retraining: the learner trained on each coalition of `players` (columns of
 * `train`) on `train_rows`, predicting the explained rows `explain_rows` of `explain` (the same
 * columns as `train`). One output (binary classifiers' P(y = 1), regressors' prediction).
 */
PERFSHAP_EXPORT ShapExplanation ExplainByRetraining(const Learner& learner, const Dataset& train,
                                                    std::span<const std::size_t> train_rows,
                                                    const Dataset& explain,
                                                    std::span<const std::size_t> explain_rows,
                                                    std::span<const Player> players,
                                                    const ShapOptions& options = {});

/**
 * @brief TreeSHAP of a tree ensemble's margins (always kMargin): path-dependent, or
 * interventional when `background` has rows. One player per model feature.
 */
PERFSHAP_EXPORT ShapExplanation ExplainTrees(const TreeEnsemble& model, ColumnMatrix rows, ColumnMatrix background,
                                             std::span<const std::string> feature_names,
                                             const ExecutionOptions& execution = {});

/** @brief As above, the rows read in place as feature columns (a data set's columns: no gathered
 *  copy of the rows); the working memory beyond the explanation is a block's. */
PERFSHAP_EXPORT ShapExplanation ExplainTrees(const TreeEnsemble& model, const FeatureColumns& rows,
                                             ColumnMatrix background, std::span<const std::string> feature_names,
                                             const ExecutionOptions& execution = {});

/**
 * @brief SHAP interaction values of a tree ensemble's margins (TreeShapInteractions, or
 * InterventionalTreeShapInteractions when `background` has rows), after checking their memory
 * (rows x outputs x matrix rows x (features + 1) values) and time against the execution's limits.
 */
PERFSHAP_EXPORT TreeShapInteractionValues ExplainTreeInteractions(const TreeEnsemble& model,
                                                                  const FeatureColumns& rows,
                                                                  ColumnMatrix background,
                                                                  const TreeInteractionOptions& options = {},
                                                                  const ExecutionOptions& execution = {});

/**
 * @brief Pairwise Shapley interaction indices of each explained row's interventional game (one
 * player per model feature): ExactInteractions when the options' solver resolves to the exact
 * one, else SampledInteractions with the options' sampling (standard errors in `se`). The
 * outputs are rows x model outputs, output o of row r at r * n_outputs + o, on options.output's
 * scale; InteractionValues' convention (half the pair's index off the diagonal, each row adding
 * up to phi). With a conditional value function (options.conditional, not regression) the game
 * is the conditional one, its groups of draws averaged and their spread in `se`, as
 * ExplainInterventional's phi_se (a linear model under gaussian: exact, no draws).
 * @throws InvalidArgument as ExplainInterventional, and for more than 64 features.
 */
PERFSHAP_EXPORT InteractionValues ExplainInterventionalInteractions(
    const Model& model, ColumnMatrix rows, ColumnMatrix background, std::span<const std::string> feature_names,
    const ShapOptions& options = {});

}}  // namespace perfshap
