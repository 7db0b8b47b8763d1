// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer's side of the agreement before the work (schedule/agreement.hpp): what a
// method's run read, summed up as the processes of an MPI run compare it: the data's values, the
// model (a learner's name and options, a given model's description and predictions), and the
// options the front end was given.

#include <cstddef>
#include <span>
#include <string>

#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/execution.hpp"
#include "schedule/agreement.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief A run's inputs, summed up only over processes (a run alone pays nothing). */
class RunInputs {
 public:
  explicit RunInputs(const ExecutionOptions& execution);
  /** @brief The values, label and names of a data set the run reads. */
  RunInputs& Data(const Dataset& data);
  /** @brief A learner the run fits: its name and options. */
  RunInputs& Learner(const perfshap::Learner& learner);
  /** @brief A fitted model the run was given: its description and its predictions for the first
   *  rows of `columns` (the model's feature columns of the explained data; none: its first columns); a host's own model
   *  (a function of the front end's) by its description only. */
  RunInputs& GivenModel(const Model& model, const Dataset& data, std::span<const std::size_t> columns = {},
                        bool host = false);
  /** @brief Any other input, as text, in part `part`. */
  RunInputs& Text(const std::string& part, const std::string& text);
  /** @brief The agreement (AgreeOnInputs), with the options the front end was given; a
   *  collective over the run's processes. */
  void Agree();

 private:
  const ExecutionOptions& execution_;
  detail::InputDigests digests_;
};

}}}  // namespace perfshap::api
