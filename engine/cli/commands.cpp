// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "commands.hpp"

namespace perfshap::cli {

std::vector<Command> AllCommands() {
  return {
      {"demo", "run the main job on built-in generated data (or --data): metrics and exact Shapley values",
       SetupDemo},
      {"xper", "XPER: decompose a model's performance metric over its features, globally and per individual", SetupXper},
  };
}

}  // namespace perfshap::cli
