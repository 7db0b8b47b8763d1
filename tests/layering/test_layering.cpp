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
      // The conditional value functions' distributions of the features (issue 38), under the games.
      {"values", {"common"}},
      {"games", {"common", "data", "models", "metrics", "values"}},
      {"schedule", {"common"}},
      {"aggregate", {"common"}},
      {"solvers", {"common", "schedule", "aggregate"}},
      {"cluster", {"common", "schedule"}},
      {"explain",
       {"common", "data", "models", "metrics", "values", "games", "solvers", "schedule", "aggregate",
        "cluster"}},
      {"report", {"common", "data", "metrics"}},
      // The request layer under every front end: above explain/ and report/ (a request's
      // response is what the reporters read).
      {"api",
       {"common", "data", "models", "metrics", "values", "games", "solvers", "schedule", "aggregate",
        "cluster", "explain", "report"}},
  };
  return allowed;
}

// Public headers that must not include others: the game/solver/learner split of the design.
const std::map<std::string, std::set<std::string>>& ForbiddenPublic() {
  static const std::map<std::string, std::set<std::string>> forbidden = {
      {"blocks/game.hpp", {"blocks/solver.hpp", "blocks/learner.hpp", "robustness.hpp", "xper.hpp"}},
      {"blocks/learner.hpp", {"blocks/game.hpp", "blocks/solver.hpp", "robustness.hpp", "xper.hpp"}},
      {"blocks/model.hpp", {"blocks/game.hpp", "blocks/solver.hpp", "blocks/learner.hpp"}},
      {"blocks/metric_registry.hpp", {"blocks/game.hpp", "blocks/solver.hpp", "blocks/learner.hpp"}},
      {"blocks/solver.hpp", {"blocks/learner.hpp", "robustness.hpp", "xper.hpp"}},
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

// The methods' public headers (what explain/ implements over the games) sit above the games: a
// file of the layers up to the games includes the building blocks (perfshap/blocks/) and the
// shared headers (dataset, table, error, execution, processes, arrow, version), never a method's.
TEST(Layering, GamesAndTheLayersBelowIncludeNoMethodHeader) {
  const std::set<std::string> methods = {"shap.hpp",  "treeshap.hpp", "xper.hpp",           "xper_montecarlo.hpp",
                                         "axom.hpp",  "chains.hpp",   "robustness.hpp",     "cost_estimates.hpp",
                                         "cluster.hpp", "perfshap.hpp"};
  const fs::path root = fs::path(PERFSHAP_ENGINE_DIR) / "src";
  const std::regex include(R"re(^\s*#\s*include\s+"perfshap/([a-z_0-9]+\.hpp)")re");
  int files = 0;
  for (const char* folder : {"common", "data", "models", "metrics", "games", "schedule", "aggregate"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      if (!entry.is_regular_file()) continue;
      ++files;
      std::ifstream in(entry.path());
      std::string line;
      for (int number = 1; std::getline(in, line); ++number) {
        std::smatch m;
        if (!std::regex_search(line, m, include)) continue;
        EXPECT_EQ(methods.count(m[1]), 0U) << "engine/src/" << fs::relative(entry.path(), root).string() << ":"
                                           << number << " includes the method header perfshap/" << m[1];
      }
    }
  }
  EXPECT_GT(files, 40);
}

// The papers' reproductions (reproduce/<name>/) sit on the library: no file of engine/ includes
// one of their headers (a reproduction reaches the front ends by its registration line alone).
TEST(Layering, TheEngineIncludesNoReproduction) {
  const fs::path engine(PERFSHAP_ENGINE_DIR);
  std::set<std::string> reproductions;
  for (const auto& entry : fs::directory_iterator(engine.parent_path() / "reproduce"))
    if (entry.is_directory()) reproductions.insert(entry.path().filename().string());
  ASSERT_FALSE(reproductions.empty());
  const std::regex include(R"re(^\s*#\s*include\s+"([a-z_0-9]+)/)re");
  for (const auto& entry : fs::recursive_directory_iterator(engine)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      EXPECT_EQ(reproductions.count(m[1]), 0U) << fs::relative(entry.path(), engine).string() << ":" << number
                                               << " includes the reproduction " << m[1] << "/";
    }
  }
}

TEST(Layering, PublicHeadersKeepGamesSolversAndLearnersApart) {
  const fs::path root = fs::path(PERFSHAP_ENGINE_DIR) / "include" / "perfshap";
  const std::regex include(R"re(^\s*#\s*include\s+"perfshap/([a-z_0-9/]+\.hpp)")re");
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

// The installed headers' two tiers (perfshap/perfshap.hpp): a building block (perfshap/blocks/)
// includes building blocks and the data, error and execution headers, never a method's entry
// point; the two umbrellas include every header of their tier.
TEST(Layering, BuildingBlocksIncludeNoEntryPoint) {
  const fs::path root = fs::path(PERFSHAP_ENGINE_DIR) / "include" / "perfshap";
  const std::set<std::string> below = {"dataset.hpp", "error.hpp", "execution.hpp", "export.hpp"};
  const std::regex include(R"re(^\s*#\s*include\s+"perfshap/([a-z_0-9/]+\.h(pp)?)")re");
  std::set<std::string> blocks;
  std::set<std::string> entry_points;
  for (const auto& entry : fs::directory_iterator(root / "blocks")) blocks.insert("blocks/" + entry.path().filename().string());
  for (const auto& entry : fs::directory_iterator(root))
    if (entry.is_regular_file()) entry_points.insert(entry.path().filename().string());
  EXPECT_GT(blocks.size(), 10u);
  for (const std::string& header : blocks) {
    std::ifstream in(root / header);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      std::smatch m;
      if (!std::regex_search(line, m, include)) continue;
      const std::string target = m[1];
      EXPECT_TRUE(target.rfind("blocks/", 0) == 0 || below.count(target) != 0)
          << "perfshap/" << header << ":" << number << " includes the entry point " << target;
    }
  }
  // The umbrellas: perfshap.hpp every entry point (and blocks.hpp), blocks.hpp every block.
  const auto included = [&](const std::string& umbrella) {
    std::set<std::string> got;
    std::ifstream in(root / umbrella);
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (std::regex_search(line, m, include)) got.insert(m[1]);
    }
    return got;
  };
  const std::set<std::string> all = included("perfshap.hpp");
  for (const std::string& h : entry_points)
    if (h != "perfshap.hpp" && h != "export.hpp" && h != "arrow_c_data.h") {
      EXPECT_EQ(all.count(h), 1u) << "perfshap/perfshap.hpp does not include " << h;
    }
  const std::set<std::string> of_blocks = included("blocks.hpp");
  for (const std::string& h : blocks) EXPECT_EQ(of_blocks.count(h), 1u) << "perfshap/blocks.hpp does not include " << h;
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
