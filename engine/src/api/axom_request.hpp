// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer's AXOM method (`perfshap axom`, perfshap.axom): one data set over several
// seeds, or the paper's protocol on its data sets; one call that gives what the AXOM reporter
// reads.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/data_input.hpp"
#include "api/given_model.hpp"
#include "perfshap/axom.hpp"
#include "perfshap/execution.hpp"
#include "report/axom_report.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief An AXOM run: `data` (one data set; its label column "label" unless named), or with
 *  `paper` the paper's data sets from `data_dir`. */
struct AxomRequest {
  DataInput data;
  /** How the report names the one data set (default: the file's stem, or the table's source). */
  std::string name;
  /** The paper's protocol on wine, glass, seeds and banknote (tuned, 10 seeds by default); with
   *  `wide` also breast_cancer, ionosphere and sonar, read from `data_dir`. */
  bool paper = false;
  bool wide = false;
  std::string data_dir = "tests/fixtures/data";
  /**
   * A fitted forest of the host's: `model.tree_model`, classification trees whose leaves hold
   * class fractions (a scikit-learn RandomForestClassifier or ExtraTreesClassifier converted from
   * its arrays, a perfshap forest). Its AXOM and forest explanations of every row of `data` (the
   * model's features by name; a `data.label` column, when named, is not one) and their
   * robustness there, each feature's box eps x its range over those rows (ExplanationRobustness-
   * Options::scale: the paper's box on min-max normalised features, for a forest fitted on raw
   * ones). The fitting options (tune, trees, max_depth, seeds) do not apply. An XGBoost model
   * (`model.tree_file` or `tree_text`) is refused: boosted trees have no labels of their own; so
   * is a host's function (AXOM needs the trees).
   */
  GivenModelInput model;
  /** Tune the tree and the forest by cross-validated grid search (always with `paper`). */
  bool tune = false;
  int trees = 100;
  int max_depth = 0;
  /** The neighbourhood box's half-width (features min-max normalised), in (0, 0.5]. */
  double eps = 0.01;
  std::size_t neighbours = 10000;
  /** Seeds seed, seed + 1, ...: none = 1 (10 with `paper`). */
  std::optional<std::size_t> seeds;
  bool full_matrix = false;
  /** The heat maps' two features (one data set); none: the forest's two most important. */
  std::optional<std::pair<std::string, std::string>> heatmap_features;
  std::size_t heatmap_grid = 100;
  std::uint64_t seed = 0;
  /** A directory that keeps every finished seed's run of every data set (one subdirectory per
   *  data set; the first seed, whose trees draw the heat maps, is always run): the same request
   *  after a crash reads them instead (empty: none). As RobustnessOptions::checkpoint. */
  std::string checkpoint;
  ExecutionOptions execution;
  /** The execution of one data set (a front end's progress line named by it); none: `execution`. */
  std::function<ExecutionOptions(const std::string& data_set)> execution_of;
  /** Called with each data set's report as it is done (a front end that prints as it goes). */
  std::function<void(const detail::AxomDataReport&)> on_data_set;
};

/** @brief What an AXOM run gives: one report per data set (or, for a given forest, `given`),
 *  and the run's settings. */
struct AxomResponse {
  std::vector<detail::AxomDataReport> reports;
  std::optional<detail::AxomModelReport> given;
  detail::AxomReportSettings settings;
  bool paper = false;
};

/**
 * @brief Reads each data set, runs RunAxomProtocol for every seed and, for one data set, the
 * heat maps of the first seed.
 * @throws InvalidArgument / DataError naming the request's options; ResourceError; Cancelled.
 */
AxomResponse RunAxom(const AxomRequest& request);

}}}  // namespace perfshap::api
