// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A subcommand run inside another program (the tests run commands in-process with learners they
// register): the same flags, the same code and so the same numbers as `perfshap <command>`, with
// the progress and cancellation hooks of the host, and the report files kept in memory. The
// Python module does not use it: it binds the request layer (engine/src/api/) itself.

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/execution.hpp"
#include "report/output.hpp"

namespace perfshap::inline v0::cli {

/** @brief What the host gives a run and gets back. */
struct Embedding {
  /** Progress of the computations (units as the CLI's bar counts them). */
  ProgressCallback progress;
  /** Raised by the host to stop the run (it then throws Cancelled). */
  const std::atomic<bool>* cancel = nullptr;
  /** Filled by the run: what the command prints. */
  std::string console;
  /** Set by the host: keep the reporter for later instead of running it (when there is no --out
   *  and no --report): a host that may never read the files does not pay for them. */
  bool defer_files = false;
  /** Filled by the run: every file its reporter wrote, in order (also written to --out if given). */
  std::vector<detail::ReportFile> files;
  /** Filled by the run instead of `files` with defer_files: the reporter, owning what it reads;
   *  run it into an OutputDir to get the files. */
  std::function<void(detail::OutputDir&)> deferred;
};

/** @brief The embedding of the run on this thread, or null in a plain command-line run. */
Embedding* CurrentEmbedding() noexcept;

/**
 * @brief Runs `args` (the subcommand, then its flags, as on the command line) on this thread
 * with `embedding`.
 * @throws InvalidArgument for a flag the command does not take (CLI11's message), and the
 * command's own errors with the flags that fix them appended, as the command line prints them.
 */
void RunEmbedded(const std::vector<std::string>& args, Embedding& embedding);

/** @brief The one-line message of a library error, with the command's flags that set the
 *  options it names appended: "... (--cv, --split)". */
std::string ErrorText(const std::string& command, const Error& error);

}  // namespace perfshap::cli
