// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The method registry (issue 36): one entry per method, under every front end. An entry holds the
// method's name, description, the tables and model it takes, its options (declared once:
// method_options.hpp, with the shared groups of shared_options.hpp) and its run, which returns
// one record (MethodRun). The command line builds each subcommand's flags, help and checks from
// it, the C API and Python look methods up in it by name, and all three hand the options over as
// text: one parse, one message, whichever front end a value came through.
//
// A new method is its files in api/methods/ and one line in api/methods/method_list.inc.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "api/given_model.hpp"
#include "api/method_options.hpp"
#include "api/method_run.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/processes.hpp"
#include "perfshap/table.hpp"
#include "report/run_reporter.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief The objects a front end hands a method besides its options. */
enum class InputRole : std::uint8_t {
  kData,        ///< the rows to explain or decompose
  kTrain,       ///< a training sample
  kBackground,  ///< the background (reference) rows
  kModel,       ///< a fitted model (an XGBoost JSON model's text, a host's model)
  kLearner,     ///< a host's learner (fitted on every coalition)
  kSplits,      ///< explicit train / test splits in memory
};

/** @brief "data", "train", "background", "model", "learner", "splits". */
const char* RoleName(InputRole role) noexcept;

/** @brief What a front end hands a method: tables and a model in memory, and how a computation
 *  reports progress and is cancelled. */
struct MethodInputs {
  std::shared_ptr<const Table> data, train, background;
  /** A fitted model in memory: an XGBoost model's text, a host's tree model or function. */
  std::optional<GivenModelInput> model;
  /** The host's own learner (a scikit-learn estimator's), used where the options name a learner. */
  std::shared_ptr<const Learner> learner;
  /** Explicit splits in memory, and whether they were given as a list (messages say splits[s]). */
  struct Splits {
    SplitPlan plan;
    bool listed = true;
  };
  std::optional<Splits> splits;
  /** Sets a computation's progress, cancellation and processes (the front end's); `what` names
   *  what its progress counts ("coalitions", "samples"). */
  std::function<void(ExecutionOptions&, const std::string& what)> wire;
  /** Set by CallMethod: the run's output directory (empty: in memory), and its invocation (the
   *  options given, less those that may differ between the processes of an MPI run). */
  std::string out_dir;
  std::string invocation;
  /** Whether this process checks the output directory before the run (rank 0 of an MPI run). */
  bool prepare_out = true;

  /** @brief `execution` with this call's invocation and the front end's hooks. */
  void Wire(ExecutionOptions& execution, const std::string& what) const;
  /** @brief The execution options of each part of a run (a demo's section, an AXOM data set):
   *  `base` wired (Wire) with the part's name as what its progress counts. The function refers
   *  to these inputs: call it while they live. */
  std::function<ExecutionOptions(const std::string& part)> WirePerPart(const ExecutionOptions& base) const;
};

/** @brief One registered method. */
struct MethodEntry {
  std::string name;
  /** One line, for the command line's list of subcommands and the docstrings. */
  std::string description;
  /** The tables and the model it takes (a front end refuses the others, naming the role). */
  std::vector<InputRole> inputs;
  /** Its options, in the order help lists them (the output options are every method's and are
   *  not repeated here: OutputOptionGroup). */
  std::vector<MethodOption> options;
  /** Runs it: the options given (the output options taken out), on the inputs. */
  std::function<MethodRun(const MethodInputs&, const GivenOptions&)> run;
};

/** @brief Every method, in the order the command line lists them. */
const std::vector<MethodEntry>& Methods();

/** @brief The method named `name`, or null. */
const MethodEntry* FindMethod(const std::string& name);

/** @brief A method's run and where its files go. */
struct MethodCall {
  MethodRun run;
  detail::ReportTarget target;
};

/**
 * @brief Runs method `name`: refuses an input it does not take and an unknown option (naming
 * them), reads the output options (checking the output directory before anything runs), and runs
 * it. @throws InvalidArgument for an unknown method (listing them) and the method's errors.
 */
MethodCall CallMethod(const std::string& name, MethodInputs inputs, const GivenOptions& given);

/**
 * @brief JSON options ({"name": value}, as the C API and Python hand them over) as text values:
 * text as it is, numbers as JSON writes them (a double as the shortest text that reads back to
 * it), true / false, a list as its items joined by commas, an object as its JSON text; null is an
 * option not given. @throws InvalidArgument when `options` is not an object.
 */
GivenOptions OptionTextOfJson(const nlohmann::json& options);

/** @brief The option a message names (Error::options()) as a front end's caller spells it where
 *  the library's field has a name of its own: "time_limit_seconds" is "time_limit",
 *  "max_model_evaluations" "max_evaluations", "max_memory_bytes" "max_memory", "model_params"
 *  "model_param", "signed_weights" "signed"; the others are spelt alike. */
std::string OptionKeyOf(const std::string& option);

/**
 * @brief The processes the JSON option mpi_comm names (the address of the caller's MPI_Comm:
 * mpi4py's MPI._addressof(comm), the C API's (uintptr_t)&comm), taken out of `options` and noted
 * for the run's agreement; null when it is not given.
 * @throws InvalidArgument (mpi_comm) for another value.
 */
std::shared_ptr<const Processes> TakeMpiComm(nlohmann::json& options);

}}}  // namespace perfshap::api
