// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/gaussian_nb_rank.hpp"
#include "perfshap/coalition.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/learner.hpp"
#include "perfshap/model.hpp"

namespace perfshap::detail {

/** @brief What CoalitionTrainer::ScoreTest writes per test row. */
enum class ScoreScale {
  /** Classifiers: P(y = 1), computed as the reference library does (GaussianNB via the joint
   *  log-likelihood and logsumexp as sklearn predict_proba; logistic 1 / (1 + exp(-index)) as
   *  scipy expit; probit the normal CDF as scipy ndtr). Linear: the prediction. */
  kProbability,
  /** The model's index: log-odds (gnb, logistic), probit index, linear prediction. Orders the
   *  rows as kProbability does except where probabilities round to equal values. */
  kIndex,
};

/**
 * @brief Everything about one train/test split that every coalition's training shares,
 * computed once per split and then read-only (shared by all workers of that split).
 *
 * Players are `columns[0..p)` of the data set; bit i of a coalition mask is columns[i].
 * Holds the players' training and test values gathered into contiguous column-major blocks
 * (standardised with the training mean and ddof-0 deviation for logistic/probit when
 * options.standardize, centred or standardised for linear; gnb gathers only its raw test
 * values and sums its training moments in place), the training labels
 * and the shared statistics of the fast paths: per-class per-feature mean and ddof-0 variance
 * and the overall ddof-0 variance (gnb), the Gram matrix of the transformed training columns
 * and their products with the centred label (linear).
 */
class PreparedSplit {
 public:
  /**
   * @param kind the learner.
   * @param data the data set.
   * @param columns the players: feature columns of `data` (at most 63).
   * @param train_rows training rows (order kept: sums run in this order, as numpy's do).
   * @param test_rows rows to score (may be empty).
   * @param options learner options.
   * @param split_name how messages name this split, e.g. "split 3 (mc:100)".
   * @throws InvalidArgument for bad indices or options; DataError for a missing value in a
   *   used cell, a player constant on the training rows, a non-0/1 or one-class training label.
   */
  PreparedSplit(LearnerKind kind, const Dataset& data, std::span<const std::size_t> columns,
                std::span<const std::size_t> train_rows, std::span<const std::size_t> test_rows,
                const LearnerOptions& options, std::string split_name = "the training rows");

  LearnerKind kind() const noexcept { return kind_; }
  const LearnerOptions& options() const noexcept { return options_; }
  int n_players() const noexcept { return static_cast<int>(p_); }
  std::size_t n_train() const noexcept { return n_train_; }
  std::size_t n_test() const noexcept { return n_test_; }
  /** @brief Labels of the test rows, in test_rows order. */
  std::span<const double> test_labels() const noexcept { return test_label_; }
  /** @brief Names of the players, for messages. */
  const std::vector<std::string>& player_names() const noexcept { return names_; }
  const std::string& split_name() const noexcept { return split_name_; }

 private:
  friend class CoalitionTrainer;

  void PrepareGaussianNb(const Dataset& data, std::span<const std::size_t> columns,
                         std::span<const std::size_t> train_rows, std::span<const std::size_t> test_rows);

  LearnerKind kind_;
  LearnerOptions options_;
  std::string split_name_;
  std::string source_;
  std::vector<std::string> names_;
  std::size_t p_ = 0;
  std::size_t n_train_ = 0;
  std::size_t n_test_ = 0;
  // Gathered values, column-major: player j's training values at train_[j * n_train_ ...].
  std::vector<double> train_;
  std::vector<double> test_;
  std::vector<double> train_label_;
  std::vector<double> test_label_;
  // Transform t = (x - center) / scale applied to train_ and test_ (identity for gnb).
  std::vector<double> center_;
  std::vector<double> scale_;
  // Gradient scales for the Newton stopping rule: sum_i |t_ij| over the training rows.
  std::vector<double> abs_sum_;
  // gnb: class counts, log priors, per-class mean and variance (class c, player j at
  // [c * p_ + j]), overall variance per player.
  double class_count_[2] = {0.0, 0.0};
  double log_prior_[2] = {0.0, 0.0};
  std::vector<double> theta_;
  std::vector<double> var_;
  std::vector<double> total_var_;
  // linear: Gram matrix of the transformed training columns (p x p, column-major), their
  // products with the centred label, and the label mean.
  std::vector<double> gram_;
  std::vector<double> xty_;
  double label_mean_ = 0.0;
};

/**
 * @brief Trains the split's learner on coalitions of its players and scores the test rows,
 * with scratch memory of its own: one per worker. After construction, Fit and ScoreTest
 * allocate nothing.
 *
 * - gnb: from the split's moments; per coalition only the smoothing epsilon (1e-9 x the
 *   largest overall variance among the coalition's players, so it depends on the coalition)
 *   and the per-class constants are recomputed; the test log-likelihoods are summed over the
 *   coalition's players in increasing order, so rows equal on those players score equally.
 * - linear: Cholesky of the coalition's principal sub-matrix of the Gram matrix.
 * - logistic, probit: Newton's method, warm-started from the previous coalition's coefficients
 *   (its players keep theirs; a player added to it starts from a one-dimensional Newton step
 *   at the previous optimum, any other newcomer at 0); a full step is taken when it shrinks
 *   the scaled gradient, Armijo backtracking decides otherwise; it stops when every gradient
 *   entry is within options.gradient_tolerance of its scale (1e-12: warm and cold starts
 *   then agree to about 1e-11 in the index).
 *
 * Results depend on the warm start only through the stopping rule (differences far below
 * the tolerance). Call Reset() at the start of each block of coalitions so that results do
 * not depend on which coalitions a worker saw before (thread-count independence).
 */
class CoalitionTrainer {
 public:
  /** @brief A trainer for `split`, which must outlive it. Allocates all scratch. */
  explicit CoalitionTrainer(const PreparedSplit& split);

  /** @brief Trains on `split` (which must outlive it) from now on, as a new trainer would,
   *  keeping the scratch memory (grown if `split` needs more). */
  void Rebind(const PreparedSplit& split);

  /** @brief Forget the warm start: the next Fit starts from zero coefficients. */
  void Reset() noexcept;

  /**
   * @brief Trains on coalition s (bit i = player i). The empty coalition fits the intercept
   * (prior) only.
   * @return Newton iterations used (0 for gnb and linear).
   * @throws DataError (naming the split and the players) for collinear players (linear,
   *   probit), perfect separation or no convergence within options.max_iterations.
   */
  int Fit(Coalition s);

  /** @brief Writes the last fitted model's score of every test row into out (n_test values).
   *  Rows with equal values on the coalition's players get bitwise equal scores. Needs a
   *  successful Fit since construction, Reset() or a failed Fit. */
  void ScoreTest(std::span<double> out, ScoreScale scale = ScoreScale::kProbability);

  /** @brief gnb only: ranks the test rows by the last fit's P(1) exactly as ScoreTest's
   *  probabilities order and tie them, evaluating P(1) only where the log-odds cannot decide
   *  (RankGaussianNb); ranking.positive receives the test labels in rank order.
   *  @param kernel which RankGaussianNb kernel; every kernel gives the same ranking.
   *  @return false when that cannot be done (non-finite log-likelihoods): use ScoreTest then. */
  bool RankTest(GaussianNbRanking& ranking, RankKernel kernel = RankKernel::kAuto);

  /** @brief Fit(s) then ScoreTest(out, scale). */
  int Score(Coalition s, std::span<double> out, ScoreScale scale = ScoreScale::kProbability) {
    const int iterations = Fit(s);
    ScoreTest(out, scale);
    return iterations;
  }

  /** @brief The coalition of the last Fit. */
  Coalition coalition() const noexcept { return coalition_; }

  /** @brief The last fit as a Model over the coalition's players in increasing order, on the
   *  raw (untransformed) scale. Allocates; not for hot loops. */
  std::unique_ptr<Model> MakeModel() const;

 private:
  int FitNewton(bool probit);
  void FitGaussianNb();
  void FitLinear();
  void Index(std::span<double> out) const;
  void JointLogLikelihoods(double* jll0, double* jll1);
  const double* GaussianNbTerms(std::size_t player, std::size_t slot, int c);
  [[noreturn]] void ThrowForCoalition(const std::string& what, const std::string& advice) const;

  const PreparedSplit* split_ = nullptr;
  Coalition coalition_ = 0;
  bool fitted_ = false;
  int added_ = -1;                    // the one player added to the previous coalition, else -1
  std::size_t k_ = 0;                 // players in the coalition
  std::vector<std::size_t> members_;  // its players, increasing
  // GLM coefficients in the transformed space: intercept_, and coef_[j] per player (kept
  // for players outside the coalition too: 0 once dropped; the warm start).
  double intercept_ = 0.0;
  std::vector<double> coef_;
  // Newton scratch: design (n_train x (k+1)), weighted design, index, per-row derivatives,
  // gradient, Hessian, step, trial coefficients.
  std::vector<double> design_;
  std::vector<double> weighted_;
  std::vector<double> eta_;
  std::vector<double> eta_try_;
  std::vector<double> direction_;
  std::vector<double> first_;
  std::vector<double> second_;
  std::vector<double> beta_;
  std::vector<double> beta_try_;
  std::vector<double> grad_;
  std::vector<double> hess_;
  std::vector<double> step_;
  // gnb: per coalition, smoothed variances of its members (class c at [c * p + i]), and
  // the per-class constant log prior - 0.5 sum log(2 pi var).
  std::vector<double> nb_var_;
  double nb_const_[2] = {0.0, 0.0};
  // gnb: the member whose overall variance sets epsilon, and a cache of the quadratic terms
  // (x - theta_cj)^2 / (var_cj + epsilon) of each (owner m, player j, class c) over the test
  // rows at [((m * p + j) * 2 + c) * n_test] (filled on first use, flag in nb_cached_), kept
  // while it stays under kTermCacheDoubles: a coalition's log-likelihoods are then sums of
  // cached rows, with the same values and the same order of additions.
  std::size_t nb_owner_ = 0;
  std::unique_ptr<double[]> nb_terms_;
  std::size_t nb_terms_size_ = 0;
  std::vector<std::uint8_t> nb_cached_;
  std::vector<double> row_scratch_;
  std::vector<double> row_scratch2_;
  std::vector<std::uint8_t> test_positive_;  // gnb: the test labels as bytes, for RankTest
};

}  // namespace perfshap::detail
