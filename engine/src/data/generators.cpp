// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "perfshap/blocks/generators.hpp"

#include <cmath>

#include "perfshap/error.hpp"
#include "perfshap/blocks/random.hpp"

namespace perfshap { inline namespace v0 {

Dataset GenerateProbitDesign(const ProbitDesign& design) {
  const std::size_t q = design.variances.size();
  PERFSHAP_CHECK(q >= 1, "probit design: need at least one feature");
  PERFSHAP_CHECK(design.beta.size() == q + 1,
                 "probit design: beta needs q + 1 values (constant first), got " +
                     std::to_string(design.beta.size()) + " for q = " + std::to_string(q));
  PERFSHAP_CHECK(design.n_rows >= 2, "probit design: need at least 2 rows");
  std::vector<std::string> names;
  std::vector<std::vector<double>> cols(q, std::vector<double>(design.n_rows));
  std::vector<double> index(design.n_rows, design.beta[0]);
  for (std::size_t j = 0; j < q; ++j) {
    PERFSHAP_CHECK(design.variances[j] > 0, "probit design: variances must be > 0");
    names.push_back(std::string(1, 'x').append(std::to_string(j + 1)));  // not "x" + ...: GCC 12 -Wrestrict false positive
    RandomStream rng(design.seed, j);
    const double sd = std::sqrt(design.variances[j]);
    for (std::size_t i = 0; i < design.n_rows; ++i) {
      cols[j][i] = sd * rng.Normal();
      index[i] += design.beta[j + 1] * cols[j][i];
    }
  }
  RandomStream noise(design.seed, q);
  std::vector<double> y(design.n_rows);
  for (std::size_t i = 0; i < design.n_rows; ++i) y[i] = index[i] + noise.Normal() > 0 ? 1.0 : 0.0;
  Dataset data(std::move(names), std::move(cols), std::move(y), "y");
  data.set_source("generated probit design (seed " + std::to_string(design.seed) + ")");
  return data;
}

LogicChainData GenerateLogicChainData(std::size_t n_rows, std::uint64_t seed) {
  PERFSHAP_CHECK(n_rows >= 1, "logic chain data: need at least one row");
  RandomStream rng(seed, 0);
  std::vector<std::vector<double>> cols(2, std::vector<double>(n_rows));
  LogicChainData out;
  out.output_names = {"and", "or", "xor"};
  out.outputs.assign(3, std::vector<double>(n_rows));
  for (std::size_t i = 0; i < n_rows; ++i) {
    const auto a = static_cast<int>(rng.Below(2));
    const auto b = static_cast<int>(rng.Below(2));
    cols[0][i] = a;
    cols[1][i] = b;
    out.outputs[0][i] = a & b;
    out.outputs[1][i] = a | b;
    out.outputs[2][i] = a ^ b;
  }
  out.data = Dataset({"x1", "x2"}, std::move(cols), out.outputs[2], "xor");
  out.data.set_source("generated and/or/xor chain data (seed " + std::to_string(seed) + ")");
  return out;
}

}}  // namespace perfshap
