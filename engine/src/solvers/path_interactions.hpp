// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The pairwise interactions of one leaf path's product game (tree_paths.hpp), which
// tree_interactions.cpp sums into SHAP interaction values and derives.

#include <cstdint>

#include "solvers/tree_paths.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** Most nodes of a Gauss-Legendre rule: ceil(kMaxPathFeatures / 2). */
inline constexpr int kMaxQuadratureNodes = (kMaxPathFeatures + 1) / 2;

/** An n-node Gauss-Legendre rule on [0, 1]: sum_k w[k] p(t[k]) = integral_0^1 p for every
 *  polynomial p of degree up to 2n - 1. */
struct QuadratureRule {
  const double* t;
  const double* w;
  int n;
};

/** The rule of n nodes, n = 1..kMaxQuadratureNodes (computed once). */
QuadratureRule GaussLegendre01(int n);

/** Scratch of PathInteractions (about 17 KB: a thread's, not the stack of a deep call). */
struct PathInteractionScratch {
  double inverse[kMaxPathFeatures * kMaxQuadratureNodes];
  double p0[kMaxQuadratureNodes];
  double p1[kMaxQuadratureNodes];
  double p2[kMaxQuadratureNodes];
  int hot[kMaxPathFeatures];
  int cold[kMaxPathFeatures];
};

/**
 * @brief The Shapley weights `w` (d values, as PathWeights) and the pairwise interactions
 * `inter` (d x d, row-major, symmetric, diagonal 0) of the product game of a path of d elements
 * with zero fractions z for the bit pattern `bits`: inter[i * d + j] is half the Shapley
 * interaction index of elements i and j per unit of leaf value. By Gauss-Legendre quadrature,
 * O(d^2) (tree_interactions.cpp derives it).
 */
void PathInteractions(int d, const double* z, std::uint64_t bits, PathInteractionScratch& scratch, double* w,
                      double* inter) noexcept;

/**
 * @brief The same interactions by conditioning, as Lundberg et al. 2020 define them and XGBoost
 * computes them: inter[i * d + j] = (o_j - z_j) / 2 x W_i of the path without element j (the
 * game with j always in minus the game with j always out, halved), each by PathWeights: O(d^3),
 * the plain reference PathInteractions is tested against.
 */
void PathInteractionsByConditioning(int d, const double* z, std::uint64_t bits, double* inter) noexcept;

}}}  // namespace perfshap::detail
