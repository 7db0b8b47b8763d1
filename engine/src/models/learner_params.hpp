// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/blocks/learner.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief LearnerParams of the given numbers, formatted to read back exactly. */
std::string ParamText(double v);

/**
 * @brief The registry entry of a learner whose options `table` declares: its options are the
 * table's declarations, and its factory parses the params into an Options (unknown names and
 * bad values refused by the table) and returns make(options). `table` must outlive the entry
 * (the learners' tables are function-local statics).
 */
template <class Options, class Make>
LearnerEntry DeclaredLearnerEntry(std::string name, std::string description, const OptionTable<Options>& table,
                                  Make make) {
  return {std::move(name), std::move(description), table.infos(),
          [&table, make](const LearnerParams& params) -> std::shared_ptr<const Learner> {
            Options options;
            table.Parse(params, options);
            return make(options);
          }};
}

}}}  // namespace perfshap::detail
