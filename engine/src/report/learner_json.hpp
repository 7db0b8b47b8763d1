// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// result.json's "model_params": a learner's options in effect, typed by the learner's own
// declaration (LearnerEntry::options): a bool as true/false, a whole number or a number as a
// number, a list as an array, text as a string. A learner with no declared options (a host's)
// keeps its values as strings.

#include <string>

#include "perfshap/blocks/learner.hpp"
#include "report/json.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief {"C": 0.5, "standardize": true, ...} for the registered learner `learner`. */
Json LearnerParamsJson(const std::string& learner, const LearnerParams& params);

}}}  // namespace perfshap::detail
