// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "perfshap/version.hpp"

namespace perfshap { inline namespace v0 {

std::string_view Version() noexcept { return PERFSHAP_VERSION_STRING; }

}}  // namespace perfshap
