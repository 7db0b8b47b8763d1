// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer (engine/src/api/): where a method's rows come from and how they become its
// players, once for every front end (the CLI names a CSV file, Python hands over columns).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/table.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief A method's data: a table in memory, a CSV file, or the built-in probit design. */
struct DataInput {
  /** Columns in memory, first when given: float64 contiguous columns are read in place for the
   *  life of the call (ReadTableInPlace; a response that outlives it holds Dataset::Owned()),
   *  others converted once. */
  std::shared_ptr<const Table> table;
  /** A CSV file with a header row, read when there is no table; with a table, how messages
   *  name it. Neither: the XPER paper's probit design of `generated_rows` rows from the seed. */
  std::string path;
  std::string label;
  /** The label value of the positive class; empty: the label is 0/1. */
  std::string positive;
  MissingValues missing = MissingValues::kError;
  /** The columns that are players, by name, in this order; empty: all but the label. */
  std::vector<std::string> features;
  /** Players as groups of columns (other columns stay single). */
  std::vector<FeatureGroup> groups;
  /** Where the groups came from, for the report ("groups.json"); empty: none named. */
  std::string groups_source;
  std::size_t generated_rows = 1000;

  /** Whether the rows are the generated design (no table, no file). */
  bool generated() const noexcept { return table == nullptr && path.empty(); }
  /** How messages name the data: the path, else the table's source, else "the built-in probit
   *  design". */
  std::string name() const;
};

/** @brief The missing-value policy named "error", "category" or "drop". @throws InvalidArgument
 *  (options(): `missing`) for another name. */
MissingValues ParseMissingValues(const std::string& name);
/** @brief "error", "category", "drop" (or "keep"). */
const char* MissingValuesName(MissingValues policy) noexcept;

/**
 * @brief The data set: the table or the file read with the label, positive class and missing
 * policy (binary label unless `regression`), or the generated design from `seed`.
 * @throws InvalidArgument (options(): `label`) for a table or file without a label column named;
 *   DataError as ReadTable / ReadCsv.
 */
Dataset ReadData(const DataInput& input, std::uint64_t seed, bool regression = false);

/** @brief The table or the file of `input` read with `csv` (a method with rules of its own for
 *  the label or the missing cells). @throws DataError as ReadTable / ReadCsv. */
Dataset ReadRows(const DataInput& input, const CsvOptions& csv);

/**
 * @brief The design a learner trains on: ReadData, the columns of `features`, text columns as
 * `policy` says, the players of `groups`.
 * @throws as ReadData, and DataError for a feature or group column the data lacks.
 */
Design ReadDesign(const DataInput& input, std::uint64_t seed, TextColumns policy = TextColumns::kOneHot);

}}}  // namespace perfshap::api
