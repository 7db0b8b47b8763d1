// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "api/data_input.hpp"
#include "api/robustness_request.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/trees.hpp"
#include "report/output.hpp"
#include "report/run_reporter.hpp"
#include "report/format.hpp"

namespace perfshap::inline v0::cli {

using detail::Fmt;

/** Flags every subcommand shares. */
struct CommonOptions {
  std::string data;
  std::string label;
  std::string positive;
  int threads = 0;
  std::uint64_t seed = 0;
  std::string out;
  bool quiet = false;
  bool force = false;
  std::string progress = "auto";
  /** --groups FILE: players as groups of columns (JSON {"name": ["col", ...]}). */
  std::string groups;
  /** --missing error|category|drop. */
  std::string missing = "error";
  /** --report html: also write report.html (report/html_report.hpp) into --out. */
  std::string report;
  /** --max-memory SIZE ("8G"; empty = the library's default share of the machine's memory). */
  std::string max_memory;
  /** --max-evaluations N (0 = the library's default, kDefaultMaxModelEvaluations). */
  double max_evaluations = 0.0;
  /** --figures none|summary|all (detail::FigureSet). */
  std::string figures = "summary";
};

/** @brief Adds --data --label --positive --groups --missing --threads --seed --out --quiet
 *  --force --progress --report --figures. */
void AddCommonOptions(CLI::App& app, CommonOptions& opts, std::uint64_t default_seed);

/** @brief Adds only --threads --seed --out --quiet --force --progress --report --figures (for subcommands that
 *  generate their own data), with the given help texts for --seed and --out. */
void AddRunOptions(CLI::App& app, CommonOptions& opts, std::uint64_t default_seed, const std::string& seed_help,
                   const std::string& out_help);

/** @brief The solver flags of a Shapley method. */
struct SolverCliOptions {
  std::string solver = "exact";
  std::uint64_t budget = 0;
  double tolerance = 0.01;
  double time_limit = 0.0;
  bool keep_samples = false;
};

/** @brief Adds --solver --budget --tolerance --time-limit --keep-samples; `unit` names what a
 *  coalition evaluation is ("trainings per split", "coalitions"). */
void AddSolverOptions(CLI::App& app, SolverCliOptions& opts, const std::string& unit);

/** @brief The solver name and the sampling options of the flags (seed: the run's --seed).
 *  @throws InvalidArgument for a tolerance outside (0, 1) or a negative time limit, whatever
 *  the solver (a flag that would be ignored is still an error). */
void ApplySolverOptions(const SolverCliOptions& opts, std::uint64_t seed, SolverSpec& solver,
                        SamplingOptions& sampling);

/** @brief ExecutionOptions from the flags: threads, and a progress renderer on stderr (a bar
 *  when stderr is a terminal, plain lines with --progress plain, nothing otherwise). */
ExecutionOptions MakeExecution(const CommonOptions& opts, const std::string& what);

/** @brief The command line's hooks on `exec`: the MPI job's processes, the embedding host's
 *  progress and cancellation, or a progress renderer on stderr (`progress`: auto, bar, plain,
 *  none; nothing with `quiet`) and the estimate of a long run. */
void WireExecution(ExecutionOptions& exec, bool quiet, const std::string& progress, const std::string& what);

/** @brief This process's rank in an MPI run (mpirun -np K perfshap ...), from the launcher's
 *  environment; 0 when not launched by MPI. Only rank 0 prints, writes --out and reports
 *  errors (every process reads the same inputs, so an input error is the same on all). */
int ProcessRank();

/** @brief Keeps the command line (main's argv) for the runs' ExecutionOptions::invocation, less
 *  the flags that may differ between the processes of an MPI run (--threads, --progress,
 *  --quiet, --max-memory). */
void SetInvocation(int argc, const char* const* argv);

/** @brief What to do with this process's error under mpirun (a plain run: say it). */
enum class ErrorFate {
  kSay,          // this process says it (rank 0, or a process alone)
  kSilent,       // rank 0 says it (the others know it too)
  kSayAndAbort,  // this process's own error after the processes agreed: say it, end the job
};
/** @brief Tells the other processes of an MPI run of `error` when they can still learn it (before
 *  the run's agreement), and says who prints it. */
ErrorFate FateOfError(std::exception_ptr error);

/** @brief Ends every process of this MPI run with exit status `code` (MPI_Abort). */
[[noreturn]] void AbortEveryProcess(int code);

/** @brief The missing-value policy of --missing. */
MissingValues MissingPolicy(const CommonOptions& opts);

/**
 * @brief The design a learner trains on: --data (or the generated design) read with --missing,
 * the columns of --features (comma-separated names; all when empty), text columns one-hot
 * (`policy`), and the players of --groups.
 */
Design LoadDesign(const CommonOptions& opts, std::size_t rows, const std::string& features,
                  TextColumns policy = TextColumns::kOneHot);

/** @brief The data flags as the request layer's input: --data (a CSV file) with --label --positive --missing, --features, --groups, or the
 *  generated design of `rows` rows. */
api::DataInput CommandData(const CommonOptions& opts, std::size_t rows, const std::string& features);

/** @brief The CSV file `path` as the request layer's input (no label, players or policy yet). */
api::DataInput TableInput(const std::string& path);

/** @brief The groups of --groups (none when it is not given). */
std::vector<FeatureGroup> LoadGroups(const CommonOptions& opts);

/** @brief Reads --data (binary label by default) or throws a usage error when --label is missing. */
Dataset LoadData(const CommonOptions& opts, bool regression = false);

/** @brief Checks --out before the computation starts (so a long run never ends in a refusal). */
void PrepareOut(const CommonOptions& opts);

/** @brief Reads --data, or with no --data generates the XPER paper's probit design with
 *  `rows` rows from --seed (the built-in data every subcommand runs on out of the box). */
Dataset LoadDataOrProbitDesign(const CommonOptions& opts, std::size_t rows);

/** @brief Prints to stdout unless --quiet (an embedded run keeps the text: Embedding::console). */
void Say(const CommonOptions& opts, const std::string& text);
void Say(bool quiet, const std::string& text);

/** @brief The learner --model names: the registered one made with `params`. */
api::LearnerInput CommandLearner(const std::string& name, const LearnerParams& params);
/** @brief api::MakeLearnerOf(CommandLearner(name, params)). */
std::shared_ptr<const Learner> MakeCommandLearner(const std::string& name, const LearnerParams& params);

/**
 * @brief --iteration-range BEGIN:END (BEGIN,END too: a Python tuple arrives so): boosting rounds
 * [BEGIN, END) of an XGBoost --model-file, END 0 = to the last round; unset for "".
 * @throws InvalidArgument (one line) for other text, or a range given without a --model-file.
 */
XgboostReadOptions ModelReadOptions(const std::string& iteration_range, const std::string& model_file);

/** @brief Adds --iteration-range to a subcommand taking --model-file. */
void AddIterationRangeOption(CLI::App& app, std::string& iteration_range);

using detail::Reporter;

/**
 * @brief Runs the reporter with --figures: into --out, published there as one set once every
 * file is written (then report.html with --report html; detail::PublishFiles), and for an
 * embedding host; nothing without either. A host that defers the files (Embedding::defer_files)
 * and gave no --out gets the reporter itself, to run when it first reads them, so the reporter
 * must own what it reads (capture by value, never the command's options or locals by reference).
 */
void Report(const CommonOptions& opts, Reporter reporter);
/** @brief Report into `target` (a registered method's run: its output options). */
void Report(const detail::ReportTarget& target, Reporter reporter);

/** @brief `s` on one line: line breaks as spaces, trailing blanks removed. */
std::string OneLine(std::string s);

/** @brief A command-line parse error in the words of perfshap's other messages: a flag given
 *  twice named as such, a lower bound said as one (not as a range up to 1.8e308), on one line. */
std::string ParseErrorText(const std::string& what);

/** @brief The items of a comma-separated flag value ("a, b,,c" -> a, b, c): each trimmed of
 *  blanks and one pair of double quotes, empty items dropped. */
std::vector<std::string> SplitList(const std::string& text);

/** @brief The items joined with `separator` ("gnb|logistic"), for help texts and messages. */
std::string Join(const std::vector<std::string>& items, const std::string& separator);

/** @brief The names of the registered learners (RegisteredLearners), built-in first. */
std::vector<std::string> LearnerNames();

/** @brief One registered subcommand, and its spelling of the library options its errors name
 *  where it differs from the common one (OptionFlags). */
struct Command {
  const char* name;
  const char* description;
  std::function<void(CLI::App&)> setup;
  std::map<std::string, std::string> flags = {};
};

/**
 * @brief The flags that set the library options an error names (Error::options()), in the
 * command's spelling (its own flags first, then the common ones); options with no flag are
 * left out.
 */
std::vector<std::string> OptionFlags(const Command& command, const std::vector<std::string>& options);

/** @brief Every subcommand of the tool, in the order `--help` lists them. */
std::vector<Command> AllCommands();

/**
 * @brief Adds `command` to `parent` (its setup, then one rule for all its whole-number flags:
 * plain decimal digits within the field's range, so that `--seed -1`, `--seed 2^64` or
 * `--rows 010` are refused rather than wrapped or read as octal). Every front end that builds
 * the command line (the perfshap binary, the embedding) adds commands with this.
 */
CLI::App* AddCommand(CLI::App& parent, const Command& command);

/** @brief Adds --model-param KEY=VALUE (repeatable): any option of the --model learner, as the
 *  learner declares it (perfshap/blocks/options.hpp), with no flag of its own needed. */
void AddModelParamOption(CLI::App& app, std::vector<std::string>& items);

/**
 * @brief The learner options of a run: `from_flags` (what dedicated flags such as --C set, only
 * when given) and the --model-param items. @throws InvalidArgument for an item that is not
 * KEY=VALUE, a key given twice, or a key that a given flag also sets. Whether the learner has
 * the option, and its value's type and range, the learner checks (MakeLearner).
 */
LearnerParams ModelParams(const std::vector<std::string>& items, LearnerParams from_flags = {},
                          const std::map<std::string, std::string>& flag_of = {});

}  // namespace perfshap::cli
