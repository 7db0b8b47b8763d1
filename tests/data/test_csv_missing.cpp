// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// ReadCsv's missing-value policies (CsvOptions::missing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::ExpectDataError;

using testing::FixturePath;

CsvOptions Policy(MissingValues missing) {
  CsvOptions options;
  options.label = "label";
  options.missing = missing;
  return options;
}

std::vector<double> ToVector(std::span<const double> s) { return {s.begin(), s.end()}; }

TEST(CsvMissing, ErrorIsTheDefaultAndNamesThePolicies) {
  EXPECT_EQ(CsvOptions{}.missing, MissingValues::kError);
  CsvOptions options;
  options.label = "label";
  // Line 3 has '?' in color, line 4 an empty x1: the earliest line is reported.
  ExpectDataError([&] { ReadCsv(FixturePath("missing_policies.csv"), options); },
                  {"missing_policies.csv:3:", "column 'color' (2)", "missing value '?'", "fill it in",
                   "missing = drop", "missing = category"},
                  "missing");
}

TEST(CsvMissing, CategoryMakesEachTextSpellingALevel) {
  const Dataset data = ReadCsv(FixturePath("missing_text_levels.csv"), Policy(MissingValues::kCategory));
  ASSERT_EQ(data.n_rows(), 5u);
  ASSERT_TRUE(data.encoding(1).has_value());
  // First-appearance codes, as without missing values; '?' and 'NA' are levels of their own.
  EXPECT_EQ(data.encoding(1)->levels, (std::vector<std::string>{"red", "?", "blue", "NA"}));
  EXPECT_EQ(ToVector(data.column(1)), (std::vector<double>{0, 1, 2, 3, 0}));
  EXPECT_EQ(data.dropped_rows(), 0u);
}

TEST(CsvMissing, CategoryInNumericColumnIsAnError) {
  // missing_policies.csv: x1 is numeric and empty at line 4 (NaN at line 8).
  ExpectDataError([&] { ReadCsv(FixturePath("missing_policies.csv"), Policy(MissingValues::kCategory)); },
                  {"missing_policies.csv:4:", "column 'x1' (1)", "missing value ''", "numeric column",
                   "text columns only", "missing = drop", "impute"},
                  "missing");
}

TEST(CsvMissing, CategoryInColumnOfOnlyMissingCellsIsAnError) {
  const std::string path = testing::WriteTempFile("all_missing.csv", "a,b,label\n1,?,0\n2,NA,1\n");
  ExpectDataError([&] { ReadCsv(path, Policy(MissingValues::kCategory)); },
                  {"all_missing.csv:2:", "column 'b' (2)", "every cell of this column is missing"},
                  "missing");
}

TEST(CsvMissing, DropRemovesRowsWithAnyMissingFeature) {
  const Dataset data = ReadCsv(FixturePath("missing_policies.csv"), Policy(MissingValues::kDrop));
  // Lines 3 ('?'), 4 (empty), 6 ('?') and 8 ('NaN') are dropped; lines 2, 5, 7, 9 are kept.
  EXPECT_EQ(data.dropped_rows(), 4u);
  ASSERT_EQ(data.n_rows(), 4u);
  EXPECT_EQ(ToVector(data.column(0)), (std::vector<double>{1, 4, 6, 8}));
  // The rows are dropped before the columns are typed: '?' never becomes a level.
  ASSERT_TRUE(data.encoding(1).has_value());
  EXPECT_EQ(data.encoding(1)->levels, (std::vector<std::string>{"red", "blue", "green"}));
  EXPECT_EQ(ToVector(data.column(1)), (std::vector<double>{0, 1, 0, 2}));
  ASSERT_TRUE(data.encoding(2).has_value());
  EXPECT_EQ(data.encoding(2)->levels, (std::vector<std::string>{"S", "M", "L"}));
  EXPECT_EQ(ToVector(data.label()), (std::vector<double>{0, 1, 1, 0}));
  // SelectRows keeps the count, as it keeps the source.
  const std::vector<std::size_t> rows = {0, 1};
  EXPECT_EQ(data.SelectRows(rows).dropped_rows(), 4u);
}

TEST(CsvMissing, DropWithoutMissingCellsDropsNothing) {
  const Dataset data = ReadCsv(FixturePath("good.csv"), Policy(MissingValues::kDrop));
  EXPECT_EQ(data.n_rows(), 4u);
  EXPECT_EQ(data.dropped_rows(), 0u);
}

TEST(CsvMissing, DropKeepsPhysicalLineNumbers) {
  // Lines 2 and 3 are dropped; the text 'x' at line 5 is reported at line 5.
  const std::string path =
      testing::WriteTempFile("drop_lines.csv", "a,b,label\n?,1,0\n2,,1\n3,4,0\n5,x,1\n6,7,0\n8,9,1\n");
  ExpectDataError([&] { ReadCsv(path, Policy(MissingValues::kDrop)); },
                  {"drop_lines.csv:5:", "column 'b' (2)", "'x'"});
}

TEST(CsvMissing, DropStillRejectsMissingLabel) {
  // The row at line 3 would be dropped for its feature, but its label is missing too.
  const std::string path = testing::WriteTempFile("drop_label.csv", "a,label\n1,0\n?,?\n3,1\n4,0\n");
  ExpectDataError([&] { ReadCsv(path, Policy(MissingValues::kDrop)); },
                  {"drop_label.csv:3:", "column 'label' (2)", "the label is missing"});
  const std::string kept = testing::WriteTempFile("drop_label_kept.csv", "a,label\n1,0\n2,1\n3,NA\n");
  ExpectDataError([&] { ReadCsv(kept, Policy(MissingValues::kDrop)); },
                  {"drop_label_kept.csv:4:", "column 'label' (2)", "the label is missing"});
}

TEST(CsvMissing, DropOfEveryRowWithAMissingLabelNamesTheLabel) {
  // Every row is dropped and one of them has no label: the label is reported, by its line
  // (a fuzz finding: no row was left to say where the columns' cells are).
  const std::string path = testing::WriteTempFile("drop_all_label.csv", "a,b,label\n1,,0\n\n3,,?\n");
  ExpectDataError([&] { ReadCsv(path, Policy(MissingValues::kDrop)); },
                  {"drop_all_label.csv:4:", "column 'label' (3)", "the label is missing"});
}

TEST(CsvMissing, DropOfEveryRowIsAnError) {
  const std::string path = testing::WriteTempFile("drop_all.csv", "a,b,label\n?,1,0\n2,,1\n");
  ExpectDataError([&] { ReadCsv(path, Policy(MissingValues::kDrop)); },
                  {"drop_all.csv", "every one of the 2 data rows", "line 2", "column 'a' (1)", "impute"},
                  "missing");
}

TEST(CsvMissing, DropThenOneClassIsReportedOnTheRowsKept) {
  const std::string path = testing::WriteTempFile("drop_class.csv", "a,label\n1,0\n?,1\n3,0\n");
  try {
    ReadCsv(path, Policy(MissingValues::kDrop));
    ADD_FAILURE() << "expected DataError";
  } catch (const DataError& e) {
    // (This older message still names the CLI's flags, so ExpectDataError's check is skipped.)
    const std::string what = e.what();
    EXPECT_NE(what.find("all 2 data rows"), std::string::npos) << what;
    EXPECT_NE(what.find("same class"), std::string::npos) << what;
  }
}

TEST(CsvMissing, KeepEqualsAllowMissing) {
  CsvOptions legacy;
  legacy.label = "label";
  legacy.allow_missing = true;
  const Dataset a = ReadCsv(FixturePath("missing.csv"), legacy);
  const Dataset b = ReadCsv(FixturePath("missing.csv"), Policy(MissingValues::kKeep));
  ASSERT_EQ(a.n_features(), b.n_features());
  for (std::size_t j = 0; j < a.n_features(); ++j) {
    const auto x = ToVector(a.column(j));
    const auto y = ToVector(b.column(j));
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
      EXPECT_TRUE(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i]))) << j << "," << i;
    }
    EXPECT_EQ(a.encoding(j).has_value(), b.encoding(j).has_value());
  }
  EXPECT_EQ(b.encoding(2)->levels, (std::vector<std::string>{"red", "blue", "?"}));
  // allow_missing with the same policy spelled out is fine.
  legacy.missing = MissingValues::kKeep;
  EXPECT_EQ(ReadCsv(FixturePath("missing.csv"), legacy).n_rows(), 4u);
}

TEST(CsvMissing, AllowMissingContradictingPolicyIsInvalidArgument) {
  for (const MissingValues policy : {MissingValues::kCategory, MissingValues::kDrop}) {
    CsvOptions options = Policy(policy);
    options.allow_missing = true;
    try {
      ReadCsv(FixturePath("missing.csv"), options);
      ADD_FAILURE() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("allow_missing"), std::string::npos) << e.what();
      EXPECT_EQ(e.options(), (std::vector<std::string>{"allow_missing", "missing"}));
    }
  }
}

}  // namespace
}}  // namespace perfshap
