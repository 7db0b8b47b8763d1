// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/split.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::ExpectError;

bool SamePlan(const SplitPlan& a, const SplitPlan& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t s = 0; s < a.size(); ++s)
    if (a[s].train != b[s].train || a[s].test != b[s].test) return false;
  return true;
}

TEST(SplitPlanSpec, NamesTheSplitters) {
  std::vector<double> labels(40);
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<double>(i % 3 == 0);
  EXPECT_TRUE(SamePlan(MakeSplitPlan("holdout", 40, 0.25, 7), {HoldoutSplit(40, 0.25, 7)}));
  EXPECT_TRUE(SamePlan(MakeSplitPlan("holdout", 40, 0.25, 7, labels), {HoldoutSplit(40, 0.25, 7, labels)}));
  EXPECT_TRUE(SamePlan(MakeSplitPlan("mc:5", 40, 0.3, 3, labels), MonteCarloSplits(40, 5, 0.3, 3, labels)));
  EXPECT_TRUE(SamePlan(MakeSplitPlan("kfold:4", 40, 0.3, 3), KFoldSplits(40, 4, 3)));
}

TEST(SplitPlanSpec, BadSpecsNameThePlanOption) {
  ExpectError<InvalidArgument>([] { MakeSplitPlan("loo", 40, 0.2, 0); }, {"split plan 'loo' is not understood"},
                               "plan");
  ExpectError<InvalidArgument>([] { MakeSplitPlan("mc:x", 40, 0.2, 0); }, {"'x' is not an integer >= 1"},
                               "plan");
  ExpectError<InvalidArgument>([] { MakeSplitPlan("mc:0", 40, 0.2, 0); }, {"'0' is not an integer >= 1"},
                               "plan");
  ExpectError<InvalidArgument>([] { MakeSplitPlan("kfold:1", 40, 0.2, 0); }, {"'1' is not an integer >= 2"},
                               "plan");
  ExpectError<InvalidArgument>([] { MakeSplitPlan("kfold:", 40, 0.2, 0); }, {"is not an integer"}, "plan");
}

TEST(RowPermutation, ReadsOneIndexPerLine) {
  EXPECT_EQ(ReadRowPermutation(testing::WriteTempFile("ok.txt", "2\n0\r\n 1 \n\n"), 3),
            (std::vector<std::size_t>{2, 0, 1}));
}

TEST(RowPermutation, BadFilesNameFileLineAndOption) {
  ExpectError<DataError>([] { ReadRowPermutation(testing::WriteTempFile("short.txt", "1\n0\n"), 3); },
                         {"2 lines for a sample of 3"}, "permutation");
  ExpectError<DataError>([] { ReadRowPermutation(testing::WriteTempFile("dup.txt", "1\n1\n0\n"), 3); },
                         {"line 2: index 1 repeats line 1"}, "permutation");
  ExpectError<DataError>([] { ReadRowPermutation(testing::WriteTempFile("range.txt", "1\n3\n0\n"), 3); },
                         {"line 2: index 3 is outside 0..2"}, "permutation");
  ExpectError<DataError>([] { ReadRowPermutation(testing::WriteTempFile("text.txt", "k,perm_k\n"), 1); },
                         {"line 1: 'k,perm_k' is not a 0-based row index"}, "permutation");
  // Found by fuzz_permutation: a carriage return inside a line is escaped (one-line message),
  // and a long line is quoted only in part.
  ExpectError<DataError>([] { ReadRowPermutation(testing::WriteTempFile("cr.txt", "21\r2\n"), 1); },
                         {"line 1: '21\\r2' is not a 0-based row index"}, "permutation");
  ExpectError<DataError>(
      [] { ReadRowPermutation(testing::WriteTempFile("long.txt", std::string(100000, '7') + "x\n"), 1); },
      {"line 1: '7777777777777777777777777777777777777777...' is not a 0-based row index"}, "permutation");
  ExpectError<DataError>([] { ReadRowPermutation(::testing::TempDir() + "no_such_perm.txt", 3); },
                         {"cannot open the file"}, "permutation");
}

}  // namespace
}}  // namespace perfshap
