// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Tree ensembles: one representation for perfshap's own CART trees and random forests and for
// the boosted trees read from XGBoost models, so that prediction, TreeSHAP (treeshap.hpp) and
// the explanation methods share one code path.
//
// An ensemble's raw score (its margin) for output o is
//   margin_o(x) = base_margin[o] + tree_scale * sum over trees t adding to o of leaf_t(x)
// and its prediction is the transform of the margins: the identity (regressors, forests, whose
// leaves hold class fractions), the logistic function (XGBoost binary:logistic), the softmax
// over the outputs (XGBoost multi:softprob), the exponential (XGBoost's log-link objectives) or
// a step at 0 (binary:hinge). TreeSHAP explains the margin.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "perfshap/export.hpp"
#include "perfshap/blocks/model.hpp"

namespace perfshap { inline namespace v0 {

/** @brief x rounded to float32 as XGBoost stores its inputs (beyond float's range: +-infinity,
 *  without the undefined behaviour of an out-of-range conversion). */
inline double RoundToFloat(double x) noexcept {
  constexpr double kMax = 3.4028234663852886e38;  // FLT_MAX
  if (x > kMax) return x < 3.4028235677973366e38 ? kMax : __builtin_inf();
  if (x < -kMax) return x > -3.4028235677973366e38 ? -kMax : -__builtin_inf();
  return static_cast<double>(static_cast<float>(x));
}

/** @brief Which way a split sends a row (a missing value, NaN, follows default_left). */
enum class SplitRule : std::uint8_t {
  /** x <= threshold goes left, compared in double (scikit-learn, perfshap's CART). */
  kLessEqual,
  /** float(x) < threshold goes left, the input rounded to float32 first and the thresholds
   *  float32 values (XGBoost, which stores its data and thresholds as float). */
  kLessFloat,
};

/** @brief How an ensemble's margins become its predictions. */
enum class TreeTransform : std::uint8_t {
  kIdentity,  ///< prediction = margin (regression trees, forests' class fractions)
  kLogistic,  ///< one output, prediction = 1 / (1 + exp(-margin))
  kSoftmax,   ///< prediction_o = exp(margin_o) / sum_k exp(margin_k)
  kExp,       ///< prediction = exp(margin) (XGBoost count:poisson, reg:gamma, reg:tweedie, survival)
  kStep,      ///< one output, prediction = 1 if margin > 0 else 0 (XGBoost binary:hinge)
};

/**
 * @brief One decision tree, nodes in flat arrays (node 0 is the root).
 *
 * Node i is a leaf when left[i] < 0; otherwise it splits on feature[i] at threshold[i] and its
 * children are left[i] and right[i]. cover[i] is the training weight that reached node i (row
 * count, bootstrap count or XGBoost's hessian sum): path-dependent TreeSHAP weighs the branches
 * by it. A node holds `width` values (value[i * width + w] adds to output `output + w`); only the
 * leaves' are used for prediction (internal nodes may hold the cover-weighted mean of their
 * children, as the readers and CART set them, for reports).
 */
struct PERFSHAP_EXPORT Tree {
  std::vector<std::int32_t> feature;
  std::vector<double> threshold;
  std::vector<std::int32_t> left;
  std::vector<std::int32_t> right;
  std::vector<std::uint8_t> default_left;
  std::vector<double> cover;
  std::vector<double> value;
  /** First model output the leaf values add to. */
  int output = 0;
  /** Values per node. */
  int width = 1;

  std::size_t n_nodes() const noexcept { return feature.size(); }
  bool is_leaf(std::size_t i) const noexcept { return left[i] < 0; }
  /** @brief Appends a node and returns its index (children set later with left/right). */
  std::int32_t AddNode(std::int32_t split_feature, double split_threshold, bool missing_left, double node_cover,
                       std::span<const double> values);
  /** @brief The leaf row x (feature j at x[j]) reaches, under `rule`. */
  std::size_t Leaf(std::span<const double> x, SplitRule rule) const noexcept;
  /** @brief Depth of the deepest leaf (0 for a tree that is one leaf). */
  int depth() const;
};

/** @brief Boosting rounds [begin, end), as XGBoost's iteration_range: end 0 means up to the last
 *  round. One round is num_class x num_parallel_tree trees. */
struct PERFSHAP_EXPORT IterationRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

/** @brief Which boosting rounds of a model file an ensemble holds (XGBoost models). */
struct PERFSHAP_EXPORT BoostingRounds {
  /** Rounds in the file; 0 for an ensemble not read from a boosted model file. */
  std::int64_t total = 0;
  /** The rounds kept, [begin, end) of total. */
  std::int64_t begin = 0;
  std::int64_t end = 0;
  /** Tree t of the ensemble is tree first_tree + t of the file (as messages number it). */
  std::int64_t first_tree = 0;
  /** The model's best_iteration (early stopping), or -1 when it has none. */
  std::int64_t best_iteration = -1;
  /** A slice's (booster[0:50]) best_iteration kept from the model it was cut from, past the
   *  rounds the slice holds, so not applied (best_iteration is then -1); -1 otherwise. */
  std::int64_t sliced_best_iteration = -1;
  /** Whether [begin, end) was asked for (ReadXgboostModel's options) rather than the default. */
  bool explicit_range = false;
};

/** @brief What an ensemble is besides its trees. */
struct PERFSHAP_EXPORT TreeEnsembleInfo {
  /** Input features (model order); feature_names has this many names, or is empty. */
  std::size_t n_features = 0;
  std::vector<std::string> feature_names;
  /** Outputs: 1 for regression and binary classification, the classes for multi-class. */
  std::size_t n_outputs = 1;
  /** Added to every output's margin (XGBoost's base_score on the margin scale); n_outputs
   *  values. Empty means zeros. */
  std::vector<double> base_margin;
  /** Factor on the sum of the trees' leaves: 1 for boosting, 1 / n_trees for a forest. */
  double tree_scale = 1.0;
  TreeTransform transform = TreeTransform::kIdentity;
  SplitRule rule = SplitRule::kLessEqual;
  bool classifier = false;
  /** For Describe(), e.g. "random forest, 100 trees" or "XGBoost binary:logistic, 100 trees". */
  std::string description;
  /** Class labels (multi-class models, as the data called them), for reports; may be empty. */
  std::vector<std::string> class_names;
  /** The boosting rounds the trees are (models read from an XGBoost file; total 0 otherwise). */
  BoostingRounds rounds;
};

/**
 * @brief A fitted tree ensemble (a single CART tree is an ensemble of one). Immutable.
 */
class PERFSHAP_EXPORT TreeEnsemble final : public Model {
 public:
  /**
   * @throws InvalidArgument (one line, naming the tree and node) for a malformed tree: child
   *   indices out of range or not forming a tree (an internal node has two children, each a
   *   node no other node links to, a leaf has -1 for both, every node is reached from the
   *   root), a split feature >= n_features, a negative or non-finite cover, values whose width
   *   or output does not fit n_outputs, a non-finite threshold or leaf value, a kLogistic
   *   transform with more than one output; (naming the feature) for an empty feature name or
   *   one given to two features.
   */
  TreeEnsemble(std::vector<Tree> trees, TreeEnsembleInfo info);

  std::size_t n_features() const override { return info_.n_features; }
  std::size_t n_outputs() const override { return info_.n_outputs; }
  bool is_classifier() const override { return info_.classifier; }
  /** @brief The transformed margins (probabilities of classifiers), output-major. */
  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override;
  std::string Describe() const override;

  /** @brief out[o * n_rows + r] = margin of output o for row r (column-major x, as Predict;
   *  output-major, unlike TreeShap's row-major rows x outputs x (features + 1)). */
  void PredictMargin(std::span<const double> x, std::size_t n_rows, std::span<double> out) const;
  /** @brief The margin transform applied to n_rows rows of margins, in place (output-major). */
  void TransformMargins(std::span<double> margins, std::size_t n_rows) const;

  const std::vector<Tree>& trees() const noexcept { return trees_; }
  const TreeEnsembleInfo& info() const noexcept { return info_; }
  /** @brief base_margin[o] (0 when none was given). */
  double base_margin(std::size_t o) const noexcept {
    return info_.base_margin.empty() ? 0.0 : info_.base_margin[o];
  }
  /** @brief Depth of the deepest tree. */
  int max_depth() const noexcept { return max_depth_; }

 private:
  std::vector<Tree> trees_;
  TreeEnsembleInfo info_;
  int max_depth_ = 0;
};

/** @brief How ReadXgboostModel reads a model. */
struct PERFSHAP_EXPORT XgboostReadOptions {
  /**
   * Boosting rounds to keep. Unset: those up to the model's best_iteration (inclusive) when it
   * has one (an early-stopped model: learner.attributes.best_iteration, or best_ntree_limit in
   * older files), as XGBoost's scikit-learn predict and shap use it, else all. {0, 0}: all.
   */
  std::optional<IterationRange> iteration_range;
};

/**
 * @brief Reads an XGBoost model saved as JSON (`Booster.save_model("m.json")`, XGBoost 1.x and
 * 2.x): booster gbtree and any gbtree objective of XGBoost 1.7, each with XGBoost's prediction
 * transform and base_score link (base_score is on the output scale; the margin's base is its
 * logit, log or itself):
 * - binary:logistic and binary:logitraw (classifiers: logistic transform; logit base, and
 *   base_score as it is for logitraw, which predicts the probability here, its margin being
 *   XGBoost's predict()),
 *   binary:hinge (a classifier predicting 1{margin > 0}), reg:logistic (logistic regression
 *   output in (0, 1));
 * - reg:squarederror, reg:squaredlogerror, reg:pseudohubererror, reg:absoluteerror and
 *   rank:pairwise / ndcg / map (identity);
 * - count:poisson, reg:gamma, reg:tweedie, survival:cox, survival:aft (exp transform, log base);
 * - multi:softprob / multi:softmax (one output per class, softmax: a multi:softmax model
 *   predicts the class probabilities here, where XGBoost's predict() returns the class index).
 * Feature names when the model has them. Checked against XGBoost 1.7.4 (margins, predictions
 * and pred_contribs of a model of each objective); the 2.x / 3.x forms of base_score are read
 * as documented.
 * The rounds kept are in info().rounds (and in Describe() when not all of them).
 * @throws DataError (one line, naming the file and what to do) for a file that cannot be read,
 *   is not JSON or is truncated, nests arrays and objects more than 64 levels deep, holds a
 *   number beyond a double's range, is not an XGBoost model, has another booster (gblinear,
 *   dart) or objective, categorical splits or vector leaves, a malformed tree (naming the tree
 *   and node), duplicate or empty feature names; InvalidArgument for an iteration_range outside
 *   the model's rounds or empty.
 */
PERFSHAP_EXPORT std::shared_ptr<const TreeEnsemble> ReadXgboostModel(const std::string& path,
                                                                      const XgboostReadOptions& options = {});

/**
 * @brief The text of an XGBoost JSON model file, read once with the checks ReadXgboostModel makes
 * before parsing: the file exists and is a file; UBJSON is named as such; a NUL byte, bytes that
 * are not UTF-8 and more than 1 GiB (the environment variable PERFSHAP_MAX_JSON_BYTES sets
 * another limit) are refused as soon as they are read, so that /dev/zero or a huge file never
 * fills the memory. A handle that holds this text explains the model it read even when the file
 * changes later (ParseXgboostModel).
 * @throws DataError naming the file (and line and column) and what to do.
 */
PERFSHAP_EXPORT std::string ReadXgboostModelText(const std::string& path);

/** @brief As ReadXgboostModel, from the JSON text; `source` names it in messages. */
PERFSHAP_EXPORT std::shared_ptr<const TreeEnsemble> ParseXgboostModel(const std::string& json,
                                                                       const std::string& source,
                                                                       const XgboostReadOptions& options = {});

}}  // namespace perfshap
