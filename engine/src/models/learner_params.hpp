// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <string>
#include <vector>

#include "perfshap/learner.hpp"

namespace perfshap::detail {

/** @brief LearnerParams of the given numbers, formatted to read back exactly. */
std::string ParamText(double v);

}  // namespace perfshap::detail
