// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// --checkpoint: the store (whole files or none, a damaged file ignored, another run's refused)
// and a robustness run resumed from a part of its splits, bitwise the uninterrupted run (exact
// and sampled solvers). tests/mpi/cli_mpi_test.sh kills real runs and resumes them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/error.hpp"
#include "perfshap/robustness.hpp"
#include "schedule/checkpoint.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"
#include "support/robustness_checks.hpp"

namespace perfshap {
namespace {

namespace fs = std::filesystem;

std::string FreshDir(const std::string& name) {
  const fs::path dir = fs::path(testing::WriteTempFile(name + ".probe", "")).parent_path() / (name + ".ckpt");
  fs::remove_all(dir);
  return dir.string();
}

std::vector<std::byte> Bytes(const std::string& s) {
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  return {p, p + s.size()};
}

TEST(Checkpoint, KeepsItemsAndIgnoresDamagedOnes) {
  const std::string dir = FreshDir("store");
  {
    const detail::Checkpoint c(dir, "run A", 5, nullptr);
    EXPECT_FALSE(c.Load(0));
    c.Save(0, Bytes("zero"));
    c.Save(3, Bytes(""));
    c.Save(4, Bytes("four"));
  }
  const detail::Checkpoint again(dir, "run A", 5, nullptr);
  EXPECT_EQ(again.Load(0), Bytes("zero"));
  EXPECT_EQ(again.Load(3), Bytes(""));
  EXPECT_FALSE(again.Load(1));
  // A changed byte or a cut file is not trusted: its item is computed again.
  const fs::path four = fs::path(dir) / "item-00000004.bin";
  std::string text;
  {
    std::ifstream in(four, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  text.back() ^= 1;
  std::ofstream(four, std::ios::binary) << text;
  EXPECT_FALSE(again.Load(4));
  std::ofstream(four, std::ios::binary) << text.substr(0, 20);
  EXPECT_FALSE(again.Load(4));
}

TEST(Checkpoint, AnotherRunsCheckpointIsRefused) {
  const std::string dir = FreshDir("other");
  { const detail::Checkpoint c(dir, "run A", 5, nullptr); }
  testing::ExpectError<InvalidArgument>([&] { detail::Checkpoint(dir, "run B", 5, nullptr); },
                                        {"another run", "new checkpoint directory"}, "checkpoint");
  testing::ExpectError<InvalidArgument>([&] { detail::Checkpoint(dir, "run A", 6, nullptr); }, {"another run"},
                                        "checkpoint");
  const std::string files = FreshDir("not_a_checkpoint");
  fs::create_directories(files);
  std::ofstream(fs::path(files) / "mine.txt") << "a user's file\n";
  testing::ExpectError<InvalidArgument>([&] { detail::Checkpoint(files, "run A", 5, nullptr); },
                                        {"other files", "no manifest.json"}, "checkpoint");
}

TEST(Checkpoint, AnItemOfAnotherRunCopiedInIsComputedAgain) {
  // Hardening round 2, item 8: the item file of a run with another fingerprint (--seed 1,
  // --model gnb), whole and with a valid checksum of its own, is not used.
  const std::string mine = FreshDir("mine");
  const std::string theirs = FreshDir("theirs");
  { const detail::Checkpoint c(mine, "run A", 3, nullptr); }
  {
    const detail::Checkpoint other(theirs, "run B", 3, nullptr);
    other.Save(1, Bytes("another run's value"));
    EXPECT_EQ(other.Load(1), Bytes("another run's value"));
  }
  fs::copy_file(fs::path(theirs) / "item-00000001.bin", fs::path(mine) / "item-00000001.bin");
  const detail::Checkpoint resumed(mine, "run A", 3, nullptr);
  EXPECT_FALSE(resumed.Load(1));
}

TEST(Checkpoint, StaleTemporariesAndOddManifestsAreHandled) {
  // A killed run's half-written item is removed when the checkpoint is opened again.
  const std::string dir = FreshDir("stale");
  { const detail::Checkpoint c(dir, "run A", 3, nullptr); }
  const fs::path stale = fs::path(dir) / "item-00000002.bin.tmp-999999";
  std::ofstream(stale) << "half";
  { const detail::Checkpoint c(dir, "run A", 3, nullptr); }
  EXPECT_FALSE(fs::exists(stale));
  // A manifest that is JSON but not an object, or holds members of other types: a one-line
  // refusal, never an internal error.
  for (const char* manifest : {"[]", "{\"format\": 3}", "{\"format\": \"perfshap-checkpoint-2\", \"items\": \"x\"}"}) {
    SCOPED_TRACE(manifest);
    const std::string odd = FreshDir("odd_manifest");
    fs::create_directories(odd);
    std::ofstream(fs::path(odd) / "manifest.json") << manifest;
    EXPECT_THROW(detail::Checkpoint(odd, "run A", 3, nullptr), InvalidArgument);
  }
}

TEST(Checkpoint, ARobustnessRunResumedIsBitwiseTheUninterruptedRun) {
  ProbitDesign design;
  design.n_rows = 200;
  const Dataset data = GenerateProbitDesign(design);
  const SplitPlan plan = MakeSplitPlan("mc:7", data.n_rows(), 0.3, 2, data.label());
  for (const char* solver : {"exact", "kernel"}) {
    SCOPED_TRACE(solver);
    RobustnessOptions options;
    options.learner = MakeLearner("logistic");
    options.solver = std::string(solver);
    options.sampling.budget = 150;
    options.sampling.keep_samples = std::string(solver) != "exact";
    options.interactions = std::string(solver) == "exact";
    const RobustnessResult want = ExplainRobustness(data, plan, options);
    options.checkpoint = FreshDir(std::string("resume_") + solver);
    testing::ExpectSameRobustness(ExplainRobustness(data, plan, options), want);
    // Splits 0, 2, 3 and 6 lost (as if killed before them): computed again, the rest read.
    for (int lost : {0, 2, 3, 6}) fs::remove(fs::path(options.checkpoint) / ("item-0000000" + std::to_string(lost) + ".bin"));
    testing::ExpectSameRobustness(ExplainRobustness(data, plan, options), want);
    // Everything kept: nothing is trained again, and the result is the same.
    testing::ExpectSameRobustness(ExplainRobustness(data, plan, options), want);
    // Other inputs are refused.
    RobustnessOptions other = options;
    other.sampling.seed = 9;
    testing::ExpectError<InvalidArgument>([&] { ExplainRobustness(data, plan, other); }, {"another run"},
                                          "checkpoint");
  }
}

}  // namespace
}  // namespace perfshap
