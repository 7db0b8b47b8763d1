// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Trees thousands of levels deep (issue 20): a CART tree grown on an id column, or any tree a
// model file holds, is walked without recursion, so that TreeSHAP (path-dependent and
// interventional), prediction and the ensemble's checks run in a thread with a small stack.
// The threads here are plain pthreads with a set stack size, made only to prove that point
// (the engine's own parallel work goes through schedule/).
#include <gtest/gtest.h>
#include <pthread.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/treeshap.hpp"
#include "support/tree_reference.hpp"

namespace perfshap { inline namespace v0 {
namespace {

constexpr std::size_t kSmallStack = std::size_t{1} << 20;  // 1 MB

/** Runs fn in a new thread with a stack of `bytes`; rethrows what it threw. */
void RunOnStack(std::size_t bytes, const std::function<void()>& fn) {
  struct Box {
    const std::function<void()>* fn;
    std::exception_ptr error;
  } box{&fn, nullptr};
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, bytes), 0);
  pthread_t thread;
  const int created = pthread_create(
      &thread, &attr,
      [](void* p) -> void* {
        auto* b = static_cast<Box*>(p);
        try {
          (*b->fn)();
        } catch (...) {
          b->error = std::current_exception();
        }
        return nullptr;
      },
      &box);
  pthread_attr_destroy(&attr);
  ASSERT_EQ(created, 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  if (box.error) std::rethrow_exception(box.error);
}

/**
 * A chain `depth` splits deep: internal node k splits on feature k % n_features at a threshold
 * on the grid -3..3, sends the left side to a leaf and the right side on down (the last right
 * side is a leaf too). Covers count the rows of a chain that peels one row off per level.
 */
std::vector<Tree> ChainTree(int depth, std::size_t n_features) {
  Tree t;
  std::vector<std::int32_t> internal;
  const double values[1] = {0.0};
  for (int k = 0; k < depth; ++k) {
    const auto f = static_cast<std::int32_t>(static_cast<std::size_t>(k) % n_features);
    const double threshold = static_cast<double>((k * 5) % 7) - 3.0;
    internal.push_back(t.AddNode(f, threshold, k % 3 == 0, static_cast<double>(depth - k + 1), values));
  }
  for (int k = 0; k < depth; ++k) {
    const double leaf[1] = {std::sin(0.7 * k) + 0.25};
    const std::int32_t left = t.AddNode(-1, 0.0, false, 1.0, leaf);
    t.left[static_cast<std::size_t>(internal[static_cast<std::size_t>(k)])] = left;
    std::int32_t right;
    if (k + 1 < depth) {
      right = internal[static_cast<std::size_t>(k + 1)];
    } else {
      const double last[1] = {-0.5};
      right = t.AddNode(-1, 0.0, false, 1.0, last);
    }
    t.right[static_cast<std::size_t>(internal[static_cast<std::size_t>(k)])] = right;
  }
  return {t};
}

TreeEnsembleInfo ChainInfo(std::size_t n_features) {
  TreeEnsembleInfo info;
  info.n_features = n_features;
  info.base_margin = {0.125};
  return info;
}

/** Checks that every row's values add up to its margin; returns the largest gap. */
double AdditivityGap(const TreeEnsemble& model, const std::vector<double>& x, std::size_t n,
                     const std::vector<double>& phi) {
  const std::size_t F = model.n_features();
  std::vector<double> margin(n);
  model.PredictMargin(x, n, margin);
  double gap = 0.0;
  for (std::size_t r = 0; r < n; ++r) {
    const double sum = std::accumulate(phi.begin() + static_cast<std::ptrdiff_t>(r * (F + 1)),
                                       phi.begin() + static_cast<std::ptrdiff_t>((r + 1) * (F + 1)), 0.0);
    gap = std::max(gap, std::fabs(sum - margin[r]) / std::max(1.0, std::fabs(margin[r])));
  }
  return gap;
}

// The recursive algorithm (the tests' reference, O(L D^2)) can still take a chain 300 deep on
// the test's own stack: the walk by an explicit stack gives its values, repeated splits on one
// feature merged.
TEST(DeepTrees, ChainEqualsTheRecursiveAlgorithm) {
  const std::size_t F = 3;
  const auto model = std::make_shared<const TreeEnsemble>(ChainTree(300, F), ChainInfo(F));
  EXPECT_EQ(model->max_depth(), 300);
  const std::size_t n = 12;
  const auto x = testing::RandomRows(F, n, 0.1, 3);
  const auto phi = TreeShap(*model, x, n);
  for (std::size_t r = 0; r < n; ++r) {
    const auto recursive = testing::RecursiveTreeShap(*model, testing::RowOf(x, F, n, r));
    for (std::size_t j = 0; j <= F; ++j)
      EXPECT_NEAR(phi[r * (F + 1) + j], recursive[j], 1e-12) << "row " << r << " feature " << j;
  }
}

// The case: a depth-5,000 tree in a thread with a 1 MB stack; and one ten times deeper.
TEST(DeepTrees, ExplainedInAThreadWithAOneMegabyteStack) {
  for (const int depth : {5000, 50000}) {
    SCOPED_TRACE("depth " + std::to_string(depth));
    const std::size_t F = 4;
    const std::size_t n = 40;
    const auto x = testing::RandomRows(F, n, 0.05, 7);
    const auto background = testing::RandomRows(F, 16, 0.0, 8);
    std::vector<double> path, interventional;
    int max_depth = 0;
    std::shared_ptr<const TreeEnsemble> model;
    RunOnStack(kSmallStack, [&] {
      model = std::make_shared<const TreeEnsemble>(ChainTree(depth, F), ChainInfo(F));
      max_depth = model->max_depth();
      ExecutionOptions one;
      one.threads = 1;  // the work stays on this thread
      path = TreeShap(*model, x, n, one);
      interventional = InterventionalTreeShap(*model, x, n, background, 16, one);
    });
    ASSERT_TRUE(model);
    EXPECT_EQ(max_depth, depth);
    ASSERT_EQ(path.size(), n * (F + 1));
    EXPECT_LE(AdditivityGap(*model, x, n, path), 1e-9);
    EXPECT_LE(AdditivityGap(*model, x, n, interventional), 1e-9);
    // Bitwise the same at four threads.
    ExecutionOptions four;
    four.threads = 4;
    EXPECT_EQ(TreeShap(*model, x, n, four), path);
  }
}

// A CART tree grown on an id column whose label is id % 2 splits off a row or two per level:
// thousands of levels, trained and explained in a thread with a 1 MB stack (the recursive
// walk overflowed it).
TEST(DeepTrees, CartTreeOnAnIdColumnTrainsAndExplainsOnASmallStack) {
  const std::size_t n = 6000;  // 20,000 rows give some 10,000 levels; 6,000 over 5,000, in 2 s
  std::vector<double> id(n), noise_a(n), noise_b(n), label(n);
  for (std::size_t i = 0; i < n; ++i) {
    // Noise that says nothing of the parity: a multiplicative hash's high bits, as
    // tests/cli/test_cli_tree_hardening.cpp writes them.
    const auto h = static_cast<std::uint32_t>(static_cast<std::uint32_t>(i) * 2654435761U);
    id[i] = static_cast<double>(i);
    noise_a[i] = static_cast<double>((h >> 20) % 1000);
    noise_b[i] = static_cast<double>((h >> 12) % 7);
    label[i] = static_cast<double>(i % 2);
  }
  const Dataset data({"id", "a", "b"}, {id, noise_a, noise_b}, label);
  std::vector<std::size_t> rows(n);
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  const std::vector<std::size_t> columns{0, 1, 2};
  const std::size_t explained = 500;
  std::vector<double> x(3 * explained);
  for (std::size_t j = 0; j < 3; ++j)
    for (std::size_t r = 0; r < explained; ++r) x[j * explained + r] = data.column(j)[r * (n / explained)];
  std::shared_ptr<const TreeEnsemble> model;
  std::vector<double> phi;
  RunOnStack(kSmallStack, [&] {
    model = FitTree(TreeOptions{}, data, rows, columns);  // classification: leaves hold P(label = 1)
    ExecutionOptions one;
    one.threads = 1;
    phi = TreeShap(*model, x, explained, one);
  });
  ASSERT_TRUE(model);
  EXPECT_GE(model->max_depth(), 5000) << "the tree is not deep: the test proves nothing";
  EXPECT_LE(AdditivityGap(*model, x, explained, phi), 1e-9);
}

}  // namespace
}}  // namespace perfshap
