// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The only door to parallelism in perfshap. This header does not include TBB; the
// implementation (schedule.cpp) is the only translation unit that does.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "perfshap/execution.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

class ProgressTracker;

/** @brief How many task arenas of the library's own wait, idle, in its pool (at most
 *  kMaxIdleArenas). */
std::size_t IdleArenaCount();

/**
 * @brief The processes that share a computation with these options (ExecutionOptions::processes),
 * or null: when there is one process, or when called from inside a block of work (a computation
 * nested in another's parallel loop runs alone on each process: a collective must be called by
 * every process from the method's own thread, in the same order).
 */
std::shared_ptr<const Processes> SharedProcesses(const ExecutionOptions& options);

/** @brief Ends the waiting tasks of every PoolWarmUp (their workers then join the work at
 *  hand); computations call it as they run their first blocks. Cheap when none waits. */
void ReleaseWarmUps();

/**
 * @brief Starts the thread pool in the background, so that a computation coming later does
 * not pay for it (for front ends only: a library call never starts threads it does not need).
 *
 * The pool starts on first use: oneTBB loads its allocator library, probes for a shared thread
 * server and starts its worker threads, about a millisecond on a small machine. A caller that
 * knows a computation is coming (the command line tool, while it reads its input) constructs a
 * PoolWarmUp first; the pool then starts alongside the caller's own work and its workers wait,
 * yielding, for the computation's first block (at most 2 s). The destructor waits for the
 * warm-up to end and registers the calling thread with the pool: destroy it on the thread that
 * runs the computation, just before it. Results never depend on it.
 */
class PoolWarmUp {
 public:
  explicit PoolWarmUp(const ExecutionOptions& options);
  ~PoolWarmUp();
  PoolWarmUp(const PoolWarmUp&) = delete;
  PoolWarmUp& operator=(const PoolWarmUp&) = delete;

 private:
  struct Impl;
  Impl* impl_;
};

/**
 * @brief Runs body(block, scratch) for every block in [0, n) in parallel, with the running
 * thread's scratch, counting `units` of progress per block; returns when all are done and
 * rethrows the exception of the lowest failing block (the others are not run once a lower one
 * failed). The cancellation flag is checked before each block.
 */
using BlockLoop = std::function<void(std::size_t n, std::uint64_t units,
                                     const std::function<void(std::size_t block, void* scratch)>& body)>;

/**
 * @brief The stages of a game pipeline (Schedule::RunPipeline): items (games) cut into a fixed
 * number of blocks each. Every callback may run on any thread; see RunPipeline for the order.
 */
struct PipelineStages {
  /** Items and blocks per item (the same for every item). */
  std::size_t n_items = 0;
  std::size_t blocks_per_item = 0;
  /** Progress units each block counts. */
  std::uint64_t units_per_block = 0;
  /** Once per item, before any of its blocks: e.g. a split's preparation. `slot` is
   *  item % max_in_flight: no two items with the same slot are ever in flight together, so
   *  per-slot memory is reused without a lock. */
  std::function<void(std::size_t item, std::size_t slot)> prepare;
  /** Every block of every item, with the running thread's scratch (made by make_scratch at
   *  most once per thread); an item's blocks run concurrently (a parallel loop), in any order. */
  std::function<void(std::size_t item, std::size_t block, std::size_t slot, void* scratch)> block;
  /** Once per item, after all its blocks, with the running thread's scratch: e.g. the item's
   *  reduction in block order. */
  std::function<void(std::size_t item, std::size_t slot, void* scratch)> reduce;
  /** Instead of blocks_per_item blocks: the item's own driver, after prepare, which runs as many
   *  parallel passes of blocks as it needs through `loop` (a sampled solver's rounds, each
   *  deciding whether another is needed); a throw fails the item. blocks_per_item is then 1. */
  std::function<void(std::size_t item, std::size_t slot, const BlockLoop& loop)> drive;
  /** Once per item, in item order (0, 1, ...), one call at a time: e.g. bands over the games. */
  std::function<void(std::size_t item, std::size_t slot)> deliver;
  std::function<std::shared_ptr<void>()> make_scratch;
};

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
  /** @brief When the schedule was made (the start of a solver's batch). */
  std::chrono::steady_clock::time_point start_time() const noexcept;

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
   * @brief A game pipeline as one oneTBB flow graph: prepare(item) -> its blocks (a parallel
   * loop) -> reduce(item) -> deliver(item), serially and in item order (a sequencer: an item reduced early waits for the ones before it). Different
   * items' stages overlap: while item k's blocks run, item k + 1 is prepared and item k - 1 is
   * delivered. At most max_in_flight() items are between prepare and deliver, so memory stays
   * bounded for long batches. No lock is taken on the result path.
   *
   * Errors: a callback that throws marks its item failed; blocks numbered (item * blocks_per_item
   * + block) above the lowest failure are skipped, a failed item is neither reduced nor
   * delivered (nor any after it), and the exception of the lowest failing (item, block) is
   * rethrown (a prepare failure counts as the item's block 0, a reduce or deliver failure as its
   * last block), whatever the thread count. The cancellation flag is checked before each block.
   */
  void RunPipeline(const PipelineStages& stages);
  /** @brief How many items RunPipeline keeps in flight (>= 2; depends on the thread count, which
   *  never changes a result). */
  std::size_t max_in_flight() const noexcept;

  /** @brief Sets the total number of progress units (for the ETA). */
  void SetProgressTotal(std::uint64_t total);
  /** @brief Moves the total by `delta` units (thread-safe): a sampled solver's forecast of the
   *  evaluations it still needs, revised after each round. */
  void AdjustProgressTotal(std::int64_t delta);
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

}}}  // namespace perfshap::detail
