// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The XGBoost JSON model reader (--model-file, a Booster) on any text; a model it accepts is
// then used as the CLI uses it: predicted, and explained by path-dependent and interventional
// TreeSHAP on rows with missing, zero, tiny and huge values. Checks: a refusal is a
// perfshap::Error with one bounded line; an accepted model predicts finite numbers and its
// SHAP values add up to its margins (efficiency) whenever its leaf values are moderate.
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "perfshap/treeshap.hpp"
#include "perfshap/blocks/trees.hpp"

namespace {

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "perfshap fuzz: an accepted XGBoost model broke a promise: %s\n", what);
    std::abort();
  }
}

// Column-major rows: each feature missing, 0, -1e-30, 0.5 and 3e38 (past float's range).
constexpr double kRowValues[] = {std::numeric_limits<double>::quiet_NaN(), 0.0, -1e-30, 0.5, 3e38};
constexpr std::size_t kRows = sizeof(kRowValues) / sizeof(kRowValues[0]);

void Use(const perfshap::TreeEnsemble& model) {
  const std::size_t f = model.n_features();
  const std::size_t k = model.n_outputs();
  if (f == 0 || f > 512 || k > 64) return;  // bounded work per input
  bool moderate = true;
  std::size_t nodes = 0;
  for (const auto& tree : model.trees()) {
    nodes += tree.n_nodes();
    for (const double v : tree.value) moderate = moderate && std::abs(v) < 1e100;
  }
  if (nodes > 200000) return;
  std::vector<double> x(f * kRows);
  for (std::size_t j = 0; j < f; ++j) {
    for (std::size_t r = 0; r < kRows; ++r) x[j * kRows + r] = kRowValues[(r + j) % kRows];
  }
  std::vector<double> margin(k * kRows), prediction(k * kRows);
  model.PredictMargin(x, kRows, margin);
  model.Predict(x, kRows, prediction);
  perfshap::ExecutionOptions one_thread;
  one_thread.threads = 1;
  const std::vector<double> phi = perfshap::TreeShap(model, x, kRows, one_thread);
  Check(phi.size() == kRows * k * (f + 1), "TreeShap size");
  const std::vector<double> background(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(f * kRows));
  const std::vector<double> phi_int = perfshap::InterventionalTreeShap(model, x, kRows, background, kRows, one_thread);
  Check(phi_int.size() == phi.size(), "InterventionalTreeShap size");
  if (!moderate) return;
  for (const double p : prediction) Check(std::isfinite(p), "non-finite prediction");
  for (std::size_t r = 0; r < kRows; ++r) {
    for (std::size_t o = 0; o < k; ++o) {
      const double* row = &phi[(r * k + o) * (f + 1)];
      double sum = 0.0, scale = 1.0;
      for (std::size_t j = 0; j <= f; ++j) {
        Check(std::isfinite(row[j]), "non-finite SHAP value");
        sum += row[j];
        scale += std::abs(row[j]);
      }
      Check(std::abs(sum - margin[o * kRows + r]) <= 1e-9 * scale, "SHAP values do not add up to the margin");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  perfshap::fuzz::Refusable([&] { Use(*perfshap::ParseXgboostModel(text, "fuzz.json")); });
  perfshap::fuzz::Refusable([&] {
    perfshap::XgboostReadOptions all_rounds;
    all_rounds.iteration_range = perfshap::IterationRange{0, 0};
    Use(*perfshap::ParseXgboostModel(text, "fuzz.json", all_rounds));
  });
  return 0;
}
