// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>

#include "perfshap/dataset.hpp"
#include "perfshap/export.hpp"
#include "perfshap/model.hpp"

namespace perfshap {

/** @brief The learners that can be retrained on any coalition of feature columns. */
enum class LearnerKind {
  /** Gaussian naive Bayes, exactly scikit-learn's `GaussianNB()` defaults: per-class mean and
   *  ddof-0 variance, variance smoothing `var_smoothing` x the largest ddof-0 variance among
   *  the model's training columns, priors = training class frequencies. */
  kGaussianNb,
  /** L2 logistic regression at its optimum, as sklearn
   *  `make_pipeline(StandardScaler(), LogisticRegression(C=C))`: minimises
   *  0.5 ||w||^2 + C sum_i logloss_i, intercept unpenalised, on standardised columns (mean and
   *  ddof-0 standard deviation of the training rows) unless `standardize` is false. */
  kLogistic,
  /** Least squares with intercept (OLS; ridge with penalty `ridge` ||w||^2 when ridge > 0,
   *  on standardised columns unless `standardize` is false, i.e. sklearn
   *  `make_pipeline(StandardScaler(), Ridge(alpha=ridge))` or `Ridge(alpha=ridge)`). A
   *  regressor: the label is the raw target. */
  kLinear,
  /** Maximum-likelihood probit, P(y = 1 | x) = Phi(b + x.w), as statsmodels `Probit().fit()`. */
  kProbit,
};

/**
 * @brief The learner called `name`: "gnb", "logistic", "linear" or "probit".
 * @throws InvalidArgument for any other name (the message lists the choices).
 */
PERFSHAP_EXPORT LearnerKind ParseLearner(const std::string& name);

/** @brief The command-line name of a learner ("gnb", "logistic", "linear", "probit"). */
PERFSHAP_EXPORT const char* LearnerName(LearnerKind kind) noexcept;

/** @brief True for the binary classifiers (gnb, logistic, probit), false for linear. */
PERFSHAP_EXPORT bool IsClassifierLearner(LearnerKind kind) noexcept;

/** @brief Hyper-parameters and numerical settings of the learners. */
struct LearnerOptions {
  /** logistic: inverse L2 strength (objective 0.5||w||^2 + C sum logloss); finite, > 0. */
  double C = 1.0;
  /** logistic, probit, linear: fit on columns standardised with the training rows' mean and
   *  ddof-0 standard deviation (the reported model is always on the raw scale). Changes the
   *  logistic and ridge optimum; probit and OLS optima are invariant (better conditioned). */
  bool standardize = true;
  /** linear: ridge penalty alpha >= 0 on ||w||^2 (0 = ordinary least squares). */
  double ridge = 0.0;
  /** gnb: variance smoothing factor (sklearn `var_smoothing`), >= 0. */
  double var_smoothing = 1e-9;
  /** logistic, probit: Newton stops when every gradient entry j is at most this fraction of
   *  its scale C sum_i |x_ij| (C = 1 for probit; x_ij = 1 for the intercept), i.e. of the
   *  largest value the loss part of the gradient can take; in (0, 0.01]. */
  double gradient_tolerance = 1e-12;
  /** logistic, probit: Newton iteration limit; reaching it is a DataError. */
  int max_iterations = 100;
};

/**
 * @brief Trains a learner on some rows and columns of a data set.
 *
 * Nothing is copied per call beyond the gathered training block. For a classifier the label
 * must be 0/1 with both classes among `rows`.
 * @param kind the learner.
 * @param data the data set (features column-major, label).
 * @param rows training rows (0-based; repeats allowed, order irrelevant), at least 2.
 * @param columns feature columns of `data` the model uses, in the model's feature order; may
 *   be empty (intercept / prior only).
 * @param options hyper-parameters.
 * @return a Model over `columns` in that order: probabilities of class 1 for classifiers
 *   (GaussianNB exactly as sklearn predict_proba[:, 1]; it also exposes its log-odds as
 *   AdditiveTerms), predictions for linear; GLMs carry raw-scale coefficients (MakeGlm).
 * @throws InvalidArgument for an unknown row or column index, bad options, more than 63
 *   columns.
 * @throws DataError (one line, naming the feature) for a missing value, a column constant on
 *   the training rows, a non-0/1 or one-class label, collinear columns (linear, probit),
 *   perfect separation or no convergence (probit, logistic).
 */
PERFSHAP_EXPORT std::unique_ptr<Model> Train(LearnerKind kind, const Dataset& data,
                                             std::span<const std::size_t> rows,
                                             std::span<const std::size_t> columns,
                                             const LearnerOptions& options = {});

}  // namespace perfshap
