// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace perfshap::testing {

/** @brief tests/fixtures/<name>: the data and reference files that ship with the tests. */
inline std::string FixturePath(const std::string& name) {
  return std::string(PERFSHAP_TEST_DATA_DIR) + "/" + name;
}

/** @brief ../shared/<rel> (or $PERFSHAP_SHARED_DIR/<rel>); empty string when it is absent,
 *  so tests that need the public data sets can GTEST_SKIP() cleanly. */
inline std::string SharedPath(const std::string& rel) {
  const char* env = std::getenv("PERFSHAP_SHARED_DIR");
  std::filesystem::path base = env != nullptr ? env : PERFSHAP_SHARED_DIR;
  std::filesystem::path p = base / rel;
  return std::filesystem::exists(p) ? p.string() : std::string();
}

}  // namespace perfshap::testing
