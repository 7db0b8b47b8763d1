// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/sage_game.hpp"

#include <string>

#include "common/allocation.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

double SignedMetric(const MetricDefinition& metric, std::span<const double> y, std::span<const double> score,
                    double threshold, MetricScratch& scratch) {
  double value = 0.0;
  if (metric.name == "auc") {
    value = RocAuc(y, score, scratch.order);
  } else if (metric.name == "average_precision") {
    value = AveragePrecision(y, score);
  } else {
    PERFSHAP_CHECK(metric.retrain != nullptr, "the metric " + metric.name + " has no value of predictions");
    RetrainSample sample;
    sample.y = y;
    sample.score = score;
    if (metric.input == MetricInput::kClass) {
      scratch.yhat.resize(score.size());
      for (std::size_t r = 0; r < score.size(); ++r) scratch.yhat[r] = score[r] > threshold ? 1.0 : 0.0;
      sample.yhat = scratch.yhat;
    }
    value = metric.retrain(sample);
  }
  return metric.loss ? -value : value;
}

namespace {

class SageWorker final : public GameWorker {
 public:
  explicit SageWorker(const SageGame& g)
      : g_(g),
        inner_(g.predictions().MakeWorker()),
        k_(g.predictions().n_outputs()),
        values_(k_),
        total_(g.labels().size()),
        score_(g.labels().size()) {}

  void Reset() override { inner_->Reset(); }

  void Evaluate(Coalition s, std::span<double> out) override {
    inner_->Evaluate(s, values_);
    Reduce(values_, out);
  }

  void EvaluateWide(WideCoalition s, std::span<double> out) override {
    inner_->EvaluateWide(s, values_);
    Reduce(values_, out);
  }

  void EvaluateMany(std::span<const std::uint64_t> words, std::size_t nw, std::span<double> out) override {
    const std::size_t count = words.size() / nw;
    if (many_.size() < count * k_)
      ResizeOrThrow(many_, count * k_, "the predictions of a batch of coalitions");
    inner_->EvaluateMany(words, nw, std::span<double>(many_).first(count * k_));
    const std::size_t k = g_.n_outputs();
    for (std::size_t c = 0; c < count; ++c)
      Reduce(std::span<const double>(many_).subspan(c * k_, k_), out.subspan(c * k, k));
  }

 private:
  // The predictions' values of one coalition (rows x groups) into the game's outputs.
  void Reduce(std::span<const double> values, std::span<double> out) {
    const std::size_t G = g_.groups();
    const std::size_t n = score_.size();
    const auto metric = [&] {
      return SignedMetric(g_.metric(), g_.labels(), score_, g_.threshold(), scratch_);
    };
    if (G == 1) {
      out[0] = SignedMetric(g_.metric(), g_.labels(), values, g_.threshold(), scratch_);
      return;
    }
    for (std::size_t r = 0; r < n; ++r) {
      double t = 0.0;
      for (std::size_t g = 0; g < G; ++g) t += values[r * G + g];
      total_[r] = t;
      score_[r] = t / static_cast<double>(G);
    }
    out[0] = metric();
    for (std::size_t g = 0; g < G; ++g) {
      for (std::size_t r = 0; r < n; ++r)
        score_[r] = (total_[r] - values[r * G + g]) / static_cast<double>(G - 1);
      out[1 + g] = metric();
    }
  }

  const SageGame& g_;
  std::unique_ptr<GameWorker> inner_;
  std::size_t k_;
  std::vector<double> values_, many_, total_, score_;
  MetricScratch scratch_;
};

}  // namespace

SageGame::SageGame(const Game& predictions, std::span<const double> labels, const MetricDefinition& metric,
                   double threshold, std::size_t groups)
    : predictions_(predictions), labels_(labels), metric_(metric), threshold_(threshold), groups_(groups) {
  if (groups_ == 0 || predictions_.n_outputs() != labels_.size() * groups_)
    throw InvalidArgument("SAGE: the prediction game has " + std::to_string(predictions_.n_outputs()) +
                          " outputs for " + std::to_string(labels_.size()) + " labels in " +
                          std::to_string(groups_) + " groups of draws; give one model output a row");
}

std::unique_ptr<GameWorker> SageGame::MakeWorker() const { return std::make_unique<SageWorker>(*this); }

}}}  // namespace perfshap::detail
