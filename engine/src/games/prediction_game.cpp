// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/prediction_game.hpp"

#include "common/allocation.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

bool HasScale(const Model& model, ShapOutputScale scale) {
  if (scale == ShapOutputScale::kPrediction) return true;
  if (dynamic_cast<const TreeEnsemble*>(&model) != nullptr) return true;
  if (model.n_outputs() != 1) return false;
  const std::vector<double> x(model.n_features(), 0.0);
  std::vector<double> terms(model.n_features());
  double intercept = 0.0;
  Link link = Link::kIdentity;
  return model.AdditiveTerms(x, 1, intercept, terms, link);
}

void PredictOnScale(const Model& model, ShapOutputScale scale, std::span<const double> x, std::size_t n_rows,
                    std::span<double> out) {
  if (scale == ShapOutputScale::kPrediction) {
    model.Predict(x, n_rows, out);
    return;
  }
  if (const auto* trees = dynamic_cast<const TreeEnsemble*>(&model)) {
    trees->PredictMargin(x, n_rows, out);
    return;
  }
  const std::size_t F = model.n_features();
  std::vector<double> terms(F * n_rows);
  double intercept = 0.0;
  Link link = Link::kIdentity;
  if (model.n_outputs() != 1 || !model.AdditiveTerms(x, n_rows, intercept, terms, link))
    throw InvalidArgument("the model (" + model.Describe() +
                              ") has no margin to explain: explain its predictions instead",
                          {"output"});
  for (std::size_t r = 0; r < n_rows; ++r) {
    double index = intercept;
    for (std::size_t j = 0; j < F; ++j) index += terms[j * n_rows + r];
    out[r] = index;
  }
}

namespace {

class PredictionWorker final : public GameWorker {
 public:
  explicit PredictionWorker(const PredictionGame& g) : g_(g) {
    const std::size_t F = g.model().n_features();
    const std::size_t nb = g.background().n_rows;
    in_.resize(F);
    if (g.row_terms().empty()) {
      ResizeOrThrow(hybrid_, F * g.row_block() * nb, "the hybrid rows of a block of explained rows");
      ResizeOrThrow(predictions_, g.model().n_outputs() * g.row_block() * nb, "the predictions of the hybrid rows");
    } else {
      row_sum_.resize(g.rows().n_rows);
      background_sum_.resize(nb);
    }
  }

  void Evaluate(Coalition s, std::span<double> out) override {
    const std::vector<int>& owner = g_.feature_player();
    for (std::size_t j = 0; j < g_.model().n_features(); ++j) in_[j] = Contains(s, owner[j]) ? 1 : 0;
    EvaluateFeatures(out);
  }

  // Any number of players (the sampled solvers' coalitions beyond 64 players).
  void EvaluateWide(WideCoalition s, std::span<double> out) override {
    const std::vector<int>& owner = g_.feature_player();
    for (std::size_t j = 0; j < g_.model().n_features(); ++j) in_[j] = s.contains(owner[j]) ? 1 : 0;
    EvaluateFeatures(out);
  }

  // Several coalitions' hybrid rows in one prediction per row block and chunk of coalitions
  // (batch_rows() rows at most): each coalition's values exactly as its own Evaluate's.
  void EvaluateMany(std::span<const std::uint64_t> words, std::size_t nw, std::span<double> out) override {
    if (!g_.row_terms().empty()) return GameWorker::EvaluateMany(words, nw, out);
    const std::size_t count = words.size() / nw;
    const std::size_t F = g_.model().n_features();
    const std::vector<int>& owner = g_.feature_player();
    if (in_.size() < count * F) in_.resize(count * F);  // grows to the solver's batch once
    for (std::size_t c = 0; c < count; ++c) {
      const WideCoalition s{words.subspan(c * nw, nw)};
      for (std::size_t j = 0; j < F; ++j) in_[c * F + j] = s.contains(owner[j]) ? 1 : 0;
    }
    const std::size_t rows = g_.rows().n_rows;
    const std::size_t nb = g_.background().n_rows;
    for (std::size_t first = 0; first < rows; first += g_.row_block()) {
      const std::size_t here = std::min(g_.row_block(), rows - first);
      const std::size_t chunk = std::max<std::size_t>(1, g_.batch_rows() / (here * nb));
      for (std::size_t c0 = 0; c0 < count; c0 += chunk)
        Hybrids(first, here, c0, std::min(count, c0 + chunk), out);
    }
    const std::size_t k = g_.n_outputs();
    for (std::size_t c = 0; c < count; ++c) CheckFinite(out.subspan(c * k, k));
  }

 private:
  // v(S) for the coalition whose features in_ flags.
  void EvaluateFeatures(std::span<double> out) {
    if (g_.row_terms().empty()) {
      // One coalition (its flags first in in_), one prediction a block of explained rows.
      const std::size_t rows = g_.rows().n_rows;
      for (std::size_t first = 0; first < rows; first += g_.row_block())
        Hybrids(first, std::min(g_.row_block(), rows - first), 0, 1, out);
    } else {
      Additive(out);
    }
    CheckFinite(out);
  }

  // Coalitions [c0, c1)'s values of explained rows [first, first + here) from one prediction:
  // hybrid row ((c - c0) * here + r) * nb + b.
  void Hybrids(std::size_t first, std::size_t here, std::size_t c0, std::size_t c1, std::span<double> out) {
    const std::size_t F = g_.model().n_features();
    const std::size_t K = g_.model().n_outputs();
    const std::size_t k = g_.n_outputs();
    const ColumnMatrix rows = g_.rows();
    const ColumnMatrix bg = g_.background();
    const std::size_t nb = bg.n_rows;
    const std::size_t per = here * nb;
    const std::size_t m = (c1 - c0) * per;
    if (hybrid_.size() < F * m) hybrid_.resize(F * m);
    if (predictions_.size() < K * m) predictions_.resize(K * m);
    for (std::size_t j = 0; j < F; ++j) {
      double* col = hybrid_.data() + j * m;
      const double* x = rows.values.data() + j * rows.n_rows + first;
      const double* b = bg.values.data() + j * nb;
      for (std::size_t c = c0; c < c1; ++c) {
        double* at = col + (c - c0) * per;
        if (in_[c * F + j] != 0) {
          for (std::size_t r = 0; r < here; ++r) std::fill(at + r * nb, at + (r + 1) * nb, x[r]);
        } else {
          for (std::size_t r = 0; r < here; ++r) std::copy(b, b + nb, at + r * nb);
        }
      }
    }
    const std::span<double> pred(predictions_.data(), K * m);
    PredictOnScale(g_.model(), g_.scale(), std::span<const double>(hybrid_.data(), F * m), m, pred);
    for (std::size_t c = c0; c < c1; ++c)
      for (std::size_t r = 0; r < here; ++r)
        for (std::size_t o = 0; o < K; ++o) {
          const double* p = pred.data() + o * m + (c - c0) * per + r * nb;
          double sum = 0.0;
          for (std::size_t b = 0; b < nb; ++b) sum += p[b];
          out[c * k + (first + r) * K + o] = sum / static_cast<double>(nb);
        }
  }

  // A non-finite value would reach every Shapley value of its row: named where it appears.
  void CheckFinite(std::span<const double> out) const {
    const std::size_t K = g_.model().n_outputs();
    for (std::size_t v = 0; v < g_.n_outputs(); ++v)
      if (!std::isfinite(out[v]))
        throw DataError(
            "SHAP: the model's mean " +
            std::string(g_.scale() == ShapOutputScale::kMargin ? "margin" : "prediction") +
            " over the background for explained row " + std::to_string(v / K) +
            " is not finite (the model gave NaN or infinity on the row's values mixed with the "
            "background's); scale the features whose values are extreme (e.g. to values near 1), or "
            "drop them, or check the model");
  }

  void Additive(std::span<double> out) {
    const std::size_t F = g_.model().n_features();
    const std::size_t n = g_.rows().n_rows;
    const std::size_t nb = g_.background().n_rows;
    const std::vector<double>& tx = g_.row_terms();
    const std::vector<double>& tb = g_.background_terms();
    std::fill(row_sum_.begin(), row_sum_.end(), 0.0);
    std::fill(background_sum_.begin(), background_sum_.end(), 0.0);
    for (std::size_t j = 0; j < F; ++j) {
      if (in_[j] != 0) {
        for (std::size_t r = 0; r < n; ++r) row_sum_[r] += tx[j * n + r];
      } else {
        for (std::size_t b = 0; b < nb; ++b) background_sum_[b] += tb[j * nb + b];
      }
    }
    const bool margin = g_.scale() == ShapOutputScale::kMargin;
    const double c = g_.intercept();
    for (std::size_t r = 0; r < n; ++r) {
      double sum = 0.0;
      for (std::size_t b = 0; b < nb; ++b) {
        const double index = (c + row_sum_[r]) + background_sum_[b];
        sum += margin ? index : ApplyLink(g_.link(), index);
      }
      out[r] = sum / static_cast<double>(nb);
    }
  }

  const PredictionGame& g_;
  std::vector<std::uint8_t> in_;  // coalitions x features flags (Evaluate's: the first F)
  std::vector<double> hybrid_;
  std::vector<double> predictions_;
  std::vector<double> row_sum_;
  std::vector<double> background_sum_;
};

class RetrainPredictionWorker final : public GameWorker {
 public:
  RetrainPredictionWorker(const PreparedSplit& split, ShapOutputScale scale)
      : fitter_(split.MakeFitter()), scale_(scale) {
    members_.reserve(static_cast<std::size_t>(split.n_players()));
  }
  void Reset() override { fitter_->Reset(); }
  void Evaluate(Coalition s, std::span<double> out) override {
    fitter_->Score(s, out, Scale());
    CheckScores(out);
  }

  // Any number of players (the sampled solvers' coalitions beyond 64 players).
  void EvaluateWide(WideCoalition s, std::span<double> out) override {
    members_.clear();
    for (std::size_t w = 0; w < s.words.size(); ++w)
      for (std::uint64_t rest = s.words[w]; rest != 0; rest &= rest - 1)
        members_.push_back(
            static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(rest))));
    fitter_->Fit(members_);
    fitter_->ScoreTest(out, Scale());
    CheckScores(out);
  }

 private:
  ScoreScale Scale() const noexcept {
    return scale_ == ShapOutputScale::kMargin ? ScoreScale::kIndex : ScoreScale::kProbability;
  }

  // A non-finite prediction would reach every Shapley value of its row: named where it appears.
  static void CheckScores(std::span<const double> out) {
    for (std::size_t r = 0; r < out.size(); ++r)
      if (!std::isfinite(out[r]))
        throw DataError(
            "SHAP by retraining: the refitted model's prediction for explained row " + std::to_string(r) +
            " is not finite (a value overflowed); scale the features whose values are extreme (e.g. to "
            "values near 1), or drop them");
  }

  std::unique_ptr<CoalitionFitter> fitter_;
  ShapOutputScale scale_;
  std::vector<std::uint32_t> members_;
};

}  // namespace

PredictionGame::PredictionGame(const Model& model, ColumnMatrix rows, ColumnMatrix background, std::vector<Player> players,
                               ShapOutputScale scale, std::size_t row_block)
    : model_(model), rows_(rows), background_(background), players_(std::move(players)), scale_(scale) {
  const std::size_t F = model.n_features();
  PERFSHAP_CHECK(rows.values.size() == F * rows.n_rows,
                 "the explained rows hold " + std::to_string(rows.values.size()) + " values, not " +
                     std::to_string(F) + " features x " + std::to_string(rows.n_rows) + " rows");
  PERFSHAP_CHECK(background.n_rows > 0, "interventional SHAP needs at least one background row", {"background"});
  PERFSHAP_CHECK(background.values.size() == F * background.n_rows,
                 "the background rows hold " + std::to_string(background.values.size()) + " values, not " +
                     std::to_string(F) + " features x " + std::to_string(background.n_rows) + " rows");
  PERFSHAP_CHECK(!players_.empty() && players_.size() <= 64 * 1024, "interventional SHAP needs at least one player");
  feature_player_.assign(F, -1);
  for (std::size_t p = 0; p < players_.size(); ++p)
    for (std::size_t j : players_[p].columns) {
      PERFSHAP_CHECK(j < F, "player '" + players_[p].name + "' holds feature " + std::to_string(j) +
                                " of a model with " + std::to_string(F) + " features");
      PERFSHAP_CHECK(feature_player_[j] < 0, "feature " + std::to_string(j) + " is in two players");
      feature_player_[j] = static_cast<int>(p);
    }
  for (std::size_t j = 0; j < F; ++j)
    PERFSHAP_CHECK(feature_player_[j] >= 0, "feature " + std::to_string(j) + " of the model is in no player");
  PERFSHAP_CHECK(HasScale(model, scale),
                 "the model (" + model.Describe() + ") has no margin to explain: explain its predictions instead",
                 {"output"});
  // One coalition's hybrid rows of a block: about 4096 rows at once.
  row_block_ = row_block > 0 ? row_block : std::max<std::size_t>(1, 4096 / background.n_rows);
  row_block_ = std::min(row_block_, std::max<std::size_t>(1, rows.n_rows));
  // The additive fast path, for one-output models with terms (and not for trees).
  if (model.n_outputs() == 1 && dynamic_cast<const TreeEnsemble*>(&model) == nullptr) {
    std::vector<double> tx(F * rows.n_rows);
    std::vector<double> tb(F * background.n_rows);
    double c = 0.0;
    Link link = Link::kIdentity;
    if (model.AdditiveTerms(rows.values, rows.n_rows, c, tx, link) &&
        model.AdditiveTerms(background.values, background.n_rows, c, tb, link)) {
      // A term that overflows names its feature here, before any coalition.
      const auto check = [&](const std::vector<double>& terms, std::size_t n, const char* what) {
        for (std::size_t j = 0; j < F; ++j)
          for (std::size_t r = 0; r < n; ++r)
            if (!std::isfinite(terms[j * n + r]))
              throw DataError(
                  "SHAP: the model's term of feature " +
                  detail::Quoted(players_[static_cast<std::size_t>(feature_player_[j])].name) + " for " +
                  what + " row " + std::to_string(r) +
                  " is not finite (its value times its coefficient overflows); scale the feature (e.g. "
                  "to values near 1), or drop it");
      };
      check(tx, rows.n_rows, "explained");
      check(tb, background.n_rows, "background");
      PERFSHAP_CHECK(std::isfinite(c), "the model's intercept is not finite");
      row_terms_ = std::move(tx);
      background_terms_ = std::move(tb);
      intercept_ = c;
      link_ = link;
    }
  }
  // Every coalition a model call: a solver's coalitions batched into batch_rows_ hybrid rows.
  const std::size_t block = row_block_ * background.n_rows;
  batch_rows_ = std::max(block, kBatchHybridValues / std::max<std::size_t>(1, F));
  if (row_terms_.empty()) batch_coalitions_ = std::max<std::size_t>(1, batch_rows_ / block);
}

std::unique_ptr<GameWorker> PredictionGame::MakeWorker() const { return std::make_unique<PredictionWorker>(*this); }

std::vector<std::string> PredictionGame::player_names() const {
  std::vector<std::string> names;
  for (const Player& p : players_) names.push_back(p.name);
  return names;
}

std::unique_ptr<GameWorker> RetrainPredictionGame::MakeWorker() const {
  return std::make_unique<RetrainPredictionWorker>(split_, scale_);
}

}}}  // namespace perfshap::detail
