// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The request layer (engine/src/api/): a method's options given by name, as one JSON object whose
// keys are the command line's long option names with '_' for '-' (the keys of result.json), read
// into the method's typed request once for every front end that speaks names: the C API reads
// the caller's JSON text, Python its keywords. What a front end holds as an object of its own (a
// table in memory, a model, a host's learner, a progress callback) it sets on the request itself.

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "api/robustness_request.hpp"
#include "api/shap_request.hpp"
#include "api/xper_request.hpp"
#include "report/run_reporter.hpp"

namespace perfshap::inline v0::api {

/**
 * @brief The options of one call: typed look-ups that refuse a value of the wrong kind naming its
 * key, and remember which keys were read, so that a front end can refuse the ones no method read
 * (RefuseUnread). A null value is an option not given.
 */
class OptionReader {
 public:
  /** @throws InvalidArgument when `options` is not a JSON object (or null: no options). */
  explicit OptionReader(nlohmann::json options);

  /** Whether `key` is given (present and not null); marks it read. */
  bool Has(const char* key);
  /** The value of `key` into `field` when given. Text, whole numbers (a non-negative one for an
   *  unsigned field), numbers and true / false are checked. @throws InvalidArgument ({key}). */
  void Take(const char* key, std::string& field);
  void Take(const char* key, bool& field);
  void Take(const char* key, double& field);
  void Take(const char* key, int& field);
  void Take(const char* key, std::int64_t& field);
  void Take(const char* key, std::uint64_t& field);
  /** The raw value of a given key (marked read); null when absent. */
  const nlohmann::json& Raw(const char* key);

  /** The options as given, less those that may differ between the processes of an MPI run
   *  (ExecutionOptions::invocation). */
  std::string Invocation() const;
  /** @throws InvalidArgument naming the first key no look-up read, with the ones `method` takes. */
  void RefuseUnread(const std::string& method) const;

 private:
  nlohmann::json options_;
  std::set<std::string> read_;
};

/** @brief The options key (as the JSON options spell it) of a library option a message names
 *  (Error::options()): "time_limit_seconds" is "time_limit", "max_model_evaluations"
 *  "max_evaluations", "max_memory_bytes" "max_memory", "model_params" "model_param",
 *  "signed_weights" "signed"; the others are spelt alike. */
std::string OptionKeyOf(const std::string& option);

/** @brief The data options (data: a CSV path when the request has no table; label, positive,
 *  missing, features as a list or "a,b", groups: a path or {"name": ["column", ...]}). */
void ReadDataOptions(OptionReader& o, DataInput& data);

/** @brief threads, max_memory ("2G" or bytes), max_evaluations. */
void ReadExecutionOptions(OptionReader& o, ExecutionOptions& execution);

/** @brief solver (default `default_solver`), budget, tolerance, time_limit, keep_samples; the
 *  streams' seed is `seed`; checked (CheckSampling). */
void ReadSolverOptions(OptionReader& o, std::uint64_t seed, SolverSpec& solver, SamplingOptions& sampling,
                       const std::string& default_solver);

/** @brief A learner's own options: model_param as {"key": value} or ["key=value", ...]. */
void ReadModelParams(OptionReader& o, std::map<std::string, std::string>& params);

/** @brief Where a run's files go: figures, out (checked and prepared now), force, report. */
detail::ReportTarget ReadReportTarget(OptionReader& o);


/** @brief shap's and treeshap's options (the CLI's flags, rows as [first, last] or "first..last",
 *  iteration_range, model_param); `approach` defaults to "tree" for `treeshap`. */
void ReadShapOptions(OptionReader& o, ShapRequest& request, bool treeshap);



}  // namespace perfshap::api
