// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Learners that can be retrained on any coalition of players (the retraining games of the
// robustness method, the per-cluster refits of XPER, later the predictions by retraining).
// A learner prepares a train/test split once (PreparedSplit: what every coalition's training
// shares, such as moments or a Gram matrix), then one CoalitionFitter per thread fits
// coalitions of its players, scores the test rows and hands out the fitted Model. Learners
// are registered by name with their own typed options (learners.hpp for the built-in ones):
// MakeLearner("logistic", {{"C", "0.5"}}) or MakeLogisticLearner(LogisticOptions{...}).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/coalition.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/export.hpp"
#include "perfshap/blocks/options.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/players.hpp"

namespace perfshap { inline namespace v0 {

/** @brief A learner's options by name, as text (what a front end read from its user), e.g.
 *  {"C", "0.5"}, {"standardize", "false"}. Each learner parses its own, typed. */
using LearnerParams = std::map<std::string, std::string>;

/** @brief What CoalitionFitter::ScoreTest writes per test row. */
enum class ScoreScale {
  /** Classifiers: P(y = 1) exactly as the fitted Model's Predict gives it (and as the reference
   *  library computes it: GaussianNB via the joint log-likelihoods and logsumexp as sklearn
   *  predict_proba; logistic scipy expit; probit scipy ndtr). Regressors: the prediction. */
  kProbability,
  /** The model's index (log-odds of gnb and logistic, probit index, linear prediction): the
   *  rows in the order of kProbability except where probabilities round to equal values. */
  kIndex,
};

/** @brief The test rows ranked by the fitted model's score, as ScoreTest's probabilities
 *  order and tie them (an optional fast path of some learners: RankTest). m entries each, valid
 *  until the fitter's next call. */
struct RankedTest {
  /** order[i] = the test row (0-based) with the i-th lowest score. */
  std::span<const std::uint32_t> order;
  /** positive[i] = label (0/1) of the row with the i-th lowest score. */
  std::span<const std::uint8_t> positive;
  /** tie[i] != 0 when the row of rank i has the same score as the row of rank i - 1. */
  std::span<const std::uint8_t> tie;
};

class CoalitionFitter;

/**
 * @brief One train/test split prepared for a learner: what every coalition's training shares,
 * computed once and then read-only (shared by all fitters of that split).
 *
 * Players are groups of columns of the data set (Player::columns); a coalition of players
 * trains on the union of their columns, in player order.
 */
class PERFSHAP_EXPORT PreparedSplit {
 public:
  virtual ~PreparedSplit();
  PreparedSplit(const PreparedSplit&) = delete;
  PreparedSplit& operator=(const PreparedSplit&) = delete;

  int n_players() const noexcept { return static_cast<int>(player_names_.size()); }
  std::size_t n_train() const noexcept { return n_train_; }
  std::size_t n_test() const noexcept { return test_label_.size(); }
  /** @brief Labels of the test rows, in test-row order. */
  std::span<const double> test_labels() const noexcept { return test_label_; }
  /** @brief Names of the players, for messages. */
  const std::vector<std::string>& player_names() const noexcept { return player_names_; }
  /** @brief How messages name this split, e.g. "the training rows of split 3 of mc:100". */
  const std::string& split_name() const noexcept { return split_name_; }
  /** @brief The learner's registered name ("gnb"). */
  const std::string& learner_name() const noexcept { return learner_name_; }
  /** @brief A new fitter for this split, with all its scratch memory. */
  virtual std::unique_ptr<CoalitionFitter> MakeFitter() const = 0;

 protected:
  PreparedSplit() = default;
  std::string learner_name_;
  std::string split_name_;
  std::string source_;
  std::vector<std::string> player_names_;
  std::size_t n_train_ = 0;
  std::vector<double> test_label_;
};

/**
 * @brief Trains a split's learner on coalitions of its players and scores the test rows, with
 * scratch memory of its own: one per thread. After construction, Fit and ScoreTest allocate
 * nothing.
 *
 * A fitter may warm-start a fit from the previous coalition's (the GLMs do, along Gray-code
 * steps); results then depend on that history only below the learner's tolerance, and Reset()
 * forgets it, so a solver that resets at the start of every block of coalitions gets results
 * that do not depend on which thread ran what.
 */
class PERFSHAP_EXPORT CoalitionFitter {
 public:
  virtual ~CoalitionFitter();
  /**
   * @brief Trains on `split` from now on, as a fitter made by split.MakeFitter() would, keeping
   * (and growing) this fitter's memory.
   * @return false, changing nothing, when `split` belongs to another learner (make a new fitter).
   */
  virtual bool Rebind(const PreparedSplit& split) = 0;
  /** @brief Forget the warm start: the next Fit starts cold. */
  virtual void Reset() noexcept = 0;
  /**
   * @brief Trains on the coalition of `players` (increasing player indices; empty = the
   * prior / intercept-only model).
   * @return Newton iterations used (0 for closed-form learners).
   * @throws DataError naming the split and the players when the fit fails (collinear columns,
   *   perfect separation, no convergence).
   */
  virtual int Fit(std::span<const std::uint32_t> players) = 0;
  /** @brief Fit() of the coalition given as a bit mask (bit i = player i). */
  int Fit(Coalition s);
  /** @brief Writes the last fit's score of every test row into out (n_test values). Rows with
   *  equal values on the coalition's columns get bitwise equal scores. Needs a successful Fit
   *  since construction, Rebind or Reset. */
  virtual void ScoreTest(std::span<double> out, ScoreScale scale = ScoreScale::kProbability) = 0;
  /**
   * @brief Optional fast path: ranks the test rows by the last fit's kProbability scores,
   * exactly as ScoreTest's values order and tie them, without necessarily computing them.
   * @return false when this learner (or this fit) cannot: use ScoreTest then.
   */
  virtual bool RankTest(RankedTest& out);
  /** @brief Fit(players) then ScoreTest(out, scale). */
  int Score(Coalition s, std::span<double> out, ScoreScale scale = ScoreScale::kProbability) {
    const int iterations = Fit(s);
    ScoreTest(out, scale);
    return iterations;
  }
  /** @brief The last fit as a Model over the coalition's columns (the players' columns in player
   *  order), whose Predict gives ScoreTest's kProbability values bit for bit on the same rows.
   *  Allocates; not for hot loops. */
  virtual std::unique_ptr<Model> MakeModel() const = 0;
};

/** @brief About what one training costs: operations, and the bytes it holds beyond the data. */
struct FitCost {
  double operations = 0.0;
  double bytes = 0.0;
};

/**
 * @brief A learner: prepares splits for coalition training. Immutable; shared by threads.
 */
class PERFSHAP_EXPORT Learner {
 public:
  virtual ~Learner();
  /** @brief The registered name ("gnb", "logistic", ...). */
  virtual const std::string& name() const noexcept = 0;
  /** @brief True for binary classifiers (scores are probabilities of class 1). */
  virtual bool is_classifier() const noexcept = 0;
  /** @brief The options in effect, by name, as MakeLearner reads them (for reports). */
  virtual LearnerParams params() const = 0;
  /** @brief How text columns reach this learner: one-hot indicators (the default: learners
   *  that need numbers) or the sorted codes (trees may split on them). */
  virtual TextColumns text_columns() const noexcept { return TextColumns::kOneHot; }
  /** @brief What one Train on `rows` x `columns` costs, about (for cost estimates, cost.hpp).
   *  The default is one pass over the cells, as naive Bayes; learners that solve a columns x
   *  columns system or sort every column say so. */
  virtual FitCost EstimateFit(std::size_t rows, std::size_t columns) const;
  /** @brief Whether the models it trains have additive terms (Model::AdditiveTerms: GLMs, naive
   *  Bayes), known before training (for cost estimates). */
  virtual bool makes_additive_models() const noexcept { return false; }
  /**
   * @brief Prepares one split.
   * @param data the data set (features column-major, label).
   * @param players groups of feature columns of `data` (each column in at most one player).
   * @param train_rows training rows (order kept: sums run in this order, as numpy's do), >= 2.
   * @param test_rows rows to score (may be empty).
   * @param split_name how messages name the training rows ("the training rows of split 3").
   * @throws InvalidArgument for bad indices; DataError (one line, naming the feature) for a
   *   missing value in a used cell, a player whose columns are all constant on the training
   *   rows, a non-0/1 or one-class label of a classifier.
   */
  virtual std::unique_ptr<PreparedSplit> Prepare(const Dataset& data, std::span<const Player> players,
                                                 std::span<const std::size_t> train_rows,
                                                 std::span<const std::size_t> test_rows,
                                                 const std::string& split_name) const = 0;
  /**
   * @brief Trains one model on `rows` and `columns` of `data` (in that order; may be empty):
   * Prepare with one player per column, then Fit of all of them.
   */
  std::unique_ptr<Model> Train(const Dataset& data, std::span<const std::size_t> rows,
                               std::span<const std::size_t> columns) const;
  /**
   * @brief Trains one model on `rows` and all `players` (groups of columns): a column constant on
   * the rows inside a larger player is handled as the learner handles it in coalitions. The
   * model's features are the players' columns in player order.
   */
  std::unique_ptr<Model> Train(const Dataset& data, std::span<const std::size_t> rows,
                               std::span<const Player> players) const;
};

/** @brief Makes a learner from its options. @throws InvalidArgument for a bad option. */
using LearnerFactory = std::function<std::shared_ptr<const Learner>(const LearnerParams& params)>;

/** @brief A registered learner: name, one line of help, its options' help, its factory. */
struct LearnerEntry {
  std::string name;
  std::string description;
  /** The learner's options as declared once (name, type, default, range, help; options.hpp):
   *  MakeLearner's parser, the help text and result.json all come from the declaration. */
  std::vector<OptionInfo> options;
  LearnerFactory make;
};

/**
 * @brief The learner called `name`, with `params` parsed by that learner.
 * @throws InvalidArgument for an unknown name (the message lists the registered ones), an
 *   option the learner does not have (listing its options) or a bad option value.
 */
PERFSHAP_EXPORT std::shared_ptr<const Learner> MakeLearner(const std::string& name, const LearnerParams& params = {});

/** @brief The registered learners, built-in first (gnb, logistic, linear, probit). */
PERFSHAP_EXPORT std::vector<LearnerEntry> RegisteredLearners();

/** @brief Registers a learner (for a library user's own), after the built-in ones.
 *  @throws InvalidArgument when the name is taken or empty. Thread-safe. */
PERFSHAP_EXPORT void RegisterLearner(LearnerEntry entry);

/** @brief Removes the learner called `name` (a host unloading its own); learners made earlier
 *  stay valid. @return whether one was registered. Thread-safe. */
PERFSHAP_EXPORT bool UnregisterLearner(const std::string& name);

/** @brief MakeLearner(name, params)->Train(data, rows, columns). */
PERFSHAP_EXPORT std::unique_ptr<Model> Train(const std::string& learner, const Dataset& data,
                                             std::span<const std::size_t> rows,
                                             std::span<const std::size_t> columns, const LearnerParams& params = {});

/** @brief One player per column: Player{name of column c, {c}} for each c of `columns`. */
PERFSHAP_EXPORT std::vector<Player> SingleColumnPlayers(const Dataset& data, std::span<const std::size_t> columns);

}}  // namespace perfshap
