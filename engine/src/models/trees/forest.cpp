// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Random forests: CART trees on bootstrap samples, trained in parallel through the schedule in
// blocks of trees. Tree t draws its bootstrap and then its features from RandomStream(seed, t)
// alone and is written to slot t, so the forest is the same at any thread count.
#include <algorithm>
#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "models/trees/cart.hpp"
#include "perfshap/error.hpp"
#include "schedule/schedule.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

// Trees per block: enough blocks for the threads to share, few enough scratch sets to keep.
constexpr std::size_t kTreesPerBlock = 4;

}  // namespace

void ForestTrainer::Train(const CartData& data, const CartSettings& settings, int n_trees, bool bootstrap,
                          std::uint64_t seed, const ExecutionOptions& execution, std::vector<Tree>& trees) {
  PERFSHAP_DCHECK(n_trees >= 1);
  const auto n = static_cast<std::size_t>(n_trees);
  trees.resize(n);
  const std::size_t n_blocks = (n + kTreesPerBlock - 1) / kTreesPerBlock;
  if (blocks_.size() < n_blocks) blocks_.resize(n_blocks);
  const auto grow_block = [&](std::size_t b) {
    Block& block = blocks_[b];
    const std::size_t end = std::min(n, (b + 1) * kTreesPerBlock);
    for (std::size_t t = b * kTreesPerBlock; t < end; ++t) {
      RandomStream rng(seed, t);
      if (bootstrap) {
        block.weights.assign(data.n_rows, 0.0);
        for (std::size_t k = 0; k < data.n_rows; ++k) block.weights[rng.Below(data.n_rows)] += 1.0;
        block.builder.Grow(data, settings, block.weights, rng, trees[t]);
      } else {
        block.builder.Grow(data, settings, {}, rng, trees[t]);
      }
    }
  };
  if (ResolvedThreads(execution) == 1 || n_blocks == 1) {
    for (std::size_t b = 0; b < n_blocks; ++b) {
      if (execution.cancel != nullptr && execution.cancel->load(std::memory_order_relaxed)) throw Cancelled();
      grow_block(b);
    }
    return;
  }
  Schedule schedule(execution);
  schedule.ForEachBlock(n_blocks, 0, [&](std::size_t b) { grow_block(b); });
}

}}}  // namespace perfshap::detail

namespace perfshap { inline namespace v0 {

std::shared_ptr<const TreeEnsemble> FitForest(const ForestOptions& options, const Dataset& data,
                                              std::span<const std::size_t> rows,
                                              std::span<const std::size_t> columns) {
  const detail::CartSettings settings = detail::CheckTreeOptions(options, true, "forest");
  PERFSHAP_CHECK(options.n_estimators >= 1,
                 "forest option n_estimators must be >= 1, got " + std::to_string(options.n_estimators),
                 {"n_estimators"});
  PERFSHAP_CHECK(options.execution.threads >= 0, "threads must be >= 0 (0 = all cores)", {"threads"});
  const detail::CartTable table = detail::GatherTable(data, rows, columns, options.regression, "forest");
  detail::ForestTrainer trainer;
  std::vector<Tree> trees;
  trainer.Train(table.View(), settings, options.n_estimators, options.bootstrap, options.seed,
                options.execution, trees);
  return std::make_shared<const TreeEnsemble>(
      std::move(trees),
      detail::CartInfo(data, columns, table, settings, static_cast<std::size_t>(options.n_estimators)));
}

}}  // namespace perfshap
