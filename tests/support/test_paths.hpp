// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace perfshap { inline namespace v0 { namespace testing {

/** @brief The tests/fixtures folder: every data and reference file the tests read
 *  (tests/fixtures/README.md says where each comes from). For paths that must not exist. */
inline std::string FixtureDir() { return PERFSHAP_TEST_DATA_DIR; }

/**
 * @brief tests/fixtures/<name>, e.g. "good.csv" or "refs/xper/test_set.csv".
 * @throws std::runtime_error when that file is missing: the test that needs it fails (a test
 * never skips for want of its data).
 */
inline std::string FixturePath(const std::string& name) {
  const std::string path = FixtureDir() + "/" + name;
  if (!std::filesystem::is_regular_file(path)) {
    throw std::runtime_error("test fixture " + path + " is missing (tests/fixtures/README.md lists them)");
  }
  return path;
}

}}}  // namespace perfshap::testing
