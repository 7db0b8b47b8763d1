// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <string_view>

#include "perfshap/export.hpp"
#include "perfshap/version_config.hpp"

namespace perfshap { inline namespace v0 {

/** @brief The library's version, "MAJOR.MINOR.PATCH", as it was built. */
PERFSHAP_EXPORT std::string_view Version() noexcept;

}}  // namespace perfshap
