// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the linear-index learners (logistic and probit by Newton, least squares) share: the
// split's columns gathered and transformed, and a fitter base that scores the test rows and
// hands out the model from coefficients in the transformed space.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "models/split_base.hpp"
#include "perfshap/blocks/model.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief A split gathered for a linear-index learner: the players' training and test values in
 * contiguous column-major blocks (position q's training values at train()[q * n_train ...]),
 * transformed as t = (x - center_q) / scale_q with the training rows' mean and ddof-0 standard
 * deviation (centring only, or nothing, as asked); columns constant on the training rows keep
 * scale 1 (as sklearn's StandardScaler) and are marked constant: they are left out of every fit
 * (coefficient 0, which is the optimum of the L2 logistic objective and the minimum-norm least
 * squares solution). A player all of whose columns are constant is an error.
 */
class GlmSplit : public SplitBase {
 public:
  std::span<const double> train() const noexcept { return train_; }
  std::span<const double> test() const noexcept { return test_; }
  std::span<const double> center() const noexcept { return center_; }
  std::span<const double> scale() const noexcept { return scale_; }
  /** @brief sum_i |t_iq| over the training rows: the scale of the Newton gradient entries. */
  std::span<const double> abs_sum() const noexcept { return abs_sum_; }
  /** @brief constant()[q] != 0: position q is constant on the training rows (never fitted). */
  std::span<const std::uint8_t> constant() const noexcept { return constant_; }
  Link link() const noexcept { return link_; }
  bool classifier() const noexcept { return classifier_; }

 protected:
  /**
   * @brief InitCommon, then gathers and transforms the columns.
   * @param standardize divide by the standard deviation (after centring).
   * @param centre subtract the training mean (always when standardize).
   */
  void Gather(const std::string& learner, Link link, bool classifier, const Dataset& data,
              std::span<const Player> players, std::span<const std::size_t> train_rows,
              std::span<const std::size_t> test_rows, const std::string& split_name, bool standardize, bool centre);

  Link link_ = Link::kIdentity;
  // Position q, not constant, of extreme magnitude `largest` (ExtremeMagnitude) on the training
  // rows: its standardisation computed on the column scaled by a power of two (exact), into
  // center_[q], scale_[q] and the transformed training (tr) and test (te) values.
  void StandardizeScaled(std::size_t q, double largest, double* tr, double* te, std::size_t n_test);
  // DataError: position q's values (largest magnitude `largest`) cannot be fitted unscaled.
  [[noreturn]] void ThrowExtreme(std::size_t q, double largest) const;

  bool classifier_ = false;
  std::vector<double> train_;
  std::vector<double> test_;
  std::vector<double> center_;
  std::vector<double> scale_;
  std::vector<double> abs_sum_;
  std::vector<std::uint8_t> constant_;
};

/**
 * @brief A fitter of a GlmSplit: coefficients in the transformed space (intercept_, coef_[q]
 * per position, kept for positions outside the coalition too: 0 once dropped, the warm
 * start), the test index and the model.
 */
class GlmFitterBase : public FitterBase {
 public:
  void Reset() noexcept override;
  void ScoreTest(std::span<double> out, ScoreScale scale) override;
  std::unique_ptr<Model> MakeModel() const override;

 protected:
  /** @brief BindBase and sizes the coefficients. */
  void BindGlm(const GlmSplit& split);
  /** @brief SetCoalition (constant positions left out); positions that left it restart at 0. */
  void StartFit(std::span<const std::uint32_t> players);
  /** @brief out[r] = sum_{q in members} coef_q t_rq (in order, from 0), then + intercept_. */
  void Index(std::span<double> out) const;

  const GlmSplit* glm_ = nullptr;
  double intercept_ = 0.0;
  std::vector<double> coef_;
};

}}}  // namespace perfshap::detail
