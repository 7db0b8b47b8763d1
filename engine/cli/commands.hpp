// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <string>

#include "common.hpp"

namespace perfshap { inline namespace v0 { namespace cli {

/** @brief The subcommand of the registered method `name` (api/registry.hpp): its flags, help
 *  and checks from the method's declarations (registered.cpp). */
Command RegisteredCommand(const std::string& name);

}}}  // namespace perfshap::cli
