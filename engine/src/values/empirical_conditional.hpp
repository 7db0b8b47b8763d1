// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The value functions' empirical conditional (shapr's "empirical" approach, fixed sigma): the
// background rows weighted by how close they are to the explained row on the coalition's
// features, w_i = exp(-D_S(x, b_i)^2 / (2 sigma^2)) with the scaled Mahalanobis distance
// D_S(x, b)^2 = (x_S - b_S)^T Sigma_SS^-1 (x_S - b_S) / |S| and sigma = 0.1 (shapr's default), the
// largest weights that make up 95% of the total kept (shapr's w_threshold). The draws of the
// features off the coalition are background rows chosen by those weights, stratified: draw k
// takes the row at cumulative weight (k + u_k) / n, u_k a common uniform, so n draws reproduce
// the weights to 1 / n. With no feature on the coalition every row weighs the same.

#include <Eigen/Dense>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

class EmpiricalFeatures final : public ConditionalFeatures {
 public:
  /** shapr's fixed sigma and weight threshold. */
  static constexpr double kSigma = 0.1;
  static constexpr double kWeightShare = 0.95;

  /** @throws InvalidArgument (options(): `background`) for fewer than 2 rows or a value that is not finite.
   */
  EmpiricalFeatures(ColumnMatrix background, std::size_t n_features);
  std::size_t n_features() const override { return n_features_; }
  std::unique_ptr<CoalitionDraws> Given(std::span<const std::uint8_t> inside, std::span<const double> z,
                                        std::size_t n_draws) const override;

  /** The background rows (n_rows x F, row r's values in row r). */
  const Eigen::MatrixXd& rows() const noexcept { return rows_; }
  const Eigen::MatrixXd& covariance() const noexcept { return cov_; }

 private:
  std::size_t n_features_;
  Eigen::MatrixXd rows_;
  Eigen::MatrixXd cov_;
};

}}}  // namespace perfshap::detail
