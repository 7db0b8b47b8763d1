// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief Working memory and result of RankGaussianNb, one per worker; reused without
 * allocation once it has seen the largest sample.
 */
struct GaussianNbRanking {
  /// Result: the rows by increasing P(1).
  std::vector<std::uint32_t> order;
  /// Result: tie[i] != 0 when row order[i] has the same P(1) as row order[i - 1].
  std::vector<std::uint8_t> tie;
  /// Result when labels were given: positive[i] = the label of row order[i].
  std::vector<std::uint8_t> positive;
  /// How many rows the last call had to evaluate P(1) for (the rest were ranked by log-odds).
  std::size_t evaluated = 0;

  // Scratch: sort keys (64-bit: the log-odds' order key; 32-bit, AVX-512 kernel: the log-odds
  // scaled onto the sample's range; the row index in the low bits), per row the interval
  // of log-odds that holds its probability, running bounds, and one cluster's probabilities.
  std::vector<std::uint64_t> keys;
  std::vector<std::uint32_t> keys32;
  std::vector<double> log_odds;
  std::vector<double> lo;
  std::vector<double> hi;
  std::vector<double> prefix_hi;
  std::vector<std::pair<double, std::uint32_t>> cluster;
};

/// Which kernel builds and sorts the keys; every kernel gives the same ranking (order, ties,
/// labels), only `evaluated` may differ.
enum class RankKernel {
  kAuto,      ///< AVX-512 where the CPU has it and there are at most 512 rows, else portable
  kPortable,  ///< SSE2 64-bit keys and SortKeys
  kAvx512,    ///< 32-bit keys and SortKeys32 (requires HasAvx512(); more than 512 rows: portable)
};

/**
 * @brief Ranks rows by GaussianNB's P(1) = GaussianNbProbability(jll0[i], jll1[i]) (sklearn's
 * predict_proba, rounding included), with the same order and the same ties, while evaluating
 * that probability (two exp and a log) only for rows whose order the log-odds cannot decide.
 *
 * The rows are sorted by the log-odds d = jll1 - jll0. The computed P(1) of a row equals
 * sigma(d) within a relative error eta = u (2|jll0| + 2|jll1| + 9) (u = 2^-53; the rounding of
 * each operation of the logsumexp and of exp / log, each within one ulp; the code takes 4 eta),
 * so it lies in [sigma(lo), sigma(hi)] for an interval [lo, hi] around d (see Interval in the
 * .cpp; hi = +inf where P(1) may round to 1, lo = -inf where it may be subnormal). Where every
 * row before a rank has its hi below the lo of every row from that rank on, the probabilities
 * are certainly in strict order across it. The other ranks form clusters (saturated
 * probabilities, near-equal log-odds, rows whose large log-likelihoods blur their probability),
 * whose probabilities are computed and sorted exactly; ties come only from inside a cluster.
 * The sort only proposes the order: two rows it puts against their log-odds order have
 * overlapping intervals at every rank between them (hi of the earlier one >= its d > the later
 * one's d >= its lo), so they end in one cluster. A coarse key (the AVX-512 kernel's 23-bit
 * scaled log-odds) can therefore cost evaluations, never exactness.
 *
 * @param labels optional 0/1 label per row: ranking.positive receives them in rank order.
 * @return false (nothing ranked) when a log-likelihood or a log-odds value is not finite, or
 *   there are more than 2^32 - 1 rows; the caller then computes every probability.
 */
bool RankGaussianNb(std::span<const double> jll0, std::span<const double> jll1, GaussianNbRanking& ranking,
                    std::span<const std::uint8_t> labels = {}, RankKernel kernel = RankKernel::kAuto);

}}}  // namespace perfshap::detail
