// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/export.hpp"

namespace perfshap {

/** @brief Inverse link of a generalised linear model. */
enum class Link {
  kIdentity,  ///< prediction = index (regression, linear probability model)
  kLogit,     ///< prediction = 1 / (1 + exp(-index))
  kProbit,    ///< prediction = Phi(index), the standard normal CDF
};

/** @brief Applies the inverse link to an index value. */
PERFSHAP_EXPORT double ApplyLink(Link link, double index) noexcept;

/**
 * @brief A fitted model: predicts a batch of rows.
 *
 * Inputs are column-major: feature j of row r is x[j * n_rows + r], with n_features()
 * columns in the model's own feature order. Classifiers predict the probability of the
 * positive class; regressors predict the target. Implementations are immutable and
 * thread-safe: many workers call Predict concurrently.
 */
class PERFSHAP_EXPORT Model {
 public:
  virtual ~Model();
  /** @brief Number of input features. */
  virtual std::size_t n_features() const = 0;
  /** @brief True for a binary classifier (Predict returns probabilities). */
  virtual bool is_classifier() const = 0;
  /**
   * @brief out[r] = prediction for row r.
   * @param x column-major inputs, n_features() * n_rows values.
   * @param n_rows number of rows.
   * @param out n_rows values.
   */
  virtual void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const = 0;
  /**
   * @brief The additive score of the model, when it has one: index(x) = intercept +
   * sum_j term_j(x_j) and prediction = ApplyLink(link, index). Returns false for models
   * without such a structure (trees, forests...). `terms` gets column-major per-feature terms
   * (n_features() * n_rows) for the rows of x.
   */
  virtual bool AdditiveTerms(std::span<const double> x, std::size_t n_rows, double& intercept,
                             std::span<double> terms, Link& link) const;
  /** @brief A short human-readable description ("logistic regression, 3 features"). */
  virtual std::string Describe() const = 0;
};

/**
 * @brief A generalised linear model: prediction = ApplyLink(link, coef[0] + sum_j coef[j+1] x_j).
 * @param coef intercept first, then one coefficient per feature (raw, unstandardised scale).
 * @param classifier whether predictions are probabilities (logit/probit: always true).
 */
PERFSHAP_EXPORT std::unique_ptr<Model> MakeGlm(Link link, std::vector<double> coef, bool classifier);

}  // namespace perfshap
