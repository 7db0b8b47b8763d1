// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/game.hpp"
#include "perfshap/blocks/game_settings.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/dataset.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief What XperGame needs from XperOptions, with the permutation resolved. */
struct XperGameSettings {
  /** The metric (registered, with an XPER statistic); must outlive the game. */
  const MetricDefinition* metric = nullptr;
  double cfp = 1.0;
  double cfn = 1.0;
  double threshold = 0.5;
  XperComparator comparator = XperComparator::kPermuted;
  /** pi for kPermuted: n indices, a permutation of 0..n-1 (checked). */
  std::vector<std::size_t> permutation;
  bool use_additive_terms = true;
  /** The players as groups of the sample's columns; empty = one player per column. */
  std::vector<Player> players;
};

/**
 * @brief The statistic of individual i (label y) over its hybrid predictions f: the sum of squared
 * or absolute errors, or the number of predictions > settings.threshold (the 0/1 metrics).
 */
double XperRowStatistic(const XperGameSettings& settings, double y, std::span<const double> f);

/**
 * @brief XPER as a vector game (paper section 3, estimator of v_i(S) and v(S)).
 *
 * Players are the sample's columns, or groups of them (settings.players): a coalition S of
 * players keeps x_i on every column of its players. Outputs: n + 1 values, out[0] = v(S) =
 * mean_i v_i(S) and out[1 + i] = v_i(S) with
 * v_i(S) = (1/n) sum_u G(y_i; f(z_iu); delta), z_iu = (x_i on S, x_u off S). One
 * evaluation yields the global and every individual value, so one ExactSolver pass gives
 * every phi_j and every phi_ij.
 *
 * Two ways to the hybrid predictions f(z_iu):
 * - additive fast path (Model::AdditiveTerms): per coalition a_i = intercept + sum_{j in S}
 *   term_j(x_ij) and b_u = sum_{j not in S} term_j(x_uj), index(z_iu) = a_i + b_u; no model
 *   call. The other metrics apply the link to the index; the AUC compares the indices
 *   themselves. The link is monotone, so this is the probabilities' order, with one
 *   difference: a link evaluated in double can map two distinct indices to the same
 *   probability (saturation, p = 1.0 above index ~8.3 for probit and ~37 for logit, or two
 *   indices within an ulp), where comparing probabilities would invent ties. Identical
 *   hybrid points get bit-identical indices (same sums in the same order), so the real ties of
 *   the definition (z_iu = w_k when i = k and u = pi(k), rows with equal values) are kept.
 *   On the reference case (refs/xper, where the package compares probabilities) both give
 *   the package's numbers to 6e-16; the generic path compares Predict's probabilities.
 * - generic path: the n x n hybrid grid is built column-major in row blocks in the worker's
 *   scratch and sent to Model::Predict in batches (trees and other models plug in here).
 *
 * A worker computes each coalition from scratch (no state carried between coalitions), so
 * v(S) does not depend on the visiting order or on the thread count.
 */
class XperGame final : public Game {
 public:
  /**
   * @param model kept by reference: it must outlive the game and its workers.
   * @throws InvalidArgument, DataError as ExplainXper documents.
   */
  XperGame(const Model& model, const Dataset& sample, XperGameSettings settings);

  int n_players() const override { return static_cast<int>(names_.size()); }
  std::size_t n_outputs() const override { return n_ + 1; }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  std::vector<std::string> player_names() const override { return names_; }
  /** @brief At most 64 blocks (each coalition is O(n^2) work), partial sums ((2p + 1)(n + 1)
   *  doubles per block) under 256 MB for large samples. */
  BlockHint block_hint() const override { return {1, 64, std::uint64_t{256} << 20}; }

  std::size_t n_rows() const noexcept { return n_; }
  /** @brief True when the additive fast path is used. */
  bool additive() const noexcept { return additive_; }
  const XperGameSettings& settings() const noexcept { return settings_; }
  const Model& model() const noexcept { return model_; }
  /** The sample's columns (the model's features), column-major p x n, and each one's player. */
  std::size_t n_columns() const noexcept { return p_; }
  const std::vector<double>& columns() const noexcept { return x_; }
  const std::vector<int>& column_player() const noexcept { return player_of_; }
  /** The labels, and 1 where a label is the positive class (classification metrics). */
  const std::vector<double>& labels() const noexcept { return y_; }
  const std::vector<std::uint8_t>& positive() const noexcept { return positive_; }
  std::size_t n_positive() const noexcept { return n_pos_; }
  /**
   * @brief Every metric but AUC: out[1 + i] = G_i from row i's statistic stat[i] (over n
   * hybrid points: XperRowStatistic, scaled to n points when another number was drawn), out[0]
   * their mean.
   * @param delta_count precision's n delta(S): the comparison points classified positive, as a
   *   count out of n (unused by the other metrics).
   */
  void Terms(std::span<const double> stat, double delta_count, std::span<double> out) const;

 private:
  friend class XperWorker;
  const Model& model_;
  XperGameSettings settings_;
  std::size_t n_ = 0;
  /** Columns of the sample (the model's features), and the player of each. */
  std::size_t p_ = 0;
  std::vector<int> player_of_;
  std::vector<std::string> names_;
  /** Sample features, column-major p x n. */
  std::vector<double> x_;
  std::vector<double> y_;
  std::vector<std::uint8_t> positive_;
  std::size_t n_pos_ = 0;
  /** var(y), ddof 0 (R2). */
  double var_y_ = 0.0;
  bool additive_ = false;
  double intercept_ = 0.0;
  Link link_ = Link::kIdentity;
  /** Per-feature additive terms, column-major p x n (fast path only). */
  std::vector<double> terms_;
};

}}}  // namespace perfshap::detail
