// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The subcommands: one per method of the registry (api/registry.hpp), in its order.
#include "commands.hpp"

#include <algorithm>
#include <string>

#include "api/registry.hpp"
#include "api/shared_options.hpp"

namespace perfshap { inline namespace v0 { namespace cli {

std::vector<std::string> OptionFlags(const Command& command, const std::vector<std::string>& options) {
  std::vector<std::string> out;
  const api::MethodEntry* method = api::FindMethod(command.name);
  if (method == nullptr) return out;
  std::vector<api::MethodOption> all = method->options;
  for (const api::MethodOption& o : api::OutputOptionGroup().options()) all.push_back(o);
  for (const std::string& option : options) {
    // A registered method's option is its --flag ('-' for '_').
    const api::MethodOption* o = detail::OptionOfField(all, option);
    if (o == nullptr) continue;
    std::string flag = "--" + o->info.name;
    std::replace(flag.begin(), flag.end(), '_', '-');
    if (std::find(out.begin(), out.end(), flag) == out.end()) out.push_back(flag);
  }
  return out;
}

std::vector<Command> AllCommands() {
  std::vector<Command> commands;
  for (const api::MethodEntry& m : api::Methods()) commands.push_back(RegisteredCommand(m.name));
  return commands;
}

CLI::App* AddCommand(CLI::App& parent, const Command& command) {
  CLI::App* sub = parent.add_subcommand(command.name, command.description);
  command.setup(*sub);
  return sub;
}

std::string ErrorText(const std::string& command, const Error& error) {
  std::string text = OneLine(error.what());
  const std::vector<Command> commands = AllCommands();
  const auto it = std::find_if(commands.begin(), commands.end(), [&](const Command& c) { return command == c.name; });
  if (it == commands.end()) return text;
  std::string flags;
  for (const std::string& flag : OptionFlags(*it, error.options())) flags += (flags.empty() ? " (" : ", ") + flag;
  return flags.empty() ? text : text + flags + ")";
}

}}}  // namespace perfshap::cli
