// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Path-dependent TreeSHAP of one tree by quadrature over the tree itself (quadrature_treeshap.cpp
// derives it): O(nodes x D / 2) per row, where the leaf-path algorithm (treeshap.cpp) costs
// O(leaves x D) with its pattern tables and O(leaves x D^2) without them.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "perfshap/blocks/trees.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/treeshap.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** A tree prepared for QuadratureTreeShap: what does not depend on the row. */
struct QuadratureTree {
  const Tree* tree = nullptr;
  /** Nodes of the Gauss-Legendre rule: ceil(D / 2), D the most distinct features on a path. */
  int n = 0;
  /** The tree's depth (Tree::depth). */
  int depth = 0;
  /** The rule's weights (n). */
  std::vector<double> weights;
  /** Leaf values times the ensemble's tree_scale (width per node, as Tree::value). */
  std::vector<double> values;
  /** Per node c (not the root), for the element of its parent's split feature as it enters c:
   *  its zero fraction (merged with the same feature's earlier splits on the path), whether an
   *  earlier split on the path has the feature, the multipliers of the running product
   *  (3 x n: the element followed after followed, not followed after followed, not followed
   *  after not followed; a first split's: followed, not followed) and the inverses of its factor
   *  g (2 x n: followed, not followed; 0 where g is 0). */
  std::vector<double> zero;
  std::vector<std::uint8_t> repeat;
  std::vector<double> multiplier;
  std::vector<double> inverse;
};

/** @brief Whether QuadratureTreeShap takes the tree: paths of at most 63 distinct features and a
 *  depth of at most kMaxQuadratureDepth (deeper trees take the leaf-path algorithm, which walks
 *  no recursion). */
inline constexpr int kMaxQuadratureDepth = 128;

/** @brief The tree prepared, or n == 0 when it is not taken (see kMaxQuadratureDepth). Needs the
 *  covers (an internal node without any is refused by BuildPaths first). */
QuadratureTree PrepareQuadratureTree(const Tree& tree, double tree_scale);

/** @brief Scratch of QuadratureTreeShapLanes for trees up to `depth` levels with rules of n
 *  nodes: per level, every lane's running products, leaf sums and hidden sums (n x lanes each). */
struct QuadratureScratch {
  std::vector<double> products;
  std::vector<double> sums;
  std::vector<double> hidden;
  std::vector<std::int32_t> element_of;  // per feature: the path level of its element, -1 if none
  std::vector<std::uint8_t> followed;    // per level and lane: whether the row follows its element
  std::vector<std::uint8_t> hidden_set;  // per level: whether `hidden` holds a value
  void Reserve(int depth, int n, std::size_t n_features);
};

/** @brief Rows QuadratureTreeShapLanes walks a tree with at once. */
inline constexpr std::size_t kQuadratureLanes = 8;

/**
 * @brief Adds the path-dependent SHAP values of one tree's value column `column` (0 for a tree of
 * one value per leaf) for kQuadratureLanes rows at once: rows[l] is lane l's row (row[feature],
 * rounded to float for kLessFloat already), outs[l] where its values of that output go
 * (outs[l][feature]).
 */
template <SplitRule R>
void QuadratureTreeShapLanes(const QuadratureTree& q, const double* const* rows, QuadratureScratch& scratch,
                             double* const* outs, std::size_t column);

/** @brief Which algorithm path-dependent TreeSHAP runs per tree. */
enum class TreeShapAlgorithm {
  /** The leaf paths where every path of the tree keeps a pattern table, else quadrature. */
  kAuto,
  /** The leaf paths everywhere: the plain reference. */
  kLeafPaths,
  /** Quadrature for every tree it takes. */
  kQuadrature,
};

/** @brief TreeShap(model, x, execution) by the algorithm named (treeshap.cpp), for the tests and
 *  benchmarks that compare them. */
std::vector<double> TreeShapUsing(const TreeEnsemble& model, const FeatureColumns& x,
                                  TreeShapAlgorithm algorithm, const ExecutionOptions& execution);

}}}  // namespace perfshap::detail
