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

#include "perfshap/dataset.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 {

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
PERFSHAP_EXPORT AxomExplanation ExplainAxom(const TreeEnsemble& forest, ColumnMatrix rows,
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
  /** Each feature's unit (e.g. the width of its min-max range): the box's half-width is
   *  eps x scale[j] and ||x_i - x_j|| is measured in these units, so a model fitted on raw
   *  features is judged as the paper judges one fitted on min-max normalised features. Empty:
   *  1 for every feature (the features are normalised already). Finite and > 0. */
  std::vector<double> scale;
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
                                                            ColumnMatrix points,
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
PERFSHAP_EXPORT ExplanationRobustness PlainExplanationRobustness(const ExplainerFunction& f, ColumnMatrix points,
                                                                const ExplanationRobustnessOptions& options = {});

/** @brief Maps of the explanations around test points for two features (eqs. 2, 3 and 6): a
 *  grid x grid lattice over [x_a - eps, x_a + eps] x [x_b - eps, x_b + eps], the other features
 *  at the point's values; row r is feature b's r-th value (low to high), column c feature a's. */
struct PERFSHAP_EXPORT ExplanationHeatmaps {
  std::size_t grid = 0;
  int feature_a = 0;
  int feature_b = 0;
  double eps = 0.0;
  /** Per model (0 tree, 1 forest, 2 AXOM), row-major grid x grid: eq. 2 (||g(x_i) - g(x_m)||)
   *  and eq. 3 (that over ||x_i - x_m||) around `center`, and eq. 6 (eq. 3 averaged over every
   *  point). NaN where the model predicts another label than at the point (eqs. 2, 3), or the
   *  lattice point itself (eq. 3); eq. 6 averages the points where it is defined. */
  std::vector<double> difference[3];
  std::vector<double> ratio[3];
  std::vector<double> mean_ratio[3];
};

/** @brief The heat maps of ExplanationHeatmaps for `tree` (may be null), the forest and AXOM;
 *  `scale` the features' units as ExplanationRobustnessOptions::scale (the lattice spans
 *  +- eps x scale[j]; empty: 1 each).
 *  @throws InvalidArgument for a feature out of range, the same feature twice, grid < 2, eps
 *  outside (0, 0.5], `center` out of range or a bad scale. */
PERFSHAP_EXPORT ExplanationHeatmaps ComputeExplanationHeatmaps(const TreeEnsemble* tree, const TreeEnsemble& forest,
                                                              ColumnMatrix points, std::size_t center, int feature_a,
                                                              int feature_b, double eps, std::size_t grid,
                                                              const ExecutionOptions& execution = {},
                                                              const std::vector<double>& scale = {});

/** @brief The paper's protocol on one data set and seed (AxomProtocol). */
struct AxomProtocolOptions {
  /** Test rows: ceil(test_fraction x n), stratified (scikit-learn's train_test_split(test_size=0.1,
   *  stratify=y) sizes: the paper's Table 1). */
  double test_fraction = 0.1;
  /** Tune the tree and the forest by grid-search cross-validation on accuracy (AxomGrid()); else
   *  the fixed settings below. */
  bool tune = true;
  std::size_t folds = 5;
  int trees = 100;
  int max_depth = 0;
  std::uint64_t seed = 0;
  ExplanationRobustnessOptions robustness;
  ExecutionOptions execution;
};

/** @brief One setting of the grid. */
struct AxomSetting {
  int max_depth = 0;
  int min_samples_leaf = 1;
  std::string max_features;
  std::string Describe() const;
};

/** @brief The documented grids: the tree's (max_depth x min_samples_leaf) and the forest's (100
 *  trees; max_depth x max_features). */
PERFSHAP_EXPORT std::vector<AxomSetting> AxomTreeGrid();
PERFSHAP_EXPORT std::vector<AxomSetting> AxomForestGrid();

/** @brief A two-sided test's outcome (perfshap/blocks/stats.hpp computes them). */
struct AxomTest {
  double statistic = 0.0;
  double p_value = 0.0;
  std::string method;
};

/** @brief The four tests of a comparison of per-point L_bar values: paired Student's t and
 *  Wilcoxon signed-rank, and the unpaired two-sample t (equal variances) and Mann-Whitney U the
 *  paper names. */
struct AxomComparison {
  AxomTest paired_t;
  AxomTest wilcoxon;
  AxomTest student_t;
  AxomTest mann_whitney;
  /** Points where both values are defined. */
  std::size_t n = 0;
};

/** @brief The four tests of `a` against `b` (per-point L_bar of two explanations) over the points
 *  where both are finite; NaN p-values below 2 points. */
PERFSHAP_EXPORT AxomComparison CompareRobustness(const std::vector<double>& a, const std::vector<double>& b);

/** @brief What the protocol measured on one data set and seed. */
struct PERFSHAP_EXPORT AxomRun {
  std::string data;
  std::size_t n_train = 0, n_test = 0, n_features = 0, n_classes = 0;
  AxomSetting tree_setting;
  AxomSetting forest_setting;
  int trees = 0;
  double tree_accuracy = 0.0;
  double forest_accuracy = 0.0;
  /** The test points' robustness (normalised features) and the forest's weak mislabelling. */
  AxomRobustness robustness;
  /** Mean over the test points of the fraction of trees voting against the forest. */
  double mislabelling = 0.0;
  AxomComparison tree_vs_forest, tree_vs_axom, forest_vs_axom;
  /** Seconds of each stage: tuning, fitting, robustness. */
  double seconds_tuning = 0.0, seconds_fit = 0.0, seconds_robustness = 0.0;
  /** The test rows (indices into the data) and their min-max normalised values (column-major). */
  std::vector<std::size_t> test_rows;
  std::vector<double> test_points;
  std::shared_ptr<const TreeEnsemble> tree;
  std::shared_ptr<const TreeEnsemble> forest;
};

/**
 * @brief The paper's protocol on one data set: features min-max normalised to [0, 1] over all rows,
 * a stratified split, a tree and a forest (tuned or fixed), their test accuracies, and the
 * robustness of the tree's, the forest's and AXOM's explanations at every test point, with the
 * tests between them.
 * @throws DataError for a label with one class or that looks like a regression target (more
 *   than 50 classes, or values that are not whole numbers); InvalidArgument for bad options.
 */
PERFSHAP_EXPORT AxomRun RunAxomProtocol(const Dataset& data, const AxomProtocolOptions& options);

}}  // namespace perfshap
