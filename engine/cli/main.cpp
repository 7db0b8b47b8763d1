// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The perfshap command: a registry of subcommands over the library. Errors become one line on
// stderr; exit code 2 for usage and input errors, 1 for internal errors.
#include <exception>
#include <iostream>
#include <string>
#include <utility>

#include "common.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/version.hpp"


namespace {

/** Says `text` (after "perfshap: ") where it is this process's to say, and returns `code`. Under
 *  mpirun the other processes learn an error they can still learn (before the run's agreement)
 *  and rank 0 says it once; an error of this process alone after the agreement ends the job. */
int Fail(int code, const std::string& text, std::exception_ptr error = std::current_exception()) {
  switch (perfshap::cli::FateOfError(std::move(error))) {
    case perfshap::cli::ErrorFate::kSilent:
      return code;
    case perfshap::cli::ErrorFate::kSay:
      std::cerr << "perfshap: " << perfshap::detail::ShortenLongWords(text) << "\n";
      return code;
    case perfshap::cli::ErrorFate::kSayAndAbort:
      std::cerr << "perfshap: rank " << perfshap::cli::ProcessRank() << ": " << perfshap::detail::ShortenLongWords(text)
                << " (ending every process of the MPI run)\n"
                << std::flush;
      perfshap::cli::AbortEveryProcess(code);
  }
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"perfshap: Shapley values for model performance, robustness and predictions", "perfshap"};
  app.set_version_flag("--version", "perfshap " + std::string(perfshap::Version()));
  app.require_subcommand(1);
  const std::vector<perfshap::cli::Command> commands = perfshap::cli::AllCommands();
  for (const auto& cmd : commands) {
    perfshap::cli::AddCommand(app, cmd);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // The others learn it as the library's errors travel (a usage error).
    const std::string text = perfshap::cli::ParseErrorText(e.what()) + " (see perfshap --help)";
    return Fail(2, "error: " + text, std::make_exception_ptr(perfshap::InvalidArgument(text)));
  } catch (const perfshap::Error& e) {
    // The library names its options; say which flags of this command set them.
    std::string command;
    for (const auto& cmd : commands)
      if (app.got_subcommand(cmd.name)) command = cmd.name;
    return Fail(2, "error: " + perfshap::cli::ErrorText(command, e));
  } catch (const std::bad_alloc&) {
    // The buffers that grow with the inputs name themselves (a ResourceError above); this is an
    // allocation the estimates do not cover.
    return Fail(1,
                "error: out of memory (an allocation failed outside the buffers perfshap estimates); use fewer "
                "rows, features or splits, or give --max-memory to be refused before a run starts");
  } catch (const std::exception& e) {
    return Fail(1, "internal error: " + perfshap::cli::OneLine(e.what()));
  }
  return 0;
}
