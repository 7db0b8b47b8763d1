// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include "common.hpp"

namespace perfshap::inline v0::cli {

// One setup function per subcommand (cmd_<name>.cpp); AllCommands() lists them. The registered
// methods' subcommands are built from the registry (registered.cpp: RegisteredCommand).
void SetupShap(CLI::App& app);
void SetupTreeShap(CLI::App& app);

/** @brief The subcommand of the registered method `name` (api/registry.hpp): its flags, help
 *  and checks from the method's declarations. */
Command RegisteredCommand(const std::string& name);

/** @brief Every subcommand's long options as CLI11 declares them, as JSON: {"command": [{"names":
 *  [long names], "type": CLI11's type name with its validators ("UINT", "INT:INT in [1 - 30]",
 *  "FLOAT", "TEXT", ...), "switch": takes no value, "many": takes several}]}, in the order
 *  `--help` lists them. The Python package checks its keywords against it. */
std::string CommandOptionsJson();

}  // namespace perfshap::cli
