// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The GLM coefficients reader (--coef) on any text: a perfshap::Error with one bounded line, or
// names and finite values that line up (the intercept first), from which a model is made and
// predicts finite numbers.
#include <cmath>
#include <cstdlib>
#include <vector>

#include "fuzz_support.hpp"
#include "perfshap/blocks/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static perfshap::fuzz::InputFile file("coef.csv");
  const std::string& path = file.Write(data, size);
  perfshap::fuzz::Refusable([&] {
    const perfshap::GlmCoefficients coef = perfshap::ReadGlmCoefficients(path);
    if (coef.names.empty() || coef.values.size() != coef.names.size() + 1 || coef.lines.size() != coef.names.size()) {
      std::abort();
    }
    bool moderate = true;  // no sum of these can overflow: predictions must be probabilities
    for (const double v : coef.values) {
      if (!std::isfinite(v)) std::abort();
      moderate = moderate && std::abs(v) < 1e100;
    }
    if (coef.names.size() > 4096 || !moderate) return;
    const auto model = perfshap::MakeGlm(perfshap::Link::kLogit, coef.values, true);
    const std::vector<double> x(coef.names.size() * 2, 0.5);
    std::vector<double> out(2 * model->n_outputs());
    model->Predict(x, 2, out);
    for (const double p : out) {
      if (!(p >= 0.0 && p <= 1.0)) std::abort();
    }
  });
  return 0;
}
