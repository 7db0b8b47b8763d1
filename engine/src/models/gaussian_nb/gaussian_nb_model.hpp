// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "perfshap/blocks/model.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief A fitted Gaussian naive Bayes classifier over k features, predicting exactly as
 * sklearn GaussianNB.predict_proba[:, 1]: per class c the joint log-likelihood
 * jll_c = log prior_c + (-0.5 sum_j log(2 pi var_cj) - 0.5 sum_j (x_j - theta_cj)^2 / var_cj),
 * then P(1) = exp(jll_1 - logsumexp(jll_0, jll_1)). Its log-odds jll_1 - jll_0 are additive
 * in the features, exposed through AdditiveTerms with the logit link.
 * @param theta class means, class c feature j at [c * k + j] (2k values).
 * @param var smoothed class variances (epsilon already added), same layout, all > 0.
 * @param log_prior log class priors (class 0, class 1).
 */
std::unique_ptr<Model> MakeGaussianNbModel(std::vector<double> theta, std::vector<double> var,
                                           double log_prior0, double log_prior1);

/** @brief P(1) from the two joint log-likelihoods, as sklearn's predict_proba (scipy
 *  logsumexp: a_max = max, s = exp(a0 - a_max) + exp(a1 - a_max), lse = log(s) + a_max). */
inline double GaussianNbProbability(double jll0, double jll1) {
  // exp(a_max - a_max) is exactly 1: one exp saved, bit for bit the same sum.
  const double sum = jll0 >= jll1 ? 1.0 + std::exp(jll1 - jll0) : std::exp(jll0 - jll1) + 1.0;
  const double lse = std::log(sum) + std::max(jll0, jll1);
  return std::exp(jll1 - lse);
}

}}}  // namespace perfshap::detail
