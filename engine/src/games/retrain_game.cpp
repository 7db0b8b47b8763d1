// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/retrain_game.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "perfshap/error.hpp"
#include "perfshap/metric.hpp"

namespace perfshap::detail {

namespace {

bool NeedsClasses(RobustnessMetric m) {
  switch (m) {
    case RobustnessMetric::kAccuracy:
    case RobustnessMetric::kBalancedAccuracy:
    case RobustnessMetric::kSensitivity:
    case RobustnessMetric::kSpecificity:
    case RobustnessMetric::kPrecision:
    case RobustnessMetric::kF1:
      return true;
    default:
      return false;
  }
}

class RetrainWorker final : public GameWorker {
 public:
  explicit RetrainWorker(const RetrainGame& game)
      : game_(game),
        evaluator_(*game.settings().evaluator),
        trainer_(game.split()),
        scores_(game.split().n_test()),
        yhat_(game.split().n_test()),
        values_(evaluator_.MakeValues()) {
    const auto& options = evaluator_.options();
    scratch_.Reserve(game.split().n_test(), options.mode == CurveMode::kThresholds ? options.thresholds : 0);
    for (RobustnessMetric m : game.settings().extra_metrics) needs_classes_ = needs_classes_ || NeedsClasses(m);
    // gnb with exact curves and no metric of the probabilities themselves: rank the rows
    // without computing every probability (RankGaussianNb; same order and ties, same bits).
    ranked_ = game.split().kind() == LearnerKind::kGaussianNb && options.mode == CurveMode::kExact &&
              game.settings().extra_metrics.empty();
  }

  void Reset() override { trainer_.Reset(); }

  void Evaluate(Coalition s, std::span<double> out) override {
    const RetrainGameSettings& settings = game_.settings();
    const std::size_t curve_outputs = game_.curve_outputs();
    const auto y = game_.split().test_labels();
    const bool extras = !settings.extra_metrics.empty();
    if (s == 0 && !extras) {
      // The random classifier (section 3.1): AUC 0.5, tpr = fpr, precision = b: payoffs 0.
      std::fill(out.begin(), out.end(), 0.0);
      if (!settings.coalition_auc.empty()) settings.coalition_auc[0] = 0.5;
      return;
    }
    // One training gives every output (the empty coalition: the prior-only model, for the
    // extra metrics only).
    if (ranked_) {
      trainer_.Fit(s);
      if (trainer_.RankTest(ranking_)) {
        evaluator_.EvaluateRanked(y, ranking_.order, ranking_.tie, scratch_, values_);
      } else {
        trainer_.ScoreTest(scores_, ScoreScale::kProbability);
        evaluator_.Evaluate(y, scores_, scratch_, values_);
      }
    } else {
      trainer_.Score(s, scores_, ScoreScale::kProbability);
      evaluator_.Evaluate(y, scores_, scratch_, values_);
    }
    if (s == 0) {
      std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(curve_outputs), 0.0);
      if (!settings.coalition_auc.empty()) settings.coalition_auc[0] = 0.5;
    } else {
      evaluator_.WritePayoffs(values_, settings.prc_baseline, out.first(curve_outputs));
      if (!settings.coalition_auc.empty()) settings.coalition_auc[s] = values_.auc;
    }
    if (!extras) return;
    if (needs_classes_)
      for (std::size_t r = 0; r < scores_.size(); ++r) yhat_[r] = scores_[r] > settings.class_threshold ? 1.0 : 0.0;
    std::size_t k = curve_outputs;
    for (RobustnessMetric m : settings.extra_metrics) out[k++] = Extra(m, y);
  }

 private:
  double Extra(RobustnessMetric m, std::span<const double> y) const {
    switch (m) {
      case RobustnessMetric::kAccuracy:
        return Accuracy(y, yhat_);
      case RobustnessMetric::kBalancedAccuracy:
        return BalancedAccuracy(y, yhat_);
      case RobustnessMetric::kSensitivity:
        return Sensitivity(y, yhat_);
      case RobustnessMetric::kSpecificity:
        return Specificity(y, yhat_);
      case RobustnessMetric::kPrecision:
        return Precision(y, yhat_);
      case RobustnessMetric::kF1:
        return F1(y, yhat_);
      case RobustnessMetric::kBrier:
        return Brier(y, scores_);
      case RobustnessMetric::kLogLoss:
        return LogLoss(y, scores_);
      case RobustnessMetric::kAveragePrecision:
        return values_.average_precision;
      case RobustnessMetric::kMse:
        return Mse(y, scores_);
      case RobustnessMetric::kMae:
        return Mae(y, scores_);
      case RobustnessMetric::kRmse:
        return Rmse(y, scores_);
      case RobustnessMetric::kR2:
        return R2(y, scores_);
    }
    return 0.0;
  }

  const RetrainGame& game_;
  const CurveGridEvaluator& evaluator_;
  CoalitionTrainer trainer_;
  std::vector<double> scores_;
  std::vector<double> yhat_;
  CurveGridScratch scratch_;
  CurveGridValues values_;
  GaussianNbRanking ranking_;
  bool needs_classes_ = false;
  bool ranked_ = false;
};

}  // namespace

double TestPrevalence(const PreparedSplit& split) {
  const auto y = split.test_labels();
  std::size_t positives = 0;
  for (double v : y) positives += v == 1.0 ? 1 : 0;
  return y.empty() ? 0.0 : static_cast<double>(positives) / static_cast<double>(y.size());
}

RetrainGame::RetrainGame(const PreparedSplit& split, RetrainGameSettings settings)
    : split_(split), settings_(std::move(settings)) {
  PERFSHAP_CHECK(settings_.evaluator != nullptr, "RetrainGame: no curve evaluator");
  PERFSHAP_CHECK(split_.n_players() >= 1 && split_.n_players() <= kMaxExactPlayers,
                 "RetrainGame: the split has no players");
  PERFSHAP_CHECK(settings_.coalition_auc.empty() ||
                     (split_.n_players() < 63 && settings_.coalition_auc.size() ==
                                                     (std::size_t{1} << split_.n_players())),
                 "RetrainGame: coalition_auc needs 2^n slots");
  curve_outputs_ = settings_.evaluator->payoff_count();
  // The AUC and the curves are undefined on a test part with one class: reported, not skipped.
  const auto y = split_.test_labels();
  std::size_t positives = 0;
  std::size_t negatives = 0;
  for (double v : y) {
    if (v == 1.0) ++positives;
    else if (v == 0.0) ++negatives;
  }
  if (positives == 0 || negatives == 0) {
    const std::string& name = settings_.split_label.empty() ? split_.split_name() : settings_.split_label;
    throw DataError("the test part of " + name + " holds one class only (all " + std::to_string(y.size()) +
                    " test labels are " + (positives == 0 ? "negative" : "positive") +
                    "), so its AUC and curves are undefined; use --stratify, a larger --test-size or fewer folds");
  }
}

std::unique_ptr<GameWorker> RetrainGame::MakeWorker() const { return std::make_unique<RetrainWorker>(*this); }

}  // namespace perfshap::detail
