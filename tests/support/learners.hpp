// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <memory>
#include <span>
#include <string>

#include "perfshap/blocks/learner.hpp"

namespace perfshap { inline namespace v0 { namespace testing {

/** @brief The learner `name` prepared on one split with one player per column. */
inline std::unique_ptr<PreparedSplit> PrepareSplit(const std::string& name, const Dataset& data,
                                                   std::span<const std::size_t> columns,
                                                   std::span<const std::size_t> train,
                                                   std::span<const std::size_t> test,
                                                   const LearnerParams& params = {}) {
  return MakeLearner(name, params)->Prepare(data, SingleColumnPlayers(data, columns), train, test, "the training rows");
}

}}}  // namespace perfshap::testing
