// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <sys/wait.h>

namespace perfshap { inline namespace v0 { namespace testing {

/** @brief What one run of the perfshap binary printed and returned. */
struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string ReadText(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/** @brief Runs `perfshap <args>` (args already shell-quoted as needed) with stdin closed. */
inline CliRun RunCli(const std::string& args) {
  static int counter = 0;
  const auto dir = std::filesystem::temp_directory_path() / ("perfshap_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto out = dir / ("out" + std::to_string(counter) + ".txt");
  const auto err = dir / ("err" + std::to_string(counter) + ".txt");
  ++counter;
  const std::string cmd = std::string("'") + PERFSHAP_CLI_PATH + "' " + args + " </dev/null >'" + out.string() +
                          "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  CliRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = ReadText(out);
  run.err = ReadText(err);
  return run;
}

/** @brief s in single quotes, for a shell command line (paths without quotes of their own). */
inline std::string Quote(const std::string& s) { return "'" + s + "'"; }

/** @brief A JSON file, parsed. */
inline nlohmann::json ReadJson(const std::filesystem::path& p) { return nlohmann::json::parse(ReadText(p)); }

/** @brief True when the text is exactly one line ending in a newline (a one-line error). */
inline bool OneLine(const std::string& s) { return !s.empty() && s.find('\n') == s.size() - 1; }

/** @brief A fresh empty directory path (not created) under the temp directory. */
inline std::filesystem::path FreshDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("perfshap_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  return dir;
}

/** @brief A command line that must fail and a part of its message. */
struct ErrorCase {
  std::string args;
  std::string says;
};

/** @brief Every case exits with 2 and prints one line on stderr that holds `says`. */
inline void ExpectOneLineErrors(const std::vector<ErrorCase>& cases) {
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.args);
    const CliRun run = RunCli(c.args);
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_TRUE(OneLine(run.err)) << run.err;
    EXPECT_NE(run.err.find(c.says), std::string::npos) << run.err;
  }
}

}}}  // namespace perfshap::testing
