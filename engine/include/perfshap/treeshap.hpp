// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// TreeSHAP: exact Shapley values of a tree ensemble's margins, a model-specific solver that
// enumerates no coalition.
// - Path-dependent (Lundberg et al. 2018/2020): the game v_x(S) = E[f(x) | x_S] estimated by
//   the trees' covers (a branch on a feature outside S is taken with the fraction of the
//   training weight that went down it), as shap's TreeExplainer(feature_perturbation=
//   "tree_path_dependent") and XGBoost's pred_contribs.
// - Interventional: v_x(S) = mean over background rows b of f(x_S, b_notS), the
//   PredictionGame of the same model on the margin scale.
// Both write rows x outputs x (features + 1) values, row-major, the base value last:
// out[(r * n_outputs + o) * (n_features + 1) + j], as XGBoost's pred_contribs lays them out.
// Additivity: sum_j phi_j + base = margin_o(x) for every row and output.

#include <cstddef>
#include <span>
#include <vector>

#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap::inline v0 {

/** @brief Rows read in place as feature columns: feature j of row r at columns[j][r * step] (a
 *  data set's columns, step 1; a row-major matrix's, step = its row length: nothing is gathered
 *  into one block first). */
struct FeatureColumns {
  std::vector<const double*> columns;
  std::size_t n_rows = 0;
  /** Values from one row to the next within a column. */
  std::size_t step = 1;
  /** @brief The columns of a column-major block (feature j of row r at x[j * n_rows + r]).
   *  @throws InvalidArgument when x does not hold n_features * n_rows values. */
  PERFSHAP_EXPORT static FeatureColumns ColumnMajor(std::span<const double> x, std::size_t n_rows,
                                                    std::size_t n_features);
};

/**
 * @brief Path-dependent TreeSHAP of the rows `x` (one column per model feature), threaded over
 * blocks of rows; bitwise identical at any thread count.
 * @throws InvalidArgument when x has not n_features() columns.
 */
PERFSHAP_EXPORT std::vector<double> TreeShap(const TreeEnsemble& model, const FeatureColumns& x,
                                             const ExecutionOptions& execution = {});

/**
 * @brief Interventional TreeSHAP of the rows `x` against `n_background` background rows
 * (column-major); the base value is the mean margin over the background.
 * @throws InvalidArgument for sizes that do not match or an empty background.
 */
PERFSHAP_EXPORT std::vector<double> InterventionalTreeShap(const TreeEnsemble& model, const FeatureColumns& x,
                                                           std::span<const double> background,
                                                           std::size_t n_background,
                                                           const ExecutionOptions& execution = {});

/** @brief TreeSHAP values without the base column: phi[(r * n_outputs + o) * n_features + j],
 *  and each output's base value (the same for every row). */
struct TreeShapValues {
  std::vector<double> phi;
  std::vector<double> base;
};

/** @brief TreeShap(model, x) as phi and base apart (no rows x outputs base column, no copy to
 *  drop it); the same bits. */
PERFSHAP_EXPORT TreeShapValues TreeShapPhi(const TreeEnsemble& model, const FeatureColumns& x,
                                           const ExecutionOptions& execution = {});

/** @brief InterventionalTreeShap(model, x, background, n_background) as phi and base apart. */
PERFSHAP_EXPORT TreeShapValues InterventionalTreeShapPhi(const TreeEnsemble& model, const FeatureColumns& x,
                                                         std::span<const double> background,
                                                         std::size_t n_background,
                                                         const ExecutionOptions& execution = {});

/**
 * @brief Path-dependent TreeSHAP of `n_rows` rows (column-major x: feature j of row r at
 * x[j * n_rows + r]), threaded over blocks of rows; bitwise identical at any thread count.
 * @throws InvalidArgument when x does not hold n_features() * n_rows values.
 */
PERFSHAP_EXPORT std::vector<double> TreeShap(const TreeEnsemble& model, std::span<const double> x, std::size_t n_rows,
                                             const ExecutionOptions& execution = {});

/**
 * @brief Interventional TreeSHAP against `n_background` background rows (column-major, as x);
 * the base value is the mean margin over the background.
 * @throws InvalidArgument for sizes that do not match or an empty background.
 */
PERFSHAP_EXPORT std::vector<double> InterventionalTreeShap(const TreeEnsemble& model, std::span<const double> x,
                                                           std::size_t n_rows, std::span<const double> background,
                                                           std::size_t n_background,
                                                           const ExecutionOptions& execution = {});

}  // namespace perfshap
