// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Checks every tree model passes (TreeEnsemble's constructor), shared with the readers that
// want to word their own message around them.

#include <string>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief Throws InvalidArgument (one line: what + the feature's index and name) when a name is
 * empty or names two features. No names at all is fine (features are then taken in order).
 */
void CheckFeatureNames(const std::vector<std::string>& names, const std::string& what);

}}}  // namespace perfshap::detail
