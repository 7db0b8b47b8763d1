// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/**
 * @brief The XPER paper's Monte Carlo probit design: x ~ N(0, diag(variances)),
 * y = 1{beta_0 + x . beta_{1..q} + eps > 0}, eps ~ N(0, 1).
 * Defaults are the paper's: q = 3, variances (1.2, 1, 1), beta = (0.05, 0.5, 0.5, 0).
 */
struct ProbitDesign {
  std::size_t n_rows = 1000;
  std::vector<double> variances{1.2, 1.0, 1.0};
  /** beta[0] is the constant, beta[1..q] the slopes. */
  std::vector<double> beta{0.05, 0.5, 0.5, 0.0};
  std::uint64_t seed = 2024;
};

/**
 * @brief Draws a data set of the probit design: features x1..xq, label y (0/1).
 * Column j uses random stream (seed, j); the noise uses stream (seed, q).
 * @throws InvalidArgument when beta.size() != variances.size() + 1 or a variance <= 0.
 */
PERFSHAP_EXPORT Dataset GenerateProbitDesign(const ProbitDesign& design);

/** @brief The Shapley-chains paper's logic data: x1, x2 uniform in {0, 1}, and three outputs
 *  and = x1 AND x2, or = x1 OR x2, xor = x1 XOR x2. `data`'s label is xor. */
struct LogicChainData {
  Dataset data;
  std::vector<std::string> output_names;
  /** outputs[o][i]: output o of row i. */
  std::vector<std::vector<double>> outputs;
};

/** @brief Draws n_rows rows of the logic chain data from stream (seed, 0). */
PERFSHAP_EXPORT LogicChainData GenerateLogicChainData(std::size_t n_rows, std::uint64_t seed);

}}  // namespace perfshap
