// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <memory>
#include <vector>

#include "perfshap/blocks/model.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief A GLM fitted on transformed columns t_j = (x_j - center_j) / scale_j, scoring rows
 * exactly as the coalition fitters do: index = ((0 + w_1 t_1) + w_2 t_2 + ...) + intercept,
 * with the features in order, then the link (Expit / Ndtr / identity), so a fitter's test
 * scores and the model's Predict on the same rows are bitwise equal. Its additive terms and
 * coefficients are on the raw scale: coef_j = w_j / scale_j, coef_0 = intercept - sum_j coef_j
 * center_j (in feature order).
 * @param weights w, one per feature; center and scale the same size (scale != 0).
 */
std::unique_ptr<Model> MakeFittedGlm(Link link, bool classifier, double intercept, std::vector<double> weights,
                                     std::vector<double> center, std::vector<double> scale);

}}}  // namespace perfshap::detail
