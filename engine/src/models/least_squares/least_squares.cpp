// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/least_squares/least_squares.hpp"

#include <Eigen/Dense>
#include <cmath>

#include "perfshap/error.hpp"

namespace perfshap::detail {

std::vector<double> FitLeastSquares(const Dataset& data, std::span<const std::size_t> rows) {
  const std::size_t p = data.n_features();
  const auto m = static_cast<Eigen::Index>(rows.size());
  PERFSHAP_CHECK(rows.size() > p + 1, "least squares: need more training rows than features");
  // Centre the columns first: the Gram matrix of centred data is far better conditioned.
  Eigen::MatrixXd x(m, static_cast<Eigen::Index>(p));
  Eigen::VectorXd y(m);
  const auto label = data.label();
  for (Eigen::Index r = 0; r < m; ++r) y(r) = label[rows[static_cast<std::size_t>(r)]];
  Eigen::VectorXd means(static_cast<Eigen::Index>(p));
  for (std::size_t j = 0; j < p; ++j) {
    const auto col = data.column(j);
    for (Eigen::Index r = 0; r < m; ++r) x(r, static_cast<Eigen::Index>(j)) = col[rows[static_cast<std::size_t>(r)]];
    means(static_cast<Eigen::Index>(j)) = x.col(static_cast<Eigen::Index>(j)).mean();
    x.col(static_cast<Eigen::Index>(j)).array() -= means(static_cast<Eigen::Index>(j));
    if (x.col(static_cast<Eigen::Index>(j)).squaredNorm() == 0.0)
      throw DataError(data.source() + ": column '" + data.feature_names()[j] +
                      "' is constant on the training rows; drop it");
  }
  const double ybar = y.mean();
  const Eigen::MatrixXd gram = x.transpose() * x;
  const Eigen::VectorXd rhs = x.transpose() * (y.array() - ybar).matrix();
  Eigen::LDLT<Eigen::MatrixXd> ldlt(gram);
  const auto d = ldlt.vectorD();
  const double scale = d.cwiseAbs().maxCoeff();
  for (Eigen::Index j = 0; j < d.size(); ++j)
    if (!(std::abs(d(j)) > 1e-12 * scale))
      throw DataError(data.source() + ": the feature columns are linearly dependent (a duplicated or "
                      "derived column?); drop one of them");
  const Eigen::VectorXd beta = ldlt.solve(rhs);
  std::vector<double> coef(p + 1);
  coef[0] = ybar - means.dot(beta);
  for (std::size_t j = 0; j < p; ++j) coef[j + 1] = beta(static_cast<Eigen::Index>(j));
  return coef;
}

}  // namespace perfshap::detail
