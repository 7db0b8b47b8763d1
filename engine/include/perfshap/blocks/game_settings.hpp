// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What a game is built with that its method's options also name: the rows a prediction game
// reads, the scale it explains, the comparison sample of the XPER game. Games include this, never
// a method's header (shap.hpp, xper.hpp): the methods sit above the games.

#include <cstddef>
#include <span>
#include <string>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/** @brief What is explained of a model. */
enum class ShapOutputScale {
  /** The model's prediction: P(y = 1) of a binary classifier, each class's probability, the
   *  regression target. */
  kPrediction,
  /** The raw score before the link: log-odds / probit index of a GLM, a tree ensemble's margin
   *  (for a forest, its class fractions). */
  kMargin,
};

/** @brief Rows of features in column-major layout: feature j of row r at values[j * n_rows + r]. */
struct ColumnMatrix {
  std::span<const double> values;
  std::size_t n_rows = 0;
};

/** @brief The former name of ColumnMatrix (the layout is column-major). */
using RowMatrix [[deprecated("RowMatrix is column-major: use ColumnMatrix")]] = ColumnMatrix;

/**
 * @brief Comparison sample of the AUC (and the delta(S) of precision) in the XPER game.
 *
 * For a coalition S, individual i's hybrid points are z_iu = (x_i on S, x_u off S), u = 1..n.
 * - kPermuted: w_k = (x_k on S, x_pi(k) off S) with label y_k, for one permutation pi
 *   (as the XPER package, which draws pi with CPython's random.shuffle). n comparison points.
 * - kFull: all n^2 hybrid points w_kl = (x_k on S, x_l off S) with label y_k, each weighted
 *   1/n^2. This is the expectation of kPermuted over a uniformly random pi: exact, no Monte
 *   Carlo noise. It costs O(n^2 log n) per coalition (one sort of the n^2 scores).
 */
enum class XperComparator { kPermuted, kFull };

/** @brief Parses "permuted" or "full". @throws InvalidArgument otherwise. */
PERFSHAP_EXPORT XperComparator ParseXperComparator(const std::string& name);

/** @brief "permuted" or "full". */
PERFSHAP_EXPORT const char* XperComparatorName(XperComparator comparator) noexcept;

}}  // namespace perfshap
