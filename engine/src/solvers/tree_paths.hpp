// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The leaf paths of a tree ensemble, as TreeSHAP (treeshap.cpp, where the algorithm is derived)
// and the per-tree explanations of AXOM (explain/axom.cpp) read them: every leaf's path merged
// to one element per distinct feature (the interval of values that follows all its splits on
// that feature, whether a missing value follows them, the product z of their cover fractions).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** Distinct features a path may hold (its bit patterns are one 64-bit word, its Shapley weights
 *  ShapleyWeight's). */
inline constexpr int kMaxPathFeatures = 63;

/** The leaf paths of an ensemble, trees in order and each tree's leaves depth first. Element
 *  arrays are indexed by elem_begin[p] + e; tree t's paths are [tree_begin[t], tree_begin[t + 1]). */
struct PathSet {
  SplitRule rule = SplitRule::kLessEqual;
  std::size_t n_features = 0;
  std::size_t n_outputs = 0;
  std::vector<std::uint32_t> tree_begin{0};
  std::vector<std::uint32_t> elem_begin{0};
  std::vector<std::uint32_t> output;
  std::vector<std::uint32_t> width;
  std::vector<std::uint32_t> value_begin;
  /** Leaf values, times the ensemble's tree_scale when the paths were built with it. */
  std::vector<double> values;
  std::vector<std::int32_t> feature;
  std::vector<double> lo;
  std::vector<double> hi;
  std::vector<std::uint8_t> missing_ok;
  std::vector<double> zero;
  int max_elements = 0;

  std::size_t n_paths() const noexcept { return output.size(); }
  int elements(std::size_t p) const noexcept { return static_cast<int>(elem_begin[p + 1] - elem_begin[p]); }
};

/**
 * @brief The paths of `model`. need_covers: path-dependent TreeSHAP's zero fractions (an
 * internal node without cover is then an InvalidArgument naming it); scaled: leaf values times
 * tree_scale (the ensemble's margin) or as the trees hold them (each tree's own output).
 * @throws InvalidArgument for a path with more than kMaxPathFeatures distinct features.
 */
PathSet BuildPaths(const TreeEnsemble& model, bool need_covers, bool scaled = true);

/** Whether value x (already rounded to float for kLessFloat) follows element e. */
template <SplitRule R>
inline bool Follows(const PathSet& s, std::size_t e, double x) noexcept {
  if (std::isnan(x)) return s.missing_ok[e] != 0;
  // An infinite bound is no bound (an input rounded to float may itself be infinite).
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if constexpr (R == SplitRule::kLessEqual) {
    return (s.lo[e] == -kInf || x > s.lo[e]) && x <= s.hi[e];
  } else {
    return x >= s.lo[e] && (s.hi[e] == kInf || x < s.hi[e]);
  }
}

/** The bit pattern of a row (row[feature]) on the d elements of a path starting at `begin`. */
template <SplitRule R>
inline std::uint64_t Pattern(const PathSet& s, std::size_t begin, int d, const double* row) noexcept {
  std::uint64_t bits = 0;
  for (int e = 0; e < d; ++e) {
    const std::size_t k = begin + static_cast<std::size_t>(e);
    bits |= static_cast<std::uint64_t>(Follows<R>(s, k, row[s.feature[k]])) << e;
  }
  return bits;
}

/** w(s, D) = s! (D - 1 - s)! / D!: ShapleyWeights()[D][s], D = 1..kMaxPathFeatures. */
const std::vector<std::vector<double>>& ShapleyWeights();

/**
 * @brief The Shapley weights W_e of a path of d elements with zero fractions z for the bit
 * pattern `bits` (treeshap.cpp derives them). q needs d + 1 values of scratch.
 */
void PathWeights(int d, const double* z, std::uint64_t bits, double* q, double* out) noexcept;

/**
 * @brief Path-dependent TreeSHAP of one tree for one row: adds weight x phi_t(row) to
 * out[o * n_features + j] (outputs x features, no base value). `row` is row-major, rounded to
 * float already under kLessFloat. q and w: kMaxPathFeatures + 1 values of scratch each.
 */
void AddTreeShap(const PathSet& s, std::size_t tree, const double* row, double weight, double* q, double* w,
                 double* out) noexcept;

}}}  // namespace perfshap::detail
