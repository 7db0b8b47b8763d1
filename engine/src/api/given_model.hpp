// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer (engine/src/api/): a model given already fitted, as the methods that only
// predict with it take it (shap, XPER): an XGBoost model (its file or its text), a tree model a
// host built, or the host's own model (a function).

#include <memory>
#include <optional>
#include <string>

#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief A fitted model: at most one of an XGBoost model (`tree_text`, else the file
 *  `tree_file`), a host's tree model, or a host's model. */
struct GivenModelInput {
  /** An XGBoost JSON model: `tree_text` (its text) when given, else the file `tree_file`;
   *  `tree_file` names it in messages and the report either way. */
  std::string tree_file;
  std::string tree_text;
  /** The boosting rounds [begin, end) of an XGBoost model used. */
  std::optional<IterationRange> iteration_range;
  /** A tree model the host built (a scikit-learn model converted from its arrays). */
  std::shared_ptr<const TreeEnsemble> tree_model;
  /** The host's own model (a function f(X)) over every column of the data, in order. */
  std::shared_ptr<const Model> host_model;
  /** How messages and the report name a host's tree model or function (default: tree_file). */
  std::string name;

  /** Whether a tree model is given (a file, a text or an object). */
  bool has_tree_model() const noexcept { return tree_model != nullptr || !tree_text.empty() || !tree_file.empty(); }
  /** Whether any model is given. */
  bool given() const noexcept { return has_tree_model() || host_model != nullptr; }
  /** How messages and the report name it. */
  const std::string& display_name() const noexcept { return name.empty() ? tree_file : name; }
};

/**
 * @brief The tree model given: the host's, or the XGBoost text or file read with the rounds of
 * `iteration_range`.
 * @throws InvalidArgument (options(): `iteration_range`) for rounds given with a host's tree
 *   model; DataError as ReadXgboostModel / ParseXgboostModel.
 */
std::shared_ptr<const TreeEnsemble> LoadTreeModel(const GivenModelInput& model);

/** @brief Refuses `iteration_range` given with the host's function (it has no boosting rounds).
 *  @throws InvalidArgument (options(): `iteration_range`). */
void CheckFunctionModel(const GivenModelInput& model);

}}}  // namespace perfshap::api
