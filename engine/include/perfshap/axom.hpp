// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// AXOM (shared/seeds/axom-weak-learner-explanations.txt, Pala & Garcia-Cuesta): explain a random
// forest's prediction by the mean of the SHAP values of only the trees whose label equals the
// forest's (Algorithm 1), and judge explanations by their local Lipschitz robustness over an
// eps-box neighbourhood with the same predicted label: L_hat (eq. 1, the largest ratio) and
// L_bar (eq. 4, the mean ratio) of ||g(x_i) - g(x_j)|| / ||x_i - x_j||.
//
// SHAP values here are path-dependent TreeSHAP of each tree's class fractions (the probability
// scale of scikit-learn's predict_proba, as shap's TreeExplainer gives for its trees); a forest's
// values are the mean of its trees' (TreeSHAP is linear in the trees). The label of a tree or a
// forest is the class of the largest fraction (the first on ties, as numpy's argmax).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/trees.hpp"

namespace perfshap {

/** @brief AXOM and plain forest explanations of some rows. */
struct PERFSHAP_EXPORT AxomExplanation {
  std::size_t n_rows = 0;
  std::size_t n_features = 0;
  /** Classes (2 for a binary forest, whose one output is the fraction of class 1). */
  std::size_t n_classes = 0;
  /** The forest's label of each row (a class index). */
  std::vector<int> label;
  /** Trees whose own label equals the forest's, per row (the paper's Table 4 is 1 - kept / trees). */
  std::vector<std::size_t> kept_trees;
  std::size_t n_trees = 0;
  /** rows x classes x features: mean TreeSHAP of the kept trees (AXOM), and of all (the forest). */
  std::vector<double> axom;
  std::vector<double> forest;
};

/**
 * @brief AXOM explanations of `rows` (column-major, the model's features) for every class.
 * @throws InvalidArgument for a model that is not a forest of classification trees (an identity
 *   transform, leaves holding class fractions) or rows of the wrong size.
 */
PERFSHAP_EXPORT AxomExplanation ExplainAxom(const TreeEnsemble& forest, RowMatrix rows,
                                            const ExecutionOptions& execution = {});

/** @brief Options of the robustness of explanations. */
struct ExplanationRobustnessOptions {
  /** Half-width of the box around each point, in the features' units (the paper: 0.01 of
   *  min-max normalised features); in (0, 0.5]. */
  double eps = 0.01;
  /** Points drawn uniformly in the box per test point (the paper: 10,000); >= 1. */
  std::size_t neighbours = 10000;
  /** Neighbours of test point i come from stream (seed, i): the same for every model. */
  std::uint64_t seed = 0;
  /** g = the whole classes x features matrix instead of the predicted class's SHAP vector. */
  bool full_matrix = false;
  ExecutionOptions execution;
};

/** @brief Robustness of one explanation method at each test point. */
struct PERFSHAP_EXPORT ExplanationRobustness {
  /** L_bar (eq. 4) and L_hat (eq. 1) per point; NaN where no neighbour kept the label. */
  std::vector<double> l_bar;
  std::vector<double> l_hat;
  /** Neighbours with the point's predicted label, per point (of `neighbours`). */
  std::vector<std::size_t> kept;
};

/** @brief The robustness of the tree's, the forest's and AXOM's explanations on the same
 *  neighbours, and the forest's weak mislabelling at each point. */
struct PERFSHAP_EXPORT AxomRobustness {
  ExplanationRobustness tree;
  ExplanationRobustness forest;
  ExplanationRobustness axom;
  /** Fraction of the trees whose label differs from the forest's at each test point. */
  std::vector<double> mislabelling;
};

/**
 * @brief L_bar and L_hat of the explanations of a decision tree (`tree`, may be null), of the
 * forest and of AXOM at every row of `points`, over `neighbours` points drawn uniformly in the
 * eps-box around it and kept when the model predicts the point's label there (the forest's label
 * for the forest and AXOM). Per-tree work is shared: a tree's SHAP values and label at a
 * neighbour depend only on which side of each of its thresholds the neighbour lies, and only the
 * thresholds inside the box can differ from the point's, so each tree keeps its values per
 * pattern of those sides (usually a handful) and the forest's and AXOM's explanations of a
 * neighbour are sums of the same cached values. Threaded over the points; bitwise identical at
 * any thread count.
 * @throws InvalidArgument for eps outside (0, 0.5], no neighbour, models that are not
 *   classification trees, or rows of the wrong size.
 */
PERFSHAP_EXPORT AxomRobustness EvaluateExplanationRobustness(const TreeEnsemble* tree, const TreeEnsemble& forest,
                                                            RowMatrix points,
                                                            const ExplanationRobustnessOptions& options = {});

/** @brief An explanation function for the plain reference: g(x) into `out` and the label of x. */
struct ExplainerFunction {
  std::size_t n_features = 0;
  /** Length of g. */
  std::size_t size = 0;
  std::function<void(const double* x, double* g)> explain;
  std::function<int(const double* x)> label;
};

/**
 * @brief The plain reference of L_bar and L_hat: every neighbour explained from scratch with
 * `f` (same neighbours as EvaluateExplanationRobustness for the same seed). Serial.
 */
PERFSHAP_EXPORT ExplanationRobustness PlainExplanationRobustness(const ExplainerFunction& f, RowMatrix points,
                                                                const ExplanationRobustnessOptions& options = {});

}  // namespace perfshap
