// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// perfshap's own CART decision trees and random forests, fitted into the TreeEnsemble of
// trees.hpp (so that prediction and TreeSHAP share one code path with XGBoost's models), and
// the learners "tree" and "forest" that retrain them on coalitions of players.
//
// The tree is scikit-learn's best-first CART (DecisionTreeClassifier / DecisionTreeRegressor
// with splitter="best"), reimplemented from its documented behaviour:
// - nodes grow depth first, left child first, numbered in that order (node 0 is the root): the
//   numbering of sklearn's tree_ arrays;
// - at each node, max_features candidate features are drawn without replacement (seeded); a
//   feature constant on the node's rows counts as drawn but cannot split, and the draws go on
//   past max_features until a feature that is not constant has been drawn, or none is left
//   (as sklearn: "the search for a split does not stop until at least one valid partition of
//   the node samples is found"); features found constant at a node are known to be constant
//   in its subtree, and drawing one there counts as a draw too;
// - for each candidate, the node's rows are sorted by its value and every threshold between
//   consecutive distinct values is tried, at the midpoint a/2 + b/2 (a when that rounds to b);
//   rows x <= threshold go left (SplitRule::kLessEqual);
// - the split with the largest impurity decrease wins, measured as sklearn's proxy (for gini
//   and entropy -(n_right impurity_right) - (n_left impurity_left), for squared error
//   sum_left^2 / n_left + sum_right^2 / n_right, the n and sums weighted by the rows' weights,
//   i.e. bootstrap counts); ties go to the first candidate in draw order and, within one
//   feature, to the lowest threshold;
// - a node is a leaf when max_depth is reached, when it has fewer than min_samples_split rows or
//   fewer than 2 min_samples_leaf, when it is pure (impurity <= DBL_EPSILON) or when no split
//   leaves min_samples_leaf rows on each side (row counts: a row drawn twice by the bootstrap
//   counts once, as in sklearn).
// Differences from sklearn: values are compared in double (sklearn rounds its inputs to
// float32 and treats values within 1e-7 as equal), so thresholds differ from sklearn's in
// the last float32 digits while the partitions of the rows agree; the feature draws come from
// perfshap's RandomStream, so trees agree with sklearn's only where the best split is unique;
// leaf means of regression trees may differ from sklearn's in the last bit (the rows are summed
// in another order). A node's variance (regression) is computed in two passes, so a node whose
// targets are all equal is pure.
//
// Outputs (classification): the classes are the distinct label values, sorted ascending. Two
// classes (or one) give one output, the fraction of the larger class in the leaf (P(y = 1) for
// a 0/1 label: the project's binary convention); K > 2 classes give K outputs, each leaf holding
// the K class fractions (Tree::width = K, Tree::output = 0). Regression: one output, the leaf's
// (weighted) mean. A forest predicts the mean over its trees (tree_scale = 1 / n_trees, identity
// transform): scikit-learn's RandomForestClassifier.predict_proba and RandomForestRegressor.
// Every node holds its values (the fractions or the mean of the rows that reached it) and its
// cover, the weight of those rows (bootstrap counts; sklearn's weighted_n_node_samples), which
// path-dependent TreeSHAP uses.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "perfshap/dataset.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 {

/** @brief Options of one CART tree (and of each tree of a forest). The learner "tree" reads
 *  them from text under the same names. */
struct TreeOptions {
  /** "gini" or "entropy" for a classifier, "squared_error" for a regressor; empty = "gini" for
   *  a classifier, "squared_error" for a regressor. */
  std::string criterion;
  /** A regression tree (the label is the raw target) instead of a classifier. */
  bool regression = false;
  /** Deepest node depth (root = 0), >= 0; 0 = no limit (grow until pure or min_samples_*). */
  int max_depth = 0;
  /** A node with fewer rows is a leaf; >= 2. */
  int min_samples_split = 2;
  /** Rows each child must keep; >= 1. */
  int min_samples_leaf = 1;
  /** Candidate features drawn at each node, of the F columns the tree trains on: "" = the
   *  default (all for a tree and a regression forest, "sqrt" for a classification forest, as
   *  sklearn), "all", "sqrt" (max(1, floor(sqrt F))), "log2" (max(1, floor(log2 F))), an integer
   *  count k >= 1 (min(k, F): a coalition with fewer columns draws all of them) or a fraction f
   *  in (0, 1] written with a decimal point or an exponent (max(1, floor(f F))), as sklearn
   *  reads an int and a float. */
  std::string max_features;
  /** Seeds the feature draws (tree t of a forest draws from RandomStream(seed, t), its bootstrap
   *  first; a single tree is tree 0). */
  std::uint64_t seed = 0;
};

/** @brief Options of a random forest: each tree a CART tree with the TreeOptions, grown on a
 *  bootstrap sample of the training rows. The learner "forest" reads them from text under the
 *  same names (not `execution`). */
struct ForestOptions : TreeOptions {
  /** Trees, >= 1. */
  int n_estimators = 100;
  /** Each tree trains on n draws with replacement from the n training rows (rows weighted by
   *  how often they were drawn), from its own stream RandomStream(seed, tree index); false =
   *  every tree on all rows (they then differ only by their feature draws). */
  bool bootstrap = true;
  /** The trees are trained in parallel, in blocks of trees; the forest does not depend on the
   *  thread count (each tree depends on its index only). */
  ExecutionOptions execution;
};

/**
 * @brief Fits one CART tree on `rows` (in that order; repeats are separate rows) and `columns`
 * (the model's features, in that order) of `data`, labelled by data.label().
 * @return a TreeEnsemble of one tree over columns.size() features named after the columns; a
 *   classifier's class_names are its classes, as text ("1", "2"), ascending.
 * @throws InvalidArgument for a bad option (see TreeOptions), no row or no column, an index out
 *   of range; DataError (one line) for a data set without label, a missing (NaN) value in a
 *   used cell or label.
 */
PERFSHAP_EXPORT std::shared_ptr<const TreeEnsemble> FitTree(const TreeOptions& options, const Dataset& data,
                                                            std::span<const std::size_t> rows,
                                                            std::span<const std::size_t> columns);

/** @brief A random forest of options.n_estimators CART trees; as FitTree otherwise. */
PERFSHAP_EXPORT std::shared_ptr<const TreeEnsemble> FitForest(const ForestOptions& options,
                                                              const Dataset& data,
                                                              std::span<const std::size_t> rows,
                                                              std::span<const std::size_t> columns);

/**
 * @brief "tree": a CART tree retrained on every coalition (the players' columns in player
 * order). A binary classifier of the 0/1 label (its score P(y = 1)) unless options.regression.
 * ScoreScale::kIndex gives the same values as kProbability (a tree has no index). The empty
 * coalition predicts the training prior (the fraction of 1s; the mean for a regressor) and its
 * MakeModel is a constant model with no feature. A player whose columns are constant on the
 * training rows is not an error (a tree never splits on it). Text columns reach the tree as
 * sorted codes (TextColumns::kCodes). Fit grows the tree in memory the fitter keeps.
 * @throws InvalidArgument for a bad option.
 */
PERFSHAP_EXPORT std::shared_ptr<const Learner> MakeTreeLearner(const TreeOptions& options = {});

/** @brief "forest": a random forest retrained on every coalition, as MakeTreeLearner (the empty
 *  coalition, too, predicts the training prior). Each Fit trains the trees in parallel through
 *  options.execution (nested in the caller's parallel loop when it has one). */
PERFSHAP_EXPORT std::shared_ptr<const Learner> MakeForestLearner(const ForestOptions& options = {});

}}  // namespace perfshap
