// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "commands.hpp"

namespace perfshap::cli {

std::vector<Command> AllCommands() {
  return {
      {"demo", "run the main job on built-in generated data (or --data): metrics and exact Shapley values",
       SetupDemo},
  };
}

}  // namespace perfshap::cli
