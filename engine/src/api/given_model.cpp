// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/given_model.hpp"

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace api {

std::shared_ptr<const TreeEnsemble> LoadTreeModel(const GivenModelInput& model) {
  if (model.tree_model != nullptr) {
    if (model.iteration_range)
      throw InvalidArgument("iteration_range selects boosting rounds of an XGBoost model; " +
                                model.tree_model->Describe() + " is not one: drop it",
                            {"iteration_range"});
    return model.tree_model;
  }
  XgboostReadOptions read;
  read.iteration_range = model.iteration_range;
  return !model.tree_text.empty() ? ParseXgboostModel(model.tree_text, model.tree_file, read)
                                  : ReadXgboostModel(model.tree_file, read);
}

void CheckFunctionModel(const GivenModelInput& model) {
  if (model.iteration_range)
    throw InvalidArgument("iteration_range selects boosting rounds of an XGBoost model; the model " +
                              model.display_name() + " is a function: drop it",
                          {"iteration_range"});
}

}}}  // namespace perfshap::api
