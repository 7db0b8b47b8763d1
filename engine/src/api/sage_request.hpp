// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer's sage method (`perfshap sage`, perfshap.sage): shap's request (the data
// with its labels, the model, the background, the value function, the solver) and the metric
// decomposed; one call gives the SAGE values and what the report says of the run.

#include <optional>
#include <string>
#include <vector>

#include "api/shap_request.hpp"
#include "api/split_input.hpp"
#include "perfshap/sage.hpp"
#include "report/sage_report.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief A sage run: a ShapRequest (the interventional approach; its label column required)
 *  and the metric. */
struct SageRequest : ShapRequest {
  /** A registered metric ("" = log_loss for a classifier, mse for a regressor). */
  std::string metric;
  /** The class rule of the 0/1 metrics: prediction > threshold. */
  double threshold = 0.5;
  /** Model-variability bands: the learner fitted on the training part of every split (a drawn
   *  plan or explicit splits) and SAGE computed on its test part, the background drawn from the
   *  training part; none: one model. */
  std::optional<SplitInput> splits;
  /** With splits: ShapAUC (robustness: the learner retrained on every coalition) on the same
   *  splits beside the SAGE values, one report (retrain vs marginalise). */
  bool compare_retrain = false;
};

/** @brief What a sage run gives: the values and the run's description. */
struct SageResponse {
  /** The values; with cv, their mean over the splits (phi_se: the mean's error from the solver
   *  and the draws). */
  SageValues values;
  detail::ShapRun run;
  /** With cv: the plan, each split's values and the standard deviation of phi over them. */
  std::string plan;
  std::vector<SageValues> splits;
  std::vector<double> phi_std;
  /** With a conditional value function (no cv): the marginal SAGE values beside them, when they
   *  cost no more (MarginalCostsNoMore: the background has no more rows than the draws the model
   *  predicted). */
  std::optional<SageValues> marginal;
  /** With a conditional value function (no cv): the correlations of its background. */
  std::optional<detail::FeatureDependence> dependence;
  /** With compare_retrain: ShapAUC on the same splits beside the SAGE values. */
  std::optional<detail::RetrainComparison> retrain;

  detail::SageReport Report() const {
    return detail::SageReport{values,
                              run,
                              plan,
                              &splits,
                              phi_std,
                              marginal ? &*marginal : nullptr,
                              dependence ? &*dependence : nullptr,
                              retrain ? &*retrain : nullptr};
  }
};

/**
 * @brief Reads the rows and their labels, makes or fits the model, draws or reads the
 * background (PrepareModelRows) and runs ExplainSage; describes the run.
 * @throws InvalidArgument / DataError naming the request's options; ResourceError; Cancelled.
 */
SageResponse RunSage(const SageRequest& request);

}}}  // namespace perfshap::api
