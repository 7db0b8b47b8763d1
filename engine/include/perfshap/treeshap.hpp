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

#include "perfshap/blocks/trees.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

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
PERFSHAP_EXPORT std::vector<double> TreeShap(const TreeEnsemble& model, std::span<const double> x,
                                             std::size_t n_rows, const ExecutionOptions& execution = {});

/**
 * @brief Interventional TreeSHAP against `n_background` background rows (column-major, as x);
 * the base value is the mean margin over the background.
 * @throws InvalidArgument for sizes that do not match or an empty background.
 */
PERFSHAP_EXPORT std::vector<double> InterventionalTreeShap(const TreeEnsemble& model,
                                                           std::span<const double> x, std::size_t n_rows,
                                                           std::span<const double> background,
                                                           std::size_t n_background,
                                                           const ExecutionOptions& execution = {});

/** @brief Which rows of every row's interaction matrix TreeShapInteractions computes. */
struct TreeInteractionOptions {
  /**
   * Model features (indices) whose rows of the matrix are computed: every pair one of them is
   * in, rows x outputs x k x (features + 1) values instead of rows x outputs x (features + 1)^2.
   * Empty: every feature and the base value's row, the whole matrix of XGBoost's
   * pred_interactions.
   */
  std::vector<std::size_t> features;
};

/**
 * @brief SHAP interaction values of tree ensembles (Lundberg et al. 2020): for every row and
 * output a symmetric (features + 1) x (features + 1) matrix whose entry (i, j), i != j, is half
 * the Shapley interaction index of features i and j in the row's game, whose diagonal entry
 * (i, i) is phi_i minus the rest of row i (so each row of the matrix adds up to the feature's
 * SHAP value and the whole matrix to the margin), whose base row and column are 0 but for the
 * base value at (features, features): XGBoost's pred_interactions and shap's
 * shap_interaction_values.
 */
struct TreeShapInteractionValues {
  std::size_t n_rows = 0;
  std::size_t n_outputs = 0;
  std::size_t n_features = 0;
  /** The matrix rows computed, in order: feature indices, n_features for the base value's. */
  std::vector<std::size_t> matrix_rows;
  /** n_rows x n_outputs x matrix_rows.size() x (n_features + 1):
   *  values[((r * n_outputs + o) * matrix_rows.size() + a) * (n_features + 1) + j]. */
  std::vector<double> values;
  /** Each output's base value. */
  std::vector<double> base;
  /** Standard errors of `values` (same layout) when they were sampled (the interventional
   *  approach of shap past exact enumeration); empty for TreeSHAP, which is exact. */
  std::vector<double> se;
  /** @brief Entry (matrix_rows[a], j) of row r, output o. */
  double operator()(std::size_t r, std::size_t o, std::size_t a, std::size_t j) const {
    return values[((r * n_outputs + o) * matrix_rows.size() + a) * (n_features + 1) + j];
  }
};

/**
 * @brief Path-dependent SHAP interaction values of the rows `x` (the game of TreeShap), by
 * Gauss-Legendre quadrature over each leaf's path: O(D^2) per leaf and row for paths of D
 * features, where conditioning on each feature in turn (XGBoost) costs O(features x D^2).
 * Threaded over blocks of rows; bitwise identical at any thread count.
 * @throws InvalidArgument when x has not n_features() columns or a feature in `options` is not
 *   the model's (or is named twice).
 */
PERFSHAP_EXPORT TreeShapInteractionValues TreeShapInteractions(const TreeEnsemble& model,
                                                               const FeatureColumns& x,
                                                               const TreeInteractionOptions& options = {},
                                                               const ExecutionOptions& execution = {});

/**
 * @brief Interventional SHAP interaction values of the rows `x` against `n_background`
 * background rows (column-major): the interactions of InterventionalTreeShap's game, whose base
 * value is the mean margin over the background.
 * @throws InvalidArgument as InterventionalTreeShap and TreeShapInteractions.
 */
PERFSHAP_EXPORT TreeShapInteractionValues InterventionalTreeShapInteractions(
    const TreeEnsemble& model, const FeatureColumns& x, std::span<const double> background,
    std::size_t n_background, const TreeInteractionOptions& options = {},
    const ExecutionOptions& execution = {});

}}  // namespace perfshap
