// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

// Binary metrics: y_true holds 1.0 (positive) or 0.0; scores are any reals but NaN, larger =
// more positive (-0.0 and +0.0 are one threshold); probabilities are in [0, 1]; classes yhat
// are 0.0/1.0. Regression inputs are finite reals. All spans of one call have the same length
// m >= 1. Every function checks its input and @throws InvalidArgument on length mismatch,
// empty input, or a value outside the domain above (the message names the array and index).
// Metrics undefined on the given labels throw too: RocAuc and RocCurve when y_true has one
// class only; PrCurve, AveragePrecision and AuprcTrapezoid when y_true has no positive
// (all-positive y_true is fine there: precision is 1 everywhere). Reference: scikit-learn
// 1.2.1; values agree to 1e-12 (tests/metrics/test_metric.cpp holds the golden numbers).
// Ratios are formed from integer counts and sums are compensated, in index order, so results
// are deterministic and at least as accurate as sklearn's.

/** @brief Area under the ROC curve, ties counted one half (sklearn roc_auc_score).
 *  Mann-Whitney U over two sorts (positives, negatives), O(m log m); the result is the
 *  correctly rounded ratio 2U / (2 P N) for m below 2^26 (exact 64-bit counts).
 *  @param y_true m labels 0/1 with both classes present. @param score m scores, no NaN.
 *  @throws InvalidArgument "AUC is undefined: y_true has only one class ..." and as above. */
PERFSHAP_EXPORT double RocAuc(std::span<const double> y_true, std::span<const double> score);

/** @brief RocAuc with caller-owned scratch: resized to m, so it allocates only while its
 *  capacity is below m; its contents on return are unspecified. Same result as RocAuc. */
PERFSHAP_EXPORT double RocAuc(std::span<const double> y_true, std::span<const double> score,
                              std::vector<std::size_t>& scratch);

/** @brief Points of a curve, one per distinct threshold, in order of decreasing threshold;
 *  x, y and thresholds have the same length. */
struct Curve {
  std::vector<double> x;
  std::vector<double> y;
  std::vector<double> thresholds;
};

/** @brief ROC points as sklearn roc_curve(drop_intermediate=False): x = FPR, y = TPR, first
 *  point (0, 0) with threshold +inf (as sklearn >= 1.3; sklearn 1.2 writes max(score) + 1
 *  there), then one point per distinct score, decreasing, ending at (1, 1).
 *  @throws InvalidArgument when y_true has one class only. */
PERFSHAP_EXPORT Curve RocCurve(std::span<const double> y_true, std::span<const double> score);

/** @brief PR points as sklearn precision_recall_curve, but ordered by decreasing threshold:
 *  x = recall, y = precision; the last point (recall 0, precision 1) of sklearn comes first
 *  with threshold +inf, then one point per distinct score, decreasing. Thresholds below the
 *  first one reaching full recall are kept, as sklearn >= 1.1 does (sklearn <= 1.0 stopped
 *  at the first threshold with full recall).
 *  @throws InvalidArgument when y_true has no positive (recall would be 0/0). */
PERFSHAP_EXPORT Curve PrCurve(std::span<const double> y_true, std::span<const double> score);

/** @brief Average precision, sklearn average_precision_score (step-wise, no interpolation):
 *  sum over thresholds of (R_k - R_{k-1}) P_k. @throws InvalidArgument without positives. */
PERFSHAP_EXPORT double AveragePrecision(std::span<const double> y_true,
                                        std::span<const double> score);

/** @brief Area under the PR curve by the trapezoid rule, sklearn auc(recall, precision) of
 *  precision_recall_curve (the point (0, 1) included). @throws InvalidArgument without
 *  positives. */
PERFSHAP_EXPORT double AuprcTrapezoid(std::span<const double> y_true,
                                      std::span<const double> score);

/** @brief Counts of a binary confusion matrix (integer-valued). */
struct Confusion {
  double tp = 0, fp = 0, tn = 0, fn = 0;
};
/** @brief Confusion counts of classes yhat (0/1) against y_true (0/1). */
PERFSHAP_EXPORT Confusion ConfusionCounts(std::span<const double> y_true,
                                          std::span<const double> yhat);

// Class metrics (sklearn conventions; a 0/0 ratio is 0, as sklearn's zero_division=0).
/** @brief (tp + tn) / m, sklearn accuracy_score. */
PERFSHAP_EXPORT double Accuracy(std::span<const double> y_true, std::span<const double> yhat);
/** @brief Mean of sensitivity and specificity, sklearn balanced_accuracy_score: a class absent
 *  from y_true is left out of the mean (so one class gives that class's recall). */
PERFSHAP_EXPORT double BalancedAccuracy(std::span<const double> y_true, std::span<const double> yhat);
/** @brief Recall tp / (tp + fn), sklearn recall_score(zero_division=0). */
PERFSHAP_EXPORT double Sensitivity(std::span<const double> y_true, std::span<const double> yhat);
/** @brief tn / (tn + fp), sklearn recall_score(pos_label=0, zero_division=0). */
PERFSHAP_EXPORT double Specificity(std::span<const double> y_true, std::span<const double> yhat);
/** @brief tp / (tp + fp), sklearn precision_score(zero_division=0). */
PERFSHAP_EXPORT double Precision(std::span<const double> y_true, std::span<const double> yhat);
/** @brief 2 tp / (2 tp + fp + fn), sklearn f1_score(zero_division=0). */
PERFSHAP_EXPORT double F1(std::span<const double> y_true, std::span<const double> yhat);

// Probability metrics.
/** @brief Mean squared error of probabilities, sklearn brier_score_loss. */
PERFSHAP_EXPORT double Brier(std::span<const double> y_true, std::span<const double> prob);
/** @brief Mean negative log-likelihood, probabilities clipped to [eps, 1-eps] with eps the
 *  float64 machine epsilon (2.2e-16), as sklearn 1.2's log_loss default eps="auto". */
PERFSHAP_EXPORT double LogLoss(std::span<const double> y_true, std::span<const double> prob);

// Regression metrics on real targets.
/** @brief Mean squared error, sklearn mean_squared_error. */
PERFSHAP_EXPORT double Mse(std::span<const double> y_true, std::span<const double> pred);
/** @brief Mean absolute error, sklearn mean_absolute_error. */
PERFSHAP_EXPORT double Mae(std::span<const double> y_true, std::span<const double> pred);
/** @brief sqrt(Mse), sklearn mean_squared_error(squared=False). */
PERFSHAP_EXPORT double Rmse(std::span<const double> y_true, std::span<const double> pred);
/** @brief Coefficient of determination, sklearn r2_score (1 - SSE/SST; SSE = 0 gives 1, and
 *  SST = 0 gives 0 otherwise, as sklearn). A constant y_true is detected exactly, so SST = 0
 *  there even where sklearn's rounded mean leaves a spurious tiny SST.
 *  @throws InvalidArgument for m < 2 (sklearn returns NaN there). */
PERFSHAP_EXPORT double R2(std::span<const double> y_true, std::span<const double> pred);

}}  // namespace perfshap
