// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/xper_conditional_game.hpp"

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

// XperGame's checks of the sample and the metric, without the marginal path's: no additive
// terms (the draws are predicted) and no permutation (the comparison sample is drawn).
XperGameSettings XperSampleChecks(XperGameSettings settings) {
  settings.comparator = XperComparator::kFull;
  settings.permutation.clear();
  settings.use_additive_terms = false;
  return settings;
}

class ConditionalXperWorker final : public GameWorker {
 public:
  explicit ConditionalXperWorker(const ConditionalXperGame& g)
      : g_(g), xper_(g.xper()), inside_(g.xper().n_columns()) {}

  void Evaluate(Coalition s, std::span<double> out) override {
    const std::vector<int>& owner = xper_.column_player();
    for (std::size_t j = 0; j < inside_.size(); ++j) inside_[j] = Contains(s, owner[j]) ? 1 : 0;
    EvaluateColumns(out);
  }

  void EvaluateWide(WideCoalition s, std::span<double> out) override {
    const std::vector<int>& owner = xper_.column_player();
    for (std::size_t j = 0; j < inside_.size(); ++j) inside_[j] = s.contains(owner[j]) ? 1 : 0;
    EvaluateColumns(out);
  }

 private:
  // Every group's outputs for the coalition inside_ flags.
  void EvaluateColumns(std::span<double> out) {
    const bool all_in = std::all_of(inside_.begin(), inside_.end(), [](std::uint8_t v) { return v != 0; });
    // Every feature on the coalition: the draw is the individual itself.
    draws_ = all_in ? 1 : g_.samples();
    const std::unique_ptr<CoalitionDraws> conditional = g_.features().Given(inside_, g_.normals(), draws_);
    const std::size_t n = xper_.n_rows();
    if (predictions_.size() < n * draws_)
      ResizeOrThrow(predictions_, n * draws_, "XPER's predictions of a coalition's conditional draws");
    for (std::size_t first = 0; first < n; first += g_.row_block())
      Predict(*conditional, first, std::min(g_.row_block(), n - first));
    for (std::size_t v = 0; v < n * draws_; ++v)
      if (!std::isfinite(predictions_[v]))
        throw DataError(
            "XPER: the model predicted a non-finite value for sample row " + std::to_string(v / draws_) +
            " with drawn values of the features off a coalition; check the model on values in the "
            "background's range, or use the marginal value function");
    const std::size_t G = g_.groups();
    for (std::size_t g = 0; g < G; ++g) {
      Group(g);
      for (std::size_t o = 0; o <= n; ++o) out[o * G + g] = values_[o];
    }
  }

  // Individuals [first, first + here): their draws in one prediction, into predictions_.
  void Predict(CoalitionDraws& conditional, std::size_t first, std::size_t here) {
    const std::size_t F = xper_.n_columns();
    const std::size_t n = xper_.n_rows();
    const std::size_t m = here * draws_;
    row_.resize(F);
    one_.resize(F * draws_);
    block_.Start(here, draws_, F);
    for (std::size_t r = 0; r < here; ++r) {
      for (std::size_t j = 0; j < F; ++j) row_[j] = xper_.columns()[j * n + first + r];
      conditional.Draw(row_, one_);
      block_.Add(one_);
    }
    if (distinct_.size() < block_.size())
      ResizeOrThrow(distinct_, block_.size(), "XPER's predictions of a block's conditional draws");
    xper_.model().Predict(block_.Distinct(), block_.size(),
                          std::span<double>(distinct_.data(), block_.size()));
    block_.Spread(distinct_, 1, std::span<double>(predictions_.data() + first * draws_, m));
    if (draws_ > 1) g_.draw_count().Add(here, block_.size());
  }

  // values_ = XperGame's n + 1 outputs over group g's draws (g, g + G, ...; the one draw when
  // every feature is on), gathered individual by individual into group_ (n x c).
  void Group(std::size_t g) {
    const std::size_t n = xper_.n_rows();
    const std::size_t step = draws_ == 1 ? 1 : g_.groups();
    const std::size_t start = draws_ == 1 ? 0 : g;
    const std::size_t c = (draws_ - start + step - 1) / step;
    group_.resize(n * c);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t t = 0; t < c; ++t) group_[i * c + t] = predictions_[i * draws_ + start + t * step];
    values_.resize(n + 1);
    if (xper_.settings().metric->xper_statistic == XperStatistic::kRank) {
      Auc(c);
    } else {
      Mean(c);
    }
  }

  // Every metric but AUC: each individual's statistic over its c draws, scaled to n points.
  void Mean(std::size_t c) {
    const std::size_t n = xper_.n_rows();
    const double scale = static_cast<double>(n) / static_cast<double>(c);
    stat_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      stat_[i] = XperRowStatistic(xper_.settings(), xper_.labels()[i], {group_.data() + i * c, c}) * scale;
    double delta_count = 0.0;
    // Precision's delta(S): the share of the comparison sample classified positive, out of n.
    if (xper_.settings().metric->xper_needs_delta) {
      if (g_.comparator() == XperComparator::kFull) {
        for (double s : stat_) delta_count += s;
        delta_count /= static_cast<double>(n);
      } else {
        for (std::size_t i = 0; i < n; ++i)
          delta_count += group_[i * c] > xper_.settings().threshold ? 1.0 : 0.0;
      }
    }
    xper_.Terms(stat_, delta_count, values_);
  }

  // AUC (XperGame's term): T_i counts, over individual i's c points, the comparison points of
  // the other class it ranks above (a positive: strictly above a negative) or not below (a
  // negative: a positive at or above it); v_i = T_i / (c m) / (2 ybar (1 - ybar)), m comparison
  // points: every individual's c (full) or the first of each (permuted).
  void Auc(std::size_t c) {
    const std::size_t n = xper_.n_rows();
    const bool full = g_.comparator() == XperComparator::kFull;
    const std::size_t per_row = full ? c : 1;
    positives_.clear();
    negatives_.clear();
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<double>& to = xper_.positive()[i] != 0 ? positives_ : negatives_;
      to.insert(to.end(), group_.begin() + static_cast<std::ptrdiff_t>(i * c),
                group_.begin() + static_cast<std::ptrdiff_t>(i * c + per_row));
    }
    std::sort(positives_.begin(), positives_.end());
    std::sort(negatives_.begin(), negatives_.end());
    const double nd = static_cast<double>(n);
    const double n1 = static_cast<double>(xper_.n_positive());
    const double n0 = nd - n1;
    const double m = static_cast<double>(n * per_row);
    const double norm = nd * nd / (2.0 * n1 * n0) / (static_cast<double>(c) * m);
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t total = 0;
      const bool positive = xper_.positive()[i] != 0;
      for (std::size_t t = 0; t < c; ++t) {
        const double v = group_[i * c + t];
        if (positive) {
          total += static_cast<std::uint64_t>(std::lower_bound(negatives_.begin(), negatives_.end(), v) -
                                              negatives_.begin());
        } else {
          total += static_cast<std::uint64_t>(positives_.end() -
                                              std::lower_bound(positives_.begin(), positives_.end(), v));
        }
      }
      values_[1 + i] = static_cast<double>(total) * norm;
      sum += values_[1 + i];
    }
    values_[0] = sum / nd;
  }

  const ConditionalXperGame& g_;
  const XperGame& xper_;
  std::vector<std::uint8_t> inside_;
  std::size_t draws_ = 1;
  DrawBlock block_;
  std::vector<double> row_, one_, distinct_, predictions_, group_, stat_, values_, positives_, negatives_;
};

}  // namespace

ConditionalXperGame::ConditionalXperGame(const Model& model, const Dataset& sample, XperGameSettings settings,
                                         const ConditionalFeatures& features, std::size_t samples,
                                         std::size_t groups, std::uint64_t seed)
    : xper_(model, sample, XperSampleChecks(settings)),
      features_(features),
      comparator_(settings.comparator),
      samples_(samples),
      groups_(groups) {
  const std::size_t F = xper_.n_columns();
  PERFSHAP_CHECK(features.n_features() == F,
                 "XPER: the conditional distribution has another number of features");
  PERFSHAP_CHECK(groups >= 2 && samples >= groups, "ConditionalXperGame: fewer draws than groups");
  row_block_ = std::max<std::size_t>(1, kBatchHybridValues / (samples * std::max<std::size_t>(F, 1)));
  RandomStream rng(seed, 0x58434F4EULL);  // "XCON"
  ResizeOrThrow(normals_, samples * F, "the conditional draws' standard normals");
  for (double& z : normals_) z = rng.Normal();
}

std::unique_ptr<GameWorker> ConditionalXperGame::MakeWorker() const {
  return std::make_unique<ConditionalXperWorker>(*this);
}

}}}  // namespace perfshap::detail
