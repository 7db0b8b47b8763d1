// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "values/gaussian_conditional.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

// The nearest positive definite matrix to the symmetric m (in the Frobenius norm, up to the
// floor): its eigenvalues raised to floor; `changed` says whether any was.
Eigen::MatrixXd NearestPositiveDefinite(const Eigen::MatrixXd& m, bool& changed) {
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(m);
  Eigen::VectorXd values = eig.eigenvalues();
  const double floor = std::max(1e-10 * std::max(values.maxCoeff(), 0.0), 1e-300);
  changed = false;
  for (Eigen::Index i = 0; i < values.size(); ++i)
    if (!(values(i) >= floor)) {
      values(i) = floor;
      changed = true;
    }
  if (!changed) return m;
  return eig.eigenvectors() * values.asDiagonal() * eig.eigenvectors().transpose();
}

// The lower Cholesky factor of a covariance that rounding may have left slightly indefinite.
Eigen::MatrixXd LowerFactor(const Eigen::MatrixXd& m) {
  Eigen::LLT<Eigen::MatrixXd> llt(m);
  if (llt.info() == Eigen::Success) return llt.matrixL();
  bool changed = false;
  llt.compute(NearestPositiveDefinite(0.5 * (m + m.transpose()), changed));
  PERFSHAP_CHECK(llt.info() == Eigen::Success,
                 "GaussianConditional: no Cholesky factor of the conditional covariance");
  return llt.matrixL();
}

}  // namespace

GaussianFeatures::GaussianFeatures(ColumnMatrix background, std::size_t n_features) {
  const std::size_t n = background.n_rows;
  if (n < 2)
    throw InvalidArgument(
        "a conditional value function needs at least 2 background rows to estimate a covariance; give "
        "more background rows",
        {"background"});
  PERFSHAP_CHECK(background.values.size() == n * n_features, "GaussianFeatures: the background's size");
  const auto F = static_cast<Eigen::Index>(n_features);
  Eigen::Map<const Eigen::MatrixXd> x(background.values.data(), static_cast<Eigen::Index>(n), F);
  if (!x.allFinite())
    throw InvalidArgument(
        "a conditional value function needs finite background values (a missing value is not one): "
        "impute them or give another background",
        {"background"});
  mean_ = x.colwise().mean().transpose();
  const Eigen::MatrixXd centred = x.rowwise() - mean_.transpose();
  const Eigen::MatrixXd sample = (centred.transpose() * centred) / static_cast<double>(n - 1);
  cov_ = NearestPositiveDefinite(sample, adjusted_);
}

std::unique_ptr<CoalitionDraws> GaussianFeatures::Given(std::span<const std::uint8_t> inside,
                                                        std::span<const double> z,
                                                        std::size_t n_draws) const {
  return std::make_unique<GaussianConditional>(*this, inside, z, n_draws);
}

GaussianConditional::GaussianConditional(const GaussianFeatures& g, std::span<const std::uint8_t> inside,
                                         std::span<const double> z, std::size_t n_draws)
    : n_draws_(n_draws) {
  const std::size_t F = g.n_features();
  PERFSHAP_CHECK(inside.size() == F && z.size() >= n_draws * F, "GaussianConditional: sizes");
  for (std::size_t j = 0; j < F; ++j) (inside[j] != 0 ? in_ : out_).push_back(static_cast<int>(j));
  const auto ni = static_cast<Eigen::Index>(in_.size());
  const auto no = static_cast<Eigen::Index>(out_.size());
  const Eigen::MatrixXd& cov = g.covariance();
  mu_in_ = g.mean()(in_);
  mu_out_ = g.mean()(out_);
  centre_.resize(no);
  in_values_.resize(ni);
  if (no == 0) return;
  const Eigen::MatrixXd oo = cov(out_, out_);
  Eigen::MatrixXd conditional_cov = oo;
  if (ni > 0) {
    const Eigen::MatrixXd os = cov(out_, in_);
    regression_ = cov(in_, in_).ldlt().solve(os.transpose()).transpose();
    conditional_cov -= regression_ * os.transpose();
  }
  const Eigen::MatrixXd factor = LowerFactor(conditional_cov);
  // Z_O: the draws' normals of the features off the coalition (n_draws x |O|), then times L^T.
  Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> all(
      z.data(), static_cast<Eigen::Index>(n_draws), static_cast<Eigen::Index>(F));
  const Eigen::MatrixXd zo = all(Eigen::all, out_);
  noise_.noalias() = zo * factor.transpose();
}

void GaussianConditional::Draw(std::span<const double> x, std::span<double> draws) {
  const std::size_t F = in_.size() + out_.size();
  const std::size_t n = n_draws_;
  PERFSHAP_CHECK(x.size() == F && draws.size() == n * F, "GaussianConditional::Draw: sizes");
  for (std::size_t a = 0; a < in_.size(); ++a) {
    const auto j = static_cast<std::size_t>(in_[a]);
    in_values_(static_cast<Eigen::Index>(a)) = x[j];
    std::fill_n(draws.begin() + static_cast<std::ptrdiff_t>(j * n), n, x[j]);
  }
  if (out_.empty()) return;
  centre_ = mu_out_;
  if (!in_.empty()) centre_.noalias() += regression_ * (in_values_ - mu_in_);
  for (std::size_t a = 0; a < out_.size(); ++a) {
    const double c = centre_(static_cast<Eigen::Index>(a));
    const double* e = noise_.col(static_cast<Eigen::Index>(a)).data();
    double* col = draws.data() + static_cast<std::size_t>(out_[a]) * n;
    for (std::size_t k = 0; k < n; ++k) col[k] = c + e[k];
  }
}

}}}  // namespace perfshap::detail
