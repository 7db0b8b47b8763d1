// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// How a method that fits a learner per split (robustness, sage's bands) is told the splits: a
// drawn plan (cv, test_size, stratify) or explicit splits (a JSON file, or in memory from
// Python and C). Declared once (shared_options.hpp SplitOptionGroup) and read here for both.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "perfshap/blocks/split.hpp"
#include "perfshap/execution.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief How the rows are split into training and test parts. */
struct SplitInput {
  /** A drawn plan: holdout, mc:R (Monte-Carlo) or kfold:K (MakeSplitPlan). */
  std::string plan = "holdout";
  /** The test fraction of holdout and mc splits, in [0.01, 0.99]. */
  double test_size = 0.2;
  /** Split each class in the same proportion. */
  bool stratify = false;
  /** Explicit splits instead of a drawn plan (checked against the rows: CheckSplits). */
  std::optional<SplitPlan> splits;
  /** Whether `splits` were given as a list of splits (messages say splits[s]) or as one. */
  bool listed = true;
  /** A JSON file of explicit splits (ReadSplits) instead of a drawn plan. */
  std::string file;
  /** How messages and the report name explicit splits ("--split s.json", "split"); default:
   *  "splits" or the file. */
  std::string name;

  /** Whether the splits are explicit (in memory or a file). @throws InvalidArgument (options():
   *  `split`) for both. */
  bool explicit_splits() const;
  /** The plan's name in messages and reports: the drawn plan's spec, or the explicit splits'. */
  std::string plan_name() const;
};

/** @brief The explicit splits (explicit_splits()), checked against `n_rows`. @throws DataError /
 *  InvalidArgument naming the file or the split, as ReadSplits and CheckSplits. */
SplitPlan ExplicitSplitPlan(const SplitInput& s, std::size_t n_rows);

/**
 * @brief The whole plan: the explicit splits, or the drawn plan with `seed` (stratified on
 * `labels` when `stratify`).
 * @throws as ExplicitSplitPlan and MakeSplitPlan.
 */
SplitPlan HeldSplitPlan(const SplitInput& s, std::size_t n_rows, std::uint64_t seed,
                        std::span<const double> labels, const ExecutionOptions& execution);

}}}  // namespace perfshap::api
