// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <memory>
#include <string>

#include "perfshap/dataset.hpp"
#include "perfshap/table.hpp"

namespace perfshap { inline namespace v0 { namespace testing {

/**
 * @brief The data set's columns (and, when it has one, its label as the column "label") as a
 * table in memory named `source`, its buffers read in place: the data set must outlive it.
 */
inline std::shared_ptr<Table> TableOf(const Dataset& d, const std::string& source = "the frame") {
  auto t = std::make_shared<Table>();
  t->source = source;
  t->n_rows = d.n_rows();
  for (std::size_t j = 0; j < d.n_features(); ++j)
    t->columns.push_back({d.feature_names()[j], ColumnType::kFloat64, d.column(j).data(), sizeof(double), {}, {}});
  if (!d.label().empty())
    t->columns.push_back({"label", ColumnType::kFloat64, d.label().data(), sizeof(double), {}, {}});
  return t;
}

}}}  // namespace perfshap::testing
