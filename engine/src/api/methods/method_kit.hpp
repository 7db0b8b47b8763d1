// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the methods' files share (api/methods/*_method.cpp): the solver their options choose
// before it goes into the request, and the tables and model a front end hands over, taken into
// the request once a file option may have named them too.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "api/data_input.hpp"
#include "api/given_model.hpp"
#include "api/registry.hpp"
#include "api/shared_options.hpp"

namespace perfshap::inline v0::api {

/** @brief A method's request and the solver its options choose (requests hold the solver and its
 *  sampling apart, or inside their options). */
template <class R>
struct WithSolver {
  R request;
  SolverChoice solver;
};

/** @brief The accessor of `field` of the request a WithSolver<R> holds. */
template <class R, class V>
std::function<V&(WithSolver<R>&)> RequestField(V R::*field) {
  return [field](WithSolver<R>& r) -> V& { return r.request.*field; };
}

/** @brief A front end's `table` as `input` (`what`: "the data", "the training sample"), unless
 *  none is given.
 *  @throws InvalidArgument (`file_option`) when the options named a file for it too. */
void TakeTable(const std::shared_ptr<const Table>& table, DataInput& input, const std::string& method,
               const char* what, const char* file_option);
void TakeTable(const std::shared_ptr<const Table>& table, std::optional<DataInput>& input, const std::string& method,
               const char* what, const char* file_option);

/** @brief A front end's model as `model`, keeping the iteration_range the options gave.
 *  @throws InvalidArgument (model_file) when the options named a model file too. */
void TakeModel(const std::optional<GivenModelInput>& given, GivenModelInput& model, const std::string& method);

}  // namespace perfshap::api
