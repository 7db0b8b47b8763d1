// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <cmath>
#include <string>

#include "perfshap/error.hpp"
#include "perfshap/model.hpp"

namespace perfshap {

double ApplyLink(Link link, double index) noexcept {
  switch (link) {
    case Link::kIdentity:
      return index;
    case Link::kLogit:
      // Stable for large |index|: never exp of a large positive number.
      return index >= 0 ? 1.0 / (1.0 + std::exp(-index)) : std::exp(index) / (1.0 + std::exp(index));
    case Link::kProbit:
      return 0.5 * std::erfc(-index / std::sqrt(2.0));
  }
  return index;
}

Model::~Model() = default;

bool Model::AdditiveTerms(std::span<const double>, std::size_t, double&, std::span<double>, Link&) const {
  return false;
}

namespace {

class GlmModel final : public Model {
 public:
  GlmModel(Link link, std::vector<double> coef, bool classifier)
      : link_(link), coef_(std::move(coef)), classifier_(classifier) {}

  std::size_t n_features() const override { return coef_.size() - 1; }
  bool is_classifier() const override { return classifier_; }

  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    const std::size_t p = n_features();
    for (std::size_t r = 0; r < n_rows; ++r) out[r] = coef_[0];
    for (std::size_t j = 0; j < p; ++j) {
      const double b = coef_[j + 1];
      const double* col = x.data() + j * n_rows;
      for (std::size_t r = 0; r < n_rows; ++r) out[r] += b * col[r];
    }
    if (link_ != Link::kIdentity)
      for (std::size_t r = 0; r < n_rows; ++r) out[r] = ApplyLink(link_, out[r]);
  }

  bool AdditiveTerms(std::span<const double> x, std::size_t n_rows, double& intercept, std::span<double> terms,
                     Link& link) const override {
    intercept = coef_[0];
    link = link_;
    for (std::size_t j = 0; j < n_features(); ++j)
      for (std::size_t r = 0; r < n_rows; ++r) terms[j * n_rows + r] = coef_[j + 1] * x[j * n_rows + r];
    return true;
  }

  std::string Describe() const override {
    const char* name = link_ == Link::kLogit ? "logistic" : link_ == Link::kProbit ? "probit" : "linear";
    return std::string(name) + " model, " + std::to_string(n_features()) + " features";
  }

 private:
  Link link_;
  std::vector<double> coef_;
  bool classifier_;
};

}  // namespace

std::unique_ptr<Model> MakeGlm(Link link, std::vector<double> coef, bool classifier) {
  PERFSHAP_CHECK(!coef.empty(), "a linear model needs at least an intercept");
  for (double c : coef) PERFSHAP_CHECK(std::isfinite(c), "a model coefficient is not finite");
  if (link != Link::kIdentity) classifier = true;
  return std::make_unique<GlmModel>(link, std::move(coef), classifier);
}

}  // namespace perfshap
