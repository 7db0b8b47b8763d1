// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The perfshap command: a registry of subcommands over the library. Errors become one line on
// stderr; exit code 2 for usage and input errors, 1 for internal errors.
#include <exception>
#include <iostream>
#include <string>

#include "common.hpp"
#include "embed.hpp"
#include "perfshap/error.hpp"
#include "perfshap/version.hpp"


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
    if (perfshap::cli::ProcessRank() != 0) return 2;  // rank 0 says it (every rank parses alike)
    std::cerr << "perfshap: error: " << perfshap::cli::OneLine(e.what()) << " (see perfshap --help)\n";
    return 2;
  } catch (const perfshap::Error& e) {
    // Under mpirun every rank reads the same inputs and shares the errors of the work: rank 0
    // says it.
    if (perfshap::cli::ProcessRank() != 0) return 2;
    // The library names its options; say which flags of this command set them.
    std::string command;
    for (const auto& cmd : commands)
      if (app.got_subcommand(cmd.name)) command = cmd.name;
    std::cerr << "perfshap: error: " << perfshap::cli::ErrorText(command, e) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    // The buffers that grow with the inputs name themselves (a ResourceError above); this is an
    // allocation the estimates do not cover.
    std::cerr << "perfshap: error: out of memory (an allocation failed outside the buffers perfshap estimates); "
                 "use fewer rows, features or splits, or give --max-memory to be refused before a run starts\n";
    return 1;
  } catch (const std::exception& e) {
    const int rank = perfshap::cli::ProcessRank();
    std::cerr << "perfshap: internal error" << (rank != 0 ? " (rank " + std::to_string(rank) + ")" : std::string())
              << ": " << perfshap::cli::OneLine(e.what()) << "\n";
    return 1;
  }
  return 0;
}
