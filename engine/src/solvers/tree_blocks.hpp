// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the tree solvers (treeshap.cpp, tree_interactions.cpp) share beyond the paths: the checks
// of their inputs, rows loaded a block at a time, blocks of rows run over the schedule (and over
// the processes of an MPI run), and the background's bit patterns of every path.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "perfshap/treeshap.hpp"
#include "schedule/distribute.hpp"
#include "schedule/schedule.hpp"
#include "solvers/tree_paths.hpp"

namespace perfshap::inline v0::detail {

/** Rows per block of work: every path (and its table) is read once per block. */
inline constexpr std::size_t kRowsPerBlock = 128;

/** Rows of a block, row-major, rounded to float for XGBoost's rule. */
inline void LoadRows(const PathSet& s, const FeatureColumns& x, std::size_t first, std::size_t count,
                     std::vector<double>& rows) {
  const std::size_t F = s.n_features;
  rows.resize(count * F);
  for (std::size_t j = 0; j < F; ++j) {
    const double* col = x.columns[j] + first * x.step;
    for (std::size_t r = 0; r < count; ++r) {
      const double v = col[r * x.step];
      rows[r * F + j] = s.rule == SplitRule::kLessFloat ? RoundToFloat(v) : v;
    }
  }
}

inline void CheckRows(const TreeEnsemble& model, std::span<const double> x, std::size_t n_rows,
                      const char* what) {
  PERFSHAP_CHECK(x.size() == model.n_features() * n_rows,
                 std::string("TreeSHAP: the ") + what + " hold " + std::to_string(x.size()) +
                     " values, not " + std::to_string(model.n_features()) + " features x " +
                     std::to_string(n_rows) + " rows");
}

inline void CheckColumns(const TreeEnsemble& model, const FeatureColumns& x) {
  PERFSHAP_CHECK(x.columns.size() == model.n_features(),
                 "TreeSHAP: the rows have " + std::to_string(x.columns.size()) +
                     " columns, not the model's " + std::to_string(model.n_features()) + " features");
  for (const double* c : x.columns)
    PERFSHAP_CHECK(c != nullptr || x.n_rows == 0, "TreeSHAP: a column of the rows has no values");
  PERFSHAP_CHECK(x.step >= 1, "TreeSHAP: the rows' step must be at least 1");
}

/** Runs body(first_row, count, scratch) over blocks of kRowsPerBlock rows (a Scratch, default-constructed,
 * per thread), which write rows [first_row, first_row + count) of `out` (`per_row` values each). Over the
 * processes of an MPI run, each runs a contiguous share of the blocks and the blocks' rows of `out` are
 * exchanged. */
template <class Scratch, class Body>
void ForRowBlocks(Schedule& schedule, const ExecutionOptions& execution, std::size_t n_rows,
                  std::span<double> out, std::size_t per_row, const Body& body) {
  const std::size_t n_blocks = (n_rows + kRowsPerBlock - 1) / kRowsPerBlock;
  const auto run = [&](ItemRange share) {
    schedule.SetProgressTotal(std::min(n_rows, share.end * kRowsPerBlock) - share.begin * kRowsPerBlock);
    schedule.ForEachBlock<Scratch>(
        share.end - share.begin, kRowsPerBlock, [] { return std::make_unique<Scratch>(); },
        [&](std::size_t b, Scratch& scratch) {
          const std::size_t first = (share.begin + b) * kRowsPerBlock;
          body(first, std::min(kRowsPerBlock, n_rows - first), scratch);
        });
    schedule.FinishProgress();
  };
  const std::shared_ptr<const Processes> group = SharedProcesses(execution);
  if (group == nullptr) {
    run({0, n_blocks});
    return;
  }
  const auto rows_of = [&](std::size_t b) {
    const std::size_t first = b * kRowsPerBlock;
    return out.subspan(first * per_row, std::min(kRowsPerBlock, n_rows - first) * per_row);
  };
  RunShared(
      *group, n_blocks,
      [&](ItemRange share, const std::function<ByteWriter&(std::size_t)>& write) {
        run(share);
        for (std::size_t b = share.begin; b < share.end; ++b)
          write(b).PutSpan(std::span<const double>(rows_of(b)));
      },
      [&](std::size_t b, ByteReader& in) { in.GetInto(rows_of(b)); });
}

/** The background's bit patterns of every path: (pattern, count) in order of first appearance. */
struct BackgroundPatterns {
  std::vector<std::uint32_t> begin{0};
  std::vector<std::uint64_t> pattern;
  std::vector<double> count;
};

template <SplitRule R>
BackgroundPatterns CountPatterns(const PathSet& s, const std::vector<double>& rows,
                                 std::size_t n_background) {
  BackgroundPatterns bp;
  std::vector<std::uint64_t> seen;
  std::vector<double> counts;
  for (std::size_t p = 0; p < s.n_paths(); ++p) {
    const int d = s.elements(p);
    seen.clear();
    counts.clear();
    for (std::size_t b = 0; b < n_background; ++b) {
      const std::uint64_t bits = Pattern<R>(s, s.elem_begin[p], d, rows.data() + b * s.n_features);
      const auto it = std::find(seen.begin(), seen.end(), bits);
      if (it == seen.end()) {
        seen.push_back(bits);
        counts.push_back(1.0);
      } else {
        counts[static_cast<std::size_t>(it - seen.begin())] += 1.0;
      }
    }
    bp.pattern.insert(bp.pattern.end(), seen.begin(), seen.end());
    bp.count.insert(bp.count.end(), counts.begin(), counts.end());
    bp.begin.push_back(static_cast<std::uint32_t>(bp.pattern.size()));
  }
  return bp;
}

}  // namespace perfshap::inline v0::detail
