// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/** @brief One train/test partition: 0-based data-row indices, each list sorted ascending. */
struct Split {
  std::vector<std::size_t> train;
  std::vector<std::size_t> test;
};

/** @brief A list of splits evaluated as repetitions (holdout = 1, k-fold = K, MC-CV = R). */
using SplitPlan = std::vector<Split>;

/**
 * @brief One random holdout split. test size = round(test_fraction * n) (at least 1, at most
 * n-1). With `stratify_labels` non-empty, each class is split in the same proportion
 * (largest-remainder allocation). Random stream (seed, stream_id).
 * Classes are taken in increasing label order; each is shuffled (Fisher-Yates on
 * RandomStream::Below) and its first quota rows go to test.
 * @throws InvalidArgument for n < 2, a fraction outside (0, 1), or labels whose size is not n
 *   or that hold NaN.
 */
PERFSHAP_EXPORT Split HoldoutSplit(std::size_t n, double test_fraction, std::uint64_t seed,
                                   std::span<const double> stratify_labels = {},
                                   std::uint64_t stream_id = 0);

/**
 * @brief K folds of a random permutation (stratified when labels given): split k tests fold k
 * and trains on the rest. Each class (in increasing label order) is shuffled with stream
 * (seed, 0), the classes are laid end to end and dealt to the folds in turn, so fold sizes,
 * and each class's count per fold, differ by at most one.
 * @throws InvalidArgument for k < 2, k > n, or labels whose size is not n.
 */
PERFSHAP_EXPORT SplitPlan KFoldSplits(std::size_t n, std::size_t k, std::uint64_t seed,
                                      std::span<const double> stratify_labels = {});

/** @brief R independent holdout splits, repetition r drawn from stream (seed, r): drawn in
 *  parallel with `execution`'s threads (and its cancellation), the same plan at any count. */
PERFSHAP_EXPORT SplitPlan MonteCarloSplits(std::size_t n, std::size_t repetitions,
                                           double test_fraction, std::uint64_t seed,
                                           std::span<const double> stratify_labels = {},
                                           const ExecutionOptions& execution = {});

/**
 * @brief Reads explicit splits from JSON: `{"train":[...],"test":[...]}` or
 * `{"splits":[{"train":[...],"test":[...]},...]}`, 0-based data-row indices (integral
 * floats such as 3.0 are accepted). Rows in neither part are left out of that split. The
 * returned lists are sorted.
 * @throws InvalidArgument for n_rows < 2.
 * @throws DataError naming the file and the place (e.g. `splits[1].test[3]`) for a missing
 *   file, malformed JSON, arrays and objects nested more than 64 levels deep, a number beyond
 *   a double's range, another shape or an unknown key, an index >= n_rows, a negative or
 *   non-integer index, a duplicate, a row in both parts, an empty part.
 */
PERFSHAP_EXPORT SplitPlan ReadSplits(const std::string& path, std::size_t n_rows);

/**
 * @brief Splits given in memory (a host's own index lists) checked as ReadSplits checks a file's:
 * each part non-empty, every index < n_rows, none twice in a part, no row in both parts. Each
 * part comes back sorted.
 * @param name how messages name the splits ("split": "split: splits[1].test[3]: row ...").
 * @param listed whether they were given as a list of splits (messages say `splits[s].train`)
 *   rather than one split (`train`); a plan of more than one is always a list.
 * @throws DataError as ReadSplits, and for an empty plan.
 */
PERFSHAP_EXPORT SplitPlan CheckSplits(SplitPlan plan, std::size_t n_rows, const std::string& name, bool listed);

/** @brief The number of splits of the plan `spec` names (holdout 1, mc:R R, kfold:K K), without
 *  drawing them. @throws InvalidArgument as MakeSplitPlan for a spec it does not understand. */
PERFSHAP_EXPORT std::size_t SplitPlanSize(std::string_view spec);

/**
 * @brief The split plan named by `spec`: "holdout" (one HoldoutSplit), "mc:R" (R
 * MonteCarloSplits, R >= 1) or "kfold:K" (KFoldSplits, K >= 2; `test_fraction` is not used).
 * @param stratify_labels as for the splitters: empty, or one label per row to stratify on.
 * @param execution the threads (and cancellation) that draw Monte-Carlo splits.
 * @throws InvalidArgument naming the spec and the accepted forms (options(): `plan`), and as
 *   the splitters for the sizes.
 */
PERFSHAP_EXPORT SplitPlan MakeSplitPlan(std::string_view spec, std::size_t n_rows, double test_fraction,
                                        std::uint64_t seed, std::span<const double> stratify_labels = {},
                                        const ExecutionOptions& execution = {});

/**
 * @brief Reads a permutation of the rows 0..n_rows-1 from a text file: one 0-based index per
 * line, line k + 1 holding pi(k) (trailing blank lines are ignored).
 * @throws DataError naming the file and the line for a missing file, a cell that is not an
 *   index, an index >= n_rows, a repeated index or a wrong number of lines (options():
 *   `permutation`).
 */
PERFSHAP_EXPORT std::vector<std::size_t> ReadRowPermutation(const std::string& path, std::size_t n_rows);

}}  // namespace perfshap
