// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer: the checks of a method's solver settings that every front end makes before
// a run, whatever the solver (a setting that would be ignored is still an error).

#include "perfshap/blocks/solver.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/**
 * @brief Checks the sampling options of a run with `solver`.
 * @throws InvalidArgument naming the option (options(): `tolerance`,
 *   `time_limit_seconds`, `keep_samples`): a tolerance outside (0, 1), a time limit that is not a number of seconds
 *   >= 0, samples kept from the exact solver (it draws none).
 */
void CheckSampling(const SolverSpec& solver, const SamplingOptions& sampling);

}}}  // namespace perfshap::api
