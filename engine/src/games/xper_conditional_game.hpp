// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// XPER under a conditional value function (issue 38): the features off a coalition S are drawn
// given the individual's own values on S (values/value_function.hpp), not taken from the other
// individuals of the sample as they are:
//
//   v_i(S) = (1/M) sum_m G(y_i; f(z_im); delta),  z_im = (x_i on S, draw m of X_notS | X_S = x_iS),
//
// the same individual terms G as XperGame (the statistic over M draws scaled to n points). AUC's
// comparison sample: every drawn point of every individual (comparator full) or one draw an
// individual (permuted). With every feature on S the draw is the row itself, so v(all) is the
// sample's metric as XperGame's; v(empty) is the metric of predictions of draws from the joint
// distribution, the dependence-aware benchmark.
//
// The M draws fall into `groups` groups (draw k in group k mod groups), each an estimate of its
// own with its own comparison sample: output o * groups + g is output o of XperGame (0: v(S),
// 1 + i: v_i(S)) over group g's draws. The groups' Shapley values average to the estimate and
// their spread is its Monte Carlo error (explain/xper.cpp).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "games/draw_block.hpp"
#include "games/xper_game.hpp"
#include "perfshap/blocks/game.hpp"
#include "values/value_function.hpp"

namespace perfshap {
inline namespace v0 {
namespace detail {

class ConditionalXperGame final : public Game {
 public:
  /**
   * @param sample the XPER sample (checked as XperGame checks it; the additive path is not used).
   * @param features the fitted distribution of the sample's columns (must outlive the game).
   * @param samples draws a coalition and individual, at least `groups`; groups at least 2.
   * @param seed the common random numbers' stream.
   * @throws InvalidArgument, DataError as XperGame.
   */
  ConditionalXperGame(const Model& model, const Dataset& sample, XperGameSettings settings,
                      const ConditionalFeatures& features, std::size_t samples, std::size_t groups,
                      std::uint64_t seed);

  int n_players() const override { return xper_.n_players(); }
  std::size_t n_outputs() const override { return (xper_.n_rows() + 1) * groups_; }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  std::vector<std::string> player_names() const override { return xper_.player_names(); }
  BlockHint block_hint() const override { return {1, 64, std::uint64_t{256} << 20}; }

  /** The sample, the metric and the individual terms. */
  const XperGame& xper() const noexcept { return xper_; }
  const ConditionalFeatures& features() const noexcept { return features_; }
  XperComparator comparator() const noexcept { return comparator_; }
  std::size_t samples() const noexcept { return samples_; }
  std::size_t groups() const noexcept { return groups_; }
  /** The common random numbers: samples x columns standard normals, draw-major. */
  const std::vector<double>& normals() const noexcept { return normals_; }
  /** Individuals whose draws one prediction takes. */
  std::size_t row_block() const noexcept { return row_block_; }
  /** The draws predicted so far (DrawBlock's distinct ones, counted by the workers). */
  const DrawCount& draw_count() const noexcept { return draw_count_; }

 private:
  XperGame xper_;
  const ConditionalFeatures& features_;
  XperComparator comparator_;
  std::size_t samples_;
  std::size_t groups_;
  std::size_t row_block_ = 1;
  std::vector<double> normals_;
  DrawCount draw_count_;
};

}  // namespace detail
}  // namespace v0
}  // namespace perfshap
