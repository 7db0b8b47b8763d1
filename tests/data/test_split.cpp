// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/split.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::FixtureDir;
using testing::FixturePath;

/// Both parts sorted, disjoint, and together exactly 0..n-1.
void ExpectPartition(const Split& split, std::size_t n) {
  EXPECT_TRUE(std::is_sorted(split.train.begin(), split.train.end()));
  EXPECT_TRUE(std::is_sorted(split.test.begin(), split.test.end()));
  std::vector<std::size_t> all = split.train;
  all.insert(all.end(), split.test.begin(), split.test.end());
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), n);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(all[i], i);
}

/// 30% positives among n rows: rows with i % 10 < 3.
std::vector<double> Labels(std::size_t n) {
  std::vector<double> labels(n);
  for (std::size_t i = 0; i < n; ++i) labels[i] = (i % 10 < 3) ? 1.0 : 0.0;
  return labels;
}

std::size_t CountPositive(const std::vector<std::size_t>& rows, const std::vector<double>& y) {
  std::size_t count = 0;
  for (std::size_t i : rows) count += (y[i] == 1.0) ? 1 : 0;
  return count;
}

TEST(HoldoutSplit, SizesAndPartition) {
  const Split split = HoldoutSplit(100, 0.25, 7);
  EXPECT_EQ(split.test.size(), 25u);
  EXPECT_EQ(split.train.size(), 75u);
  ExpectPartition(split, 100);
}

TEST(HoldoutSplit, TestSizeIsRoundedAndClamped) {
  EXPECT_EQ(HoldoutSplit(10, 0.33, 1).test.size(), 3u);
  EXPECT_EQ(HoldoutSplit(10, 0.01, 1).test.size(), 1u);  // at least one test row
  EXPECT_EQ(HoldoutSplit(10, 0.99, 1).test.size(), 9u);  // at least one train row
  EXPECT_EQ(HoldoutSplit(2, 0.5, 1).test.size(), 1u);
}

TEST(HoldoutSplit, StratifiedKeepsClassProportions) {
  const std::vector<double> y = Labels(1000);
  const Split split = HoldoutSplit(1000, 0.2, 3, y);
  ExpectPartition(split, 1000);
  EXPECT_EQ(split.test.size(), 200u);
  EXPECT_EQ(CountPositive(split.test, y), 60u);  // 30% of 200
  EXPECT_EQ(CountPositive(split.train, y), 240u);
}

TEST(HoldoutSplit, StratifiedLargestRemainderMatchesTotal) {
  // Classes 5, 3, 2 of 10 rows; 3 test rows: quotas 1.5, 0.9, 0.6 -> 1, 1, 1.
  const std::vector<double> y = {0, 0, 0, 0, 0, 1, 1, 1, 2, 2};
  const Split split = HoldoutSplit(10, 0.3, 11, y);
  ExpectPartition(split, 10);
  ASSERT_EQ(split.test.size(), 3u);
  std::vector<double> test_classes;
  for (std::size_t i : split.test) test_classes.push_back(y[i]);
  std::sort(test_classes.begin(), test_classes.end());
  EXPECT_EQ(test_classes, (std::vector<double>{0, 1, 2}));
}

TEST(HoldoutSplit, SameSeedSameSplitDifferentSeedDifferent) {
  const std::vector<double> y = Labels(200);
  EXPECT_EQ(HoldoutSplit(200, 0.3, 42).test, HoldoutSplit(200, 0.3, 42).test);
  EXPECT_EQ(HoldoutSplit(200, 0.3, 42, y).test, HoldoutSplit(200, 0.3, 42, y).test);
  EXPECT_NE(HoldoutSplit(200, 0.3, 42).test, HoldoutSplit(200, 0.3, 43).test);
  EXPECT_NE(HoldoutSplit(200, 0.3, 42, y).test, HoldoutSplit(200, 0.3, 43, y).test);
  EXPECT_NE(HoldoutSplit(200, 0.3, 42, {}, 0).test, HoldoutSplit(200, 0.3, 42, {}, 1).test);
}

TEST(HoldoutSplit, RejectsBadArguments) {
  EXPECT_THROW(HoldoutSplit(1, 0.5, 0), InvalidArgument);
  EXPECT_THROW(HoldoutSplit(10, 0.0, 0), InvalidArgument);
  EXPECT_THROW(HoldoutSplit(10, 1.0, 0), InvalidArgument);
  EXPECT_THROW(HoldoutSplit(10, -0.5, 0), InvalidArgument);
  const std::vector<double> short_labels(5, 1.0);
  EXPECT_THROW(HoldoutSplit(10, 0.5, 0, short_labels), InvalidArgument);
}

TEST(KFoldSplits, EveryRowIsTestedExactlyOnce) {
  const std::size_t n = 103;
  const SplitPlan plan = KFoldSplits(n, 5, 9);
  ASSERT_EQ(plan.size(), 5u);
  std::vector<int> tested(n, 0);
  for (const Split& split : plan) {
    ExpectPartition(split, n);
    EXPECT_GE(split.test.size(), 20u);  // 103 = 3 * 21 + 2 * 20
    EXPECT_LE(split.test.size(), 21u);
    for (std::size_t i : split.test) ++tested[i];
  }
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(tested[i], 1) << "row " << i;
}

TEST(KFoldSplits, StratifiedFoldsKeepClassProportions) {
  const std::vector<double> y = Labels(500);  // 150 positives
  const SplitPlan plan = KFoldSplits(500, 5, 4, y);
  std::vector<int> tested(500, 0);
  for (const Split& split : plan) {
    ExpectPartition(split, 500);
    EXPECT_EQ(split.test.size(), 100u);
    EXPECT_EQ(CountPositive(split.test, y), 30u);
    for (std::size_t i : split.test) ++tested[i];
  }
  EXPECT_TRUE(std::all_of(tested.begin(), tested.end(), [](int t) { return t == 1; }));
}

TEST(KFoldSplits, Deterministic) {
  EXPECT_EQ(KFoldSplits(50, 4, 1)[2].test, KFoldSplits(50, 4, 1)[2].test);
  EXPECT_NE(KFoldSplits(50, 4, 1)[2].test, KFoldSplits(50, 4, 2)[2].test);
}

TEST(KFoldSplits, RejectsBadArguments) {
  EXPECT_THROW(KFoldSplits(10, 1, 0), InvalidArgument);
  EXPECT_THROW(KFoldSplits(3, 4, 0), InvalidArgument);
}

TEST(MonteCarloSplits, RepetitionsDifferAndMatchHoldoutStreams) {
  const std::vector<double> y = Labels(300);
  const SplitPlan plan = MonteCarloSplits(300, 4, 0.2, 5, y);
  ASSERT_EQ(plan.size(), 4u);
  for (std::size_t r = 0; r < plan.size(); ++r) {
    ExpectPartition(plan[r], 300);
    EXPECT_EQ(plan[r].test.size(), 60u);
    EXPECT_EQ(CountPositive(plan[r].test, y), 18u);
    EXPECT_EQ(plan[r].test, HoldoutSplit(300, 0.2, 5, y, r).test);
    for (std::size_t s = 0; s < r; ++s) EXPECT_NE(plan[r].test, plan[s].test);
  }
  EXPECT_EQ(MonteCarloSplits(300, 4, 0.2, 5, y)[3].test, plan[3].test);
  EXPECT_THROW(MonteCarloSplits(300, 0, 0.2, 5), InvalidArgument);
}

// Drawn in parallel, each repetition from its own stream: the plan of a serial draw at any
// thread count, also past one block of repetitions.
TEST(MonteCarloSplits, TheSamePlanAtAnyThreadCount) {
  const std::vector<double> y = Labels(300);
  for (const int threads : {1, 2, 3, 0}) {
    ExecutionOptions execution;
    execution.threads = threads;
    const SplitPlan plan = MonteCarloSplits(300, 37, 0.3, 9, y, execution);
    ASSERT_EQ(plan.size(), 37u);
    for (std::size_t r = 0; r < plan.size(); ++r) {
      const Split serial = HoldoutSplit(300, 0.3, 9, y, r);
      EXPECT_EQ(plan[r].test, serial.test) << "threads " << threads << ", split " << r;
      EXPECT_EQ(plan[r].train, serial.train) << "threads " << threads << ", split " << r;
    }
    EXPECT_EQ(MakeSplitPlan("mc:37", 300, 0.3, 9, y, execution)[36].test, plan[36].test);
  }
  EXPECT_THROW(MonteCarloSplits(1, 5, 0.2, 5), InvalidArgument);  // the checks before any thread
}

/// Runs ReadSplits and expects a one-line DataError holding every part.
void ExpectSplitError(const std::string& path, std::size_t n_rows, std::initializer_list<std::string> parts) {
  try {
    (void)ReadSplits(path, n_rows);
    ADD_FAILURE() << "expected perfshap::DataError for " << path;
  } catch (const DataError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << "message spans lines: " << what;
    for (const std::string& part : parts) {
      EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' not in: " << what;
    }
  }
}

TEST(ReadSplits, ReadsOneSplitSorted) {
  const SplitPlan plan = ReadSplits(FixturePath("split_one.json"), 8);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].train, (std::vector<std::size_t>{0, 1, 2, 5}));
  EXPECT_EQ(plan[0].test, (std::vector<std::size_t>{3, 4}));  // written as [4, 3]
}

TEST(ReadSplits, ReadsListOfSplits) {
  const SplitPlan plan = ReadSplits(FixturePath("split_list.json"), 6);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].test, (std::vector<std::size_t>{3, 4, 5}));
  EXPECT_EQ(plan[1].train, (std::vector<std::size_t>{3, 4, 5}));
  EXPECT_EQ(plan[1].test, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(ReadSplits, IndexOutOfRangeNamesSplitAndPosition) {
  ExpectSplitError(FixturePath("split_bad_index.json"), 5,
                   {"split_bad_index.json", "splits[1].test[1]", "6", "5 rows"});
}

TEST(ReadSplits, RowInBothPartsIsRejected) {
  ExpectSplitError(FixturePath("split_overlap.json"), 10,
                   {"split_overlap.json", "row 3", "both train and test"});
}

TEST(ReadSplits, NegativeAndNonIntegerIndicesAreRejected) {
  ExpectSplitError(testing::WriteTempFile("negative.json", R"({"train": [0, -1], "test": [2]})"), 5,
                   {"negative.json", "train[1]", "-1", "negative"});
  ExpectSplitError(testing::WriteTempFile("fraction.json", R"({"train": [0, 1.5], "test": [2]})"), 5,
                   {"fraction.json", "train[1]", "1.5", "whole number"});
  ExpectSplitError(testing::WriteTempFile("string.json", R"({"train": [0, "1"], "test": [2]})"), 5,
                   {"string.json", "train[1]", "whole number"});
  // Integral floats, as written by tools that store indices as floats, are accepted.
  const SplitPlan plan = ReadSplits(testing::WriteTempFile("float.json", R"({"train": [0, 1.0], "test": [2]})"), 5);
  EXPECT_EQ(plan[0].train, (std::vector<std::size_t>{0, 1}));
}

TEST(ReadSplits, DuplicateIndexIsRejected) {
  ExpectSplitError(testing::WriteTempFile("duplicate.json", R"({"train": [0, 1, 1], "test": [2]})"), 5,
                   {"duplicate.json", "train", "row 1", "twice"});
}

TEST(ReadSplits, EmptyPartIsRejected) {
  ExpectSplitError(testing::WriteTempFile("empty_part.json", R"({"splits": [{"train": [0], "test": []}]})"), 5,
                   {"empty_part.json", "splits[0].test", "empty"});
}

TEST(ReadSplits, MalformedJsonNamesFileAndPosition) {
  ExpectSplitError(testing::WriteTempFile("malformed.json", "{\"train\": [0, 1],\n \"test\": [2,]}"), 5,
                   {"malformed.json", "not valid JSON", "line 2"});
}

TEST(ReadSplits, WrongShapeIsRejected) {
  ExpectSplitError(testing::WriteTempFile("no_test.json", R"({"train": [0, 1]})"), 5, {"no_test.json", "\"test\""});
  ExpectSplitError(testing::WriteTempFile("typo.json", R"({"train": [0], "tset": [1]})"), 5, {"typo.json", "\"tset\""});
  ExpectSplitError(testing::WriteTempFile("array.json", "[[0, 1], [2]]"), 5, {"array.json", "not an object"});
  ExpectSplitError(testing::WriteTempFile("no_splits.json", R"({"splits": []})"), 5, {"no_splits.json", "non-empty"});
}

TEST(ReadSplits, MissingFileAndDirectoryAreRejected) {
  ExpectSplitError(FixtureDir() + "/no_such_split.json", 5, {"no_such_split.json", "no such file"});
  ExpectSplitError(FixtureDir(), 5, {"tests/fixtures", "directory"});
}

}  // namespace
}}  // namespace perfshap
