// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the tree solvers (treeshap.cpp, tree_interactions.cpp) share beyond the paths: the checks
// of their inputs, rows loaded a block at a time, blocks of rows run over the schedule (and over
// the processes of an MPI run), and the background's bit patterns of every path.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "perfshap/treeshap.hpp"
#include "schedule/distribute.hpp"
#include "schedule/schedule.hpp"
#include "solvers/tree_paths.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

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

/** Rows per block of the interaction values, whose blocks are few (hundreds of rows): at least
 *  four blocks a thread so that the threads end together, 16 to kRowsPerBlock rows (every path
 *  is read once a block). A row's values do not depend on its block, so neither do the results
 *  on the thread count. */
inline std::size_t RowsPerBlockFor(std::size_t n_rows, int threads) {
  const std::size_t share = (n_rows + 4 * static_cast<std::size_t>(std::max(1, threads)) - 1) /
                            (4 * static_cast<std::size_t>(std::max(1, threads)));
  return std::clamp<std::size_t>(share, 16, kRowsPerBlock);
}

/** Runs body(first_row, count, scratch) over blocks of `block_rows` rows (a Scratch, default-constructed,
 * per thread), which write rows [first_row, first_row + count) of `out` (`per_row` values each). Over the
 * processes of an MPI run, each runs a contiguous share of the blocks and the blocks' rows of `out` are
 * exchanged. */
template <class Scratch, class Body>
void ForRowBlocks(Schedule& schedule, const ExecutionOptions& execution, std::size_t n_rows,
                  std::span<double> out, std::size_t per_row, const Body& body,
                  std::size_t block_rows = kRowsPerBlock) {
  const std::size_t n_blocks = (n_rows + block_rows - 1) / block_rows;
  const auto run = [&](ItemRange share) {
    schedule.SetProgressTotal(std::min(n_rows, share.end * block_rows) - share.begin * block_rows);
    schedule.ForEachBlock<Scratch>(
        share.end - share.begin, block_rows, [] { return std::make_unique<Scratch>(); },
        [&](std::size_t b, Scratch& scratch) {
          const std::size_t first = (share.begin + b) * block_rows;
          body(first, std::min(block_rows, n_rows - first), scratch);
        });
    schedule.FinishProgress();
  };
  const std::shared_ptr<const Processes> group = SharedProcesses(execution);
  if (group == nullptr) {
    run({0, n_blocks});
    return;
  }
  const auto rows_of = [&](std::size_t b) {
    const std::size_t first = b * block_rows;
    return out.subspan(first * per_row, std::min(block_rows, n_rows - first) * per_row);
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

/** Paths of at most this many elements count their background patterns in a dense array. */
inline constexpr int kDensePatternFeatures = 12;

/**
 * The background's patterns of every path with their counts, in increasing pattern order. The
 * background is read a block of rows at a time (every path's patterns of one block while its rows
 * are in cache), blocks in parallel, each thread counting into its own arrays; counts are whole
 * numbers, so their sums do not depend on the order: the result is the same at any thread count.
 */
template <SplitRule R>
BackgroundPatterns CountPatterns(const PathSet& s, const FeatureColumns& background, Schedule& schedule) {
  const std::size_t P = s.n_paths();
  // Dense counts of the short paths (2^d each), maps for the others.
  std::vector<std::size_t> dense_begin(P, 0);
  std::size_t dense_size = 0;
  for (std::size_t p = 0; p < P; ++p) {
    dense_begin[p] = dense_size;
    if (s.elements(p) <= kDensePatternFeatures) dense_size += std::size_t{1} << s.elements(p);
  }
  struct Counts {
    std::vector<double> dense;
    std::vector<std::unordered_map<std::uint64_t, double>> sparse;
    std::vector<double> rows;
  };
  std::mutex merge;
  Counts total;
  total.dense.assign(dense_size, 0.0);
  total.sparse.resize(P);
  constexpr std::size_t kBlock = 2048;
  const std::size_t n = background.n_rows;
  schedule.ForEachBlock<Counts>(
      (n + kBlock - 1) / kBlock, 0,
      [&] {
        auto c = std::make_unique<Counts>();
        c->dense.assign(dense_size, 0.0);
        c->sparse.resize(P);
        return c;
      },
      [&](std::size_t block, Counts& c) {
        const std::size_t first = block * kBlock;
        const std::size_t count = std::min(kBlock, n - first);
        LoadRows(s, background, first, count, c.rows);
        for (std::size_t p = 0; p < P; ++p) {
          const int d = s.elements(p);
          const std::size_t begin = s.elem_begin[p];
          if (d <= kDensePatternFeatures) {
            double* counts = c.dense.data() + dense_begin[p];
            for (std::size_t b = 0; b < count; ++b)
              counts[Pattern<R>(s, begin, d, c.rows.data() + b * s.n_features)] += 1.0;
          } else {
            for (std::size_t b = 0; b < count; ++b)
              c.sparse[p][Pattern<R>(s, begin, d, c.rows.data() + b * s.n_features)] += 1.0;
          }
        }
        // The thread's counts join the total when its last block is done: here, per block,
        // under a lock (cheap beside a block's patterns), then cleared.
        const std::lock_guard<std::mutex> lock(merge);
        for (std::size_t i = 0; i < dense_size; ++i) total.dense[i] += c.dense[i];
        std::fill(c.dense.begin(), c.dense.end(), 0.0);
        for (std::size_t p = 0; p < P; ++p) {
          for (const auto& [bits, k] : c.sparse[p]) total.sparse[p][bits] += k;
          c.sparse[p].clear();
        }
      });
  BackgroundPatterns bp;
  for (std::size_t p = 0; p < P; ++p) {
    const int d = s.elements(p);
    if (d <= kDensePatternFeatures) {
      const double* counts = total.dense.data() + dense_begin[p];
      for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << d); ++bits)
        if (counts[bits] > 0.0) {
          bp.pattern.push_back(bits);
          bp.count.push_back(counts[bits]);
        }
    } else {
      std::vector<std::pair<std::uint64_t, double>> sorted(total.sparse[p].begin(), total.sparse[p].end());
      std::sort(sorted.begin(), sorted.end());
      for (const auto& [bits, k] : sorted) {
        bp.pattern.push_back(bits);
        bp.count.push_back(k);
      }
    }
    bp.begin.push_back(static_cast<std::uint32_t>(bp.pattern.size()));
  }
  return bp;
}

/**
 * Calls game(a, b, count) for each of path p's background patterns (with its count) whose leaf
 * game, with the row's pattern xb, depends on the coalition: 1{a subset of S, S disjoint from b},
 * a the elements the row follows and the background row does not, b the reverse. Patterns where
 * some element is followed by neither row (no term) or a and b are both empty (the base value's)
 * are skipped.
 */
template <class Game>
void ForEachLeafGame(const BackgroundPatterns& bp, std::size_t p, int d, std::uint64_t xb, const Game& game) {
  const std::uint64_t full = d == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << d) - 1;
  for (std::uint32_t k = bp.begin[p]; k < bp.begin[p + 1]; ++k) {
    const std::uint64_t bb = bp.pattern[k];
    if ((~xb & ~bb & full) != 0) continue;  // neither row reaches the leaf
    const std::uint64_t a = xb & ~bb;
    const std::uint64_t b = bb & ~xb;
    if (a == 0 && b == 0) continue;  // reached for every coalition: the base value's
    game(a, b, bp.count[k]);
  }
}

/** Adds count times the Shapley values of the leaf game 1{a subset of S, S disjoint from b} to
 *  coef (indexed by element): (|a|-1)! |b|! / (|a|+|b|)! for a's elements, minus
 *  |a|! (|b|-1)! / (|a|+|b|)! for b's. */
inline void AddLeafGameValues(std::uint64_t a, std::uint64_t b, double count, double* coef) {
  const int na = std::popcount(a);
  const int nb = std::popcount(b);
  const auto& w = ShapleyWeights()[static_cast<std::size_t>(na + nb)];
  const double plus = na > 0 ? count * w[static_cast<std::size_t>(na - 1)] : 0.0;
  const double minus = nb > 0 ? count * w[static_cast<std::size_t>(na)] : 0.0;
  for (std::uint64_t m = a; m != 0; m &= m - 1) coef[std::countr_zero(m)] += plus;
  for (std::uint64_t m = b; m != 0; m &= m - 1) coef[std::countr_zero(m)] -= minus;
}

}}}  // namespace perfshap::detail
