// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The only door to parallelism in perfshap. This header does not include TBB; the
// implementation (schedule.cpp) is the only translation unit that does.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "perfshap/execution.hpp"

namespace perfshap::detail {

class ProgressTracker;

/** @brief Ends the waiting tasks of every PoolWarmUp (their workers then join the work at
 *  hand); computations call it as they run their first blocks. Cheap when none waits. */
void ReleaseWarmUps();

/**
 * @brief Runs blocks of work in a task arena of the requested size.
 *
 * Work is identified by fixed block ids; which thread runs a block never changes what the
 * block computes, so callers that write per-block partials and reduce them in block order
 * get bitwise identical results for any thread count.
 */
class Schedule {
 public:
  explicit Schedule(const ExecutionOptions& options);
  ~Schedule();
  Schedule(const Schedule&) = delete;
  Schedule& operator=(const Schedule&) = delete;

  /** @brief Number of worker threads of the arena. */
  int threads() const noexcept { return threads_; }

  /**
   * @brief Calls body(block, scratch) for every block in [0, n_blocks), in parallel.
   *
   * `make_scratch` is called at most once per worker thread; the scratch is reused by the
   * blocks that thread runs (the body must reset it). Each block counts `units_per_block`
   * units of progress. The cancellation flag is checked before each block.
   * @throws whatever a body throws (the first one), or Cancelled.
   */
  template <class Scratch>
  void ForEachBlock(std::size_t n_blocks, std::uint64_t units_per_block,
                    const std::function<std::unique_ptr<Scratch>()>& make_scratch,
                    const std::function<void(std::size_t, Scratch&)>& body) {
    ForEachBlockErased(
        n_blocks, units_per_block,
        [&make_scratch]() -> std::shared_ptr<void> { return std::shared_ptr<Scratch>(make_scratch()); },
        [&body](std::size_t b, void* s) { body(b, *static_cast<Scratch*>(s)); });
  }

  /** @brief Calls body(block) for every block in [0, n_blocks), in parallel. */
  void ForEachBlock(std::size_t n_blocks, std::uint64_t units_per_block,
                    const std::function<void(std::size_t)>& body);

  /**
   * @brief Multi-stage work as a flow graph: every item i in [0, n_items) goes through
   * stages[0](i), then stages[1](i), ...; different items and different stages run
   * concurrently (item i's stage s+1 starts when its stage s is done). Each stage call counts
   * one unit of progress per item. Stages must write only item-owned memory.
   */
  void RunStages(std::size_t n_items, const std::vector<std::function<void(std::size_t)>>& stages);

  /** @brief Sets the total number of progress units (for the ETA). */
  void SetProgressTotal(std::uint64_t total);
  /** @brief Adds done units (thread-safe; rate-limited calls of the callback). */
  void AddProgress(std::uint64_t units);
  /** @brief Sends the final progress report. */
  void FinishProgress();
  /** @brief Throws Cancelled if the cancellation flag is raised. */
  void ThrowIfCancelled() const;

 private:
  void ForEachBlockErased(std::size_t n_blocks, std::uint64_t units_per_block,
                          const std::function<std::shared_ptr<void>()>& make_scratch,
                          const std::function<void(std::size_t, void*)>& body);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  int threads_ = 1;
  const std::atomic<bool>* cancel_ = nullptr;
};

}  // namespace perfshap::detail
