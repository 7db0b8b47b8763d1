// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "values/value_function.hpp"

#include "perfshap/error.hpp"
#include "values/copula_conditional.hpp"
#include "values/ctree_conditional.hpp"
#include "values/empirical_conditional.hpp"
#include "values/gaussian_conditional.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::unique_ptr<ConditionalFeatures> MakeConditionalFeatures(ShapConditional kind, ColumnMatrix background,
                                                             std::size_t n_features) {
  switch (kind) {
    case ShapConditional::kGaussian:
      return std::make_unique<GaussianFeatures>(background, n_features);
    case ShapConditional::kCopula:
      return std::make_unique<CopulaFeatures>(background, n_features);
    case ShapConditional::kEmpirical:
      return std::make_unique<EmpiricalFeatures>(background, n_features);
    case ShapConditional::kCtree:
      return std::make_unique<CtreeFeatures>(background, n_features);
    case ShapConditional::kMarginal:
    case ShapConditional::kRegression:
      break;
  }
  PERFSHAP_CHECK(false,
                 "MakeConditionalFeatures: the marginal and regression value functions have no distribution "
                 "to draw from");
  return nullptr;
}

}}}  // namespace perfshap::detail
