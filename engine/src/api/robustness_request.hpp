// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer's robustness method: everything a run of ShapAUC / ShapROC / ShapPRC takes,
// typed (the data, the learner, the split plan, the method's options), and one call that gives
// the result and the run's description the reporters read. The CLI's flags and Python's
// keywords both become this request; neither repeats what it does.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "api/data_input.hpp"
#include "api/split_input.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/robustness.hpp"
#include "report/robustness_report.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief The learner of a method that trains: a registered one by name, or the host's own. */
struct LearnerInput {
  /** A registered learner (RegisteredLearners) made with `params`, when there is no `learner`. */
  std::string name = "gnb";
  LearnerParams params;
  /** The host's own learner, used as it is (it keeps its own options: `params` must be empty). */
  std::shared_ptr<const Learner> learner;
};

/** @brief The learner of `input`. @throws InvalidArgument as MakeLearner, or (options():
 *  `model_params`) for params given with the host's own learner. */
std::shared_ptr<const Learner> MakeLearnerOf(const LearnerInput& input);

/** @brief A robustness run. `options.learner`, `options.players` and `options.plan_name` are
 *  set from `learner`, `data` and `splits`; the rest of `options` is used as it is. */
struct RobustnessRequest {
  DataInput data;
  LearnerInput learner;
  SplitInput splits;
  RobustnessOptions options;
  /** The FPR of the report's waterfall slice, in [0, 1]. */
  double slice_fpr = 0.2;
  /** Draws the splits and generates the built-in design (the solvers' seed is options.sampling's). */
  std::uint64_t seed = 0;
  /** Starts the thread pool while the data is read (a front end that runs one computation; a
   *  library call never starts threads it does not need). */
  bool warm_up_pool = false;
};

/** @brief What a robustness run gives: the result, and the run's description. */
struct RobustnessResponse {
  RobustnessResult result;
  detail::RobustnessRun run;
};

/**
 * @brief Reads the data, makes the learner and the players, checks the cost of a drawn plan
 * before drawing it (CheckCost), draws or reads the splits, runs ExplainRobustness and
 * describes the run.
 * @throws InvalidArgument / DataError naming the request's options (Error::options()) as the
 *   steps above do; ResourceError when the estimate is refused; Cancelled.
 */
RobustnessResponse RunRobustness(const RobustnessRequest& request);

}}}  // namespace perfshap::api
