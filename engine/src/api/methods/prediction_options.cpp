// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/methods/prediction_options.hpp"

namespace perfshap { inline namespace v0 { namespace api {

void TakePredictionInputs(const MethodInputs& in, const std::string& method, ShapRequest& request) {
  TakeTable(in.data, request.data, method, "the data", "data");
  TakeTable(in.train, request.model.train, method, "the training sample", "train");
  TakeTable(in.background, request.background_rows, method, "the background", "background_file");
  TakeModel(in.model, request.model, method);
  if (in.learner != nullptr) request.model.learner.learner = in.learner;
}

}}}  // namespace perfshap::api
