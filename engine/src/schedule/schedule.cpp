// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "schedule/schedule.hpp"

#include "perfshap/processes.hpp"

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

namespace perfshap { inline namespace v0 {
int ResolvedThreads(const ExecutionOptions& options) {
  if (options.arena != nullptr) return std::max(1, options.arena->max_concurrency());
  // More workers than the machine has would only share its cores (and oneTBB warns of it).
  if (options.threads > 0) return std::min(options.threads, std::max(1, tbb::info::default_concurrency()));
  // The calling context's concurrency: a host's arena's inside one, else the machine's cores (a
  // thread outside any explicit arena sees the implicit arena of the default concurrency).
  return std::max(1, tbb::this_task_arena::max_concurrency());
}

namespace {

// What PoolWarmUp leaves running, and the arenas computations run in: a bounded pool of idle
// arenas. A computation leases one of its thread count for its lifetime, so computations started
// at the same time from several threads (two Python threads, a server's requests) run side by
// side instead of queueing for one arena's slots; a released arena goes back on top of the pool,
// so the next computation of that size finds its workers still spinning in it (as after a
// warm-up) instead of waking them. At most kMaxIdleArenas wait (the oldest past it is destroyed),
// none longer than kIdleArenaLifetime (swept at each lease and release), and ReleaseIdleArenas
// destroys them all. Destroying a task_arena object drops one reference to oneTBB's arena, which
// lives on until the tasks in it (a warm-up's waiting tasks, 2 s at most) are done. A generation
// counter that ReleaseWarmUps advances ends the waiting tasks of the generation they were made in.
using PoolClock = std::chrono::steady_clock;

struct IdleArena {
  std::unique_ptr<tbb::task_arena> arena;
  int threads = 0;
  PoolClock::time_point since;
};

struct WarmUpState {
  std::mutex mutex;
  std::vector<IdleArena> idle;  // the most recently released last
  std::atomic<std::uint64_t> generation{0};
  std::atomic<int> waiting{0};
};

WarmUpState& WarmUps() {
  static auto* state = new WarmUpState;  // reachable at exit, never destroyed: threads may outlive main
  return *state;
}

/** Moves out, under the lock, the idle arenas past their lifetime or past the bound; the caller
 *  destroys them after unlocking. */
std::vector<IdleArena> Expired(WarmUpState& state) {
  std::vector<IdleArena> gone;
  const auto now = PoolClock::now();
  std::vector<IdleArena> kept;
  for (IdleArena& a : state.idle)
    (now - a.since > kIdleArenaLifetime ? gone : kept).push_back(std::move(a));
  while (kept.size() > kMaxIdleArenas) {
    gone.push_back(std::move(kept.front()));
    kept.erase(kept.begin());
  }
  state.idle = std::move(kept);
  return gone;
}

tbb::task_arena* AcquireArena(int threads) {
  WarmUpState& state = WarmUps();
  std::vector<IdleArena> gone;
  tbb::task_arena* arena = nullptr;
  {
    const std::lock_guard<std::mutex> lock(state.mutex);
    gone = Expired(state);
    for (auto it = state.idle.rbegin(); it != state.idle.rend(); ++it) {
      if (it->threads != threads) continue;
      arena = it->arena.release();
      state.idle.erase(std::next(it).base());
      break;
    }
  }
  return arena != nullptr ? arena : new tbb::task_arena(threads);
}

void ReleaseArena(int threads, tbb::task_arena* arena) {
  WarmUpState& state = WarmUps();
  std::vector<IdleArena> gone;
  {
    const std::lock_guard<std::mutex> lock(state.mutex);
    state.idle.push_back(IdleArena{std::unique_ptr<tbb::task_arena>(arena), threads, PoolClock::now()});
    gone = Expired(state);
  }
}

// The arena whose block this thread is running, so that a computation started inside a block
// (a learner's own threaded fit) runs in the same arena instead of leasing a second one of the
// same size and oversubscribing the cores.
thread_local tbb::task_arena* t_running = nullptr;

class RunningIn {
 public:
  explicit RunningIn(tbb::task_arena* arena) : previous_(t_running) { t_running = arena; }
  ~RunningIn() { t_running = previous_; }
  RunningIn(const RunningIn&) = delete;
  RunningIn& operator=(const RunningIn&) = delete;

 private:
  tbb::task_arena* previous_;
};

}  // namespace

namespace detail {
std::shared_ptr<const Processes> SharedProcesses(const ExecutionOptions& options) {
  if (options.processes == nullptr || options.processes->size() == 1 || t_running != nullptr) return nullptr;
  return options.processes;
}
}  // namespace detail

std::size_t ReleaseIdleArenas() {
  WarmUpState& state = WarmUps();
  std::vector<IdleArena> gone;
  {
    const std::lock_guard<std::mutex> lock(state.mutex);
    gone = std::move(state.idle);
    state.idle.clear();
  }
  return gone.size();
}

namespace detail {
std::size_t IdleArenaCount() {
  WarmUpState& state = WarmUps();
  const std::lock_guard<std::mutex> lock(state.mutex);
  return state.idle.size();
}

// Called as computations run their first blocks: the work is then in the arena, so the workers
// that a warm-up kept awake go straight to it.
void ReleaseWarmUps() {
  WarmUpState& s = WarmUps();
  if (s.waiting.load(std::memory_order_acquire) == 0) return;
  s.waiting.store(0, std::memory_order_relaxed);
  s.generation.fetch_add(1, std::memory_order_release);
}
}  // namespace detail

namespace detail {

struct PoolWarmUp::Impl {
  std::thread thread;
  int threads = 1;
  tbb::task_arena* arena = nullptr;
};

PoolWarmUp::PoolWarmUp(const ExecutionOptions& options) : impl_(new Impl) {
  if (options.arena != nullptr) return;  // the host's arena: its workers are the host's to start
  const int threads = ResolvedThreads(options);
  impl_->threads = threads;
  WarmUpState& state = WarmUps();
  const std::uint64_t generation = state.generation.load(std::memory_order_acquire);
  impl_->arena = AcquireArena(threads);  // released last, so the computation leases it next
  if (threads >= 2) state.waiting.fetch_add(1, std::memory_order_release);
  try {
    tbb::task_arena* arena = impl_->arena;
    impl_->thread = std::thread([threads, generation, arena, &state] {
      try {
        // oneTBB initialises itself (it loads its allocator library) on first use, about a
        // millisecond, and starts its workers when an arena has work for them. Each worker
        // gets a task that waits, yielding, until the next computation runs its first block
        // (or kSpinLimit passes): it then moves straight to that work. A worker left to sleep
        // instead can take milliseconds to wake up on a virtual machine.
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
  if (impl_->arena == nullptr) {  // nothing was warmed (a host's arena)
    delete impl_;
    return;
  }
  if (impl_->thread.joinable()) impl_->thread.join();
  // The calling thread, which runs the computation's first block, enters the arena once now:
  // oneTBB registers a thread on its first entry (about 0.15 ms on the 2-core VM).
  try {
    impl_->arena->execute([] {});
  } catch (...) {
    // Only a warm-up.
  }
  ReleaseArena(impl_->threads, impl_->arena);
  delete impl_;
}
}  // namespace detail
}}  // namespace perfshap

namespace perfshap { inline namespace v0 { namespace detail {

namespace {
using Clock = std::chrono::steady_clock;
}  // namespace

struct Schedule::Impl {
  // The host's arena when given; inside a block of a computation of the same size, its arena;
  // otherwise a leased one.
  Impl(int n_threads, tbb::task_arena* host)
      : threads(n_threads),
        leased(host == nullptr && (t_running == nullptr || t_running->max_concurrency() != n_threads)),
        arena(host != nullptr ? *host : leased ? *AcquireArena(n_threads) : *t_running) {}
  ~Impl() {
    if (leased) ReleaseArena(threads, &arena);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  int threads;
  bool leased;
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
  PERFSHAP_CHECK(options.threads >= 0, "threads must be >= 0 (0 = all cores)", {"threads"});
  PERFSHAP_CHECK(options.arena == nullptr || options.threads == 0 || options.threads == ResolvedThreads(options),
                 "threads " + std::to_string(options.threads) + " with a host's arena of " +
                     std::to_string(ResolvedThreads(options)) + " threads; give 0 (the arena's) or that number",
                 {"threads"});
  threads_ = ResolvedThreads(options);
  impl_ = std::make_unique<Impl>(threads_, options.arena);
  impl_->callback = options.progress;
}

Schedule::~Schedule() = default;

std::chrono::steady_clock::time_point Schedule::start_time() const noexcept { return impl_->start; }

void Schedule::SetProgressTotal(std::uint64_t total) { impl_->total.store(total); }

void Schedule::AdjustProgressTotal(std::int64_t delta) {
  impl_->total.fetch_add(static_cast<std::uint64_t>(delta), std::memory_order_relaxed);  // modular
}

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
          const RunningIn running_block(&impl_->arena);
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
          const RunningIn running_block(&impl_->arena);
          for (std::size_t b = r.begin(); b != r.end(); ++b) {
            ThrowIfCancelled();
            body(b);
            AddProgress(units_per_block);
          }
        },
        tbb::simple_partitioner());
  });
}

std::size_t Schedule::max_in_flight() const noexcept { return 2 * static_cast<std::size_t>(threads_) + 2; }

namespace {

// The failures of one RunPipeline: the lowest failing (item, block) wins, whatever the thread
// count: every failure is kept, and work numbered above a known failure is skipped. Work is
// numbered item * blocks_per_item + block ("flat").
class PipelineFailures {
 public:
  PipelineFailures(std::size_t n_items, std::size_t n_flat)
      : errors_(n_flat), first_error_{n_flat}, failed_(new std::atomic<bool>[n_items]) {
    for (std::size_t i = 0; i < n_items; ++i) failed_[i].store(false, std::memory_order_relaxed);
  }

  // Keeps the exception being handled (call from a catch block) as work `flat`'s.
  void Fail(std::size_t flat) {
    errors_[flat] = std::current_exception();
    std::size_t seen = first_error_.load();
    while (flat < seen && !first_error_.compare_exchange_weak(seen, flat)) {
    }
  }
  // Marks the item failed, then keeps the exception being handled as its work `flat`'s.
  void FailItem(std::size_t item, std::size_t flat) {
    failed_[item].store(true);
    Fail(flat);
  }
  bool Skipped(std::size_t flat) const { return flat > first_error_.load(std::memory_order_relaxed); }
  bool ItemFailed(std::size_t item) const { return failed_[item].load(); }
  // Rethrows the exception of the lowest failing work, if any.
  void RethrowFirst() const {
    if (first_error_.load() < errors_.size()) std::rethrow_exception(errors_[first_error_.load()]);
  }

 private:
  std::vector<std::exception_ptr> errors_;
  std::atomic<std::size_t> first_error_;
  const std::unique_ptr<std::atomic<bool>[]> failed_;
};

// Each thread's scratch of a pipeline (PipelineStages::make_scratch's, made on first use).
using ThreadScratch = tbb::enumerable_thread_specific<std::shared_ptr<void>>;

// What RunPipeline's flow graph nodes run for an item: prepare, its blocks (a nested parallel
// loop, so they spread over the threads as any loop's do, and other items' nodes run
// alongside) or its driver's passes, the reduction; then, in item order, its delivery.
class PipelineItems {
 public:
  PipelineItems(Schedule& schedule, tbb::task_arena& arena, const PipelineStages& stages, std::size_t in_flight,
                PipelineFailures& failures, ThreadScratch& scratch)
      : schedule_(schedule), arena_(arena), st_(stages), in_flight_(in_flight), failures_(failures),
        scratch_(scratch) {}

  // Prepares, runs and reduces the item; true when it is to be delivered. Called by the item
  // node, which marks its thread as running in the arena (RunningIn) around it.
  bool Run(std::size_t item) {
    const std::size_t per_item = st_.blocks_per_item;
    const std::size_t first = item * per_item;
    const std::size_t slot = item % in_flight_;
    if (failures_.Skipped(first)) return false;
    try {
      schedule_.ThrowIfCancelled();
      if (st_.prepare) st_.prepare(item, slot);
    } catch (...) {
      failures_.FailItem(item, first);
      return false;
    }
    // An item of one block (a split of few features) runs it here: a loop would only add a task.
    if (st_.drive) {
      if (!Drive(item, slot, first)) return false;
    } else if (per_item == 1) {
      RunBlocks(item, slot, first, 0, 1);
    } else {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, per_item, 1),
          [&](const tbb::blocked_range<std::size_t>& r) { RunBlocks(item, slot, first, r.begin(), r.end()); },
          tbb::simple_partitioner());
    }
    // Every block is done (the loop's end orders their writes before the reduction).
    if (failures_.ItemFailed(item)) return false;
    try {
      if (st_.reduce) st_.reduce(item, slot, scratch_.local().get());
    } catch (...) {
      failures_.FailItem(item, first + per_item - 1);
      return false;
    }
    return true;
  }

  // Delivers the item (in item order, one at a time); true when its slot is freed. Called by
  // the delivery node, inside its RunningIn.
  bool Deliver(std::size_t item) {
    const std::size_t per_item = st_.blocks_per_item;
    try {
      if (st_.deliver) st_.deliver(item, item % in_flight_);
    } catch (...) {
      // A failed delivery frees no slot: the items after it are never admitted.
      failures_.FailItem(item, item * per_item + per_item - 1);
      return false;
    }
    return true;
  }

 private:
  // The item's driver runs its own passes; false when it failed.
  bool Drive(std::size_t item, std::size_t slot, std::size_t first) {
    const BlockLoop loop = [&](std::size_t n, std::uint64_t units,
                               const std::function<void(std::size_t, void*)>& body) { RunPass(first, n, units, body); };
    try {
      st_.drive(item, slot, loop);
    } catch (...) {
      failures_.FailItem(item, first);
      return false;
    }
    return true;
  }

  // One pass of a driver over n blocks; the pass's lowest failing block is rethrown.
  void RunPass(std::size_t first, std::size_t n, std::uint64_t units,
               const std::function<void(std::size_t, void*)>& body) {
    std::vector<std::exception_ptr> pass_errors(n);
    std::atomic<std::size_t> lowest{n};
    const auto run_range = [&](std::size_t begin, std::size_t end) {
      ReleaseWarmUps();
      const RunningIn running_block(&arena_);
      void* mine = scratch_.local().get();
      for (std::size_t b = begin; b != end; ++b) {
        if (b > lowest.load(std::memory_order_relaxed) || failures_.Skipped(first)) continue;
        try {
          schedule_.ThrowIfCancelled();
          body(b, mine);
          schedule_.AddProgress(units);
        } catch (...) {
          pass_errors[b] = std::current_exception();
          std::size_t seen = lowest.load();
          while (b < seen && !lowest.compare_exchange_weak(seen, b)) {
          }
        }
      }
    };
    if (n == 1) {
      run_range(0, 1);
    } else if (n > 1) {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, n, 1),
          [&](const tbb::blocked_range<std::size_t>& r) { run_range(r.begin(), r.end()); },
          tbb::simple_partitioner());
    }
    if (lowest.load() < n) std::rethrow_exception(pass_errors[lowest.load()]);
  }

  // Blocks [begin, end) of the item (its first flat number `first`), with this thread's scratch.
  void RunBlocks(std::size_t item, std::size_t slot, std::size_t first, std::size_t begin, std::size_t end) {
    ReleaseWarmUps();
    const RunningIn running_block(&arena_);
    void* mine = scratch_.local().get();
    for (std::size_t b = begin; b != end; ++b) {
      if (failures_.Skipped(first + b)) continue;
      try {
        schedule_.ThrowIfCancelled();
        st_.block(item, b, slot, mine);
        schedule_.AddProgress(st_.units_per_block);
      } catch (...) {
        failures_.FailItem(item, first + b);
      }
    }
  }

  Schedule& schedule_;
  tbb::task_arena& arena_;
  const PipelineStages& st_;
  std::size_t in_flight_;
  PipelineFailures& failures_;
  ThreadScratch& scratch_;
};

}  // namespace

void Schedule::RunPipeline(const PipelineStages& st) {
  const std::size_t n_items = st.n_items;
  const std::size_t per_item = st.blocks_per_item;
  if (n_items == 0 || per_item == 0) return;
  const std::size_t in_flight = max_in_flight();
  PipelineFailures failures(n_items, n_items * per_item);
  ThreadScratch scratch([&]() -> std::shared_ptr<void> { return st.make_scratch ? st.make_scratch() : nullptr; });
  PipelineItems work(*this, impl_->arena, st, in_flight, failures, scratch);

  // One node runs an item (PipelineItems::Run), a serial one delivers the items in order.
  using ItemNode = tbb::flow::multifunction_node<std::size_t, std::tuple<std::size_t>>;
  using DeliverNode = tbb::flow::multifunction_node<std::size_t, std::tuple<tbb::flow::continue_msg>>;
  impl_->arena.execute([&] {
    tbb::flow::graph g;
    // Items enter in order, at most in_flight of them between prepare and deliver.
    tbb::flow::queue_node<std::size_t> items(g);
    tbb::flow::limiter_node<std::size_t> admit(g, in_flight);
    ItemNode run(g, tbb::flow::unlimited, [&](const std::size_t& item, ItemNode::output_ports_type& out) {
      ReleaseWarmUps();
      const RunningIn running(&impl_->arena);
      if (work.Run(item)) std::get<0>(out).try_put(item);
    });
    tbb::flow::sequencer_node<std::size_t> in_order(g, [](const std::size_t& item) { return item; });
    DeliverNode deliver(g, tbb::flow::serial, [&](const std::size_t& item, DeliverNode::output_ports_type& out) {
      const RunningIn running(&impl_->arena);
      if (work.Deliver(item)) std::get<0>(out).try_put(tbb::flow::continue_msg());
    });
    tbb::flow::make_edge(items, admit);
    tbb::flow::make_edge(admit, run);
    tbb::flow::make_edge(tbb::flow::output_port<0>(run), in_order);
    tbb::flow::make_edge(in_order, deliver);
    tbb::flow::make_edge(tbb::flow::output_port<0>(deliver), admit.decrementer());
    for (std::size_t i = 0; i < n_items; ++i) items.try_put(i);
    g.wait_for_all();
  });
  failures.RethrowFirst();
}

}}}  // namespace perfshap::detail
