// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The option groups every method shares (issue 36), each declared once here and included by the
// methods that take it (RequestOptions::Include): where the rows come from, how a run executes,
// where its files go, and the Shapley solver's sampling.

#include <cstdint>
#include <string>

#include "api/data_input.hpp"
#include "api/given_model.hpp"
#include "api/method_options.hpp"
#include "api/robustness_request.hpp"
#include "api/split_input.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/execution.hpp"
#include "report/run_reporter.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief data (a CSV file's path), label, positive, missing, features, groups (a file's path or
 *  the JSON object itself). */
const RequestOptions<DataInput>& DataOptionGroup();

/** @brief threads, max_memory, max_evaluations. */
const RequestOptions<ExecutionOptions>& ExecutionOptionGroup();

/** @brief out, force, figures, report: where a run's files go (checked before the run). */
const RequestOptions<detail::ReportTarget>& OutputOptionGroup();

/** @brief model (a registered learner's name; the host's own learner is an input) and
 *  model_param (KEY=VALUE items, a learner option each: repeatable, or {"KEY": value}). */
const RequestOptions<LearnerInput>& LearnerOptionGroup();

/** @brief model_file (an XGBoost model's JSON file) and iteration_range (its boosting rounds,
 *  BEGIN:END, or a pair from JSON and Python). */
const RequestOptions<GivenModelInput>& ModelFileOptionGroup();

/** @brief cv (a drawn plan), test_size, stratify and split (explicit splits: a JSON file's path):
 *  how a method that fits a learner per split splits the rows (robustness, sage). */
const RequestOptions<SplitInput>& SplitOptionGroup();

/** @brief A Shapley solver and its sampling, as a method's request holds them. */
struct SolverChoice {
  SolverSpec solver = std::string("exact");
  SamplingOptions sampling;
};

/** @brief solver, budget, tolerance, time_limit, keep_samples (the solver's seed is the run's:
 *  the method sets sampling.seed). */
const RequestOptions<SolverChoice>& SolverOptionGroup();

}}}  // namespace perfshap::api
