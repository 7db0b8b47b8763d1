// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/sage_request.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace perfshap { inline namespace v0 { namespace api {

SageResponse RunSage(const SageRequest& request) {
  ShapOptions opt = request.options;
  opt.solver_options.max_players = kShapExactPlayerLimit;
  opt.output = ShapOutputScale::kPrediction;
  SageResponse response;
  const PreparedModelRows p = PrepareModelRows(request, opt, response.run, true);
  if (p.model->n_outputs() != 1)
    throw InvalidArgument("SAGE decomposes the metric of one prediction a row; the model " +
                              response.run.model + " gives " + std::to_string(p.model->n_outputs()) +
                              " (one a class): " +
                              (request.model.given() ? "give a binary classifier or a regressor"
                                                     : "name the positive class for a binary label"),
                          {request.model.given() ? "model_file" : "learner"});
  SageOptions options;
  options.metric = request.metric;
  options.threshold = request.threshold;
  options.conditional = opt.conditional;
  options.conditional_samples = opt.conditional_samples;
  options.solver = opt.solver;
  options.solver_options = opt.solver_options;
  const std::size_t F = std::max<std::size_t>(p.feature_names.size(), 1);
  response.values =
      ExplainSage(*p.model, ColumnMatrix{p.x, p.n_rows}, p.labels,
                  ColumnMatrix{p.background, p.background.size() / F}, p.players, p.feature_names, options);
  return response;
}

}}}  // namespace perfshap::api
