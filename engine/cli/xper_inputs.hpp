// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The flags of `perfshap xper`, and what they make before ExplainXper runs: the sample (--data
// or the paper's probit design), the features and the model (--coef coefficients, or a learner
// fitted on --train).

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/learner.hpp"
#include "perfshap/model.hpp"
#include "report/xper_report.hpp"

namespace perfshap::cli {

/** Flags of `perfshap xper`. */
struct XperCliOptions {
  CommonOptions common;
  std::string metric = "auc";
  double cfp = 1.0;
  double cfn = 1.0;
  double threshold = 0.5;
  std::string model;
  /** --model-param KEY=VALUE: options of the --model learner. */
  std::vector<std::string> model_params;
  std::string coef;
  std::string train;
  /** --model-file: an XGBoost JSON model (binary or regression), explained as it is. */
  std::string model_file;
  /** --iteration-range BEGIN:END: the rounds of --model-file used. */
  std::string iteration_range;
  std::string comparator = "full";
  std::string permutation;
  std::string features;
  long long explain_row = -1;
  int max_features = 20;
  SolverCliOptions solver;
  std::string clusters;  // "", "auto" or a number of clusters
  bool overfit = false;
};

/** @brief The models --coef gives (a GLM each): probit, logistic, linear. */
const std::vector<std::string>& GlmModelNames();

/**
 * @brief The sample: --data read with --label (as a number without --positive, so that XPER's
 * own checks report a label that is not 0/1), or rows 700..999 of the paper's probit design.
 * @throws InvalidArgument naming the flags missing.
 */
Dataset LoadXperSample(const XperCliOptions& o, bool regression);

/** @brief --features, checked against the sample's columns, or all its columns. */
std::vector<std::string> XperFeatures(const XperCliOptions& o, const Dataset& data);

/** @brief The explained model, its samples and players, and what the report says of it. */
struct XperModel {
  std::unique_ptr<Model> model;
  std::shared_ptr<const Learner> learner;  ///< with --train
  Dataset sample;                          ///< the sample, the model's columns (text one-hot)
  Dataset train_sample;                    ///< with --train: its rows, the model's columns
  /** The players over the model's columns when some player has several (a one-hot text column,
   *  --groups); empty when every column is a player of its own. */
  std::vector<Player> players;
  detail::XperModelInfo info;
};

/**
 * @brief The model of --coef (or the design's true probit) or of --model M --train FILE, over
 * the design of `features` (text columns one-hot, the players of --groups, fitted on --train
 * when given, else on the sample); `features` becomes the model's column order.
 * @throws DataError naming the coefficient or training file when it does not fit the features.
 */
/** @brief Called before a learner is fitted on --train: its training rows, the design's columns
 *  and players, and the learner (the command checks the request's cost there). */
using BeforeFit = std::function<void(std::size_t rows, std::size_t columns, std::size_t players, const Learner& learner)>;

XperModel MakeXperModel(const XperCliOptions& o, const Dataset& data, std::vector<std::string>& features,
                        const BeforeFit& before_fit = {});

/** @brief The sample restricted to the columns `names`, in that order. */
Dataset SelectColumns(const Dataset& d, const std::vector<std::string>& names);

}  // namespace perfshap::cli
