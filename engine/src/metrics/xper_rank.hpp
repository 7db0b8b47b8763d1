// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Sort-based counting kernels of the XPER AUC term (ARCHITECTURE.md, "Compare by sorting, not
// by n x n loops"). For one coalition S the hybrid scores are s(i, u) = f(x_i on S, x_u off S);
// individual i's AUC term sums, over its n hybrid points, the number of comparison points of
// the other class it beats:
//   positive i: #{negative comparison points w with f(w) <  s(i, u)}
//   negative i: #{positive comparison points w with f(w) >= s(i, u)}
// (strict for a positive i, non-strict for a negative one, as the XPER package). The kernels
// return these integer totals per individual; the caller scales them.

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief Reusable memory of the kernels: grows to its high-water mark, then never allocates. */
struct XperRankScratch {
  std::vector<double> sorted_b;
  std::vector<double> comparison_neg;
  std::vector<double> comparison_pos;
  std::vector<std::uint64_t> records;
  std::vector<std::uint64_t> buffer;
  std::vector<std::pair<double, std::uint32_t>> run;
  std::vector<std::size_t> histogram;
  std::vector<std::uint32_t> digit_histogram;
  std::vector<std::uint32_t> row_keys;
};

// Class flags `positive` hold 0 or 1.

/** @brief Largest n the full-grid kernels accept (row and column indices are packed in 16 bits). */
inline constexpr std::size_t kMaxFullGridRows = 65535;

/**
 * @brief Permuted comparator, additive scores: s(i, u) = a[i] + b[u] and the comparison point
 * k scores a[k] + b[pi[k]] with the class of k. O(n log n) sorts, then one merge of two sorted
 * lists per individual: O(n^2) in all.
 * @param a,b n values each (finite). @param pi a permutation of 0..n-1.
 * @param positive n flags (class of row k). @param totals n counts out.
 */
void PermutedRankAdditive(std::span<const double> a, std::span<const double> b,
                          std::span<const std::size_t> pi, std::span<const std::uint8_t> positive,
                          std::span<std::uint64_t> totals, XperRankScratch& scratch);

/**
 * @brief Sorts the comparison scores of each class (permuted comparator, any model) into
 * scratch.comparison_neg / comparison_pos, for PermutedRankRow.
 * @param comparison n scores f(w_k). @param positive class of k.
 */
void PrepareComparison(std::span<const double> comparison, std::span<const std::uint8_t> positive,
                       XperRankScratch& scratch);

/** @brief One individual's total against the prepared comparison sample: binary search per
 *  hybrid score, O(n log n). @param row the n scores s(i, .). */
std::uint64_t PermutedRankRow(std::span<const double> row, bool positive_row, const XperRankScratch& scratch);

/**
 * @brief Full comparator, additive scores: every one of the n^2 points s(k, l) = a[k] + b[l]
 * is both a query of its owner k and a comparison point of class positive[k]. One radix sort
 * of the n^2 scores by a monotone 31-bit key (an MSD scatter by the top 10 bits, then an
 * in-cache LSD sort of each bucket; the exact order is restored inside equal keys) and one
 * sweep: 8 n^2 bytes of scratch, O(n^2) time plus the sorting of tied keys.
 * @param totals totals[k] = sum over l of the count of point (k, l).
 */
void FullGridRankAdditive(std::span<const double> a, std::span<const double> b,
                          std::span<const std::uint8_t> positive, std::span<std::uint64_t> totals,
                          XperRankScratch& scratch);

/** @brief FullGridRankAdditive for stored scores: grid[k * n + l] = s(k, l), n x n. */
void FullGridRankStored(std::span<const double> grid, std::size_t n, std::span<const std::uint8_t> positive,
                        std::span<std::uint64_t> totals, XperRankScratch& scratch);

}}}  // namespace perfshap::detail
