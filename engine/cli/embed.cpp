// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "embed.hpp"

#include <algorithm>

#include "common.hpp"
#include "perfshap/error.hpp"

namespace perfshap::inline v0::cli {

namespace {

thread_local Embedding* current = nullptr;

/** Sets the thread's embedding for one run, and clears it however the run ends. */
class EmbeddingScope {
 public:
  explicit EmbeddingScope(Embedding& e) : previous_(current) { current = &e; }
  ~EmbeddingScope() { current = previous_; }
  EmbeddingScope(const EmbeddingScope&) = delete;
  EmbeddingScope& operator=(const EmbeddingScope&) = delete;

 private:
  Embedding* previous_;
};

const Command& FindCommand(const std::vector<Command>& commands, const std::string& name) {
  const auto it = std::find_if(commands.begin(), commands.end(), [&](const Command& c) { return name == c.name; });
  if (it == commands.end()) {
    std::vector<std::string> names;
    for (const Command& c : commands) names.emplace_back(c.name);
    throw InvalidArgument("no command '" + name + "'; the commands are " + Join(names, ", "));
  }
  return *it;
}

}  // namespace

Embedding* CurrentEmbedding() noexcept { return current; }

std::string ErrorText(const std::string& command, const Error& error) {
  std::string text = OneLine(error.what());
  const std::vector<Command> commands = AllCommands();
  const auto it = std::find_if(commands.begin(), commands.end(), [&](const Command& c) { return command == c.name; });
  if (it == commands.end()) return text;
  std::string flags;
  for (const std::string& flag : OptionFlags(*it, error.options())) flags += (flags.empty() ? " (" : ", ") + flag;
  return flags.empty() ? text : text + flags + ")";
}

void RunEmbedded(const std::vector<std::string>& args, Embedding& embedding) {
  PERFSHAP_CHECK(!args.empty(), "no command to run");
  const std::vector<Command> commands = AllCommands();
  const Command& command = FindCommand(commands, args.front());
  CLI::App app{"perfshap", "perfshap"};
  app.require_subcommand(1);
  AddCommand(app, command);
  std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes the arguments last first
  EmbeddingScope scope(embedding);
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    throw InvalidArgument(OneLine(e.what()));
  } catch (const Cancelled&) {
    throw;
  } catch (const DataError& e) {  // the kind and the option names stay (Python's exception classes)
    throw DataError(ErrorText(command.name, e), e.options());
  } catch (const Error& e) {
    throw InvalidArgument(ErrorText(command.name, e), e.options());
  }
}


}  // namespace perfshap::cli
