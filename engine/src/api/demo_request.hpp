// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer's demo (`perfshap demo`, perfshap.demo): every method briefly on one data
// set (the built-in probit design by default): a linear probability model's test metrics and
// their exact Shapley decomposition, XPER, ShapAUC bands, a sampled solver on a wide design,
// TreeSHAP and interventional SHAP, AXOM and Shapley Chains. One call gives what the demo
// reporter reads.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "api/data_input.hpp"
#include "perfshap/axom.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/chains.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/sage.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/xper.hpp"
#include "report/demo_report.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief A demo run: `data` (a table or file with its label, features and groups), or the
 *  probit design of `data.generated_rows` rows from the seed. */
struct DemoRequest {
  DataInput data;
  /** The test fraction of the holdout split (and of the sections that split). */
  double test_size = 0.3;
  /** The most players solved exactly (1..30; the XPER and robustness sections take at most 20). */
  int exact_limit = 24;
  std::uint64_t seed = 2024;
  ExecutionOptions execution;
  /** The execution of one section ("demo" for the estimate, "coalitions", "xper", ...: a front
   *  end's progress line named by it); none: `execution`. */
  std::function<ExecutionOptions(const std::string& section)> execution_of;
};

/** @brief What a demo run gives: every section's result (or why it was skipped), owned. */
struct DemoResponse {
  ShapleyValues values;
  std::optional<XperResult> xper;
  std::optional<RobustnessResult> robustness;
  RobustnessResult sampled;
  std::optional<ShapExplanation> treeshap;
  std::optional<TreeShapInteractionValues> tree_interactions;
  std::optional<ShapExplanation> interventional;
  /** SAGE of the probit's log-loss on the test rows: marginal, and gaussian. */
  std::optional<SageValues> sage, sage_gaussian;
  std::optional<AxomRun> axom;
  ChainOrderExplanation chain;
  /** The report's other fields (its pointers are set by Report()). */
  detail::DemoReport base;

  /** The reporter's view of it. */
  detail::DemoReport Report() const;
};

/**
 * @brief Reads the design, checks every section's estimate before any runs, and runs them; a
 * section the data cannot take (too many players, groups for the prediction explanations, ...)
 * is skipped with its reason.
 * @throws InvalidArgument / DataError naming the request's options; ResourceError; Cancelled.
 */
DemoResponse RunDemo(const DemoRequest& request);

}}}  // namespace perfshap::api
