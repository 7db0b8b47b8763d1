// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// A robustness run's splits as games, a window at a time (explain/robustness_splits.hpp).
#include "explain/robustness_splits.hpp"

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

#include "perfshap/error.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::size_t SplitWindow(bool drawn, std::size_t n_splits, std::size_t n_rows) {
  if (!drawn) return std::max<std::size_t>(n_splits, 1);
  // Never of the thread count: the processes of an MPI run may have their own, and they must
  // walk the same windows (each window is a collective).
  constexpr double kWindowBytes = 64.0 * (1 << 20);
  constexpr std::size_t kMinWindow = 16, kMaxWindow = 4096;
  const double per_split = static_cast<double>(std::max<std::size_t>(n_rows, 1)) * sizeof(std::size_t);
  const auto by_memory = static_cast<std::size_t>(std::min(kWindowBytes / per_split, static_cast<double>(kMaxWindow)));
  return std::clamp<std::size_t>(std::max(by_memory, kMinWindow), 1, std::max<std::size_t>(n_splits, 1));
}

std::string SplitLabel(std::size_t r, std::size_t n_splits, const std::string& plan) {
  if (n_splits == 1) return plan.empty() ? std::string("the split") : "the split (" + plan + ")";
  return "split " + std::to_string(r) + " of " + (plan.empty() ? std::string("the plan") : plan) + " (0-based, " +
         std::to_string(n_splits) + " splits)";
}

std::unique_ptr<RetrainGame> MakeSplitGame(const SplitGameSetup& setup, std::size_t r, const Split& rows,
                                           double baseline, std::span<double> coalition_auc) {
  const std::string name = SplitLabel(r, setup.splits.size(), setup.options.plan_name);
  RetrainGameSettings settings;
  settings.evaluator = &setup.evaluator;
  settings.split_label = name;
  settings.prc_baseline = baseline;
  settings.extra_metrics.assign(setup.metrics.begin(), setup.metrics.end());
  settings.class_threshold = setup.options.class_threshold;
  settings.coalition_auc = coalition_auc;
  SplitSource split;
  split.learner = &setup.learner;
  split.data = &setup.data;
  split.players = setup.players;
  split.train_rows = rows.train;
  split.test_rows = rows.test;
  split.name = "the training rows of " + name;
  return std::make_unique<RetrainGame>(std::move(split), std::move(settings));
}

namespace {

// Split r's rows in range and both classes in its test part: the errors that name the split.
void CheckSplit(const SplitGameSetup& setup, std::size_t r, const Split& rows) {
  const Dataset& data = setup.data;
  const std::string& source = data.source();
  for (const auto* list : {&rows.train, &rows.test}) {
    std::size_t largest = 0;  // one check per list: a branch-free max
    for (std::size_t row : *list) largest = std::max(largest, row);
    if (largest >= data.n_rows())
      for (std::size_t row : *list)
        PERFSHAP_CHECK(row < data.n_rows(), SplitLabel(r, setup.splits.size(), setup.options.plan_name) +
                                                ": row index " + std::to_string(row) + " is out of range (" + source +
                                                " has " + std::to_string(data.n_rows()) + " rows)");
  }
  const auto label = data.label();
  std::size_t test_pos = 0;
  for (std::size_t row : rows.test) test_pos += static_cast<std::size_t>(label[row] == 1.0);
  if (rows.test.empty() || test_pos == 0 || test_pos == rows.test.size())
    throw DataError(source + ": the test part of " + SplitLabel(r, setup.splits.size(), setup.options.plan_name) +
                        " holds one class only (all " + std::to_string(rows.test.size()) + " test labels are " +
                        (test_pos == 0 ? "negative" : "positive") +
                        "), so its AUC and curves are undefined; use a stratified split, a larger test part or "
                        "fewer folds",
                    {"stratify", "test_size", "plan"});
}

}  // namespace

std::vector<std::unique_ptr<RetrainGame>> MakeSplitGames(const SplitGameSetup& setup, ItemRange window,
                                                         std::vector<Split>& drawn, std::vector<double>& baselines,
                                                         std::span<double> coalition_auc) {
  const std::size_t n_splits = setup.splits.size();
  const std::size_t count = window.end - window.begin;
  const std::uint64_t total = coalition_auc.size() / std::max<std::size_t>(1, n_splits);
  if (setup.splits.drawn()) drawn.resize(count);
  std::vector<std::unique_ptr<RetrainGame>> games(count);
  std::vector<std::exception_ptr> failures(count);
  Schedule build(setup.options.execution);
  build.ForEachBlock(count, 0, [&](std::size_t b) {
    const std::size_t r = window.begin + b;
    try {
      Split viewed;  // unused: a plan in memory is viewed where it lies
      const Split& rows = setup.splits.At(r, setup.splits.drawn() ? drawn[b] : viewed);
      CheckSplit(setup, r, rows);
      if (setup.options.prc_baseline == PrcBaseline::kPrevalence)
        baselines[r] = TestPrevalence(setup.data.label(), rows.test);
      games[b] = MakeSplitGame(setup, r, rows, baselines[r],
                               coalition_auc.empty() ? std::span<double>{} : coalition_auc.subspan(r * total, total));
    } catch (...) {
      failures[b] = std::current_exception();
    }
  });
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
  return games;
}

WindowedProgress::WindowedProgress(ProgressCallback outer, std::size_t n_splits)
    : outer_(std::move(outer)), n_splits_(n_splits), start_(std::chrono::steady_clock::now()) {}

ProgressCallback WindowedProgress::For(ItemRange window, bool last) {
  if (!outer_) return {};
  return [this, window, last](const Progress& p) {
    const double per_split = static_cast<double>(p.total) / static_cast<double>(window.end - window.begin);
    Progress run = p;
    run.done = before_ + p.done;
    run.total = before_ + p.total + static_cast<std::uint64_t>(per_split * static_cast<double>(n_splits_ - window.end));
    run.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    run.rate = run.elapsed_seconds > 0.0 ? static_cast<double>(run.done) / run.elapsed_seconds : 0.0;
    run.eta_seconds = run.rate > 0.0 ? static_cast<double>(run.total - std::min(run.done, run.total)) / run.rate : 0.0;
    run.finished = p.finished && last;
    this_done_ = p.done;
    outer_(run);
  };
}

void WindowedProgress::EndWindow() {
  before_ += this_done_;
  this_done_ = 0;
}

}}}  // namespace perfshap::detail
