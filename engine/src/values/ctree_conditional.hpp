// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The value functions' conditional inference trees (shapr's "ctree" approach): for a coalition S,
// one tree fitted to the background, the features on S its inputs and those off S its
// multivariate response; the draws for row x are background rows of the leaf x_S falls into,
// equally likely (stratified: draw k takes the leaf's row floor((k + u_k) m / n) of its m rows,
// u_k a common uniform; shapr samples them with replacement). One tree per coalition, cached.
//
// The tree (Hothorn, Hornik and Zeileis 2006; partykit's ctree with shapr's settings): a node of
// at least `minsplit` rows tests each input's independence from the responses h (n x q) by
// Strasser and Weber's permutation test. With g the input's values, the linear statistic
// T = sum_i g_i h_i has, over the permutations of the rows, the mean mu = (sum g) hbar and the
// covariance Sigma = V (n sum g^2 - (sum g)^2) / (n - 1), V = sum (h_i - hbar)(h_i - hbar)^T / n;
// the statistic c = (T - mu)^T Sigma^+ (T - mu) (Moore-Penrose inverse with tolerance
// sqrt(eps) of the largest singular value) is chi-square with rank(V) degrees of freedom. The
// input with the smallest p-value is split when (1 - p)^k > mincriterion, k the number of inputs
// (partykit's "Bonferroni", a Sidak adjustment). Its cut maximises the same statistic of
// g = 1(x <= cut), c = (n - 1) / (n_L n_R) |sum_{left} W (h_i - hbar)|^2 with V^+ = W^T W, over
// the cuts between its distinct values that leave at least max(minbucket, ceil(minprob n)) rows
// on each side; an input with no such cut gives way to the next (splittry inputs in all).

#include <Eigen/Dense>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "values/value_function.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief partykit's ctree_control as shapr calls it. */
struct CtreeSettings {
  double mincriterion = 0.95;
  std::size_t minsplit = 20;
  std::size_t minbucket = 7;
  double minprob = 0.01;
  std::size_t splittry = 2;
};

/** @brief One input's permutation test of independence from the responses. */
struct CtreeTest {
  double statistic = 0.0;          ///< c; 0 for an input or responses without variance
  std::size_t df = 0;              ///< rank of the covariance; 0 when there is nothing to test
  double log_confidence = -1e308;  ///< log P(chi2_df <= c), unadjusted (very negative when df = 0)
};

/**
 * @brief The plain test of one input x (n values) against responses h (n x q), from the
 * formulas above with the Moore-Penrose inverse of Sigma: the reference of the tree's whitened
 * computation.
 */
CtreeTest CtreeIndependenceTest(std::span<const double> x, const Eigen::MatrixXd& h);

/** @brief A cut of one input: left is x <= cut. found is false when no cut leaves minbucket rows a side. */
struct CtreeCut {
  bool found = false;
  double cut = 0.0;
  double statistic = 0.0;
};

/** @brief The plain search for the best cut of x against h (the reference of the tree's). */
CtreeCut CtreeBestCut(std::span<const double> x, const Eigen::MatrixXd& h, std::size_t minbucket);

/** @brief A fitted tree: nodes 0.. (0 the root); a leaf's rows are rows[first, first + count), by index. */
struct CtreeTree {
  struct Node {
    int input = -1;  ///< the feature split on (an index of all F features); -1 for a leaf
    double cut = 0.0;
    int left = -1, right = -1;
    std::uint32_t first = 0, count = 0;
  };
  std::vector<Node> nodes;
  std::vector<std::uint32_t> rows;  ///< background row indices, grouped by leaf
  /** The leaf of a row (F values). */
  const Node& Leaf(std::span<const double> x) const;
};

/**
 * @brief The tree of a coalition fitted to the background (n_rows x F, row r in row r).
 * @param inside inside[j] != 0 for the inputs; the others are the responses.
 */
CtreeTree FitCtree(const Eigen::MatrixXd& background, std::span<const std::uint8_t> inside,
                   const CtreeSettings& settings = {});

class CtreeFeatures final : public ConditionalFeatures {
 public:
  /** @throws InvalidArgument (options(): `background`) for fewer than 2 rows or a value that is not finite.
   */
  CtreeFeatures(ColumnMatrix background, std::size_t n_features, CtreeSettings settings = {});
  std::size_t n_features() const override { return n_features_; }
  std::unique_ptr<CoalitionDraws> Given(std::span<const std::uint8_t> inside, std::span<const double> z,
                                        std::size_t n_draws) const override;

  const Eigen::MatrixXd& rows() const noexcept { return rows_; }
  /** The coalition's tree, fitted on first use and kept (up to kCacheRows row indices in all). */
  std::shared_ptr<const CtreeTree> Tree(std::span<const std::uint8_t> inside) const;

  static constexpr std::size_t kCacheRows = std::size_t{1} << 25;

 private:
  std::size_t n_features_;
  CtreeSettings settings_;
  Eigen::MatrixXd rows_;
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const CtreeTree>> cache_;
  mutable std::size_t cached_rows_ = 0;
};

}}}  // namespace perfshap::detail
