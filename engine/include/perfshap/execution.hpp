// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <oneapi/tbb/task_arena.h>

#include "perfshap/export.hpp"


namespace perfshap { inline namespace v0 {

/** @brief A progress report: `done` of `total` work units, measured rate and time left. */
struct Progress {
  std::uint64_t done = 0;
  std::uint64_t total = 0;
  double elapsed_seconds = 0.0;
  /** Units per second since the start. */
  double rate = 0.0;
  /** Estimated seconds left at the current rate (0 when unknown). */
  double eta_seconds = 0.0;
  /** True for the last report of a computation. */
  bool finished = false;
};

struct CostEstimate;
class Processes;

/** @brief Receives a computation's cost estimate (cost.hpp) before it starts, on the calling
 *  thread. Must not throw. */
using EstimateCallback = std::function<void(const CostEstimate&)>;

/** @brief What a computation may use; a request whose estimate exceeds them is refused before it
 *  starts (CheckCost in cost.hpp). */
struct ResourceLimits {
  /** Bytes the computation may hold at once; 0 = DefaultMaxMemory() (three quarters of the
   *  machine's or the cgroup's memory). */
  double max_memory_bytes = 0.0;
  /** Model evaluations (rows predicted, or training rows' passes) it may take; 0 =
   *  kDefaultMaxModelEvaluations. */
  double max_model_evaluations = 0.0;
};

/** @brief Receives progress reports. Called from any thread, never concurrently with itself,
 *  at most about ten times a second plus once at the end. Must not throw. */
using ProgressCallback = std::function<void(const Progress&)>;

/**
 * @brief Where and how a computation runs.
 *
 * The library never changes process-wide settings: it runs in its own task arena of
 * `threads` workers, or in the host's `arena`. Results do not depend on either.
 */
struct ExecutionOptions {
  /** Worker threads; 0 = as many as the calling context allows: inside a host's tbb::task_arena,
   *  its concurrency (a task_arena(1) runs the computation on one thread); elsewhere the
   *  machine's cores. */
  int threads = 0;
  /** The host's own arena to run in (not owned; it outlives the computation): its concurrency
   *  is the thread count, and `threads` must be 0 or equal to it. None: an arena of the
   *  library's own of `threads` workers, so that two hosts' computations never share workers. */
  tbb::task_arena* arena = nullptr;
  /** Optional progress hook (see ProgressCallback). */
  ProgressCallback progress;
  /** Optional cancellation flag, checked between blocks of work; when it becomes true the
   *  computation stops and throws perfshap::Cancelled. */
  const std::atomic<bool>* cancel = nullptr;
  /** Limits the computation's estimated cost must fit before it starts. */
  ResourceLimits limits;
  /** Optional hook that receives the cost estimate before the computation starts. */
  EstimateCallback on_estimate;
  /** The processes that run the computation together (MPI; perfshap/processes.hpp): each runs
   *  a share of its fixed work items with its own threads, and every one returns the whole
   *  result, bitwise what one process computes. Every process makes the same call with the same
   *  inputs. None: this process alone. */
  std::shared_ptr<const Processes> processes;
  /** What the front end was given for this call, in its own words (the command line, the options'
   *  JSON), less what may differ between processes (threads, progress, the communicator): the
   *  processes of an MPI run check before the work that they were all given the same, with the
   *  values of the data and the model. */
  std::string invocation;
};

/** @brief The number of worker threads a computation with these options uses: `threads`, at
 *  most the machine's (oneTBB's default concurrency: the cores this process may run on); what
 *  result.json records. */
PERFSHAP_EXPORT int ResolvedThreads(const ExecutionOptions& options);

/** @brief At most this many task arenas of the library's own wait, idle, for the next
 *  computation (the most recently used first); one released past the bound is destroyed. */
inline constexpr std::size_t kMaxIdleArenas = 4;
/** @brief An idle arena of the library's own is destroyed this long after its last use. */
inline constexpr std::chrono::seconds kIdleArenaLifetime{30};

/**
 * @brief Destroys every task arena of the library's own that no computation is using now (a
 * host that is done with perfshap for a while, or before it changes its thread settings); the
 * next computation makes a new one. Their worker threads are oneTBB's, which lets them sleep or
 * end when no arena wants them. Safe at any time, from any thread.
 * @return how many arenas were destroyed.
 */
PERFSHAP_EXPORT std::size_t ReleaseIdleArenas();


}}  // namespace perfshap
