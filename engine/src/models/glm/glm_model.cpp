// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/glm/glm_model.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "models/glm/normal.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {

double Expit(double x) noexcept { return 1.0 / (1.0 + std::exp(-x)); }

double Ndtr(double a) noexcept {
  // cephes ndtr, as scipy: erf near 0, erfc in the tails.
  const double x = a * detail::kSqrtHalf;
  const double z = std::abs(x);
  if (z < detail::kSqrtHalf) return 0.5 + 0.5 * std::erf(x);
  const double y = 0.5 * std::erfc(z);
  return x > 0.0 ? 1.0 - y : y;
}

double ApplyLink(Link link, double index) noexcept {
  switch (link) {
    case Link::kIdentity:
      return index;
    case Link::kLogit:
      return Expit(index);
    case Link::kProbit:
      return Ndtr(index);
  }
  return index;
}

Model::~Model() = default;

bool Model::AdditiveTerms(std::span<const double>, std::size_t, double&, std::span<double>, Link&) const {
  return false;
}

namespace {

constexpr double kSmallestNormal = std::numeric_limits<double>::min();

class GlmModel final : public Model {
 public:
  GlmModel(Link link, bool classifier, double intercept, std::vector<double> weights, std::vector<double> center,
           std::vector<double> scale)
      : link_(link),
        classifier_(classifier),
        intercept_(intercept),
        weights_(std::move(weights)),
        center_(std::move(center)),
        scale_(std::move(scale)) {
    // Raw-scale coefficients, in feature order (the additive view and the reports).
    coef_.assign(weights_.size() + 1, 0.0);
    double raw_intercept = intercept_;
    for (std::size_t j = 0; j < weights_.size(); ++j) {
      coef_[j + 1] = weights_[j] / scale_[j];
      raw_intercept -= coef_[j + 1] * center_[j];
    }
    coef_[0] = raw_intercept;
    // A column scaled by an extreme standard deviation (say 1e-310, or 1e300 with a small
    // weight) may have a raw coefficient that overflows or falls among the subnormals, where a
    // double keeps few digits: the additive terms are then taken in the standardised space.
    for (double c : coef_)
      raw_terms_ = raw_terms_ && std::isfinite(c) && (c == 0.0 || std::abs(c) >= kSmallestNormal);
  }

  std::size_t n_features() const override { return weights_.size(); }
  bool is_classifier() const override { return classifier_; }

  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    PERFSHAP_CHECK(x.size() >= n_features() * n_rows && out.size() >= n_rows,
                   "GLM Predict: x needs n_features * n_rows values and out n_rows");
    for (std::size_t r = 0; r < n_rows; ++r) out[r] = 0.0;
    for (std::size_t j = 0; j < weights_.size(); ++j) {
      const double w = weights_[j];
      const double c = center_[j];
      const double s = scale_[j];
      const double* col = x.data() + j * n_rows;
      if (c == 0.0 && s == 1.0) {
        for (std::size_t r = 0; r < n_rows; ++r) out[r] += w * col[r];  // (x - 0) / 1 is x
      } else {
        for (std::size_t r = 0; r < n_rows; ++r) out[r] += w * ((col[r] - c) / s);
      }
    }
    for (std::size_t r = 0; r < n_rows; ++r) out[r] += intercept_;
    if (link_ != Link::kIdentity)
      for (std::size_t r = 0; r < n_rows; ++r) out[r] = ApplyLink(link_, out[r]);
  }

  bool AdditiveTerms(std::span<const double> x, std::size_t n_rows, double& intercept,
                     std::span<double> terms, Link& link) const override {
    link = link_;
    if (!raw_terms_) {
      // The index as Predict forms it: intercept + sum_j w_j (x_j - center_j) / scale_j.
      intercept = intercept_;
      for (std::size_t j = 0; j < n_features(); ++j)
        for (std::size_t r = 0; r < n_rows; ++r)
          terms[j * n_rows + r] = weights_[j] * ((x[j * n_rows + r] - center_[j]) / scale_[j]);
      return true;
    }
    intercept = coef_[0];
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
  bool classifier_;
  double intercept_;
  std::vector<double> weights_, center_, scale_;
  std::vector<double> coef_;
  bool raw_terms_ = true;  // the additive terms from the raw coefficients coef_
};

}  // namespace

std::unique_ptr<Model> MakeGlm(Link link, std::vector<double> coef, bool classifier) {
  PERFSHAP_CHECK(!coef.empty(), "a linear model needs at least an intercept");
  for (double c : coef) PERFSHAP_CHECK(std::isfinite(c), "a model coefficient is not finite");
  if (link != Link::kIdentity) classifier = true;
  const std::size_t k = coef.size() - 1;
  std::vector<double> weights(coef.begin() + 1, coef.end());
  return std::make_unique<GlmModel>(link, classifier, coef[0], std::move(weights), std::vector<double>(k, 0.0),
                                    std::vector<double>(k, 1.0));
}

namespace detail {
std::unique_ptr<Model> MakeFittedGlm(Link link, bool classifier, double intercept, std::vector<double> weights,
                                     std::vector<double> center, std::vector<double> scale) {
  PERFSHAP_CHECK(weights.size() == center.size() && weights.size() == scale.size(),
                 "MakeFittedGlm: weights, center and scale need one value per feature");
  return std::make_unique<GlmModel>(link, classifier, intercept, std::move(weights), std::move(center),
                                    std::move(scale));
}
}  // namespace detail

}}  // namespace perfshap
