// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// XPER's individual terms G by their definitions (ARCHITECTURE.md "XPER's individual terms G"),
// written out with explicit loops, for the brute-force tests of the marginal and the conditional
// XPER games.

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace perfshap {
inline namespace v0 {
namespace testing {

/** @brief What G needs besides y_i and f: the sample's mean label and target variance, the
 *  comparison sample (score, label) of the AUC, precision's delta (the share of the comparison
 *  sample classified positive) and the costs. The class rule is f > 0.5. */
struct XperTermInputs {
  double ybar = 0.0;
  double var = 0.0;
  const std::vector<std::pair<double, double>>* comparison = nullptr;
  double delta = 0.0;
  double cfp = 1.0;
  double cfn = 1.0;
};

/** @brief G(y_i; f; delta) of the metric. */
inline double XperTermByDefinition(const std::string& metric, double yi, double fz,
                                   const XperTermInputs& in) {
  const double yhat = fz > 0.5 ? 1.0 : 0.0;
  const double ybar = in.ybar;
  if (metric == "auc") {
    double a = 0, b = 0;
    for (const auto& [score, label] : *in.comparison) {
      a += (1 - label) * (fz > score ? 1.0 : 0.0);
      b += label * (fz <= score ? 1.0 : 0.0);
    }
    const double m = static_cast<double>(in.comparison->size());
    return (yi * a / m + (1 - yi) * b / m) / (2 * ybar * (1 - ybar));
  }
  if (metric == "brier" || metric == "mse") return -(yi - fz) * (yi - fz);
  if (metric == "accuracy") return yhat * yi + (1 - yhat) * (1 - yi);
  if (metric == "balanced_accuracy") return 0.5 * (yhat * yi / ybar + (1 - yhat) * (1 - yi) / (1 - ybar));
  if (metric == "sensitivity") return yhat * yi / ybar;
  if (metric == "specificity") return (1 - yhat) * (1 - yi) / (1 - ybar);
  if (metric == "precision") return in.delta > 0 ? yhat * yi / in.delta : 0.0;
  if (metric == "cost")
    return -(in.cfp * (yhat == 1 && yi == 0 ? 1 : 0) + in.cfn * (yhat == 0 && yi == 1 ? 1 : 0));
  if (metric == "mae") return -std::abs(yi - fz);
  if (metric == "r2") return 1 - (yi - fz) * (yi - fz) / in.var;
  return std::nan("");
}

}  // namespace testing
}  // namespace v0
}  // namespace perfshap
