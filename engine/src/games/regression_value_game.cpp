// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/regression_value_game.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "games/prediction_game.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

class RegressionWorker final : public GameWorker {
 public:
  explicit RegressionWorker(const RegressionValueGame& g)
      : g_(g), members_(static_cast<std::size_t>(g.n_players())), scores_(g.split(0).n_test()) {
    for (std::size_t k = 0; k < g.n_model_outputs(); ++k) fitters_.push_back(g.split(k).MakeFitter());
  }

  void Reset() override {
    for (const auto& f : fitters_) f->Reset();
  }

  void Evaluate(Coalition s, std::span<double> out) override {
    std::size_t n = 0;
    for (Coalition rest = s; rest != 0; rest &= rest - 1)
      members_[n++] = static_cast<std::uint32_t>(std::countr_zero(rest));
    EvaluateMembers(std::span<const std::uint32_t>(members_.data(), n), out);
  }

  void EvaluateWide(WideCoalition s, std::span<double> out) override {
    std::size_t n = 0;
    for (std::size_t w = 0; w < s.words.size(); ++w)
      for (std::uint64_t rest = s.words[w]; rest != 0; rest &= rest - 1)
        members_[n++] = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(rest)));
    EvaluateMembers(std::span<const std::uint32_t>(members_.data(), n), out);
  }

 private:
  void EvaluateMembers(std::span<const std::uint32_t> members, std::span<double> out) {
    const std::size_t K = g_.n_model_outputs();
    if (members.size() == static_cast<std::size_t>(g_.n_players())) {
      std::copy(g_.full().begin(), g_.full().end(), out.begin());
      return;
    }
    for (std::size_t k = 0; k < K; ++k) {
      fitters_[k]->Fit(members);
      fitters_[k]->ScoreTest(scores_, ScoreScale::kProbability);
      for (std::size_t r = 0; r < scores_.size(); ++r) {
        if (!std::isfinite(scores_[r]))
          throw DataError(
              "SHAP: the regression of the model's output on the features of a coalition predicts " +
              std::to_string(scores_[r]) + " for explained row " + std::to_string(r) +
              "; use another regression model or the marginal value function");
        out[r * K + k] = scores_[r];
      }
    }
  }

  const RegressionValueGame& g_;
  std::vector<std::unique_ptr<CoalitionFitter>> fitters_;
  std::vector<std::uint32_t> members_;
  std::vector<double> scores_;
};

}  // namespace

RegressionValueGame::RegressionValueGame(const Model& model, ColumnMatrix rows, ColumnMatrix background,
                                         std::vector<Player> players, ShapOutputScale scale,
                                         const Learner& learner)
    : players_(std::move(players)), n_rows_(rows.n_rows), n_model_outputs_(model.n_outputs()) {
  const std::size_t F = model.n_features(), K = n_model_outputs_, nb = background.n_rows, nx = rows.n_rows;
  PERFSHAP_CHECK(rows.values.size() == nx * F && background.values.size() == nb * F,
                 "RegressionValueGame: the rows do not have the model's features");
  if (learner.is_classifier())
    throw InvalidArgument(
        "the regression value function needs a regressor (linear, tree or forest), not " + learner.name(),
        {"regression_model"});
  if (nb < 2)
    throw InvalidArgument(
        "the regression value function needs at least 2 background rows to fit its regressions; give more "
        "background rows",
        {"background"});
  if (!HasScale(model, scale))
    throw InvalidArgument(
        "the model (" + model.Describe() + ") has no margin to explain: explain its predictions instead",
        {"output"});
  // f on the scale: the background's (the regressions' targets) and the explained rows' (v(all)).
  std::vector<double> f_background(K * nb), f_rows(K * nx);
  PredictOnScale(model, scale, background.values, nb, f_background);
  PredictOnScale(model, scale, rows.values, nx, f_rows);
  full_.resize(nx * K);
  for (std::size_t r = 0; r < nx; ++r)
    for (std::size_t k = 0; k < K; ++k) full_[r * K + k] = f_rows[k * nx + r];
  // The background rows then the explained rows, as one data set per output: train and test.
  std::vector<std::string> names(F);
  std::vector<std::vector<double>> columns(F, std::vector<double>(nb + nx));
  for (std::size_t j = 0; j < F; ++j) {
    names[j] = std::string("x").append(std::to_string(j));
    std::copy_n(background.values.begin() + static_cast<std::ptrdiff_t>(j * nb), nb, columns[j].begin());
    std::copy_n(rows.values.begin() + static_cast<std::ptrdiff_t>(j * nx), nx,
                columns[j].begin() + static_cast<std::ptrdiff_t>(nb));
  }
  std::vector<std::size_t> train(nb), test(nx);
  for (std::size_t i = 0; i < nb; ++i) train[i] = i;
  for (std::size_t i = 0; i < nx; ++i) test[i] = nb + i;
  for (std::size_t k = 0; k < K; ++k) {
    std::vector<double> label(nb + nx, 0.0);
    for (std::size_t i = 0; i < nb; ++i) {
      label[i] = f_background[k * nb + i];
      if (!std::isfinite(label[i]))
        throw DataError("SHAP: the model's output for background row " + std::to_string(i) +
                        " is not finite; the regression value function fits to it: check the background");
    }
    const Dataset data(names, columns, std::move(label), "f");
    splits_.push_back(learner.Prepare(data, players_, train, test, "the background rows"));
  }
}

std::unique_ptr<GameWorker> RegressionValueGame::MakeWorker() const {
  return std::make_unique<RegressionWorker>(*this);
}

std::vector<std::string> RegressionValueGame::player_names() const {
  std::vector<std::string> names;
  for (const Player& p : players_) names.push_back(p.name);
  return names;
}

std::shared_ptr<const Learner> RegressionLearner(const std::string& name) {
  if (name == "linear") return MakeLearner("linear");
  if (name == "tree" || name == "forest") return MakeLearner(name, {{"regression", "true"}});
  throw InvalidArgument("the regression model " + name + ": choose linear, tree or forest",
                        {"regression_model"});
}

}}}  // namespace perfshap::detail
