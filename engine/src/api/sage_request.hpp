// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer's sage method (`perfshap sage`, perfshap.sage): shap's request (the data
// with its labels, the model, the background, the value function, the solver) and the metric
// decomposed; one call gives the SAGE values and what the report says of the run.

#include <string>

#include "api/shap_request.hpp"
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
};

/** @brief What a sage run gives: the values and the run's description. */
struct SageResponse {
  SageValues values;
  detail::ShapRun run;

  detail::SageReport Report() const { return detail::SageReport{values, run}; }
};

/**
 * @brief Reads the rows and their labels, makes or fits the model, draws or reads the
 * background (PrepareModelRows) and runs ExplainSage; describes the run.
 * @throws InvalidArgument / DataError naming the request's options; ResourceError; Cancelled.
 */
SageResponse RunSage(const SageRequest& request);

}}}  // namespace perfshap::api
