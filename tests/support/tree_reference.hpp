// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// References for the tree code: random tree ensembles, the recursive path-dependent TreeSHAP
// of Lundberg et al. (Algorithm 2 of "Consistent individualized feature attribution for tree
// ensembles", O(T L D^2), the algorithm shap's TreeExplainer and XGBoost 1.7 run), and the two
// games TreeSHAP solves, to be enumerated by the exact solver.

#include <cstdint>
#include <memory>
#include <vector>

#include "perfshap/blocks/trees.hpp"
#include "support/synthetic_games.hpp"

namespace perfshap { inline namespace v0 { namespace testing {

/** @brief What RandomEnsemble draws. */
struct RandomTreeSpec {
  std::size_t n_features = 5;
  std::size_t n_trees = 3;
  int max_depth = 4;
  /** Outputs of the model; each tree adds to one output (width 1, as boosting) unless
   *  `vector_leaves`, where every leaf holds all outputs (as a multi-class forest). */
  std::size_t n_outputs = 1;
  bool vector_leaves = false;
  SplitRule rule = SplitRule::kLessEqual;
  /** Some children get no cover at all (a zero fraction of 0). */
  bool zero_covers = false;
  double tree_scale = 1.0;
  std::uint64_t seed = 1;
};

/** @brief A random ensemble: thresholds on the grid k / 2, k = -4..4, covers split at random
 *  (children's covers sum to the parent's), random default directions, base margins. */
std::shared_ptr<const TreeEnsemble> RandomEnsemble(const RandomTreeSpec& spec);

/** @brief n random rows, column-major: values on the threshold grid (ties with thresholds), between
 *  grid points, and NaN with probability `missing`. */
std::vector<double> RandomRows(std::size_t n_features, std::size_t n, double missing, std::uint64_t seed);

/** @brief Recursive path-dependent TreeSHAP of one row (row-major x): outputs x (features + 1),
 *  base last. */
std::vector<double> RecursiveTreeShap(const TreeEnsemble& model, const std::vector<double>& row);

/** @brief The path-dependent game of one row: v(S) = E[margin | x_S] by the covers (the
 *  EXPVALUE recursion), one output per model output. */
FunctionGame PathDependentGame(std::shared_ptr<const TreeEnsemble> model, std::vector<double> row);

/** @brief The interventional game of one row: v(S) = mean over the background rows (row-major)
 *  of margin(x_S, b_notS). */
FunctionGame InterventionalGame(std::shared_ptr<const TreeEnsemble> model, std::vector<double> row,
                                std::vector<std::vector<double>> background);

/** @brief Row r of a column-major matrix of n rows. */
std::vector<double> RowOf(const std::vector<double>& x, std::size_t n_features, std::size_t n, std::size_t r);

}}}  // namespace perfshap::testing
