// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer (engine/src/api/): what every front end needs between its inputs and a
// method, once. This piece: which columns of a data set a fitted model reads.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/blocks/model.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/**
 * @brief The columns of `data` that `model`'s features are, in the model's feature order: its
 * feature names (a tree model's) looked up by name, or, for a model without names, every column
 * of `data` in order (their number must be the model's).
 * @param model_name how messages name the model ("m.json", "the function f")
 * @param what how messages name the data ("--data x.csv")
 * @throws DataError (one line, naming the column or the counts and what to do) for a feature
 *   the data lacks, a count that differs, or a text column.
 */
std::vector<std::size_t> ModelColumns(const Dataset& data, const Model& model, const std::string& model_name,
                                      const std::string& what);

/** @brief The model's feature names: a tree model's own, else none. */
std::span<const std::string> ModelFeatureNames(const Model& model);

}}}  // namespace perfshap::api
