// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer (engine/src/api/): what every front end hands back of a method's run, one
// record for all: the console text, the result's numbers as named arrays (shape + values, from
// the engine's buffers) and names, and the reporter that writes its files (result.json, the
// CSVs, the figures) when they are asked for. Python turns the arrays into numpy, the C API
// lends them to the caller.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "api/axom_request.hpp"
#include "api/chains_request.hpp"
#include "api/demo_request.hpp"
#include "api/robustness_request.hpp"
#include "api/shap_request.hpp"
#include "api/xper_request.hpp"
#include "report/run_reporter.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief A result's numbers: row-major values of `shape` (empty shape: one number); `whole`
 *  when they are counts or indices (a front end may hand them over as integers). Small arrays
 *  hold their values (`owned`); a large one is lent by the response it comes from (`lent`, kept
 *  alive by `keep`), never copied. */
struct ResultArray {
  std::string name;
  std::vector<std::size_t> shape;
  std::vector<double> owned;
  bool whole = false;
  std::span<const double> lent{};
  std::shared_ptr<const void> keep{};

  /** @brief The values, wherever they are. */
  std::span<const double> values() const noexcept { return keep != nullptr ? lent : std::span<const double>(owned); }
};

/** @brief A result's list of names (features, players, outputs). */
struct ResultNames {
  std::string name;
  std::vector<std::string> values;
};

/** @brief A method's run as a front end holds it. */
struct MethodRun {
  std::string method;
  std::string console;
  std::vector<ResultArray> arrays;
  std::vector<ResultNames> names;
  detail::Reporter reporter;

  /** The array named `name`, or null. */
  const ResultArray* Array(const std::string& name) const;
  /** The names named `name`, or null. */
  const ResultNames* Names(const std::string& name) const;
};

/**
 * @brief An XPER run's record: value, base, phi (players) and feature_names; the console text
 * names `out_dir` (empty: in memory). result.json (the reporter's) holds the rest; its words for
 * where the permutations come from (response.run) are the front end's.
 */
MethodRun XperMethodRun(XperResponse response, const std::string& out_dir);

/**
 * @brief A shap or treeshap run's record: values (rows x outputs x players), base_values (rows x
 * outputs), players and outputs.
 */
MethodRun ShapMethodRun(ShapResponse response, const std::string& out_dir, const std::string& method);

/**
 * @brief A robustness run's record: value, value_std, base, phi, phi_std, phi_se, auprc,
 * auprc_std, phi_auprc, phi_auprc_std, phi_auprc_se, auc_by_split, n_splits, n_trainings and
 * feature_names.
 */
MethodRun RobustnessMethodRun(RobustnessResponse response, const std::string& out_dir);

/**
 * @brief An AXOM run's record. With a given forest: values and forest_values (rows x features,
 * each row's predicted class), labels, kept_trees, l_bar_rf, l_hat_rf, l_bar_axom, l_hat_axom,
 * mislabelling_per_row, feature_names and class_names; otherwise the console text and the
 * reporter (result.json holds the numbers, nested per data set).
 */
MethodRun AxomMethodRun(AxomResponse response);

/** @brief A Shapley Chains run's record: the console text and the reporter (result.json holds
 *  the numbers, nested per order). */
MethodRun ChainsMethodRun(detail::ChainsReport report);

/** @brief The demo's record: the console text and the reporter (one section a method). */
MethodRun DemoMethodRun(DemoResponse response, const std::string& out_dir);

}}}  // namespace perfshap::api
