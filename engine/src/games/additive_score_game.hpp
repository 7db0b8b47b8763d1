// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/game.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief Performance of an additive score restricted to a coalition: the score of row r
 * under S is intercept + sum_{j in S} contribution[j][r]; v(S) = (AUC_S - 0.5,
 * accuracy_S) with the class 1{score > 0}. The empty coalition is the constant score
 * (AUC 0.5). The worker keeps the running score and updates one column per Gray-code step.
 * Used by `perfshap demo` and the solver benchmarks.
 */
class AdditiveScoreGame final : public Game {
 public:
  AdditiveScoreGame(std::vector<std::string> names, std::vector<std::vector<double>> contributions,
                    double intercept, std::vector<double> label);
  int n_players() const override { return static_cast<int>(names_.size()); }
  std::size_t n_outputs() const override { return 2; }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  std::vector<std::string> player_names() const override { return names_; }

  static std::vector<std::string> OutputNames() { return {"auc_minus_half", "accuracy"}; }

 private:
  friend class AdditiveScoreWorker;
  std::vector<std::string> names_;
  std::vector<std::vector<double>> contributions_;
  double intercept_;
  std::vector<double> label_;
};

}}}  // namespace perfshap::detail
