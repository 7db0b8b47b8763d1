// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "schedule/schedule.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/flow_graph.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/partitioner.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "perfshap/error.hpp"

namespace perfshap {
int ResolvedThreads(const ExecutionOptions& options) {
  return options.threads > 0 ? options.threads : std::max(1, tbb::info::default_concurrency());
}

namespace {

// What PoolWarmUp leaves running: per thread count one arena, never destroyed (its waiting tasks
// must always be able to finish; a static pointer keeps it reachable at exit), and a
// generation counter that ReleaseWarmUps advances to end the waiting tasks of the generation
// they were made in.
struct WarmUpState {
  std::mutex mutex;
  std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  std::atomic<std::uint64_t> generation{0};
  std::atomic<int> waiting{0};
};

WarmUpState& WarmUps() {
  static auto* state = new WarmUpState;
  return *state;
}

// The arena for `threads` threads, made on first use and shared by every Schedule and warm-up of
// that thread count: workers that just finished one computation (or a warm-up) are still in
// it, spinning, when the next one starts, instead of having to find a new arena (or wake up).
tbb::task_arena& SharedArena(int threads) {
  WarmUpState& state = WarmUps();
  const std::lock_guard<std::mutex> lock(state.mutex);
  auto& slot = state.arenas[threads];
  if (!slot) slot = std::make_unique<tbb::task_arena>(threads);
  return *slot;
}

}  // namespace

namespace detail {
// Called as computations run their first blocks: the work is then in the arena, so the workers
// that a warm-up kept awake go straight to it.
void ReleaseWarmUps() {
  WarmUpState& s = WarmUps();
  if (s.waiting.load(std::memory_order_acquire) == 0) return;
  s.waiting.store(0, std::memory_order_relaxed);
  s.generation.fetch_add(1, std::memory_order_release);
}
}  // namespace detail

struct PoolWarmUp::Impl {
  std::thread thread;
  int threads = 1;
};

PoolWarmUp::PoolWarmUp(const ExecutionOptions& options) : impl_(new Impl) {
  const int threads = ResolvedThreads(options);
  impl_->threads = threads;
  WarmUpState& state = WarmUps();
  const std::uint64_t generation = state.generation.load(std::memory_order_acquire);
  if (threads >= 2) state.waiting.fetch_add(1, std::memory_order_release);
  try {
    impl_->thread = std::thread([threads, generation, &state] {
      try {
        // oneTBB initialises itself (it loads its allocator library) on first use, about a
        // millisecond, and starts its workers when an arena has work for them. Each worker
        // gets a task that waits, yielding, until the next computation runs its first block
        // (or kSpinLimit passes): it then moves straight to that work. A worker left to sleep
        // instead can take milliseconds to wake up on a virtual machine.
        tbb::task_arena* arena = &SharedArena(threads);
        arena->initialize();
        for (int i = 1; i < threads; ++i) {
          arena->enqueue([generation, &state] {
            constexpr auto kSpinLimit = std::chrono::seconds(2);
            const auto until = std::chrono::steady_clock::now() + kSpinLimit;
            while (state.generation.load(std::memory_order_acquire) == generation &&
                   std::chrono::steady_clock::now() < until)
              std::this_thread::yield();
          });
        }
      } catch (...) {
        // Only a warm-up: the computation itself reports any real problem.
      }
    });
  } catch (...) {
    // No thread to spare: the computation starts the pool itself.
  }
}

PoolWarmUp::~PoolWarmUp() {
  if (impl_->thread.joinable()) impl_->thread.join();
  // The calling thread, which runs the computation's first block, enters the arena once now:
  // oneTBB registers a thread on its first entry (about 0.15 ms on the 2-core VM).
  try {
    SharedArena(impl_->threads).execute([] {});
  } catch (...) {
    // Only a warm-up.
  }
  delete impl_;
}
}  // namespace perfshap

namespace perfshap::detail {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

struct Schedule::Impl {
  explicit Impl(int threads) : arena(SharedArena(threads)) {}
  tbb::task_arena& arena;
  ProgressCallback callback;
  Clock::time_point start = Clock::now();
  std::atomic<std::uint64_t> done{0};
  std::atomic<std::uint64_t> total{0};
  std::atomic<std::int64_t> last_report_ns{0};
  // Serialises the user's callback only (never on the result path).
  std::mutex callback_mutex;

  Progress Snapshot(bool finished) const {
    Progress p;
    p.done = done.load(std::memory_order_relaxed);
    p.total = total.load(std::memory_order_relaxed);
    p.elapsed_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    p.rate = p.elapsed_seconds > 0 ? static_cast<double>(p.done) / p.elapsed_seconds : 0.0;
    p.eta_seconds = (p.rate > 0 && p.total > p.done) ? static_cast<double>(p.total - p.done) / p.rate : 0.0;
    p.finished = finished;
    return p;
  }
};

Schedule::Schedule(const ExecutionOptions& options) : cancel_(options.cancel) {
  PERFSHAP_CHECK(options.threads >= 0, "threads must be >= 0 (0 = all cores)");
  threads_ = ResolvedThreads(options);
  impl_ = std::make_unique<Impl>(threads_);
  impl_->callback = options.progress;
}

Schedule::~Schedule() = default;

void Schedule::SetProgressTotal(std::uint64_t total) { impl_->total.store(total); }

void Schedule::AddProgress(std::uint64_t units) {
  impl_->done.fetch_add(units, std::memory_order_relaxed);
  if (!impl_->callback) return;
  // Rate-limit to ~10 reports a second; only the thread that wins the exchange reports.
  const auto now_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - impl_->start).count();
  auto last = impl_->last_report_ns.load(std::memory_order_relaxed);
  if (now_ns - last < 100'000'000) return;
  if (!impl_->last_report_ns.compare_exchange_strong(last, now_ns)) return;
  std::unique_lock lock(impl_->callback_mutex, std::try_to_lock);
  if (lock.owns_lock()) impl_->callback(impl_->Snapshot(false));
}

void Schedule::FinishProgress() {
  if (!impl_->callback) return;
  std::lock_guard lock(impl_->callback_mutex);
  impl_->callback(impl_->Snapshot(true));
}

void Schedule::ThrowIfCancelled() const {
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) throw Cancelled();
}

void Schedule::ForEachBlockErased(std::size_t n_blocks, std::uint64_t units_per_block,
                                  const std::function<std::shared_ptr<void>()>& make_scratch,
                                  const std::function<void(std::size_t, void*)>& body) {
  tbb::enumerable_thread_specific<std::shared_ptr<void>> scratch([&] { return make_scratch(); });
  impl_->arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n_blocks, 1),
        [&](const tbb::blocked_range<std::size_t>& r) {
          ReleaseWarmUps();
          auto& mine = scratch.local();
          for (std::size_t b = r.begin(); b != r.end(); ++b) {
            ThrowIfCancelled();
            body(b, mine.get());
            AddProgress(units_per_block);
          }
        },
        tbb::simple_partitioner());
  });
}

void Schedule::ForEachBlock(std::size_t n_blocks, std::uint64_t units_per_block,
                            const std::function<void(std::size_t)>& body) {
  impl_->arena.execute([&] {
    tbb::parallel_for(
        tbb::blocked_range<std::size_t>(0, n_blocks, 1),
        [&](const tbb::blocked_range<std::size_t>& r) {
          ReleaseWarmUps();
          for (std::size_t b = r.begin(); b != r.end(); ++b) {
            ThrowIfCancelled();
            body(b);
            AddProgress(units_per_block);
          }
        },
        tbb::simple_partitioner());
  });
}

void Schedule::RunStages(std::size_t n_items,
                         const std::vector<std::function<void(std::size_t)>>& stages) {
  if (n_items == 0 || stages.empty()) return;
  impl_->arena.execute([&] {
    tbb::flow::graph g;
    using Node = tbb::flow::function_node<std::size_t, std::size_t>;
    std::vector<std::unique_ptr<Node>> nodes;
    nodes.reserve(stages.size());
    for (const auto& stage : stages) {
      nodes.push_back(std::make_unique<Node>(g, tbb::flow::unlimited, [this, &stage](std::size_t i) {
        ReleaseWarmUps();
        ThrowIfCancelled();
        stage(i);
        AddProgress(1);
        return i;
      }));
    }
    for (std::size_t s = 1; s < nodes.size(); ++s) tbb::flow::make_edge(*nodes[s - 1], *nodes[s]);
    for (std::size_t i = 0; i < n_items; ++i) nodes.front()->try_put(i);
    g.wait_for_all();
  });
}

}  // namespace perfshap::detail
