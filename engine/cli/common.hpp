// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the command line's subcommands share: each is a registered method's (registered.cpp),
// built from the method registry (api/registry.hpp); this is the terminal's side of a run (the
// progress on stderr, the console, MPI's ranks, the files into --out) and the messages.

#include <exception>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "perfshap/error.hpp"
#include "perfshap/execution.hpp"
#include "report/output.hpp"
#include "report/run_reporter.hpp"

namespace perfshap { inline namespace v0 { namespace cli {

/** @brief The command line's hooks on `exec`: the MPI job's processes, and a progress renderer on stderr (`progress`: auto, bar, plain,
 *  none; nothing with `quiet`) and the estimate of a long run. */
void WireExecution(ExecutionOptions& exec, bool quiet, const std::string& progress, const std::string& what);

/** @brief This process's rank in an MPI run (mpirun -np K perfshap ...), from the launcher's
 *  environment; 0 when not launched by MPI. Only rank 0 prints, writes --out and reports
 *  errors (every process reads the same inputs, so an input error is the same on all). */
int ProcessRank();

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

/** @brief Prints to stdout unless `quiet` (rank 0 only). */
void Say(bool quiet, const std::string& text);

using detail::Reporter;

/**
 * @brief Runs the reporter into `target` (a run's output options): into its folder, published
 * there as one set once every file is written (then report.html with html; detail::PublishFiles);
 * nothing without a folder, and nothing on a rank other than 0.
 */
void Report(const detail::ReportTarget& target, Reporter reporter);

/** @brief `s` on one line: line breaks as spaces, trailing blanks removed. */
std::string OneLine(std::string s);

/** @brief A command-line parse error in the words of perfshap's other messages: a flag given
 *  twice named as such, on one line. */
std::string ParseErrorText(const std::string& what);

/** @brief The items joined with `separator` ("gnb|logistic"), for help texts and messages. */
std::string Join(const std::vector<std::string>& items, const std::string& separator);

/** @brief One subcommand: a registered method's (RegisteredCommand). */
struct Command {
  const char* name;
  const char* description;
  std::function<void(CLI::App&)> setup;
};

/** @brief The flags that set the options an error names (Error::options()), as the command's
 *  method declares them ("--cv"); options it does not declare are left out. */
std::vector<std::string> OptionFlags(const Command& command, const std::vector<std::string>& options);

/** @brief Every subcommand of the tool, in the order `--help` lists them: the registry's methods. */
std::vector<Command> AllCommands();

/** @brief The one-line message of a library error, with the command's flags that set the
 *  options it names appended: "... (--cv, --split)". */
std::string ErrorText(const std::string& command, const Error& error);

/** @brief Adds `command` to `parent`. */
CLI::App* AddCommand(CLI::App& parent, const Command& command);

}}}  // namespace perfshap::cli
