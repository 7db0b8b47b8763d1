// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "values/empirical_conditional.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>
#include <numeric>

#include "perfshap/error.hpp"
#include "values/gaussian_conditional.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

// A coalition's draws: the background whitened on the coalition's features once, then per row
// the weights, the kept rows and the stratified choice.
class EmpiricalDraws final : public CoalitionDraws {
 public:
  EmpiricalDraws(const EmpiricalFeatures& e, std::span<const std::uint8_t> inside, std::span<const double> z,
                 std::size_t n_draws)
      : e_(e), n_draws_(n_draws), uniform_(n_draws) {
    const std::size_t F = e.n_features();
    for (std::size_t j = 0; j < F; ++j) (inside[j] != 0 ? in_ : out_).push_back(static_cast<int>(j));
    const boost::math::normal standard;
    for (std::size_t k = 0; k < n_draws; ++k) uniform_[k] = boost::math::cdf(standard, z[k * F]);
    const std::size_t nb = static_cast<std::size_t>(e.rows().rows());
    order_.reserve(nb);
    weight_.resize(nb);
    if (in_.empty()) return;
    // Whitened: L^-1 b_S for every background row (Sigma_SS = L L^T), so D^2 = |L^-1 (x_S - b_S)|^2 / |S|.
    factor_ = e.covariance()(in_, in_).llt();
    whitened_ = factor_.matrixL().solve(e.rows()(Eigen::all, in_).transpose());
  }

  void Draw(std::span<const double> x, std::span<double> draws) override {
    const std::size_t nb = weight_.size();
    Weights(x);
    // The rows by weight, largest first; kept while the total is short of the share. Rows below
    // 1e-15 of the nearest (which weighs 1) cannot matter (all of them together weigh less than
    // nb 1e-15): left out of the sort.
    order_.clear();
    for (std::size_t i = 0; i < nb; ++i)
      if (weight_[i] >= 1e-15) order_.push_back(i);
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return weight_[a] > weight_[b]; });
    const double total = std::accumulate(weight_.begin(), weight_.end(), 0.0);
    std::size_t kept = 0;
    double sum = 0.0;
    while (kept < order_.size() && (kept == 0 || sum < EmpiricalFeatures::kWeightShare * total))
      sum += weight_[order_[kept++]];
    // Stratified: draw k at cumulative weight (k + u_k) / n of the kept rows.
    std::size_t at = 0;
    double upto = weight_[order_[0]] / sum;
    for (std::size_t k = 0; k < n_draws_; ++k) {
      const double u = (static_cast<double>(k) + uniform_[k]) / static_cast<double>(n_draws_);
      while (u >= upto && at + 1 < kept) upto += weight_[order_[++at]] / sum;
      const auto row = static_cast<Eigen::Index>(order_[at]);
      for (const int j : out_) draws[static_cast<std::size_t>(j) * n_draws_ + k] = e_.rows()(row, j);
    }
    for (const int j : in_)
      std::fill_n(draws.begin() + static_cast<std::ptrdiff_t>(j * n_draws_), n_draws_, x[j]);
  }

 private:
  // weight_[i] = exp(-(D_i^2 - min D^2) / (2 sigma^2)): the minimum subtracted so that the
  // nearest row weighs 1 (the ratios are the same, none underflows to a zero total).
  void Weights(std::span<const double> x) {
    const std::size_t nb = weight_.size();
    if (in_.empty()) {
      std::fill(weight_.begin(), weight_.end(), 1.0);
      return;
    }
    Eigen::VectorXd xs(static_cast<Eigen::Index>(in_.size()));
    for (std::size_t a = 0; a < in_.size(); ++a)
      xs(static_cast<Eigen::Index>(a)) = x[static_cast<std::size_t>(in_[a])];
    const Eigen::VectorXd wx = factor_.matrixL().solve(xs);
    const double scale =
        1.0 / (static_cast<double>(in_.size()) * 2.0 * EmpiricalFeatures::kSigma * EmpiricalFeatures::kSigma);
    double least = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < nb; ++i) {
      weight_[i] = (whitened_.col(static_cast<Eigen::Index>(i)) - wx).squaredNorm() * scale;
      least = std::min(least, weight_[i]);
    }
    for (double& w : weight_) w = std::exp(least - w);
  }

  const EmpiricalFeatures& e_;
  std::size_t n_draws_;
  std::vector<int> in_, out_;
  std::vector<double> uniform_;
  Eigen::LLT<Eigen::MatrixXd> factor_;
  Eigen::MatrixXd whitened_;  // |S| x n_rows
  std::vector<std::size_t> order_;
  std::vector<double> weight_;
};

}  // namespace

EmpiricalFeatures::EmpiricalFeatures(ColumnMatrix background, std::size_t n_features)
    : n_features_(n_features) {
  const GaussianFeatures moments(background, n_features);  // the checks, and the covariance
  cov_ = moments.covariance();
  rows_ = Eigen::Map<const Eigen::MatrixXd>(background.values.data(),
                                            static_cast<Eigen::Index>(background.n_rows),
                                            static_cast<Eigen::Index>(n_features));
}

std::unique_ptr<CoalitionDraws> EmpiricalFeatures::Given(std::span<const std::uint8_t> inside,
                                                         std::span<const double> z,
                                                         std::size_t n_draws) const {
  return std::make_unique<EmpiricalDraws>(*this, inside, z, n_draws);
}

}}}  // namespace perfshap::detail
