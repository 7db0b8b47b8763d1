// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Correlated normal rows, and the comparison with the gaussian value function, for the tests of
// the conditional value functions.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/shap.hpp"

namespace perfshap { inline namespace v0 { namespace testing {

/**
 * @brief n rows of F features (column-major), AR(1) normal: correlation rho^|i - j|, feature j's
 * mean j * mean_step, from RandomStream(seed, stream).
 */
inline std::vector<double> Ar1Rows(std::size_t n, std::size_t F, double rho, std::uint64_t seed,
                                   std::uint64_t stream = 7, double mean_step = 0.5) {
  RandomStream rng(seed, stream);
  std::vector<double> x(n * F);
  for (std::size_t r = 0; r < n; ++r) {
    double prev = 0.0;
    for (std::size_t j = 0; j < F; ++j) {
      const double e = rng.Normal();
      prev = j == 0 ? e : rho * prev + std::sqrt(1.0 - rho * rho) * e;
      x[j * n + r] = mean_step * static_cast<double>(j) + prev;
    }
  }
  return x;
}

/** @brief A value function's explanation beside the gaussian's on the same normal data. */
struct AgainstGaussian {
  ShapExplanation gaussian, other;
  double relative_error = 0.0;  ///< ||phi - phi_gaussian|| / ||phi_gaussian||
  double efficiency_gap = 0.0;  ///< max over rows of |base + sum phi - prediction| of `other`
};

/**
 * @brief A linear model's exact-solver explanation of 3 rows under `kind` and under gaussian
 * (1,000 draws): 3 AR(1) features with correlation 0.7, 2,000 background rows.
 */
inline AgainstGaussian ExplainAgainstGaussian(ShapConditional kind, int threads = 0) {
  const std::size_t F = 3, nb = 2000, nx = 3;
  const std::vector<double> bg = Ar1Rows(nb, F, 0.7, 12), rows = Ar1Rows(nx, F, 0.7, 13);
  const std::unique_ptr<Model> model = MakeGlm(Link::kIdentity, {0.0, 1.0, -1.0, 2.0}, false);
  ShapOptions o;
  o.solver = "exact";
  o.conditional_samples = 1000;
  o.solver_options.execution.threads = threads;
  AgainstGaussian c;
  o.conditional = ShapConditional::kGaussian;
  c.gaussian = ExplainInterventional(*model, ColumnMatrix{rows, nx}, ColumnMatrix{bg, nb}, {}, {}, o);
  o.conditional = kind;
  c.other = ExplainInterventional(*model, ColumnMatrix{rows, nx}, ColumnMatrix{bg, nb}, {}, {}, o);
  double ss = 0.0, dd = 0.0;
  for (std::size_t t = 0; t < c.gaussian.phi.size(); ++t) {
    ss += c.gaussian.phi[t] * c.gaussian.phi[t];
    dd += (c.gaussian.phi[t] - c.other.phi[t]) * (c.gaussian.phi[t] - c.other.phi[t]);
  }
  c.relative_error = std::sqrt(dd / ss);
  for (std::size_t r = 0; r < nx; ++r) {
    double sum = c.other.base[r];
    for (std::size_t j = 0; j < F; ++j) sum += c.other(r, 0, j);
    c.efficiency_gap = std::max(c.efficiency_gap, std::abs(sum - c.other.prediction[r]));
  }
  return c;
}

}}}  // namespace perfshap::testing
