// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/** @brief Inverse link of a generalised linear model. */
enum class Link {
  kIdentity,  ///< prediction = index (regression, linear probability model)
  kLogit,     ///< prediction = 1 / (1 + exp(-index))
  kProbit,    ///< prediction = Phi(index), the standard normal CDF
};

/** @brief The logistic function as scipy.special.expit computes it: 1 / (1 + exp(-x)). */
PERFSHAP_EXPORT double Expit(double x) noexcept;
/** @brief The standard normal CDF as scipy.special.ndtr (cephes) computes it: 0.5 + 0.5 erf(x /
 *  sqrt 2) near 0, from erfc in the tails. */
PERFSHAP_EXPORT double Ndtr(double x) noexcept;

/** @brief Applies the inverse link to an index value: the identity, Expit or Ndtr. Every
 *  fitted GLM and every coalition fitter uses this one function, so their probabilities agree
 *  bit for bit. */
PERFSHAP_EXPORT double ApplyLink(Link link, double index) noexcept;

/**
 * @brief A fitted model: predicts a batch of rows.
 *
 * Inputs are column-major: feature j of row r is x[j * n_rows + r], with n_features()
 * columns in the model's own feature order. A model has n_outputs() outputs per row: a binary
 * classifier predicts the probability of the positive class (one output), a multi-class one
 * the probability of each class, a regressor the target. Implementations are immutable and
 * thread-safe: many workers call Predict concurrently.
 */
class PERFSHAP_EXPORT Model {
 public:
  virtual ~Model();
  /** @brief Number of input features. */
  virtual std::size_t n_features() const = 0;
  /** @brief Number of outputs per row (1 for binary classifiers and regressors). */
  virtual std::size_t n_outputs() const { return 1; }
  /** @brief True for a classifier (Predict returns probabilities). */
  virtual bool is_classifier() const = 0;
  /**
   * @brief out[o * n_rows + r] = output o for row r (output-major, like the inputs).
   * @param x column-major inputs, n_features() * n_rows values.
   * @param n_rows number of rows.
   * @param out n_outputs() * n_rows values.
   */
  virtual void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const = 0;
  /**
   * @brief Optional capability: the additive score of a one-output model, when it has one:
   * index(x) = intercept + sum_j term_j(x_j) and prediction = ApplyLink(link, index) (up to
   * rounding: the terms are on the raw scale of x). Returns false for models without such a
   * structure (trees, forests...), which is the default. `terms` gets column-major per-feature terms
   * (n_features() * n_rows) for the rows of x.
   */
  virtual bool AdditiveTerms(std::span<const double> x, std::size_t n_rows, double& intercept,
                             std::span<double> terms, Link& link) const;
  /** @brief A short human-readable description ("logistic regression, 3 features"). */
  virtual std::string Describe() const = 0;
};

/**
 * @brief A generalised linear model: prediction = ApplyLink(link, sum_j coef[j+1] x_j + coef[0]),
 * the sum taken in feature order.
 * @param coef intercept first, then one coefficient per feature (raw, unstandardised scale).
 * @param classifier whether predictions are probabilities (logit/probit: always true).
 */
PERFSHAP_EXPORT std::unique_ptr<Model> MakeGlm(Link link, std::vector<double> coef, bool classifier);

/** @brief The coefficients of an already-fitted GLM, as a coefficients file lists them. */
struct GlmCoefficients {
  /** The features, in file order (the intercept excluded). */
  std::vector<std::string> names;
  /** The intercept first, then one coefficient per name: MakeGlm's `coef`. */
  std::vector<double> values;
  /** The 1-based file line of each name. */
  std::vector<std::size_t> lines;
};

/**
 * @brief Reads a coefficients CSV: a header with the columns `name` and `coef` (others are
 * ignored), then one line per coefficient, the intercept `const` first; blank lines are skipped.
 * @throws DataError naming the file and the line for a missing or empty file, a header without
 *   those columns, a ragged line, an empty name, a coefficient that is not a finite number, a
 *   first name other than `const`, a repeated name, or no feature (options(): `coefficients`).
 */
PERFSHAP_EXPORT GlmCoefficients ReadGlmCoefficients(const std::string& path);

}}  // namespace perfshap
