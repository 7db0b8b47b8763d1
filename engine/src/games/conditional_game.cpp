// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/conditional_game.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "common/allocation.hpp"
#include "games/draw_block.hpp"
#include "games/prediction_game.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

class ConditionalWorker final : public GameWorker {
 public:
  explicit ConditionalWorker(const ConditionalPredictionGame& g) : g_(g), inside_(g.model().n_features()) {}

  void Evaluate(Coalition s, std::span<double> out) override {
    const std::vector<int>& owner = g_.feature_player();
    for (std::size_t j = 0; j < inside_.size(); ++j) inside_[j] = Contains(s, owner[j]) ? 1 : 0;
    EvaluateFeatures(out);
  }

  void EvaluateWide(WideCoalition s, std::span<double> out) override {
    const std::vector<int>& owner = g_.feature_player();
    for (std::size_t j = 0; j < inside_.size(); ++j) inside_[j] = s.contains(owner[j]) ? 1 : 0;
    EvaluateFeatures(out);
  }

 private:
  // v(S) of every explained row, per output and group, for the coalition inside_ flags.
  void EvaluateFeatures(std::span<double> out) {
    const bool all_in = std::all_of(inside_.begin(), inside_.end(), [](std::uint8_t v) { return v != 0; });
    // Every feature on the coalition: the draws are the row itself, one prediction a row.
    const std::size_t draws = all_in ? 1 : g_.samples();
    const std::unique_ptr<CoalitionDraws> conditional = g_.features().Given(inside_, g_.normals(), draws);
    const std::size_t rows = g_.rows().n_rows;
    for (std::size_t first = 0; first < rows; first += g_.row_block())
      Block(*conditional, first, std::min(g_.row_block(), rows - first), draws, out);
    CheckFinite(out);
  }

  // Rows [first, first + here): their draws in one prediction, averaged per group.
  void Block(CoalitionDraws& conditional, std::size_t first, std::size_t here, std::size_t draws,
             std::span<double> out) {
    const std::size_t F = g_.model().n_features();
    const std::size_t K = g_.model().n_outputs();
    const std::size_t G = g_.groups();
    const ColumnMatrix rows = g_.rows();
    const std::size_t m = here * draws;
    if (predictions_.size() < K * m)
      ResizeOrThrow(predictions_, K * m, "the predictions of the conditional draws");
    row_.resize(F);
    one_.resize(F * draws);
    block_.Start(here, draws, F);
    for (std::size_t r = 0; r < here; ++r) {
      for (std::size_t j = 0; j < F; ++j) row_[j] = rows.values[j * rows.n_rows + first + r];
      conditional.Draw(row_, one_);
      block_.Add(one_);
    }
    if (distinct_.size() < K * block_.size())
      ResizeOrThrow(distinct_, K * block_.size(), "the predictions of the conditional draws");
    PredictOnScale(g_.model(), g_.scale(), block_.Distinct(), block_.size(),
                   std::span<double>(distinct_.data(), K * block_.size()));
    block_.Spread(distinct_, K, predictions_);
    if (draws > 1) g_.draw_count().Add(here, block_.size());
    for (std::size_t r = 0; r < here; ++r)
      for (std::size_t o = 0; o < K; ++o) {
        const double* p = predictions_.data() + o * m + r * draws;
        double* at = out.data() + ((first + r) * K + o) * G;
        for (std::size_t g = 0; g < G; ++g) {
          // Group g: draws g, g + G, g + 2G ... (one draw when every feature is on: each group's).
          double sum = 0.0;
          std::size_t count = 0;
          for (std::size_t k = draws == 1 ? 0 : g; k < draws; k += draws == 1 ? draws : G) {
            sum += p[k];
            ++count;
          }
          at[g] = sum / static_cast<double>(count);
        }
      }
  }

  void CheckFinite(std::span<const double> out) const {
    const std::size_t per_row = g_.model().n_outputs() * g_.groups();
    for (std::size_t v = 0; v < out.size(); ++v)
      if (!std::isfinite(out[v]))
        throw DataError(
            "SHAP: the model's mean " +
            std::string(g_.scale() == ShapOutputScale::kMargin ? "margin" : "prediction") +
            " over the conditional draws for explained row " + std::to_string(v / per_row) +
            " is not finite (the model gave NaN or infinity on the row's values with drawn ones); "
            "check the model on values in the background's range, or use the marginal value function");
  }

  const ConditionalPredictionGame& g_;
  std::vector<std::uint8_t> inside_;
  DrawBlock block_;
  std::vector<double> row_, one_, distinct_, predictions_;
};

}  // namespace

ConditionalPredictionGame::ConditionalPredictionGame(const Model& model, ColumnMatrix rows,
                                                     const ConditionalFeatures& features,
                                                     std::vector<Player> players, ShapOutputScale scale,
                                                     std::size_t samples, std::size_t groups,
                                                     std::uint64_t seed, bool at_the_mean)
    : model_(model),
      rows_(rows),
      features_(features),
      players_(std::move(players)),
      scale_(scale),
      samples_(samples),
      groups_(groups) {
  const std::size_t F = model.n_features();
  PERFSHAP_CHECK(features.n_features() == F, "the conditional distribution has another number of features");
  PERFSHAP_CHECK(rows.values.size() == rows.n_rows * F,
                 "the explained rows do not have the model's features");
  PERFSHAP_CHECK(groups >= 1 && samples >= groups, "ConditionalPredictionGame: fewer draws than groups");
  PERFSHAP_CHECK(!players_.empty() && players_.size() <= 64 * 1024,
                 "conditional SHAP needs at least one player");
  if (!HasScale(model, scale))
    throw InvalidArgument(
        "the model (" + model.Describe() + ") has no margin to explain: explain its predictions instead",
        {"output"});
  feature_player_.assign(F, -1);
  for (std::size_t p = 0; p < players_.size(); ++p)
    for (std::size_t j : players_[p].columns) {
      PERFSHAP_CHECK(j < F && feature_player_[j] < 0, "the players do not partition the model's features");
      feature_player_[j] = static_cast<int>(p);
    }
  for (std::size_t j = 0; j < F; ++j)
    PERFSHAP_CHECK(feature_player_[j] >= 0, "feature " + std::to_string(j) + " of the model is in no player");
  row_block_ = std::max<std::size_t>(1, kBatchHybridValues / (samples * std::max<std::size_t>(F, 1)));
  RandomStream rng(seed, 0x434F4E44ULL);  // "COND"
  ResizeOrThrow(normals_, samples * F, "the conditional draws' standard normals");
  for (double& z : normals_) z = at_the_mean ? 0.0 : rng.Normal();
}

std::unique_ptr<GameWorker> ConditionalPredictionGame::MakeWorker() const {
  return std::make_unique<ConditionalWorker>(*this);
}

std::vector<std::string> ConditionalPredictionGame::player_names() const {
  std::vector<std::string> names;
  for (const Player& p : players_) names.push_back(p.name);
  return names;
}

}}}  // namespace perfshap::detail
