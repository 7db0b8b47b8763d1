// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer's Shapley Chains method (`perfshap chains`, perfshap.chains): the data and
// its outputs (or the generated xor data, or the prepared Adult data), the chain orders, the
// links' learner and their SHAP solver; one call that gives what the chains reporter reads.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/data_input.hpp"
#include "api/robustness_request.hpp"
#include "perfshap/shap.hpp"
#include "report/chains_report.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief A Shapley Chains run. The data: `data` (a table or file) with its binary `outputs`
 *  columns, or `adult` (the UCI Adult CSV, prepared as the paper's section 4.2), or neither: the
 *  paper's xor data of `xor_rows` rows from the seed. */
struct ChainsRequest {
  DataInput data;
  std::vector<std::string> outputs;
  std::string adult;
  std::size_t xor_rows = 1000;
  /** The chain order (every output once, by name); none: the outputs as listed. */
  std::optional<std::vector<std::string>> order;
  /** Every order of the outputs (eq. 3 averages them), refused past `max_outputs` outputs. */
  bool all_orders = false;
  std::size_t max_outputs = 6;
  /** The links' binary learner. */
  LearnerInput learner{"logistic", {}, nullptr};
  /** Background rows of the links' SHAP, drawn from the training rows (at least 1). */
  std::size_t background = 100;
  /** Explain the first `rows` test rows (0: every test row). */
  std::size_t rows = 0;
  double test_size = 0.2;
  /** Eq. 6 with the signed direct contributions in W's numerator. */
  bool signed_weights = false;
  /** The links' SHAP: the solver, its sampling options and the execution. */
  ShapOptions shap;
  std::uint64_t seed = 0;
};

/**
 * @brief Reads or generates the data, splits it (holdout from the seed), checks the cost of
 * every order before the first chain is fitted, explains every order and the independent
 * classifiers; the report.
 * @throws InvalidArgument / DataError naming the request's options; ResourceError; Cancelled.
 */
detail::ChainsReport RunChains(const ChainsRequest& request);

}}}  // namespace perfshap::api
