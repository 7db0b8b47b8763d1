// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The built-in learners and their typed options. Each is also registered by name
// (MakeLearner("gnb"), ...), reading the same options from text: the option names are the
// field names below.

#include <memory>

#include "perfshap/export.hpp"
#include "perfshap/blocks/learner.hpp"

namespace perfshap { inline namespace v0 {

/** @brief "gnb": Gaussian naive Bayes, exactly scikit-learn's `GaussianNB()`: per-class mean
 *  and ddof-0 variance, variance smoothing var_smoothing x the largest ddof-0 variance among the
 *  model's training columns, priors = training class frequencies. */
struct GaussianNbOptions {
  /** sklearn `var_smoothing`, finite and >= 0. */
  double var_smoothing = 1e-9;
};

/** @brief Newton's method of the GLMs (logistic, probit). */
struct NewtonOptions {
  /** Stop when every gradient entry j is at most this fraction of its scale C sum_i |x_ij|
   *  (C = 1 for probit; x_ij = 1 for the intercept), i.e. of the largest value the loss part of
   *  the gradient can take; in (0, 0.01]. */
  double gradient_tolerance = 1e-12;
  /** Iteration limit; reaching it is a DataError. */
  int max_iterations = 100;
};

/** @brief "logistic": L2 logistic regression at its optimum, as sklearn
 *  `make_pipeline(StandardScaler(), LogisticRegression(C=C))`: minimises
 *  0.5 ||w||^2 + C sum_i logloss_i, intercept unpenalised, on standardised columns (mean and
 *  ddof-0 standard deviation of the training rows) unless `standardize` is false. Warm-started
 *  along Gray-code steps. */
struct LogisticOptions {
  /** Inverse L2 strength; finite, > 0. */
  double C = 1.0;
  /** Fit on columns standardised with the training rows (the model is reported on the raw
   *  scale); changes the optimum, as in sklearn. */
  bool standardize = true;
  NewtonOptions newton;
};

/** @brief "probit": maximum-likelihood probit, P(y = 1 | x) = Phi(b + x.w), as statsmodels
 *  `Probit().fit()`. */
struct ProbitOptions {
  /** Fit on standardised columns (the optimum is invariant; better conditioned). */
  bool standardize = true;
  NewtonOptions newton;
};

/** @brief "linear": least squares with intercept (OLS; ridge with penalty `ridge` ||w||^2 when
 *  ridge > 0, on standardised columns unless `standardize` is false, i.e. sklearn
 *  `make_pipeline(StandardScaler(), Ridge(alpha=ridge))` or `Ridge(alpha=ridge)`). A regressor:
 *  the label is the raw target (a 0/1 label makes it a linear probability model). */
struct LinearOptions {
  /** Ridge penalty alpha >= 0 on ||w||^2 (0 = ordinary least squares). */
  double ridge = 0.0;
  /** Standardise the columns (the OLS optimum is invariant; the ridge optimum is not). */
  bool standardize = true;
};

/** @throws InvalidArgument for an option out of its domain (each factory below). */
PERFSHAP_EXPORT std::shared_ptr<const Learner> MakeGaussianNbLearner(const GaussianNbOptions& options = {});
PERFSHAP_EXPORT std::shared_ptr<const Learner> MakeLogisticLearner(const LogisticOptions& options = {});
PERFSHAP_EXPORT std::shared_ptr<const Learner> MakeProbitLearner(const ProbitOptions& options = {});
PERFSHAP_EXPORT std::shared_ptr<const Learner> MakeLinearLearner(const LinearOptions& options = {});

}}  // namespace perfshap
