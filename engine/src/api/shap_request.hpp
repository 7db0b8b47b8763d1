// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer's shap method (`perfshap shap` and `perfshap treeshap`, perfshap.shap): the
// rows to explain, the model (a tree model, the host's function, or a learner fitted on a
// training sample), the approach (interventional, retrain, tree), the background, and one call
// that gives the explanation and what the shap reporter says of the run.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "api/data_input.hpp"
#include "api/given_model.hpp"
#include "api/robustness_request.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/shap.hpp"
#include "report/shap_report.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief The model shap explains: a given model (GivenModelInput: an XGBoost file or text, a
 *  host's tree model, or the host's own function), or a learner fitted on a training sample. */
struct ShapModelInput : GivenModelInput {
  /** With `train`: the learner (by name, with `learner.params`, or the host's own). */
  LearnerInput learner{"", {}, nullptr};
  /** The training sample the learner is fitted on (its label column is `data.label`). */
  std::optional<DataInput> train;
  /** The tree learners' own options (tree, forest): largest depth (0 = unlimited) and number of
   *  trees; set only when given (they may not also come in `learner.params`). */
  std::optional<int> max_depth;
  std::optional<int> trees;
};

/** @brief How shap computes: features off the coalition from background rows, the learner
 *  refitted on every coalition, or TreeSHAP of a tree model's margin. */
enum class ShapApproach { kInterventional, kRetrain, kTree };

/** @brief The approach named "interventional", "retrain" or "tree". @throws InvalidArgument
 *  (options(): `approach`) for another name. */
ShapApproach ParseShapApproach(const std::string& name);

/** @brief The value function named "marginal", "gaussian", "copula", "empirical", "ctree" or
 *  "regression". @throws InvalidArgument (options():
 *  `conditional`) for another name. */
ShapConditional ParseShapConditional(const std::string& name);

/** @brief The scale named "probability" (the model's prediction) or "margin" (log-odds / raw
 *  score). @throws InvalidArgument (options(): `output`) for another name. */
ShapOutputScale ParseShapOutput(const std::string& name);

/** @brief A shap run. */
struct ShapRequest {
  /** The rows to explain: a table or a CSV file (the generated design is refused). Its label
   *  column, when named and present, is not a feature; `label` and `positive` are also the
   *  training sample's. */
  DataInput data;
  ShapModelInput model;
  ShapApproach approach = ShapApproach::kInterventional;
  /** The scale explained: the prediction (probability) or the margin; none: the prediction, and
   *  the margin for TreeSHAP (which explains nothing else). */
  std::optional<ShapOutputScale> output;
  /** The background: `background_rows` (a table or file with the model's feature columns; a
   *  label column is ignored), else `background` rows drawn with the seed from the training
   *  sample (a learner's) or from the data (a given model); default 100. TreeSHAP is
   *  path-dependent without either and interventional with one. */
  std::optional<std::size_t> background;
  std::optional<DataInput> background_rows;
  /** The data rows explained: [first, last] (0-based, both included); none: every row. */
  std::optional<std::pair<std::size_t, std::size_t>> rows;
  /** The data row the waterfall shows (one of the rows explained); none: the first. */
  std::optional<std::size_t> explain_row;
  /** Tree approach: SHAP interaction values too (ExplainTreeInteractions), of every feature
   *  pair, or of the pairs with one of `interaction_features` (the model's feature names; naming
   *  any asks for interactions). */
  bool interactions = false;
  std::vector<std::string> interaction_features;
  /** The solver, its sampling options and the execution (the exact limit is set here: 20
   *  players); `options.output` is set from `output`. */
  ShapOptions options;
  /** Draws the background and a forest's trees; the sampled solvers' streams are
   *  options.solver_options.seed's. */
  std::uint64_t seed = 0;
};

/** @brief What a shap run gives: the explanation and the run's description. */
struct ShapResponse {
  ShapExplanation explanation;
  detail::ShapRun run;
  /** The interaction values, when asked for. */
  std::optional<TreeShapInteractionValues> interactions;
  /** With a conditional value function: the marginal explanation beside it, when it costs no more
   *  (MarginalCostsNoMore: the background has no more rows than the draws the model predicted), and
   *  the background's correlations. */
  std::optional<ShapExplanation> marginal;
  std::optional<detail::FeatureDependence> dependence;

  detail::ShapReport Report() const {
    return detail::ShapReport{explanation, run, interactions ? &*interactions : nullptr,
                              marginal ? &*marginal : nullptr, dependence ? &*dependence : nullptr};
  }
};

/** @brief The exact solver's player limit of shap: every coalition is evaluated for every block
 *  of explained rows, so at most 20 players (a million coalitions); more take a sampled solver. */
inline constexpr int kShapExactPlayerLimit = 20;

/**
 * @brief Reads the rows (and the training sample), makes or fits the model (checking the
 * estimated cost before a fit), aligns the model's features with the data's columns by name,
 * draws or reads the background, and runs ExplainTrees / ExplainByRetraining /
 * ExplainInterventional; describes the run.
 * @throws InvalidArgument / DataError naming the request's options; ResourceError; Cancelled.
 */
ShapResponse RunShap(const ShapRequest& request);

/** @brief Column-major values of `rows` of the columns `columns` of `d`. */
std::vector<double> Gather(const Dataset& d, std::span<const std::size_t> columns,
                           std::span<const std::size_t> rows);

/** @brief Every row of `file` (background rows read from `source`) in the columns `names`,
 *  column-major.
 *  @throws DataError (background_file) for no rows, or a column of `names` that `file` lacks. */
std::vector<double> BackgroundColumns(const Dataset& file, const std::vector<std::string>& names,
                                      const std::string& source);

/** @brief `count` of the rows 0..n-1 drawn without replacement from stream (seed, 11), in
 *  increasing order; all of them when count >= n (the background's draw). */
std::vector<std::size_t> DrawRows(std::size_t n, std::size_t count, std::uint64_t seed);

/** @brief What a method over a model's predictions of the data reads (sage): the model, the
 *  rows explained in its feature columns (column-major), their labels when asked for, the
 *  background (as shap's interventional approach draws or reads it) and the players (empty: one
 *  per feature). */
struct PreparedModelRows {
  std::shared_ptr<const Model> model;
  /** The learner that fitted it (null for a given model), the data as the model reads it (a
   *  learner's design: text one-hot) and the model's columns in it. */
  std::shared_ptr<const Learner> learner;
  Dataset data;
  std::vector<std::size_t> model_columns;
  std::vector<std::string> feature_names;
  std::vector<Player> players;
  std::vector<double> x;
  std::size_t n_rows = 0;
  std::vector<double> labels;
  std::vector<double> background;
};

/**
 * @brief As RunShap up to the solve, for the interventional approach: checks the request, reads
 * the rows (with their labels when `labels`: the data's label column is then required, read as
 * the training sample's for a learner), makes or fits the model, draws or reads the background,
 * and has the processes of an MPI run agree on them; `run` describes them.
 * @throws as RunShap.
 */
PreparedModelRows PrepareModelRows(const ShapRequest& request, ShapOptions& opt, detail::ShapRun& run,
                                   bool labels);
}}}  // namespace perfshap::api
