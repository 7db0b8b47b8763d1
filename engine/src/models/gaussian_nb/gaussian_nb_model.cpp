// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/gaussian_nb/gaussian_nb_model.hpp"

#include <cmath>
#include <numbers>
#include <string>
#include <utility>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

class GaussianNbModel final : public Model {
 public:
  GaussianNbModel(std::vector<double> theta, std::vector<double> var, double log_prior0, double log_prior1)
      : k_(theta.size() / 2), theta_(std::move(theta)), var_(std::move(var)) {
    log_prior_[0] = log_prior0;
    log_prior_[1] = log_prior1;
    for (int c = 0; c < 2; ++c) {
      double sum_log = 0.0;
      for (std::size_t j = 0; j < k_; ++j) sum_log += std::log(2.0 * std::numbers::pi * var_[c * k_ + j]);
      half_log_det_[c] = -0.5 * sum_log;
    }
  }

  std::size_t n_features() const override { return k_; }
  bool is_classifier() const override { return true; }

  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    PERFSHAP_CHECK(x.size() >= k_ * n_rows && out.size() >= n_rows,
                   "GaussianNb Predict: x needs n_features * n_rows values and out n_rows");
    for (std::size_t r = 0; r < n_rows; ++r) {
      double jll[2];
      for (int c = 0; c < 2; ++c) {
        double quad = 0.0;
        for (std::size_t j = 0; j < k_; ++j) {
          const double d = x[j * n_rows + r] - theta_[c * k_ + j];
          quad += d * d / var_[c * k_ + j];
        }
        jll[c] = log_prior_[c] + (half_log_det_[c] - 0.5 * quad);
      }
      out[r] = GaussianNbProbability(jll[0], jll[1]);
    }
  }

  // Log-odds = (log prior_1 - 0.5 sum log(2 pi var_1)) - (same for class 0)
  //            + sum_j -0.5 [(x_j - theta_1j)^2 / var_1j - (x_j - theta_0j)^2 / var_0j].
  bool AdditiveTerms(std::span<const double> x, std::size_t n_rows, double& intercept,
                     std::span<double> terms, Link& link) const override {
    intercept = (log_prior_[1] + half_log_det_[1]) - (log_prior_[0] + half_log_det_[0]);
    link = Link::kLogit;
    for (std::size_t j = 0; j < k_; ++j) {
      for (std::size_t r = 0; r < n_rows; ++r) {
        const double d1 = x[j * n_rows + r] - theta_[k_ + j];
        const double d0 = x[j * n_rows + r] - theta_[j];
        terms[j * n_rows + r] = -0.5 * (d1 * d1 / var_[k_ + j] - d0 * d0 / var_[j]);
      }
    }
    return true;
  }

  std::string Describe() const override {
    return "Gaussian naive Bayes, " + std::to_string(k_) + " features";
  }

 private:
  std::size_t k_;
  std::vector<double> theta_;
  std::vector<double> var_;
  double log_prior_[2] = {0.0, 0.0};
  double half_log_det_[2] = {0.0, 0.0};
};

}  // namespace

std::unique_ptr<Model> MakeGaussianNbModel(std::vector<double> theta, std::vector<double> var,
                                           double log_prior0, double log_prior1) {
  PERFSHAP_CHECK(theta.size() == var.size() && theta.size() % 2 == 0,
                 "GaussianNb model: theta and var need 2 * n_features values each");
  for (double v : var)
    PERFSHAP_CHECK(v > 0.0 && std::isfinite(v), "GaussianNb model: a variance is not positive");
  return std::make_unique<GaussianNbModel>(std::move(theta), std::move(var), log_prior0, log_prior1);
}

}}}  // namespace perfshap::detail
