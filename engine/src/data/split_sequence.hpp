// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A split plan's splits one at a time (hardening round 2, item 16): explicit splits are viewed
// where they lie, and a drawn plan (holdout, mc:R, kfold:K) draws split r when it is asked for,
// from its own random stream, so that a run of 10^6 Monte-Carlo splits holds the splits in
// flight, not the plan. Split r is bitwise the one MakeSplitPlan's plan holds at r.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "perfshap/blocks/split.hpp"
#include "schedule/distribute.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

class SplitSequence {
 public:
  /** @brief The splits of `plan`, viewed: the plan must outlive the sequence. */
  explicit SplitSequence(const SplitPlan& plan);

  /**
   * @brief The plan `spec` names ("holdout", "mc:R", "kfold:K"), drawn when asked. Only the
   * classes' rows (mc, holdout) or each row's fold (kfold) are kept: O(rows).
   * @throws InvalidArgument as MakeSplitPlan (the spec, the sizes, the labels).
   */
  static SplitSequence Drawn(std::string_view spec, std::size_t n_rows, double test_fraction, std::uint64_t seed,
                             std::span<const double> stratify_labels = {});
  /** @brief mc:R: split r drawn as HoldoutSplit(n_rows, test_fraction, seed, labels, r).
   *  @throws InvalidArgument as MonteCarloSplits. */
  static SplitSequence MonteCarlo(std::size_t n_rows, std::size_t repetitions, double test_fraction,
                                  std::uint64_t seed, std::span<const double> stratify_labels = {});
  /** @brief kfold:K: fold k as KFoldSplits deals it. @throws InvalidArgument as KFoldSplits. */
  static SplitSequence Folds(std::size_t n_rows, std::size_t k, std::uint64_t seed,
                             std::span<const double> stratify_labels = {});

  std::size_t size() const noexcept { return count_; }
  /** @brief Whether the splits are drawn when asked (none is held). */
  bool drawn() const noexcept { return plan_ == nullptr; }
  /** @brief Split r: the plan's own, or drawn into `scratch` (its capacity reused) and returned. */
  const Split& At(std::size_t r, Split& scratch) const;
  /** @brief The sizes of split r's train and test parts, without drawing it. */
  std::pair<std::size_t, std::size_t> Sizes(std::size_t r) const;
  /** @brief The largest test part of any split, without drawing them. */
  std::size_t max_test_rows() const;
  /** @brief What the splits are made of, for a run's fingerprint: a viewed plan's rows, a drawn
   *  plan's parameters (its rows follow from them and the labels). */
  void Fingerprint(ByteWriter& out) const;

 private:
  SplitSequence() = default;

  const SplitPlan* plan_ = nullptr;
  std::size_t count_ = 0;
  std::size_t n_rows_ = 0;
  std::uint64_t seed_ = 0;
  double test_fraction_ = 0.0;
  bool folds_ = false;
  std::vector<std::vector<std::size_t>> groups_;  // Monte-Carlo: each class's rows, in class order
  std::vector<std::size_t> quota_;                // Monte-Carlo: each class's test rows
  std::vector<std::size_t> fold_of_;              // k-fold: each row's fold
};

}}}  // namespace perfshap::detail
