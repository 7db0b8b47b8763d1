// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// A run's outputs are atomic as a set (issue 20): `perfshap treeshap --out` SIGKILLed at 40 seeded
// random times spread over its run (reading, fitting, explaining, drawing, writing), into a new
// --out and with --force over an earlier run's set, leaves --out absent or the earlier set exactly
// (same names, same bytes) or the complete new set, never a mix or a partial set; the next run
// into the same --out removes what the killed ones left beside it. And `--figures`: none writes
// no SVG, all writes a waterfall per explained row up to the cap, the beeswarm of more rows than
// the bound is the same at any thread count, and every subcommand takes the flag.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli/cli_runner.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

namespace fs = std::filesystem;
using testing::FreshDir;
using testing::Quote;
using testing::ReadJson;
using testing::ReadText;
using testing::RunCli;

using FileSet = std::map<std::string, std::string>;

/** The files of `dir` by name with their bytes; result.json without its elapsed_seconds line
 *  (the one line two runs of the same inputs differ in). */
FileSet ReadSet(const fs::path& dir) {
  FileSet files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    std::string content = entry.is_directory() ? "<dir>" : ReadText(entry.path());
    if (entry.path().filename() == "result.json") {
      std::istringstream in(content);
      std::string line, kept;
      while (std::getline(in, line))
        if (line.find("\"elapsed_seconds\"") == std::string::npos) kept += line + "\n";
      content = kept;
    }
    files[entry.path().filename().string()] = content;
  }
  return files;
}

/** A CSV of `rows` rows: 12 numeric features and a 0/1 label that needs several of them. */
std::string MakeData(std::size_t rows) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::ostringstream s;
  for (int j = 0; j < 12; ++j) s << "x" << j << ",";
  s << "label\n";
  char cell[32];
  for (std::size_t r = 0; r < rows; ++r) {
    double x[12];
    for (double& v : x) v = normal(rng);
    for (double v : x) {
      std::snprintf(cell, sizeof cell, "%.6f,", v);
      s << cell;
    }
    s << ((x[0] + x[1] * x[2] - 0.5 * x[3] + 0.3 * normal(rng)) > 0 ? 1 : 0) << "\n";
  }
  return s.str();
}

/** Starts `perfshap args...` (stdin, stdout and stderr on /dev/null); returns its pid. */
pid_t Spawn(const std::vector<std::string>& args) {
  std::vector<std::string> all = {PERFSHAP_CLI_PATH};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {  // only async-signal-safe calls until exec
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, 0);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

/** Runs to the end; returns the exit status and the seconds it took. */
std::pair<int, double> RunToEnd(const std::vector<std::string>& args) {
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = Spawn(args);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1,
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

TEST(CliOutputSet, SigkillAtRandomTimesNeverLeavesAMixedOrPartialSet) {
  const std::string data = testing::WriteTempFile("kill.csv", MakeData(2000));
  const fs::path root = FreshDir("kill");
  fs::create_directories(root);
  // A small forest fitted and explained (several files: contributions.csv, three SVGs, result.json).
  const auto args = [&](const fs::path& out, const std::string& seed, const std::string& row) {
    return std::vector<std::string>{"treeshap", "--model", "forest",    "--trees",       "10", "--max-depth",
                                    "5",        "--train", data,        "--data",        data, "--label",
                                    "label",    "--seed",  seed,        "--explain-row", row,  "--quiet",
                                    "--force",  "--out",   out.string()};
  };
  // The earlier run (another seed and waterfall row: other bytes, another file name) and the
  // uninterrupted new one.
  ASSERT_EQ(RunToEnd(args(root / "earlier", "1", "7")).first, 0);
  const auto [rc, seconds] = RunToEnd(args(root / "reference", "0", "0"));
  ASSERT_EQ(rc, 0);
  const FileSet earlier = ReadSet(root / "earlier");
  const FileSet fresh = ReadSet(root / "reference");
  ASSERT_NE(earlier, fresh);
  ASSERT_EQ(fresh.size(), 6u);  // five files and the run's manifest
  ASSERT_EQ(earlier.count("shap_waterfall_row7.svg"), 1u);

  // 40 kill times from a seeded generator: half spread over the whole run and a little past it,
  // half over its last third (the report drawn, the files written and renamed into place);
  // every other one over a copy of the earlier set with --force.
  std::mt19937_64 rng(20);
  std::uniform_real_distribution<double> anywhere(0.0, 1.15 * seconds);
  std::uniform_real_distribution<double> late(0.67 * seconds, 1.05 * seconds);
  int absent = 0, old_set = 0, new_set = 0, left_temporary = 0;
  const fs::path out = root / "runs" / "out";
  for (int k = 0; k < 40; ++k) {
    const bool over_earlier = k % 2 == 1;
    fs::remove_all(out);
    if (over_earlier) {
      fs::create_directories(out);
      fs::copy(root / "earlier", out);
    }
    const double at = k < 20 ? anywhere(rng) : late(rng);
    SCOPED_TRACE("kill " + std::to_string(k) + " at " + std::to_string(at) + " s of " +
                 std::to_string(seconds) + (over_earlier ? " over the earlier set" : " into a new --out"));
    const pid_t pid = Spawn(args(out, "0", "0"));
    std::this_thread::sleep_for(std::chrono::duration<double>(at));
    ::kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    if (!fs::exists(out)) {
      EXPECT_FALSE(over_earlier) << "the earlier set is gone";
      ++absent;
    } else {
      const FileSet now = ReadSet(out);
      const bool is_old = over_earlier && now == earlier;
      const bool is_new = now == fresh;
      EXPECT_TRUE(is_old || is_new) << "a mixed or partial set of " << now.size() << " files";
      old_set += is_old ? 1 : 0;
      new_set += is_new ? 1 : 0;
    }
    // Beside --out: at most hidden temporaries of killed runs (this one's when the kill hit the
    // writing; an earlier one's until a run gets far enough to remove it).
    const std::string mine = ".out.perfshap-tmp-" + std::to_string(pid) + "-";
    for (const auto& entry : fs::directory_iterator(out.parent_path())) {
      if (entry.path() == out) continue;
      const std::string name = entry.path().filename().string();
      EXPECT_EQ(name.rfind(".out.perfshap-tmp-", 0), 0u) << entry.path();
      left_temporary += name.rfind(mine, 0) == 0 ? 1 : 0;
    }
  }
  std::cout << "  kills: " << absent << " left no --out, " << old_set << " the earlier set, " << new_set
            << " the new set; " << left_temporary << " hit the writing (a temporary left beside); run " << seconds
            << " s\n";
  // The next run replaces the set and removes what the killed runs left beside it.
  fs::create_directories(out);
  fs::copy(root / "earlier", out, fs::copy_options::overwrite_existing);
  ASSERT_EQ(RunToEnd(args(out, "0", "0")).first, 0);
  EXPECT_EQ(ReadSet(out), fresh);
  std::size_t beside = 0;
  for (const auto& entry : fs::directory_iterator(out.parent_path())) beside += entry.path() != out ? 1 : 0;
  EXPECT_EQ(beside, 0u) << "temporaries of killed runs were left beside --out";
  fs::remove_all(root);
}

TEST(CliOutputSet, AFailedRunLeavesNoOutAndTheEarlierSetUntouched) {
  const fs::path out = FreshDir("failed");
  const std::string bad = Quote(testing::FixturePath("nan.csv"));
  EXPECT_EQ(
      RunCli("robustness --data " + bad + " --label label --quiet --out " + Quote(out.string())).exit_code,
      2);
  EXPECT_FALSE(fs::exists(out)) << "a failed run left an empty --out";
  ASSERT_EQ(RunCli("robustness --cv mc:2 --quiet --out " + Quote(out.string())).exit_code, 0);
  const FileSet before = ReadSet(out);
  EXPECT_EQ(RunCli("robustness --data " + bad + " --label label --quiet --force --out " + Quote(out.string()))
                .exit_code,
            2);
  EXPECT_EQ(ReadSet(out), before);
  // --force replaces an earlier run's set, never a folder of other files.
  const fs::path mine = FreshDir("mine");
  fs::create_directories(mine);
  std::ofstream(mine / "notes.txt") << "keep\n";
  const auto refused = RunCli("robustness --cv mc:2 --quiet --force --out " + Quote(mine.string()));
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_TRUE(testing::OneLine(refused.err)) << refused.err;
  EXPECT_TRUE(fs::exists(mine / "notes.txt"));
  // Hardening round 2, item 11: the user's data and notes beside an earlier run's results, the
  // data read from there: refused naming a file, both kept, the earlier results as they were.
  fs::copy_file(testing::FixturePath("data/banknote.csv"), out / "mydata.csv");
  std::ofstream(out / "notes.txt") << "keep\n";
  const auto beside = RunCli("robustness --data " + Quote((out / "mydata.csv").string()) +
                             " --label label --cv mc:2 --quiet --force --out " + Quote(out.string()));
  EXPECT_EQ(beside.exit_code, 2);
  EXPECT_TRUE(testing::OneLine(beside.err)) << beside.err;
  EXPECT_NE(beside.err.find("no perfshap run wrote"), std::string::npos) << beside.err;
  EXPECT_TRUE(fs::exists(out / "mydata.csv"));
  EXPECT_TRUE(fs::exists(out / "notes.txt"));
  fs::remove_all(out);
  fs::remove_all(mine);
}

std::vector<std::string> Svgs(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".svg") names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(CliFigures, NoneWritesNoSvgAndTheSameTables) {
  const std::string model = Quote(testing::FixturePath("xgboost/binary_logistic.json"));
  const std::string data = Quote(testing::FixturePath("data/breast_cancer.csv"));
  const fs::path none = FreshDir("figures_none");
  const fs::path summary = FreshDir("figures_summary");
  ASSERT_EQ(RunCli("treeshap --model-file " + model + " --data " + data +
                   " --label label --quiet --figures none --out " + Quote(none.string()))
                .exit_code,
            0);
  ASSERT_EQ(RunCli("treeshap --model-file " + model + " --data " + data + " --label label --quiet --out " +
                   Quote(summary.string()))
                .exit_code,
            0);
  EXPECT_TRUE(Svgs(none).empty());
  const auto j = ReadJson(none / "result.json");
  EXPECT_TRUE(j["figures"].empty());
  EXPECT_EQ(j["files"], nlohmann::json::array({"contributions.csv"}));
  EXPECT_EQ(ReadText(none / "contributions.csv"), ReadText(summary / "contributions.csv"));
  const auto s = ReadJson(summary / "result.json");
  EXPECT_EQ(s["figures"], nlohmann::json(Svgs(summary)));
  EXPECT_EQ(Svgs(summary).size(), 3u);
  fs::remove_all(none);
  fs::remove_all(summary);
}

TEST(CliFigures, AllWritesAWaterfallPerRowUpToTheCap) {
  const fs::path out = FreshDir("figures_all");
  ASSERT_EQ(RunCli("treeshap --model-file " + Quote(testing::FixturePath("xgboost/binary_logistic.json")) +
                   " --data " + Quote(testing::FixturePath("data/breast_cancer.csv")) +
                   " --label label --quiet --figures all --out " + Quote(out.string()))
                .exit_code,
            0);
  const std::vector<std::string> svgs = Svgs(out);
  // 569 rows: the bar, the beeswarm and the first 100 rows' waterfalls.
  EXPECT_EQ(svgs.size(), 2u + 100u);
  for (int r : {0, 1, 99})
    EXPECT_TRUE(fs::exists(out / ("shap_waterfall_row" + std::to_string(r) + ".svg"))) << r;
  EXPECT_FALSE(fs::exists(out / "shap_waterfall_row100.svg"));
  const auto j = ReadJson(out / "result.json");
  EXPECT_EQ(j["figures"].size(), svgs.size());
  fs::remove_all(out);
}

TEST(CliFigures, BeeswarmOfMoreRowsThanTheBoundIsTheSameAtAnyThreadCount) {
  const std::string data = Quote(testing::FixturePath("data/banknote.csv"));  // 1,372 rows, 4 features
  std::string svg[2];
  for (int t = 0; t < 2; ++t) {
    const fs::path out = FreshDir("beeswarm_threads" + std::to_string(t));
    ASSERT_EQ(RunCli("treeshap --model forest --trees 10 --train " + data + " --data " + data +
                     " --label label --quiet " + "--threads " + std::to_string(t == 0 ? 1 : 3) + " --out " +
                     Quote(out.string()))
                  .exit_code,
              0);
    svg[t] = ReadText(out / "shap_beeswarm.svg");
    fs::remove_all(out);
  }
  EXPECT_EQ(svg[0], svg[1]);
  std::size_t circles = 0;
  for (std::size_t at = svg[0].find("<circle"); at != std::string::npos; at = svg[0].find("<circle", at + 1))
    ++circles;
  EXPECT_EQ(circles, 4u * 1000u);
  EXPECT_NE(svg[0].find("1,000 of 1,372 rows shown"), std::string::npos);
}

TEST(CliFigures, EverySubcommandTakesTheFlag) {
  const std::string wine = Quote(testing::FixturePath("data/wine.csv"));
  const std::string pima = Quote(testing::FixturePath("data/pima.csv"));
  for (const std::string& run :
       {std::string("demo --rows 500"), std::string("robustness --cv mc:2"), std::string("xper"),
        std::string("xper-montecarlo --samples 2 --rows 1000"),
        "shap --model logistic --train " + pima + " --data " + pima + " --label label --rows 0..9",
        std::string("chains --order and,or,xor"),
        "axom --data " + wine + " --neighbours 20 --heatmap-grid 5"}) {
    SCOPED_TRACE(run);
    const fs::path out = FreshDir("figures_every");
    const auto r = RunCli(run + " --quiet --figures none --out " + Quote(out.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(Svgs(out).empty());
    EXPECT_TRUE(ReadJson(out / "result.json")["figures"].empty());
    fs::remove_all(out);
  }
  const auto bad = RunCli("demo --figures some");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--figures"), std::string::npos) << bad.err;
}

}  // namespace
}}  // namespace perfshap
