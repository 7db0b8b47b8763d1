// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The value functions' Gaussian conditional (issue 38; shapr's "gaussian" approach): the
// features are taken as jointly normal, with the background rows' mean and covariance (the
// plug-in estimates; the nearest positive definite matrix when the sample's is not), and the
// features off a coalition are drawn from their conditional distribution given the features on
// it:
//   X_O | X_S = x_S ~ N(mu_O + Sigma_OS Sigma_SS^-1 (x_S - mu_S), Sigma_OO - Sigma_OS Sigma_SS^-1 Sigma_SO),
// one Cholesky factor per coalition shared by every explained row, and common random numbers:
// draw k of feature j uses the same standard normal z_kj in every coalition, so the values of
// two coalitions differ by the conditioning, not by fresh noise.

#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "perfshap/blocks/game_settings.hpp"
#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief A multivariate normal fitted to background rows. */
class GaussianFeatures final : public ConditionalFeatures {
 public:
  /**
   * @param background column-major rows (F columns of n_rows values); at least 2 rows.
   * @param n_features F.
   * @throws InvalidArgument (options(): `background`) for fewer than 2 rows or a value that is not finite.
   */
  GaussianFeatures(ColumnMatrix background, std::size_t n_features);

  std::size_t n_features() const noexcept override { return static_cast<std::size_t>(mean_.size()); }
  std::unique_ptr<CoalitionDraws> Given(std::span<const std::uint8_t> inside, std::span<const double> z,
                                        std::size_t n_draws) const override;
  const Eigen::VectorXd& mean() const noexcept { return mean_; }
  /** The covariance used: the sample's, or its nearest positive definite matrix (eigenvalues
   *  raised to 1e-10 of the largest, at least 1e-300). */
  const Eigen::MatrixXd& covariance() const noexcept { return cov_; }
  /** Whether the sample covariance had to be replaced by its nearest positive definite matrix. */
  bool adjusted() const noexcept { return adjusted_; }

 private:
  Eigen::VectorXd mean_;
  Eigen::MatrixXd cov_;
  bool adjusted_ = false;
};

/** @brief The conditional distribution of the features off a coalition given those on it, and
 *  n_draws draws of its noise: the conditional covariance's Cholesky factor L times the common
 *  standard normals, computed once for the coalition (one matrix product), so that a row's draws
 *  cost its conditional mean plus one addition a value. */
class GaussianConditional final : public CoalitionDraws {
 public:
  /**
   * @param inside inside[j] != 0 for the features on the coalition.
   * @param z the standard normals, n_draws x F, draw-major: draw k of feature j uses z[k * F + j]
   *   (the same for every coalition).
   */
  GaussianConditional(const GaussianFeatures& g, std::span<const std::uint8_t> inside,
                      std::span<const double> z, std::size_t n_draws);

  /**
   * @brief Fills `draws` (column-major, F columns of n_draws rows): row x's features on the
   * coalition, and the draws of the others given them.
   * @param x one row, F values.
   */
  void Draw(std::span<const double> x, std::span<double> draws) override;

 private:
  std::size_t n_draws_;
  std::vector<int> in_, out_;
  Eigen::VectorXd mu_in_, mu_out_;
  Eigen::MatrixXd regression_;          // Sigma_OS Sigma_SS^-1 (|O| x |S|)
  Eigen::MatrixXd noise_;               // L Z_O: n_draws x |O| (column a: feature out_[a]'s noise)
  Eigen::VectorXd centre_, in_values_;  // scratch of Draw
};

}}}  // namespace perfshap::detail
