// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace perfshap { inline namespace v0 { namespace testing {

/**
 * @brief Writes text to a file of its own for the running test and returns its path: the file
 * name is prefixed with the test's suite and name, so tests that CTest runs in parallel never
 * share a scratch file. `name` keeps its extension (messages may quote it).
 */
inline std::string WriteTempFile(const std::string& name, const std::string& text) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string prefix = "perfshap_";
  if (info != nullptr) prefix += std::string(info->test_suite_name()) + "." + info->name() + "_";
  for (char& c : prefix)
    if (c == '/') c = '_';  // parameterised test names
  const std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / prefix;
  std::filesystem::create_directories(dir);
  const std::filesystem::path path = dir / name;
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

}}}  // namespace perfshap::testing
