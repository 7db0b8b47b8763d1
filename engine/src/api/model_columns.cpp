// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/model_columns.hpp"

#include <algorithm>
#include <numeric>

#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 { namespace api {

std::span<const std::string> ModelFeatureNames(const Model& model) {
  if (const auto* trees = dynamic_cast<const TreeEnsemble*>(&model)) return trees->info().feature_names;
  return {};
}

std::vector<std::size_t> ModelColumns(const Dataset& data, const Model& model, const std::string& model_name,
                                      const std::string& what) {
  const std::span<const std::string> names = ModelFeatureNames(model);
  std::vector<std::size_t> columns;
  if (!names.empty()) {
    const auto& have = data.feature_names();
    for (const std::string& name : names) {
      const auto it = std::find(have.begin(), have.end(), name);
      if (it == have.end())
        throw DataError(what + " has no column " + detail::Quoted(name) + ", a feature of the model " + model_name +
                        " (its features: " + std::to_string(names.size()) + "); give data with the model's columns");
      columns.push_back(static_cast<std::size_t>(it - have.begin()));
    }
  } else {
    if (data.n_features() != model.n_features())
      throw DataError("the model " + model_name + " has " + std::to_string(model.n_features()) +
                      " features (unnamed, taken in order) and " + what + " has " + std::to_string(data.n_features()) +
                      " columns besides the label; name the label column, or give data with the model's columns",
                      {"label"});
    columns.resize(data.n_features());
    std::iota(columns.begin(), columns.end(), std::size_t{0});
  }
  for (std::size_t c : columns)
    if (data.encoding(c))
      throw DataError(what + " column '" + data.feature_names()[c] + "' holds text; the model " + model_name +
                      " takes numbers");
  return columns;
}

}}}  // namespace perfshap::api
