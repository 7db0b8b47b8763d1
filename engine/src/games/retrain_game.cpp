// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/retrain_game.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/metric.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

class RetrainWorker final : public GameWorker {
 public:
  explicit RetrainWorker(const RetrainGame& game) : fitter_(game.split().MakeFitter()) { Bind(game); }

  /// Works for `game` from now on, as a new worker would, keeping the scratch memory.
  void Rebind(const RetrainGame& game) {
    if (!fitter_->Rebind(game.split())) fitter_ = game.split().MakeFitter();
    Bind(game);
  }

  void Reset() override { fitter_->Reset(); }

  void Evaluate(Coalition s, std::span<double> out) override {
    std::size_t k = 0;
    for (Coalition rest = s; rest != 0; rest &= rest - 1) members_[k++] = static_cast<std::uint32_t>(std::countr_zero(rest));
    EvaluateMembers(std::span<const std::uint32_t>(members_.data(), k), s, out);
  }

  // Any number of players (the sampled solvers' coalitions beyond 64 players).
  void EvaluateWide(WideCoalition s, std::span<double> out) override {
    std::size_t k = 0;
    for (std::size_t w = 0; w < s.words.size(); ++w)
      for (std::uint64_t rest = s.words[w]; rest != 0; rest &= rest - 1)
        members_[k++] = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(rest)));
    EvaluateMembers(std::span<const std::uint32_t>(members_.data(), k), s.fits_mask() ? s.AsMask() : 0, out);
  }

 private:
  // `mask` is the coalition as a bit mask where it fits one (the slot of coalition_auc, which
  // only games below 63 players have).
  void EvaluateMembers(std::span<const std::uint32_t> members, Coalition mask, std::span<double> out) {
    const RetrainGameSettings& settings = game_->settings();
    const std::size_t curve_outputs = game_->curve_outputs();
    const auto y = split_->test_labels();
    const bool extras = !settings.extra_metrics.empty();
    if (members.empty() && !extras) {
      // The random classifier (section 3.1): AUC 0.5, tpr = fpr, precision = b: payoffs 0.
      std::fill(out.begin(), out.end(), 0.0);
      if (!settings.coalition_auc.empty()) settings.coalition_auc[0] = 0.5;
      return;
    }
    // One training gives every output (the empty coalition: the prior-only model, for the
    // extra metrics only).
    fitter_->Fit(members);
    if (ranked_ && fitter_->RankTest(ranking_)) {
      evaluator_->EvaluateRanked(ranking_.positive, ranking_.tie, scratch_, values_);
    } else {
      fitter_->ScoreTest(scores_, ScoreScale::kProbability);
      CheckScores(members);
      evaluator_->Evaluate(y, scores_, scratch_, values_);
    }
    if (members.empty()) {
      std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(curve_outputs), 0.0);
      if (!settings.coalition_auc.empty()) settings.coalition_auc[0] = 0.5;
    } else {
      evaluator_->WritePayoffs(values_, settings.prc_baseline, out.first(curve_outputs));
      if (!settings.coalition_auc.empty()) settings.coalition_auc[mask] = values_.auc;
    }
    if (!extras) return;
    if (needs_classes_)
      for (std::size_t r = 0; r < scores_.size(); ++r) yhat_[r] = scores_[r] > settings.class_threshold ? 1.0 : 0.0;
    RetrainSample sample;
    sample.y = y;
    sample.score = scores_;
    sample.yhat = yhat_;
    sample.average_precision = values_.average_precision;
    std::size_t k = curve_outputs;
    for (const MetricDefinition* m : settings.extra_metrics) out[k++] = m->retrain(sample);
  }

  // A non-finite score would reach the curves and the metrics (and every Shapley value through
  // them): named here, where it first appears. O(n_test), next to the fit and the sort.
  void CheckScores(std::span<const std::uint32_t> members) const {
    for (std::size_t r = 0; r < scores_.size(); ++r) {
      if (std::isfinite(scores_[r])) continue;
      std::vector<std::string> names;
      for (std::uint32_t i : members) names.push_back(split_->player_names()[i]);
      throw DataError(
          split_->learner_name() + " on " + split_->split_name() + " with features {" + QuotedList(names) +
          "}: the fitted model's score of test row " + std::to_string(r) +
          " is not finite (a value overflowed); scale the features whose values are extreme (e.g. to "
          "values near 1), or drop them");
    }
  }

  // Everything but the trainer: sizes only grow.
  void Bind(const RetrainGame& game) {
    game_ = &game;
    split_ = &game.split();
    members_.resize(static_cast<std::size_t>(game.n_players()));
    evaluator_ = game.settings().evaluator;
    scores_.resize(split_->n_test());
    yhat_.resize(split_->n_test());
    values_.tpr.resize(evaluator_->fpr_grid().size());
    values_.precision.resize(evaluator_->recall_grid().size());
    const auto& options = evaluator_->options();
    scratch_.Reserve(split_->n_test(), options.mode == CurveMode::kThresholds ? options.thresholds : 0);
    needs_classes_ = false;
    for (const MetricDefinition* m : game.settings().extra_metrics)
      needs_classes_ = needs_classes_ || m->input == MetricInput::kClass;
    // Exact curves and no metric of the probabilities themselves: learners that can rank the
    // rows without computing every probability do (gnb; same order and ties, same bits).
    ranked_ = options.mode == CurveMode::kExact && game.settings().extra_metrics.empty();
  }

  const RetrainGame* game_ = nullptr;
  const PreparedSplit* split_ = nullptr;
  const CurveGridEvaluator* evaluator_ = nullptr;
  std::unique_ptr<CoalitionFitter> fitter_;
  std::vector<std::uint32_t> members_;
  std::vector<double> scores_;
  std::vector<double> yhat_;
  CurveGridScratch scratch_;
  CurveGridValues values_;
  RankedTest ranking_;
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

double TestPrevalence(std::span<const double> label, std::span<const std::size_t> test) {
  std::size_t positives = 0;
  for (std::size_t r : test) positives += label[r] == 1.0 ? 1 : 0;
  return test.empty() ? 0.0 : static_cast<double>(positives) / static_cast<double>(test.size());
}

RetrainGame::RetrainGame(const PreparedSplit& split, RetrainGameSettings settings)
    : split_(&split), n_players_(split.n_players()), names_(split.player_names()), settings_(std::move(settings)) {
  Check(split.test_labels());
}

RetrainGame::RetrainGame(SplitSource source, RetrainGameSettings settings)
    : source_(std::move(source)), n_players_(static_cast<int>(source_.players.size())), settings_(std::move(settings)) {
  PERFSHAP_CHECK(source_.data != nullptr && source_.learner != nullptr, "RetrainGame: no data set or no learner");
  for (const Player& player : source_.players) {
    for (std::size_t c : player.columns)
      PERFSHAP_CHECK(c < source_.data->n_features(), "RetrainGame: feature column " + std::to_string(c) + " is out of range");
    names_.push_back(player.name);
  }
  const auto label = source_.data->label();
  std::vector<double> test_labels;
  test_labels.reserve(source_.test_rows.size());
  for (std::size_t r : source_.test_rows) {
    PERFSHAP_CHECK(r < label.size(), "RetrainGame: test row " + std::to_string(r) + " has no label");
    test_labels.push_back(label[r]);
  }
  Check(test_labels);
}

void RetrainGame::Check(std::span<const double> y) {
  PERFSHAP_CHECK(settings_.evaluator != nullptr, "RetrainGame: no curve evaluator");
  PERFSHAP_CHECK(n_players_ >= 1, "RetrainGame: the split has no players");
  PERFSHAP_CHECK(settings_.coalition_auc.empty() ||
                     (n_players_ < 63 && settings_.coalition_auc.size() == (std::size_t{1} << n_players_)),
                 "RetrainGame: coalition_auc needs 2^n slots");
  curve_outputs_ = settings_.evaluator->payoff_count();
  // The AUC and the curves are undefined on a test part with one class: reported, not skipped.
  std::size_t positives = 0;
  std::size_t negatives = 0;
  for (double v : y) {
    if (v == 1.0) ++positives;
    else if (v == 0.0) ++negatives;
  }
  if (positives + negatives != y.size())
    throw DataError("a test label of " +
                    (!settings_.split_label.empty() ? settings_.split_label
                     : split_ != nullptr          ? split_->split_name()
                                                  : source_.name) +
                    " is neither 0 nor 1; the AUC needs a 0/1 label (name the positive class)",
                    {"positive"});
  if (positives == 0 || negatives == 0) {
    const std::string& name = !settings_.split_label.empty() ? settings_.split_label
                              : split_ != nullptr         ? split_->split_name()
                                                          : source_.name;
    throw DataError("the test part of " + name + " holds one class only (all " + std::to_string(y.size()) +
                    " test labels are " + (positives == 0 ? "negative" : "positive") +
                    "), so its AUC and curves are undefined; use a stratified split, a larger test part or fewer folds",
                    {"stratify", "test_size", "plan"});
  }
}

const PreparedSplit& RetrainGame::split() const {
  if (split_ != nullptr) return *split_;
  if (const PreparedSplit* ready = prepared_.load(std::memory_order_acquire)) return *ready;
  // Prepared by the first caller; the others wait for it (a failure is retried by the next).
  const std::lock_guard<std::mutex> lock(prepared_mutex_);
  if (!owned_) {
    owned_ = source_.learner->Prepare(*source_.data, source_.players, source_.train_rows, source_.test_rows,
                                      source_.name);
    prepared_.store(owned_.get(), std::memory_order_release);
  }
  return *owned_;
}

void RetrainGame::ReleaseSplit() const {
  const std::lock_guard<std::mutex> lock(prepared_mutex_);
  prepared_.store(nullptr, std::memory_order_release);
  owned_.reset();
}

std::unique_ptr<GameWorker> RetrainGame::MakeWorker() const { return std::make_unique<RetrainWorker>(*this); }

std::unique_ptr<GameWorker> RetrainGame::MakeWorkerFrom(std::unique_ptr<GameWorker> previous) const {
  if (auto* worker = dynamic_cast<RetrainWorker*>(previous.get())) {
    worker->Rebind(*this);
    return previous;
  }
  return Game::MakeWorkerFrom(std::move(previous));
}

}}}  // namespace perfshap::detail
