// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Drawn train/test splits: holdout, Monte-Carlo (mc:R) and k-fold plans, whole (MakeSplitPlan)
// or one split at a time (SplitSequence). Every split is a pure function of (n, parameters,
// seed, labels): the permutations use our own Fisher-Yates over RandomStream::Below, never
// std::shuffle or std::uniform_int_distribution, whose outputs differ between standard
// libraries.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/allocation.hpp"
#include "data/message_text.hpp"
#include "data/split_sequence.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/error.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 {
namespace {

/// Fisher-Yates: after the call, items is a uniformly random permutation of its input.
void Shuffle(std::vector<std::size_t>& items, RandomStream& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.Below(i));
    std::swap(items[i - 1], items[j]);
  }
}

/// Row indices grouped by class, classes in increasing label order (deterministic).
/// Without labels: one group holding 0..n-1.
std::vector<std::vector<std::size_t>> GroupByClass(std::size_t n, std::span<const double> labels) {
  if (labels.empty()) {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    return {std::move(all)};
  }
  PERFSHAP_CHECK(labels.size() == n, "stratification labels: " + std::to_string(labels.size()) +
                                         " values for " + std::to_string(n) +
                                         " rows; give one label per row (or none)");
  std::map<double, std::vector<std::size_t>> by_class;
  for (std::size_t i = 0; i < n; ++i) {
    PERFSHAP_CHECK(!std::isnan(labels[i]), "stratification labels: row " + std::to_string(i) +
                                               " is NaN; every row needs a label to stratify");
    by_class[labels[i]].push_back(i);
  }
  std::vector<std::vector<std::size_t>> groups;
  groups.reserve(by_class.size());
  for (auto& entry : by_class) groups.push_back(std::move(entry.second));
  return groups;
}

/// Splits total among groups in proportion to their sizes, by largest remainder (Hamilton):
/// floor(total * size / n) each, then one more to the largest remainders (ties: first
/// group). Exact integer arithmetic, so the result does not depend on rounding.
std::vector<std::size_t> Allocate(std::size_t total, std::size_t n,
                                  const std::vector<std::vector<std::size_t>>& groups) {
  std::vector<std::size_t> quota(groups.size());
  std::vector<std::pair<std::size_t, std::size_t>> remainders;  // (remainder, group)
  std::size_t assigned = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    // total <= n and size <= n, so total * size fits unless n > 2^32: fine for row counts.
    const std::size_t product = total * groups[g].size();
    quota[g] = product / n;
    assigned += quota[g];
    remainders.emplace_back(product % n, g);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; assigned < total; ++k, ++assigned) ++quota[remainders[k].second];
  return quota;
}

/// The test rows of a holdout split: the fraction of n, rounded, at least 1 and at most n - 1.
std::size_t TestCount(std::size_t n, double test_fraction) {
  const double wanted = std::round(test_fraction * static_cast<double>(n));
  return std::clamp(static_cast<std::size_t>(std::max(wanted, 1.0)), std::size_t{1}, n - 1);
}

/// One stratified split into `into` (its capacity reused): each class, a copy shuffled with
/// `rng` in class order, sends its first quota[g] rows to the test part; both parts ascending.
void DrawSplitInto(std::size_t n, const std::vector<std::vector<std::size_t>>& groups,
                   const std::vector<std::size_t>& quota, RandomStream rng, Split& into) {
  std::vector<char> is_test(n, 0);
  std::vector<std::size_t> shuffled;
  std::size_t n_test = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    shuffled.assign(groups[g].begin(), groups[g].end());
    Shuffle(shuffled, rng);
    for (std::size_t k = 0; k < quota[g]; ++k) is_test[shuffled[k]] = 1;
    n_test += quota[g];
  }
  into.test.clear();
  into.train.clear();
  into.test.reserve(n_test);
  into.train.reserve(n - n_test);
  for (std::size_t i = 0; i < n; ++i) (is_test[i] != 0 ? into.test : into.train).push_back(i);
}

void CheckHoldout(std::size_t n, double test_fraction) {
  PERFSHAP_CHECK(n >= 2, "a holdout split needs at least 2 rows, got " + std::to_string(n));
  PERFSHAP_CHECK(test_fraction > 0.0 && test_fraction < 1.0,
                 "test fraction " + std::to_string(test_fraction) +
                     " is outside (0, 1); pass e.g. 0.25 for a quarter of the rows");
}

// The count of "mc:R" / "kfold:K": an integer >= lo.
std::size_t PlanCount(std::string_view spec, std::string_view text, std::size_t lo) {
  std::size_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < lo)
    throw InvalidArgument("split plan " + detail::EscapeControls(spec.substr(0, 60)) + ": " + detail::Quoted(text) +
                              " is not an integer >= " + std::to_string(lo) +
                              "; use holdout, mc:R (R Monte-Carlo splits) or kfold:K",
                          {"plan"});
  return v;
}

[[noreturn]] void ThrowUnknownPlan(std::string_view spec) {
  throw InvalidArgument("split plan " + detail::Quoted(spec) +
                            " is not understood; use holdout, mc:R (e.g. mc:100) or kfold:K (e.g. kfold:5)",
                        {"plan"});
}

}  // namespace

namespace detail {

SplitSequence::SplitSequence(const SplitPlan& plan) : plan_(&plan), count_(plan.size()) {}

SplitSequence SplitSequence::MonteCarlo(std::size_t n_rows, std::size_t repetitions, double test_fraction,
                                        std::uint64_t seed, std::span<const double> stratify_labels) {
  PERFSHAP_CHECK(repetitions >= 1, "Monte Carlo cross-validation needs at least 1 repetition");
  CheckHoldout(n_rows, test_fraction);
  SplitSequence s;
  s.count_ = repetitions;
  s.n_rows_ = n_rows;
  s.seed_ = seed;
  s.test_fraction_ = test_fraction;
  s.groups_ = GroupByClass(n_rows, stratify_labels);
  s.quota_ = Allocate(TestCount(n_rows, test_fraction), n_rows, s.groups_);
  return s;
}

SplitSequence SplitSequence::Folds(std::size_t n_rows, std::size_t k, std::uint64_t seed,
                                   std::span<const double> stratify_labels) {
  PERFSHAP_CHECK(k >= 2, "k-fold needs k >= 2 folds, got " + std::to_string(k), {"plan"});
  PERFSHAP_CHECK(k <= n_rows,
                 "k-fold with k = " + std::to_string(k) + " needs at least k rows, got " + std::to_string(n_rows) +
                     "; use fewer folds",
                 {"plan"});
  SplitSequence s;
  s.count_ = k;
  s.n_rows_ = n_rows;
  s.seed_ = seed;
  s.folds_ = true;
  // Shuffle each class, lay the classes end to end and deal the rows to folds in turn:
  // fold sizes differ by at most one, and so do each class's counts in the folds.
  auto groups = GroupByClass(n_rows, stratify_labels);
  RandomStream rng(seed, 0);
  s.fold_of_.assign(n_rows, 0);
  std::size_t position = 0;
  for (auto& group : groups) {
    Shuffle(group, rng);
    for (std::size_t row : group) s.fold_of_[row] = position++ % k;
  }
  return s;
}

SplitSequence SplitSequence::Drawn(std::string_view spec, std::size_t n_rows, double test_fraction, std::uint64_t seed,
                                   std::span<const double> stratify_labels) {
  if (spec == "holdout") return MonteCarlo(n_rows, 1, test_fraction, seed, stratify_labels);
  if (spec.substr(0, 3) == "mc:")
    return MonteCarlo(n_rows, PlanCount(spec, spec.substr(3), 1), test_fraction, seed, stratify_labels);
  if (spec.substr(0, 6) == "kfold:") return Folds(n_rows, PlanCount(spec, spec.substr(6), 2), seed, stratify_labels);
  ThrowUnknownPlan(spec);
}

const Split& SplitSequence::At(std::size_t r, Split& scratch) const {
  if (plan_ != nullptr) return (*plan_)[r];
  if (!folds_) {
    DrawSplitInto(n_rows_, groups_, quota_, RandomStream(seed_, r), scratch);
    return scratch;
  }
  scratch.test.clear();
  scratch.train.clear();
  for (std::size_t i = 0; i < n_rows_; ++i) (fold_of_[i] == r ? scratch.test : scratch.train).push_back(i);
  return scratch;
}

std::pair<std::size_t, std::size_t> SplitSequence::Sizes(std::size_t r) const {
  if (plan_ != nullptr) return {(*plan_)[r].train.size(), (*plan_)[r].test.size()};
  std::size_t n_test = 0;
  if (folds_) {
    n_test = n_rows_ / count_ + (r < n_rows_ % count_ ? 1 : 0);  // rows dealt to the folds in turn
  } else {
    for (std::size_t q : quota_) n_test += q;
  }
  return {n_rows_ - n_test, n_test};
}

std::size_t SplitSequence::max_test_rows() const {
  if (plan_ != nullptr) {
    std::size_t most = 0;
    for (const Split& split : *plan_) most = std::max(most, split.test.size());
    return most;
  }
  if (folds_) return (n_rows_ + count_ - 1) / count_;
  std::size_t n_test = 0;
  for (std::size_t q : quota_) n_test += q;
  return n_test;
}

void SplitSequence::Fingerprint(ByteWriter& out) const {
  out.Put<std::uint8_t>(plan_ != nullptr ? 0 : folds_ ? 2 : 1);
  if (plan_ != nullptr) {
    for (const Split& split : *plan_) {
      out.PutVector(split.train);
      out.PutVector(split.test);
    }
    return;
  }
  out.Put<std::uint64_t>(count_);
  out.Put<std::uint64_t>(n_rows_);
  out.Put(seed_);
  out.Put(test_fraction_);
  out.PutVector(quota_);
  out.Put<std::uint64_t>(groups_.size());
  for (const std::vector<std::size_t>& group : groups_) out.PutVector(group);
  out.PutVector(fold_of_);
}

}  // namespace detail

Split HoldoutSplit(std::size_t n, double test_fraction, std::uint64_t seed, std::span<const double> stratify_labels,
                   std::uint64_t stream_id) {
  CheckHoldout(n, test_fraction);
  const auto groups = GroupByClass(n, stratify_labels);
  const std::vector<std::size_t> quota = Allocate(TestCount(n, test_fraction), n, groups);
  Split split;
  DrawSplitInto(n, groups, quota, RandomStream(seed, stream_id), split);
  return split;
}

namespace {

// Every split of `splits`, drawn in parallel (each split has its own stream or fold: the same
// plan at any thread count). Threads and cancellation as the caller's; no progress of its own.
SplitPlan AllSplits(const detail::SplitSequence& splits, const ExecutionOptions& execution) {
  SplitPlan plan;
  try {
    plan.resize(splits.size());
    ExecutionOptions threads;
    threads.threads = execution.threads;
    threads.cancel = execution.cancel;
    detail::Schedule schedule(threads);
    constexpr std::size_t kSplitsPerBlock = 8;
    schedule.ForEachBlock((plan.size() + kSplitsPerBlock - 1) / kSplitsPerBlock, 0, [&](std::size_t b) {
      const std::size_t end = std::min(plan.size(), (b + 1) * kSplitsPerBlock);
      for (std::size_t r = b * kSplitsPerBlock; r < end; ++r) splits.At(r, plan[r]);
    });
  } catch (const std::bad_alloc&) {
    const std::size_t n = splits.Sizes(0).first + splits.Sizes(0).second;
    detail::ThrowAllocationFailed("the split plan (" + std::to_string(splits.size()) + " splits of " +
                                      std::to_string(n) + " row indices)",
                                  static_cast<double>(splits.size()) * static_cast<double>(n) * sizeof(std::size_t));
  }
  return plan;
}

}  // namespace

SplitPlan KFoldSplits(std::size_t n, std::size_t k, std::uint64_t seed, std::span<const double> stratify_labels) {
  return AllSplits(detail::SplitSequence::Folds(n, k, seed, stratify_labels), {});
}

SplitPlan MonteCarloSplits(std::size_t n, std::size_t repetitions, double test_fraction, std::uint64_t seed,
                           std::span<const double> stratify_labels, const ExecutionOptions& execution) {
  return AllSplits(detail::SplitSequence::MonteCarlo(n, repetitions, test_fraction, seed, stratify_labels), execution);
}

std::size_t SplitPlanSize(std::string_view spec) {
  if (spec == "holdout") return 1;
  if (spec.substr(0, 3) == "mc:") return PlanCount(spec, spec.substr(3), 1);
  if (spec.substr(0, 6) == "kfold:") return PlanCount(spec, spec.substr(6), 2);
  throw InvalidArgument("split plan '" + std::string(spec).substr(0, 60) +
                            "' is not understood; use holdout, mc:R (e.g. mc:100) or kfold:K (e.g. kfold:5)",
                        {"plan"});
}

SplitPlan MakeSplitPlan(std::string_view spec, std::size_t n_rows, double test_fraction, std::uint64_t seed,
                        std::span<const double> stratify_labels, const ExecutionOptions& execution) {
  return AllSplits(detail::SplitSequence::Drawn(spec, n_rows, test_fraction, seed, stratify_labels), execution);
}

}}  // namespace perfshap
