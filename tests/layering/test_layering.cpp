// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The folders of engine/src read data -> models -> metrics -> games -> solvers -> schedule ->
// aggregate -> explain -> report, and api above them all (ARCHITECTURE.md "Layout"): a folder includes only the folders
// this test allows it, so there is no cycle, a game never calls a solver and a learner knows
// nothing of Shapley. Every quoted include of the engine's sources is checked.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace {

namespace fs = std::filesystem;

// What each folder of engine/src may include besides itself and the public headers (perfshap/).
const std::map<std::string, std::set<std::string>>& Allowed() {
  static const std::map<std::string, std::set<std::string>> allowed = {
      {"common", {}},
      {"data", {"common", "schedule"}},  // splits drawn in parallel
      {"models", {"common", "data", "schedule"}},
      {"metrics", {"common"}},
      {"games", {"common", "data", "models", "metrics"}},
      {"schedule", {"common"}},
      {"aggregate", {"common"}},
      {"solvers", {"common", "schedule", "aggregate"}},
      {"cluster", {"common", "schedule"}},
      {"explain", {"common", "data", "models", "metrics", "games", "solvers", "schedule", "aggregate", "cluster"}},
      {"report", {"common", "data", "metrics"}},
      // The request layer under every front end: above explain/ and report/ (a request's
      // response is what the reporters read).
      {"api",
       {"common", "data", "models", "metrics", "games", "solvers", "schedule", "aggregate", "cluster", "explain",
        "report"}},
  };
  return allowed;
}

// Public headers that must not include others: the game/solver/learner split of the design.
const std::map<std::string, std::set<std::string>>& ForbiddenPublic() {
  static const std::map<std::string, std::set<std::string>> forbidden = {
      {"game.hpp", {"solver.hpp", "learner.hpp", "robustness.hpp", "xper.hpp"}},
      {"learner.hpp", {"game.hpp", "solver.hpp", "robustness.hpp", "xper.hpp"}},
      {"model.hpp", {"game.hpp", "solver.hpp", "learner.hpp"}},
      {"metric_registry.hpp", {"game.hpp", "solver.hpp", "learner.hpp"}},
      {"solver.hpp", {"learner.hpp", "robustness.hpp", "xper.hpp"}},
  };
  return forbidden;
}

TEST(Layering, EngineFoldersIncludeOnlyTheLayersBelowThem) {
  const fs::path root = fs::path(PERFSHAP_ENGINE_DIR) / "src";
  const std::regex include(R"re(^\s*#\s*include\s+"([a-z_0-9]+)/)re");
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    const fs::path rel = fs::relative(entry.path(), root);
    const std::string folder = rel.begin()->string();
    const auto allowed = Allowed().find(folder);
    ASSERT_NE(allowed, Allowed().end()) << "engine/src/" << folder
                                        << " is a folder this test does not know: add it to Allowed()";
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      const std::string target = m[1];
      if (target == folder || target == "perfshap") continue;
      EXPECT_TRUE(allowed->second.count(target) != 0)
          << "engine/src/" << rel.string() << ":" << number << " includes " << target << "/, which "
          << folder << "/ may not (layers: data -> models -> metrics -> games -> solvers -> schedule -> "
          << "aggregate -> explain -> report)";
    }
  }
  EXPECT_GT(files, 40);
}

TEST(Layering, PublicHeadersKeepGamesSolversAndLearnersApart) {
  const fs::path root = fs::path(PERFSHAP_ENGINE_DIR) / "include" / "perfshap";
  const std::regex include(R"re(^\s*#\s*include\s+"perfshap/([a-z_0-9]+\.hpp)")re");
  for (const auto& [header, forbidden] : ForbiddenPublic()) {
    std::ifstream in(root / header);
    ASSERT_TRUE(in.good()) << header;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch m;
      if (std::regex_search(line, m, include)) {
        EXPECT_EQ(forbidden.count(m[1]), 0U) << "perfshap/" << header << ":" << number << " includes " << m[1];
      }
    }
  }
}

// The Python module binds the library (its request layer), as the command line calls it: the
// front ends are siblings, so no Python source includes a command-line header and the module
// links the library, not the command line's objects.
TEST(Layering, ThePythonModuleStandsOnTheLibraryNotTheCommandLine) {
  const fs::path python = fs::path(PERFSHAP_ENGINE_DIR).parent_path() / "python";
  std::set<std::string> cli_headers = {"CLI/CLI.hpp"};
  for (const auto& entry : fs::directory_iterator(fs::path(PERFSHAP_ENGINE_DIR) / "cli"))
    if (entry.path().extension() == ".hpp") cli_headers.insert(entry.path().filename().string());
  EXPECT_GT(cli_headers.size(), 2u);
  const std::regex include(R"re(^\s*#\s*include\s+["<]([^">]+)[">])re");
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(python / "src")) {
    if (!entry.is_regular_file()) continue;
    ++files;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch m;
      if (std::regex_search(line, m, include)) {
        EXPECT_EQ(cli_headers.count(m[1]), 0U)
            << entry.path().string() << ":" << number << " includes the command line's " << m[1];
      }
    }
  }
  EXPECT_GT(files, 0);
  std::ifstream cmake(python / "CMakeLists.txt");
  ASSERT_TRUE(cmake.good());
  std::string text((std::istreambuf_iterator<char>(cmake)), std::istreambuf_iterator<char>());
  const std::regex links(R"re(target_link_libraries\(_perfshap[^)]*\))re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, links)) << "python/CMakeLists.txt links _perfshap nowhere";
  EXPECT_EQ(m.str().find("perfshap_commands"), std::string::npos) << m.str();
  EXPECT_NE(m.str().find("perfshap_internal"), std::string::npos) << m.str();
}

}  // namespace
