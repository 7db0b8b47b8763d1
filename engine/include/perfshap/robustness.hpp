// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// ShapAUC, ShapROC, ShapPRC and ShapAUPRC by coalition retraining, with cross-validation bands
// (shared/seeds/shapauc-shaproc-robustness.txt, sections 3 and 4): for every split and every
// coalition A of features, the learner is trained on A's columns of the training rows and scored
// on the test rows; one training gives every payoff (AUC - 0.5, tpr(f') - f' on an FPR grid,
// precision(r') - b on a recall grid, AUPRC - b, optional scalar metrics), and exact Shapley
// values explain them all in one pass. Repetitions give means and standard deviations.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/blocks/curves.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/split.hpp"

namespace perfshap { inline namespace v0 {

/** @brief The baseline b of the precision payoffs (ShapPRC eq. 15, ShapAUPRC eq. 13). */
enum class PrcBaseline {
  /// b = 0.5 as in the paper (a random classifier on balanced classes).
  kHalf,
  /// b = prevalence of the split's test rows: the precision of a random classifier, the
  /// statistically sound baseline on imbalanced data.
  kPrevalence,
};

/** @brief Parses "0.5" (or "half") and "prevalence". @throws InvalidArgument otherwise. */
PERFSHAP_EXPORT PrcBaseline ParsePrcBaseline(const std::string& text);
/** @brief "0.5" or "prevalence". */
PERFSHAP_EXPORT const char* PrcBaselineName(PrcBaseline baseline) noexcept;

// Scalar metrics explained next to the curves, as extra outputs, are the registered metrics with
// a retraining payoff (metric_registry.hpp, MetricNames("robustness")): accuracy,
// balanced_accuracy, sensitivity, specificity, precision, f1, brier, log_loss,
// average_precision, mse, mae, rmse, r2. They are explained as raw values (a loss such as Brier
// keeps its sign: a helpful feature gets a negative phi). Their empty-coalition value is the
// metric of the learner trained on no feature (the prior / intercept-only model), so phi sums
// to metric(N) - metric(empty). Class metrics use yhat = 1{score > class_threshold};
// average_precision is the step-wise area of the curve the curve mode builds (sklearn
// average_precision_score in exact mode).

/** @brief Options of ExplainRobustness. */
struct RobustnessOptions {
  /** The learner retrained on every coalition (MakeLearner / learners.hpp); default gnb. */
  std::shared_ptr<const Learner> learner = MakeLearner("gnb");
  /** Feature columns of the data set that are the players, one each, in this order; empty =
   *  all. Ignored when `players` is given. */
  std::vector<std::size_t> features;
  /** The players as groups of columns (a one-hot text column, a group of a groups file); empty = one
   *  player per column of `features`. */
  std::vector<Player> players;
  /** Curve mode (exact / thresholds:T) and grid strategy; the FPR and recall grids, when empty,
   *  are DefaultCurveGrid(mode, grid_points). The AUPRC definition is the trapezoid. */
  CurveGridOptions curves;
  /** Points of the default FPR and recall grids (0..1), >= 2. */
  int grid_points = 101;
  PrcBaseline prc_baseline = PrcBaseline::kHalf;
  /** Extra scalar metrics explained alongside the curves, by registered name (see above). */
  std::vector<std::string> extra_metrics;
  /** Class rule of the class metrics: yhat = 1{score > class_threshold}. */
  double class_threshold = 0.5;
  /** Section 4.4: after the explanation, retrain without the selected features on the same
   *  splits and report AUC and AUPRC before and after. */
  bool select = false;
  /** The Shapley interaction index of every pair of players on the AUC (SII, as
   *  perfshap/blocks/interactions.hpp defines it), per split from the exact solve's coalition
   *  values (no training more), then its mean and std over the splits. Needs the exact solver
   *  and at most kExactInteractionLimit (20) players. */
  bool interactions = false;
  /** The Shapley solver: a name (MakeSolver: "exact", "permutation", "kernel", "auto"), made
   *  here with `sampling` and each split's share of the tolerance, or a solver object used as
   *  it is (SolverSpec). */
  SolverSpec solver = "exact";
  /** The sampled solvers' budget (trainings per split), tolerance, time limit and seed. */
  SamplingOptions sampling;
  /** The exact solver refuses more players than this (2^n trainings per split); clamped to
   *  1..kExactPlayerLimit. The sampled solvers take any number. */
  int max_features = 20;
  /** How messages name the plan, e.g. "mc:100" or a splits file ("split 3 of 100 (mc:100)"). */
  std::string plan_name;
  /** A directory that keeps every split's solved game as it finishes (empty: none): a run
   *  killed and started again with the same inputs skips them and returns bitwise the result
   *  of an uninterrupted run (a split is kept whole: one split's coalitions are not). Made when
   *  missing; refused when it holds a checkpoint of other inputs (the data's values, the
   *  splits, the players, the learner and its parameters, the solver and sampling, the curves,
   *  the metrics, `checkpoint_fingerprint`) or of another perfshap version. Under MPI it must be
   *  on a file system every process sees. */
  std::string checkpoint;
  /** The caller's own summary of its inputs (a front end's arguments), kept in the checkpoint
   *  with the library's. */
  std::string checkpoint_fingerprint;
  /** Threads, progress (units: coalitions over all splits), cancellation. Results do not depend
   *  on the thread count. */
  ExecutionOptions execution;
};

/** @brief The section 4.4 feature selection and its before/after check. */
struct RobustnessSelection {
  /** Players flagged: mean phi^AUC < 0, or the band mean +- std contains 0 (|mean| <= std). */
  std::vector<std::size_t> removed;
  /** The other players, increasing. */
  std::vector<std::size_t> kept;
  /** True when the model was retrained without `removed` (select on and something removed). */
  bool retrained = false;
  /** Full-model AUC and AUPRC over the splits (mean, std), and after removing `removed` (the
   *  random classifier when nothing is kept). Equal to before when nothing was retrained. */
  double auc_before_mean = 0, auc_before_std = 0, auc_after_mean = 0, auc_after_std = 0;
  double auprc_before_mean = 0, auprc_before_std = 0, auprc_after_mean = 0, auprc_after_std = 0;
};

/** @brief One extra scalar metric's explanation: mean and std over the splits. */
struct RobustnessMetricResult {
  std::string metric;
  /** metric(all features) and metric(no feature: prior-only model). */
  double value_mean = 0, value_std = 0, base_mean = 0, base_std = 0;
  /** phi per player (n values each), and its sampling standard error (0 when exact). */
  std::vector<double> phi_mean, phi_std, phi_se;
};

/**
 * @brief ShapAUC / ShapROC / ShapPRC / ShapAUPRC over the splits of a plan.
 *
 * Every "_mean" / "_std" pair is the mean and the standard deviation with ddof 0 (numpy's
 * default, population) over the splits, accumulated in split order (Welford); std is 0 for one
 * split. Curve arrays are indexed by grid point; per-player curve arrays are n x G row-major
 * (player i's curve at [i * G, (i + 1) * G)).
 */
struct PERFSHAP_EXPORT RobustnessResult {
  /** Player names, n of them, in order. */
  std::vector<std::string> features;
  /** The players and their columns of the data set. */
  std::vector<Player> players;
  /** The learner's name and options. */
  std::string learner;
  LearnerParams learner_params;
  CurveGridOptions curves;
  PrcBaseline prc_baseline = PrcBaseline::kHalf;
  std::size_t n_splits = 0;

  /** AUC of the full model (all players) and 0.5, the random classifier (v(empty), eq. 5).
   *  Thresholds mode: the trapezoid under the merged threshold ROC curve (CurveGridValues). */
  double auc_mean = 0, auc_std = 0;
  double base = 0.5;
  /** phi^AUC (eq. 6): sum phi = AUC - 0.5 per split. Thresholds mode: the Shapley values of
   *  each coalition's own area, trapz(TPR - FPR, FPR) over its merged threshold ROC knots (the
   *  authors' ShapAUC script), the same for every strategy. */
  std::vector<double> phi_auc_mean, phi_auc_std;
  /** Sampling standard errors of phi_auc_mean and phi_auprc_mean (sampled solvers; 0 when
   *  exact): sqrt(sum_r se_r^2) / R over the R splits, whose streams are independent. The
   *  "_std" values are the spread across splits, a different thing. */
  std::vector<double> phi_auc_se, phi_auprc_se;
  /** phi^AUC per split, n_splits x n row-major, and its standard error per split. */
  std::vector<double> phi_auc_by_split, phi_auc_se_by_split;
  /** Full-model AUC per split. */
  std::vector<double> auc_by_split;
  /** With `interactions`: the players' interaction matrix on the AUC (n x n row-major; off the
   *  diagonal half the pair's SII, the diagonal phi^AUC_i less its row's other entries, so each
   *  row adds up to phi^AUC_i), its mean and std over the splits, and per split
   *  (n_splits x n x n). Empty otherwise. */
  std::vector<double> interaction_auc_mean, interaction_auc_std, interaction_auc_by_split;

  /** AUPRC of the full model (trapezoid; thresholds mode: over the merged threshold PR knots). */
  double auprc_mean = 0, auprc_std = 0;
  /** The baseline b (0.5, or the mean test prevalence). */
  double prc_baseline_mean = 0.5;
  /** phi^AUPRC (eq. 14): sum phi = AUPRC - b per split. Thresholds mode: the Shapley values of
   *  each coalition's trapz(precision - b, recall) over its merged threshold PR knots from
   *  recall 0 to 1 (the authors' ShapAUPRC script, b = 0.5 there; with the prevalence baseline
   *  b is the split's test prevalence, as in the grid payoffs), the same for every strategy. */
  std::vector<double> phi_auprc_mean, phi_auprc_std;

  /** The ROC curve read at the FPR grid (tpr of the full model) and ShapROC (eq. 8), with the
   *  sampling standard errors of the mean curve (0 when exact). */
  std::vector<double> fpr_grid, tpr_mean, tpr_std;
  std::vector<double> shap_roc_mean, shap_roc_std, shap_roc_se;
  /** The PR curve read at the recall grid (precision of the full model) and ShapPRC (eq. 16). */
  std::vector<double> recall_grid, precision_mean, precision_std;
  std::vector<double> shap_prc_mean, shap_prc_std, shap_prc_se;
  /** Per player, the grid trapezoid (GridTrapezoid, numpy trapz over fpr_grid) of its ShapROC
   *  curve in each split, then mean and std over the splits: the ShapAUC that the authors'
   *  ShapROC script prints (it depends on the strategy). n values each, in the players' order. */
  std::vector<double> shap_roc_integrated_mean, shap_roc_integrated_std;
  /** The same for the ShapPRC curve over recall_grid (the ShapAUPRC of their ShapPRC script). */
  std::vector<double> shap_prc_integrated_mean, shap_prc_integrated_std;

  /** Extra scalar metrics, in the order of RobustnessOptions::extra_metrics. */
  std::vector<RobustnessMetricResult> metrics;

  /** AUC of every coalition (row = bit mask, bit i = player i) of every split, n_splits x 2^n
   *  row-major; v(empty) = 0.5. Kept when n_splits x 2^n <= 2^22, else empty. */
  std::vector<double> coalition_auc;

  /** Eq. (12): per player, the trapezoid integral over the FPR grid of the mean ShapROC curve
   *  (shap_roc_integrated_mean up to rounding, by linearity), and phi^AUC minus it; eq12_gap =
   *  the largest |difference|. */
  std::vector<double> eq12_integral, eq12_difference;
  double eq12_gap = 0;

  RobustnessSelection selection;

  /** Models trained: (2^n - 1) per split when exact, the coalitions a sampled solver evaluated
   *  but the empty one otherwise (+1 with extra metrics: the prior-only model), plus one per
   *  split for the selection retraining. */
  std::uint64_t n_trainings = 0;
  /** How the splits' games were solved. n_evaluations: coalitions over all splits (2^n per
   *  split when exact). Sampled solvers: converged when the mean over the splits meets the
   *  tolerance, max_j phi_auc_se_j / (max phi_auc_mean - min phi_auc_mean) = convergence_ratio
   *  < tolerance. Each split is solved to 0.8 tolerance sqrt(R) (its share: the mean of R
   *  independent splits has 1/sqrt(R) of their sampling error); stopped_by is kBudget or kTime
   *  when a split stopped on those first, kTolerance when every split met its share (converged
   *  may still be false then, if the mean's ratio is above the tolerance), kExact when every
   *  coalition was evaluated. */
  SolveReport solve;
  /** With sampling.keep_samples: every sampled coalition of every split (CoalitionWords(n)
   *  words each), its split and its AUC, in the solver's order. */
  std::vector<std::uint64_t> sample_coalitions;
  std::vector<std::size_t> sample_split;
  std::vector<double> sample_auc;
  int threads = 1;
  double elapsed_seconds = 0;

  std::size_t n_features() const noexcept { return features.size(); }
};

/**
 * @brief Explains a learner's robustness (AUC, ROC curve, PR curve, AUPRC) over the splits of
 * a plan with Shapley values of coalition retraining: exact, or sampled with standard errors
 * (options.solver, options.sampling).
 *
 * Each split's training rows are used in the order given (it fixes the order of sums; splits
 * from split.hpp are sorted). The empty coalition is the random classifier: AUC 0.5, tpr = fpr,
 * precision = AUPRC = b (every curve payoff 0). The splits are solved together by the chosen
 * solver (options.solver) as one task graph: a split is prepared while earlier splits'
 * coalitions run, and each split's values reach the bands as it completes, in split order;
 * results are bitwise identical for any thread count.
 *
 * @param data features and a 0/1 label (for every learner, linear included: the AUC needs
 *   classes; linear is then a linear probability model).
 * @param plan one or more train/test splits (holdout, k-fold, Monte-Carlo, or explicit).
 * @throws InvalidArgument for an empty plan, bad options, an unknown or repeated feature
 *   column, more players than options.max_features for the exact solver (2^n trainings per
 *   split), sampling options out of range, brier/log_loss or a thresholds curve mode with the linear learner (its
 *   predictions are not probabilities).
 * @throws DataError (one line) for a label that is not 0/1, a feature constant on the whole
 *   data set (naming the feature) or on a split's training rows, a missing value, a split whose
 *   training or test part holds one class only (naming the split: the AUC is undefined there;
 *   such splits are reported, never skipped), or a learner failure (naming split and features).
 * @throws Cancelled when the cancellation flag is raised.
 */
PERFSHAP_EXPORT RobustnessResult ExplainRobustness(const Dataset& data, const SplitPlan& plan,
                                                   const RobustnessOptions& options);

}}  // namespace perfshap
