// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/sampling_input.hpp"

#include <cmath>

#include "perfshap/error.hpp"
#include "report/format.hpp"

namespace perfshap { inline namespace v0 { namespace api {

void CheckSampling(const SolverSpec& solver, const SamplingOptions& sampling) {
  if (!(sampling.tolerance > 0.0 && sampling.tolerance < 1.0))
    throw InvalidArgument("the tolerance " + detail::Fmt("%g", sampling.tolerance) +
                              " is outside (0, 1); it is the largest standard error as a share of the range of the "
                              "values, e.g. 0.01",
                          {"tolerance"});
  if (!(sampling.time_limit_seconds >= 0.0 && std::isfinite(sampling.time_limit_seconds)))
    throw InvalidArgument("the time limit " + detail::Fmt("%g", sampling.time_limit_seconds) +
                              " is not a number of seconds >= 0 (0: none)",
                          {"time_limit_seconds"});
  if (sampling.keep_samples && solver.name() == "exact")
    throw InvalidArgument("keeping samples keeps the coalitions a sampled solver draws, and the exact solver draws "
                          "none; use the kernel, permutation or auto solver",
                          {"keep_samples"});
}

}}}  // namespace perfshap::api
