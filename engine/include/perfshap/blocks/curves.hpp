// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

// ROC and PR curves read at fixed grid points, for ShapROC / ShapPRC (shapauc-shaproc-robustness
// section 3.2.2 and 3.4): every coalition trains its own model, so its curve has its own points;
// reading each curve at the same grid (FPR for ROC, recall for PR) makes coalitions comparable.
// One CurveGridEvaluator::Evaluate call gives everything a RetrainGame coalition needs: the AUC,
// TPR at every FPR grid point, precision at every recall grid point and the AUPRC.

/** @brief How a coalition's curve is built before it is read at the grid. */
enum class CurveMode {
  /// The curve's points at every distinct score (sklearn roc_curve(drop_intermediate=False) /
  /// precision_recall_curve); metric.hpp's RocCurve / PrCurve point for point.
  kExact,
  /// The authors' published scripts: T probability thresholds t_j, positive iff p > t_j.
  kThresholds,
};

/** @brief Estimate of y at a grid point g between the curve's neighbouring points (eq. in
 *  section 3.2.2: optimistic max, pessimistic min, interpolation linear in x). */
enum class GridStrategy { kOptimistic, kPessimistic, kInterpolation };

/** @brief Which area under the PR curve is "the" AUPRC of a payoff (both are always computed). */
enum class AuprcDefinition {
  /// Step-wise sum_k (R_k - R_{k-1}) P_k (sklearn average_precision_score).
  kAveragePrecision,
  /// Trapezoid rule over the PR curve (sklearn auc(recall, precision); the authors' trapz).
  kTrapezoid,
};

/**
 * @brief Options of a CurveGridEvaluator.
 *
 * Grids hold values in [0, 1], strictly increasing; an empty grid is replaced by
 * DefaultCurveGrid(mode, thresholds) (for kExact: DefaultCurveGrid(kExact, 101)).
 */
struct CurveGridOptions {
  CurveMode mode = CurveMode::kExact;
  /// Number T >= 2 of probability thresholds of kThresholds (ignored by kExact except as the
  /// size of the default grids).
  int thresholds = 101;
  /// FPR values at which TPR is read (ShapROC, eq. 7).
  std::vector<double> fpr_grid;
  /// Recall values at which precision is read (ShapPRC, eq. 15).
  std::vector<double> recall_grid;
  GridStrategy strategy = GridStrategy::kInterpolation;
  /// The AUPRC that WritePayoffs reports (kThresholds always uses its knots' trapezoid).
  AuprcDefinition auprc = AuprcDefinition::kTrapezoid;
};

/**
 * @brief The default grid of `points` values from 0 to 1.
 *
 * kThresholds: value j is `j * (1.0 / (points - 1))` in double and the last value is 1, which
 * for 101 points is exactly the authors' `j * 0.01` for every j (numpy arange(0, 1.01, 0.01);
 * 35 * 0.01 = 0.35000000000000003, not 0.35; 100 * 0.01 = 1). These are also its probability
 * thresholds. (For other T the last product may miss 1 by an ulp, e.g. 49 * (1.0 / 49), hence
 * the exact 1 at the end: no probability exceeds the last threshold.)
 * kExact: value j is the correctly rounded j / (points - 1) (0.35 for j = 35 of 101), so that a
 * curve point x = c / N equals a grid point exactly when the two fractions are equal; with
 * `j * 0.01` a point at x = 35/100 would not count as "exactly at g".
 * @throws InvalidArgument when points < 2.
 */
PERFSHAP_EXPORT std::vector<double> DefaultCurveGrid(CurveMode mode, int points = 101);

/**
 * @brief Trapezoid rule over a grid, numpy `trapz(values, x=grid)`:
 * sum_k (grid[k+1] - grid[k]) (values[k] + values[k+1]) / 2, summed in index order
 * (compensated). Paper eq. (9) / (12): the area under a ShapROC or ShapPRC curve read at a grid.
 * @param grid G points (any order numpy would accept; perfshap grids increase).
 * @param values G values, one per grid point.
 * @return 0 for fewer than two points.
 * @throws InvalidArgument when the lengths differ.
 */
PERFSHAP_EXPORT double GridTrapezoid(std::span<const double> grid, std::span<const double> values);

/**
 * @brief Parses the curve points (RobustnessOptions::curves) from their name: "exact", "thresholds" (T = 101) or "thresholds:T";
 * sets options.mode and options.thresholds.
 * @throws InvalidArgument naming the accepted forms.
 */
PERFSHAP_EXPORT void ParseCurvePoints(std::string_view text, CurveGridOptions& options);

/** @brief Parses "optimistic", "pessimistic" or "interpolation". @throws InvalidArgument. */
PERFSHAP_EXPORT GridStrategy ParseGridStrategy(std::string_view text);

/** @brief "exact" or "thresholds:T" (the form ParseCurvePoints reads back). */
PERFSHAP_EXPORT std::string CurvePointsName(const CurveGridOptions& options);
/** @brief "optimistic", "pessimistic" or "interpolation". */
PERFSHAP_EXPORT const char* GridStrategyName(GridStrategy strategy);

/**
 * @brief One coalition's curve values, sized by CurveGridEvaluator::MakeValues().
 *
 * kExact: `auc` is RocAuc, `average_precision` AveragePrecision and `auprc_trapezoid`
 * AuprcTrapezoid of metric.hpp, bit for bit; they do not depend on the strategy.
 * kThresholds (the authors' scripts): `auc` and `auprc_trapezoid` are the trapezoids over the
 * coalition's own merged threshold curve (CurveGridScratch::roc() / pr(): knots from x = 0 to
 * x = 1, x = FPR / recall), not over the grid readings, so they do not depend on the strategy.
 * AUC - 0.5 and AUPRC - b are then the areas their ShapAUC / ShapAUPRC scripts explain,
 * trapz(TPR - FPR, FPR) and trapz(precision - b, recall) over those knots (the trapezoid of x,
 * resp. of b, over [0, 1] being 0.5, resp. b). The grid integrals of the ShapROC / ShapPRC
 * curves that their ShapROC / ShapPRC scripts print are GridTrapezoid of the grid payoffs.
 * `average_precision` = sum (R_k - R_{k-1}) P_k over the merged threshold curve.
 */
struct CurveGridValues {
  double auc = 0.5;
  double average_precision = 0.0;
  double auprc_trapezoid = 0.0;
  /// TPR at each fpr_grid point.
  std::vector<double> tpr;
  /// Precision at each recall_grid point.
  std::vector<double> precision;
};

/** @brief Read-only view of curve points in order of increasing x (x = FPR or recall). */
struct CurvePoints {
  std::span<const double> x;
  std::span<const double> y;
};

/**
 * @brief Caller-owned working memory of CurveGridEvaluator::Evaluate, one per thread.
 *
 * Buffers grow to the largest sample seen and are then reused: Evaluate allocates nothing once
 * Reserve(m) was called (or after a first call with m rows). After Evaluate, roc() and pr() view
 * the coalition's curve until the next call: kExact, metric.hpp's RocCurve / PrCurve x and y
 * (thresholds decreasing); kThresholds, the merged threshold curve (sorted by x, equal x merged
 * keeping the largest y, closed at x = 1 as described at Evaluate).
 */
class PERFSHAP_EXPORT CurveGridScratch {
 public:
  /** @brief Grows the buffers for samples of up to m rows and T thresholds. */
  void Reserve(std::size_t m, int thresholds = 101);
  /** @brief The last Evaluate's ROC points (FPR, TPR). kExact divides them out of the walk's
   *  counts on the first call after Evaluate. */
  CurvePoints roc() const;
  /** @brief The last Evaluate's PR points (recall, precision), as roc(). */
  CurvePoints pr() const;

 private:
  friend class CurveGridEvaluator;
  std::vector<std::uint64_t> keys_;                  // kExact: order keys, positives then negatives
  std::vector<std::size_t> positives_;               // kThresholds: positives above each bucket
  std::vector<std::size_t> negatives_;               // kThresholds: negatives above each bucket
  // The points: the first roc_points_ / pr_points_ (kExact: filled from the counts by roc() /
  // pr() when roc_points_ / pr_points_ is 0 and exact_points_ is not).
  mutable std::vector<double> roc_x_, roc_y_, pr_x_, pr_y_;
  mutable std::size_t roc_points_ = 0;
  mutable std::size_t pr_points_ = 0;
  // kExact: whether roc() / pr() must rebuild the points from the tables below.
  bool exact_points_ = false;
  // kExact: fp / N and tp / P for every count (the divisions of sklearn's fps / fps[-1] and
  // tps / tps[-1]), computed once per class counts and reused while they stay the same.
  std::vector<double> fpr_of_, tpr_of_;
  // kExact, per count c of false positives (ROC) or true positives (PR): the other count at the
  // first and the last curve point with that count (kUnseen where no point has it).
  std::vector<std::uint64_t> roc_first_, roc_last_, pr_first_, pr_last_;
  // Where each grid point falls among the counts' rates, cached per (evaluator, count): the
  // largest count with rate < g, the count with rate == g, the smallest with rate > g.
  struct GridIndex {
    std::uint64_t evaluator = 0;
    std::size_t count = 0;
    std::vector<std::uint32_t> below, equal, above;
  };
  GridIndex roc_index_, pr_index_;
  // kExact: PrecisionOf at the first and the last point of each true-positive count reached.
  std::vector<double> prec_first_, prec_last_;
};

/**
 * @brief Reads ROC and PR curves at fixed grids, one pass per coalition.
 *
 * Immutable after construction, so one evaluator is shared by all threads; each thread owns a
 * CurveGridScratch and a CurveGridValues.
 *
 * kExact reading (ARCHITECTURE.md, paper section 3.2.2): the points, walked in order of
 * decreasing threshold (x never decreases); a = the last point with x < g, b = the first with
 * x > g: optimistic max(y_a, y_b), pessimistic min(y_a, y_b), interpolation
 * y_a + (y_b - y_a)(g - x_a)/(x_b - x_a). Where points lie exactly at x == g, y_a and y_b are
 * the lowest and highest y among them and interpolation takes their mean (the paper's
 * "f_a = f_b" case). ROC starts at (0, 0) and PR at (0, 1), both reach x = 1.
 *
 * kThresholds reading (the authors' scripts): thresholds t_j = DefaultCurveGrid(kThresholds,
 * T)[j]; a row is positive iff p > t_j; precision := 1 where no row is positive; the T points
 * (x, y) sorted by x, equal x merged keeping the largest y; a grid point hit exactly (x == g)
 * takes that y under every strategy; otherwise L / R = the nearest merged points left / right of
 * g: optimistic y_R, pessimistic y_L, interpolation linear. Where rows with p = 0 exactly keep the
 * largest x below 1 (the scripts fail there), the curve is closed by the all-positive point
 * (1, 1) for ROC and (1, prevalence) for PR.
 */
class PERFSHAP_EXPORT CurveGridEvaluator {
 public:
  /** @brief Validates the options and fills empty grids with DefaultCurveGrid.
   *  @throws InvalidArgument for T < 2 or a grid value outside [0, 1], NaN, or out of order. */
  explicit CurveGridEvaluator(CurveGridOptions options);

  const CurveGridOptions& options() const noexcept { return options_; }
  std::span<const double> fpr_grid() const noexcept { return options_.fpr_grid; }
  std::span<const double> recall_grid() const noexcept { return options_.recall_grid; }

  /** @brief Values sized for this evaluator's grids (allocate once per worker). */
  CurveGridValues MakeValues() const;

  /**
   * @brief Computes one coalition's curve values.
   * @param y_true m labels 0/1 with both classes present.
   * @param score m scores, larger = more positive, no NaN; kThresholds: probabilities in [0, 1].
   * @param scratch working memory (see CurveGridScratch).
   * @param out resized to the grids (no allocation when made by MakeValues).
   * @throws InvalidArgument on length mismatch, a label not 0/1, one class only, a NaN score, or
   * (kThresholds) a score outside [0, 1]; the message names the array and index.
   */
  void Evaluate(std::span<const double> y_true, std::span<const double> score, CurveGridScratch& scratch,
                CurveGridValues& out) const;

  /**
   * @brief kExact values of rows the caller has already ranked: the same numbers, bit for bit,
   * as Evaluate with any scores that order and tie the rows this way.
   * @param positive_by_rank m labels in rank order: entry i is 1 when the row with the i-th
   *   lowest score is positive, 0 when it is negative (both classes present).
   * @param tie_with_previous m flags: entry i != 0 when that row has the same score as the row
   *   of rank i - 1 (entry 0 is ignored).
   * @throws InvalidArgument in kThresholds mode, on length mismatch, a label not 0/1 or one
   *   class only.
   */
  void EvaluateRanked(std::span<const std::uint8_t> positive_by_rank, std::span<const std::uint8_t> tie_with_previous,
                      CurveGridScratch& scratch, CurveGridValues& out) const;

  /** @brief Number k of payoffs a coalition yields: 2 + |fpr_grid| + |recall_grid|. */
  std::size_t payoff_count() const noexcept {
    return 2 + options_.fpr_grid.size() + options_.recall_grid.size();
  }

  /**
   * @brief Writes the RetrainGame payoffs of one coalition, in this order:
   * AUC - 0.5 (eq. 5); tpr(f') - f' for each FPR grid point (eq. 7); precision(r') - b for each
   * recall grid point (eq. 15); AUPRC - b (eq. 13) with AUPRC per options().auprc (kThresholds:
   * the trapezoid over the merged knots, CurveGridValues). The empty coalition (random
   * classifier) has all payoffs 0.
   * @param prc_baseline b: 0.5 as in the paper, or the prevalence.
   * @param out payoff_count() values.
   */
  void WritePayoffs(const CurveGridValues& values, double prc_baseline, std::span<double> out) const;

  /** @brief The random classifier's values (empty coalition): AUC 0.5, tpr = fpr, precision
   *  and AUPRC = b; its payoffs are all 0. */
  CurveGridValues RandomClassifier(double prc_baseline) const;

 private:
  void EvaluateExact(std::span<const double> y_true, std::span<const double> score, CurveGridScratch& scratch,
                     CurveGridValues& out) const;
  template <class FillTables>
  void WalkExact(FillTables&& fill, std::size_t n_pos, std::size_t n_neg, CurveGridScratch& scratch,
                 CurveGridValues& out) const;
  void EvaluateThresholds(std::span<const double> y_true, std::span<const double> score,
                          CurveGridScratch& scratch, CurveGridValues& out) const;

  CurveGridOptions options_;
  std::vector<double> thresholds_;  // kThresholds: t_j, increasing
  std::uint64_t id_ = 0;            // distinct per constructed evaluator: keys the scratch's grid caches
};

}}  // namespace perfshap
