// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A surrogate of a game for the kernel solver's control variate: gradient-boosted regression
// trees on the players' indicators (z_i = 1 when player i is in the coalition), fitted to
// weighted samples of v(S), whose own Shapley values are exact and cheap. A leaf reached when
// the players A are in and the players B are out is the game u(S) = 1{A in S, B out of S}, with
// Shapley values
//     phi_i(u) =  (|A| - 1)! |B|! / (|A| + |B|)!   for i in A,
//     phi_i(u) = -|A|! (|B| - 1)! / (|A| + |B|)!   for i in B,   0 otherwise,
// so a tree's values are its leaves' values times these, summed (Witter et al. 2025 use
// XGBoost and TreeSHAP for the same purpose; a tree over 0/1 indicators needs no more).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief How the trees are grown. The defaults (200 trees of depth 10, shrinkage 0.1, leaves
 *  of 5 samples or more) were chosen on bench/run_sampled_bench.sh's games: depth 4 leaves
 *  4 times the error on breast_cancer's 30-feature retraining game, depth 12 overfits. */
struct CoalitionTreeOptions {
  int trees = 200;
  int depth = 10;
  double learning_rate = 0.1;
  /** A split leaves at least this many samples on each side. */
  std::size_t min_leaf = 5;
};

/**
 * @brief A boosted tree ensemble g over coalitions of n players (any n): Fit, then Predict(S)
 * and Shapley() (the exact Shapley values of the game S -> g(S)).
 *
 * Fitting is least-squares boosting: each tree splits on the player whose membership most
 * reduces the weighted squared residual (exhaustively, over every player, at every node), its
 * leaves take the weighted mean residual times the shrinkage. Deterministic: the same samples
 * in the same order give the same trees. Nothing here is parallel.
 */
class CoalitionTrees {
 public:
  /**
   * @param n players.
   * @param coalitions m coalitions, CoalitionWords(n) words each, row-major.
   * @param y m targets.
   * @param w m weights > 0.
   */
  void Fit(int n, std::span<const std::uint64_t> coalitions, std::span<const double> y, std::span<const double> w,
           const CoalitionTreeOptions& options);
  /** @brief g(S) for a coalition of CoalitionWords(n) words. */
  double Predict(std::span<const std::uint64_t> words) const;
  /** @brief The Shapley values of S -> g(S), n of them (sum = g(N) - g(empty)). */
  std::vector<double> Shapley() const;
  /** @brief g at the samples Fit took, in their order (what Predict would give, without the
   *  walk down the trees). */
  const std::vector<double>& fitted() const noexcept { return fitted_; }

 private:
  struct NodeSums;
  struct Node {
    int player = -1;   // split on this player's membership; -1: a leaf
    int in = -1;       // child when the player is in (else the next node)
    int out = -1;      // child when the player is out
    double value = 0;  // leaf value
  };
  int n_ = 0;
  std::size_t words_ = 0;
  std::vector<Node> nodes_;           // every tree's nodes, each tree's root first
  std::vector<std::size_t> roots_;
  std::vector<double> fitted_;
};

}}}  // namespace perfshap::detail
