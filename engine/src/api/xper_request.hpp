// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer's XPER method: the sample, the model (coefficients, a learner fitted on a
// training sample, a tree model, or the host's own function), the method's options, and one call
// that gives what the XPER reporter reads. The CLI's flags become this request.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/data_input.hpp"
#include "api/given_model.hpp"
#include "api/robustness_request.hpp"
#include "perfshap/cluster.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/xper.hpp"
#include "report/xper_report.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief The model XPER explains: at most one of a coefficients file, a training sample, or a
 *  given model (GivenModelInput: a tree model, file, text or object, or a host's function of one
 *  score a row); none: the generated design's probit. */
struct XperModelInput : GivenModelInput {
  /** With `coefficients`: probit, logistic or linear; with `train`: the learner (by name, with
   *  `learner.params`, or the host's own `learner.learner`). */
  LearnerInput learner{"", {}, nullptr};
  /** A CSV of name,coefficient lines, 'const' first: an already-fitted GLM. */
  std::string coefficients;
  /** The training sample the learner is fitted on (its label column is the sample's). */
  std::optional<DataInput> train;
};

/** @brief An XPER run. The sample: `data` (a table or file with its label; the label is read as
 *  a number unless `data.positive` is given) or, with neither, rows 700..999 of the XPER paper's
 *  probit design from `options.seed`. */
struct XperRequest {
  DataInput data;
  XperModelInput model;
  /** The metric, comparator, costs, threshold, seed, solver and execution (its players are set
   *  from the model's design). */
  XperOptions options;
  /** The comparator's permutation (comparator permuted) from a file of one index a line. */
  std::string permutation_file;
  std::optional<std::size_t> explain_row;
  /** The heterogeneity analysis: none, 0 (k = 2..10 by the silhouette) or k >= 2. */
  std::optional<std::size_t> clusters;
  /** The training sample's decomposition next to the sample's (needs a training sample). */
  bool overfit = false;
  /** A conditional value function's (options.conditional) training sample: `background_rows` (a
   *  table or file with the model's feature columns; a label column is ignored), else
   *  `background` rows drawn with the seed from the training sample (a learner's) or the sample;
   *  none: every row of that. The marginal value function takes none. */
  std::optional<std::size_t> background;
  std::optional<DataInput> background_rows;
};

/** @brief What an XPER run gives: every result the reporter reads, owned. */
struct XperResponse {
  XperResult result;
  Dataset sample;  ///< the sample explained, its columns in the model's order
  std::optional<XperResult> train_result;
  std::optional<XperClusters> clusters;
  std::optional<XperClusterRefit> refit;
  /** With a conditional value function: the marginal (the paper's) decomposition of the same
   *  sample beside it, when its n^2 hybrid points a coalition are no more than the conditional
   *  draws (n <= conditional_samples). */
  std::optional<XperResult> marginal;
  /** With a conditional value function: the correlations of its background. */
  std::optional<detail::FeatureDependence> dependence;
  detail::XperRun run;

  /** The reporter's view of it. */
  detail::XperReport Report() const;
};

/** @brief The seed of an XPER run when none is given (the command's and Python's default). */
inline constexpr std::uint64_t kXperDefaultSeed = 2024;

/** @brief The names `coefficients` takes: probit, logistic, linear. */
const std::vector<std::string>& GlmModelNames();

/**
 * @brief Reads the sample, makes the model (checking the estimated cost before a learner is
 * fitted), runs ExplainXper, and the training sample's decomposition, the clusters and the
 * refits when asked; describes the run.
 * @throws InvalidArgument / DataError naming the request's options; ResourceError; Cancelled.
 */
XperResponse RunXper(const XperRequest& request);

}}}  // namespace perfshap::api
