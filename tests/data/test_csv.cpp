// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
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

using testing::FixtureDir;
using testing::FixturePath;

void ExpectCsvError(const std::string& path, const CsvOptions& options,
                    std::initializer_list<std::string> parts, const std::string& option = "") {
  ExpectDataError([&] { ReadCsv(path, options); }, parts, option);
}

CsvOptions Label(const std::string& label, const std::string& positive = "") {
  CsvOptions options;
  options.label = label;
  options.positive = positive;
  return options;
}

std::vector<double> ToVector(std::span<const double> s) { return {s.begin(), s.end()}; }

TEST(Csv, ReadsNumericAndCategoricalColumns) {
  const Dataset data = ReadCsv(FixturePath("good.csv"), Label("label"));
  ASSERT_EQ(data.n_rows(), 4u);
  ASSERT_EQ(data.n_features(), 3u);
  EXPECT_EQ(data.feature_names(), (std::vector<std::string>{"x1", "x2", "color"}));
  EXPECT_EQ(data.label_name(), "label");
  EXPECT_EQ(data.source(), FixturePath("good.csv"));
  EXPECT_EQ(ToVector(data.column(0)), (std::vector<double>{1.5, -2.0, 3.0, 0.0}));
  // Leading dot, exponent, leading '+': the values strtod gives for the same text.
  EXPECT_EQ(ToVector(data.column(1)), (std::vector<double>{0.28, 1e3, 4.5, -0.5}));
  EXPECT_EQ(ToVector(data.column(2)), (std::vector<double>{0, 1, 0, 2}));
  EXPECT_FALSE(data.encoding(0).has_value());
  ASSERT_TRUE(data.encoding(2).has_value());
  EXPECT_EQ(data.encoding(2)->levels, (std::vector<std::string>{"red", "blue", "green, light"}));
  EXPECT_EQ(ToVector(data.label()), (std::vector<double>{0, 1, 1, 0}));
  EXPECT_EQ(data.CountPositive(), 2u);
}

TEST(Csv, HandlesCrlfBomQuotesAndWhitespace) {
  const Dataset data = ReadCsv(FixturePath("crlf_bom.csv"), Label("label"));
  ASSERT_EQ(data.n_rows(), 3u);  // the two blank trailing lines are not rows
  EXPECT_EQ(data.feature_names(), (std::vector<std::string>{"x1", "x2", "name"}));
  EXPECT_EQ(ToVector(data.column(0)), (std::vector<double>{1, 3, 5}));
  EXPECT_EQ(ToVector(data.column(1)), (std::vector<double>{2, 4, 6}));
  ASSERT_TRUE(data.encoding(2).has_value());
  EXPECT_EQ(data.encoding(2)->levels, (std::vector<std::string>{"say \"hi\"", "plain", "a,b"}));
  EXPECT_EQ(ToVector(data.label()), (std::vector<double>{0, 1, 1}));
}

TEST(Csv, NoTrailingNewlineAndBlankLinesAreFine) {
  const std::string path = testing::WriteTempFile("no_newline.csv", "a,label\n1,0\n\n2,1\n   \n3,1");
  const Dataset data = ReadCsv(path, Label("label"));
  EXPECT_EQ(ToVector(data.column(0)), (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(ToVector(data.label()), (std::vector<double>{0, 1, 1}));
}

TEST(Csv, LoneCarriageReturnEndsLines) {
  const std::string path = testing::WriteTempFile("cr.csv", "a,label\r1,0\r2,x\r");
  ExpectCsvError(path, Label("label"), {"cr.csv:3:", "column 'label' (2)", "'x'"});
}

TEST(Csv, SemicolonDelimiter) {
  CsvOptions options = Label("label");
  options.delimiter = ';';
  const Dataset data = ReadCsv(testing::WriteTempFile("semicolon.csv", "a;b;label\n1.5;x,y;0\n3;z;1\n"), options);
  ASSERT_EQ(data.n_features(), 2u);
  EXPECT_EQ(ToVector(data.column(0)), (std::vector<double>{1.5, 3.0}));
  ASSERT_TRUE(data.encoding(1).has_value());
  EXPECT_EQ(data.encoding(1)->levels, (std::vector<std::string>{"x,y", "z"}));
}

TEST(Csv, UnusableDelimiterIsInvalidArgument) {
  CsvOptions options = Label("label");
  options.delimiter = '"';
  EXPECT_THROW(ReadCsv(FixturePath("good.csv"), options), InvalidArgument);
}

TEST(Csv, MissingFileNamesPath) {
  ExpectCsvError(FixtureDir() + "/no_such_file.csv", Label("label"), {"no_such_file.csv", "no such file"});
}

TEST(Csv, DirectoryIsRejected) {
  ExpectCsvError(FixtureDir(), Label("label"), {"tests/fixtures", "directory"});
}

TEST(Csv, EmptyFileIsRejected) {
  ExpectCsvError(FixturePath("empty.csv"), Label("label"), {"empty.csv:1:", "empty", "header"});
}

TEST(Csv, BlankOnlyFileIsRejected) {
  ExpectCsvError(testing::WriteTempFile("blank.csv", "\n\r\n  \n"), Label("label"), {"blank.csv:1:", "blank"});
}

TEST(Csv, HeaderOnlyIsRejected) {
  ExpectCsvError(FixturePath("header_only.csv"), Label("label"), {"header_only.csv:1:", "no data rows"});
}

TEST(Csv, RaggedRowNamesFileAndLine) {
  ExpectCsvError(FixturePath("ragged.csv"), Label("label"),
                 {"ragged.csv:4:", "expected 4 fields", "found 3", "column 'label' (4)"});
}

TEST(Csv, ExtraFieldNamesFileAndLine) {
  const std::string path = testing::WriteTempFile("extra.csv", "a,b,label\n1,2,0\n3,4,1,9\n");
  ExpectCsvError(path, Label("label"), {"extra.csv:3:", "expected 3 fields", "found 4", "field 4", "'9'"});
}

TEST(Csv, UnclosedQuoteNamesLine) {
  const std::string path = testing::WriteTempFile("unclosed.csv", "a,label\n1,0\n\"2,1\n3,0\n");
  ExpectCsvError(path, Label("label"), {"unclosed.csv:3:", "field 1", "never closed"});
}

TEST(Csv, TextAfterClosingQuoteIsRejected) {
  const std::string path = testing::WriteTempFile("after_quote.csv", "a,label\n\"1\"x,0\n");
  ExpectCsvError(path, Label("label"), {"after_quote.csv:2:", "field 1", "closing quote"});
}

TEST(Csv, QuotedLineBreakKeepsPhysicalLineNumbers) {
  // The quoted cell spans lines 2-3, so the bad cell "abc" is on line 5.
  const std::string path = testing::WriteTempFile("multiline.csv", "a,note,label\n1,\"two\nlines\",0\n2,x,1\n abc ,y,1\n");
  ExpectCsvError(path, Label("label"), {"multiline.csv:5:", "column 'a' (1)", "'abc'"});
}

TEST(Csv, TextInNumericColumnNamesLineAndColumn) {
  ExpectCsvError(FixturePath("text_in_numeric.csv"), Label("label"),
                 {"text_in_numeric.csv:4:", "column 'x2' (2)", "'abc' is not a number"});
}

TEST(Csv, NumberInTextColumnNamesLineAndColumn) {
  const std::string path =
      testing::WriteTempFile("number_in_text.csv", "a,color,label\n1,red,0\n2,blue,1\n3,7,0\n4,red,1\n");
  ExpectCsvError(path, Label("label"), {"number_in_text.csv:4:", "column 'color' (2)", "'7' is a number"});
}

TEST(Csv, NanIsMissingByDefault) {
  ExpectCsvError(FixturePath("nan.csv"), Label("label"),
                 {"nan.csv:3:", "column 'x2' (2)", "missing value 'NaN'", "fill it in"});
}

TEST(Csv, NanIsKeptWithAllowMissing) {
  CsvOptions options = Label("label");
  options.allow_missing = true;
  const Dataset data = ReadCsv(FixturePath("nan.csv"), options);
  EXPECT_EQ(data.column(1)[0], 2.0);
  EXPECT_TRUE(std::isnan(data.column(1)[1]));
}

TEST(Csv, InfinityIsRejectedEvenWithAllowMissing) {
  CsvOptions options = Label("label");
  options.allow_missing = true;
  const std::string path = testing::WriteTempFile("inf.csv", "a,b,label\n1,2,0\n3,-inf,1\n");
  ExpectCsvError(path, options, {"inf.csv:3:", "column 'b' (2)", "'-inf'", "infinite"});
}

TEST(Csv, OverflowIsRejectedAndUnderflowIsAccepted) {
  ExpectCsvError(testing::WriteTempFile("overflow.csv", "a,label\n1e999,0\n2,1\n"), Label("label"),
                 {"overflow.csv:2:", "column 'a' (1)", "'1e999'"});
  const Dataset data = ReadCsv(testing::WriteTempFile("underflow.csv", "a,label\n1e-320,0\n2,1\n"), Label("label"));
  EXPECT_GT(data.column(0)[0], 0.0);
  EXPECT_LT(data.column(0)[0], 1e-300);
}

TEST(Csv, MissingValueNamesLineAndColumn) {
  // Line 3 has an empty x2 before line 4's '?' in color: the earliest line is reported.
  ExpectCsvError(FixturePath("missing.csv"), Label("label"),
                 {"missing.csv:3:", "column 'x2' (2)", "missing value ''"});
}

TEST(Csv, MissingValueInTextColumnNamesLineAndColumn) {
  const std::string path = testing::WriteTempFile("missing_text.csv", "a,color,label\n1,red,0\n2,?,1\n");
  ExpectCsvError(path, Label("label"), {"missing_text.csv:3:", "column 'color' (2)", "missing value '?'"});
}

TEST(Csv, AllowMissingKeepsNanAndQuestionMarkLevel) {
  CsvOptions options = Label("label");
  options.allow_missing = true;
  const Dataset data = ReadCsv(FixturePath("missing.csv"), options);
  ASSERT_EQ(data.n_rows(), 4u);
  EXPECT_EQ(data.column(1)[0], 2.0);
  EXPECT_TRUE(std::isnan(data.column(1)[1]));  // empty cell
  EXPECT_TRUE(std::isnan(data.column(1)[3]));  // '?'
  // In a text column '?' is a level of its own, so models see it as a category.
  ASSERT_TRUE(data.encoding(2).has_value());
  EXPECT_EQ(data.encoding(2)->levels, (std::vector<std::string>{"red", "blue", "?"}));
  EXPECT_EQ(ToVector(data.column(2)), (std::vector<double>{0, 1, 2, 0}));
}

TEST(Csv, MissingLabelIsAlwaysAnError) {
  CsvOptions options = Label("label");
  options.allow_missing = true;
  const std::string path = testing::WriteTempFile("missing_label.csv", "a,label\n1,0\n2,1\n3,?\n");
  ExpectCsvError(path, options, {"missing_label.csv:4:", "column 'label' (2)", "missing"});
}

TEST(Csv, EarliestLineIsReported) {
  // Text at line 5 of column a; a missing value at line 3 of column c is reported first.
  const std::string path =
      testing::WriteTempFile("earliest.csv", "a,b,c,label\n1,2,3,0\n4,5,,1\n6,7,8,0\n9,x,9,1\n10,11,12,0\n");
  ExpectCsvError(path, Label("label"), {"earliest.csv:3:", "column 'c' (3)"});
}

TEST(Csv, TextBeforeMissingValueInSameColumnIsReported) {
  const std::string path = testing::WriteTempFile("typo_then_missing.csv", "a,label\n1,0\nabc,1\n2,0\n?,1\n");
  ExpectCsvError(path, Label("label"), {"typo_then_missing.csv:3:", "column 'a' (1)", "'abc'"});
}

TEST(Csv, DuplicateColumnNamesAreRejected) {
  ExpectCsvError(FixturePath("duplicate_columns.csv"), Label("label"),
                 {"duplicate_columns.csv:1:", "columns 1 and 3", "'x1'", "unique"});
}

TEST(Csv, EmptyColumnNameIsRejected) {
  ExpectCsvError(testing::WriteTempFile("unnamed.csv", "a,,label\n1,2,0\n3,4,1\n"), Label("label"),
                 {"unnamed.csv:1:", "column 2", "no name"});
}

TEST(Csv, UnknownLabelListsColumns) {
  ExpectCsvError(FixturePath("good.csv"), Label("target"),
                 {"good.csv:1:", "'target'", "'x1', 'x2', 'color', 'label'", "as the label"}, "label");
}

TEST(Csv, NoLabelGivenIsAnErrorUnlessAllowed) {
  ExpectCsvError(FixturePath("good.csv"), Label(""), {"good.csv:1:", "name the label column", "'color'"}, "label");
  CsvOptions options;
  options.allow_no_label = true;
  const Dataset data = ReadCsv(FixturePath("good.csv"), options);
  EXPECT_EQ(data.n_features(), 4u);
  EXPECT_TRUE(data.label().empty());
}

TEST(Csv, LabelOnlyFileHasNoFeatures) {
  ExpectCsvError(testing::WriteTempFile("label_only.csv", "label\n0\n1\n"), Label("label"),
                 {"label_only.csv:1:", "no feature columns"});
}

TEST(Csv, SingleClassLabelIsRejected) {
  ExpectCsvError(FixturePath("single_class.csv"), Label("label"),
                 {"single_class.csv", "column 'label' (3)", "lines 2-4", "both classes"});
}

TEST(Csv, TextLabelNeedsPositive) {
  ExpectCsvError(FixturePath("label_text.csv"), Label("diagnosis"),
                 {"label_text.csv:2:", "column 'diagnosis' (4)", "'M'", "name the positive class", "'B'"},
                 "positive");
}

TEST(Csv, LabelOtherThanZeroOneNeedsPositive) {
  ExpectCsvError(testing::WriteTempFile("label_two.csv", "a,label\n1,0\n2,2\n"), Label("label"),
                 {"label_two.csv:3:", "column 'label' (2)", "'2'", "name the positive class"}, "positive");
}

TEST(Csv, PositiveSelectsTheClass) {
  const Dataset data = ReadCsv(FixturePath("label_text.csv"), Label("diagnosis", " M "));
  EXPECT_EQ(data.label_name(), "diagnosis");
  EXPECT_EQ(data.feature_names(), (std::vector<std::string>{"id_feature", "radius", "texture"}));
  EXPECT_EQ(ToVector(data.label()), (std::vector<double>{1, 0, 1, 0, 0}));
  EXPECT_EQ(data.CountPositive(), 2u);
}

TEST(Csv, PositiveAbsentIsRejected) {
  ExpectCsvError(FixturePath("label_text.csv"), Label("diagnosis", "X"),
                 {"label_text.csv", "column 'diagnosis' (4)", "'X'", "'M', 'B'"});
}

TEST(Csv, PositiveMatchingEveryRowIsSingleClass) {
  ExpectCsvError(FixturePath("single_class.csv"), Label("label", "1"),
                 {"single_class.csv", "column 'label' (3)", "both classes"});
}

TEST(Csv, PositiveMatchesNumericSpellings) {
  const std::string path = testing::WriteTempFile("numeric_positive.csv", "a,label\n1,1.0\n2,2\n3,1\n");
  const Dataset data = ReadCsv(path, Label("label", "1"));
  EXPECT_EQ(ToVector(data.label()), (std::vector<double>{1, 0, 1}));
}

TEST(Csv, RegressionKeepsRawTarget) {
  CsvOptions options = Label("y");
  options.regression = true;
  const Dataset data = ReadCsv(testing::WriteTempFile("regression.csv", "a,y\n1,2.5\n2,-3\n3,2.5\n"), options);
  EXPECT_EQ(ToVector(data.label()), (std::vector<double>{2.5, -3, 2.5}));
  ExpectCsvError(testing::WriteTempFile("regression_bad.csv", "a,y\n1,2.5\n2,big\n"), options,
                 {"regression_bad.csv:3:", "column 'y' (2)", "'big'"});
  options.positive = "1";
  EXPECT_THROW(ReadCsv(FixturePath("good.csv"), options), InvalidArgument);
}

TEST(Csv, LongAndControlCellsStayOnOneLine) {
  const std::string path =
      testing::WriteTempFile("control.csv", "a,label\n1,0\n\"bad\nvalue with a very long tail that goes on and on\",1\n");
  ExpectCsvError(path, Label("label"), {"control.csv:3:", "'bad\\nvalue", "...'"});
}

TEST(Csv, ReadsBanknote) {
  const std::string path = FixturePath("data/banknote.csv");
  const Dataset data = ReadCsv(path, Label("label"));
  EXPECT_EQ(data.n_rows(), 1372u);
  EXPECT_EQ(data.feature_names(), (std::vector<std::string>{"variance", "skewness", "curtosis", "entropy"}));
  EXPECT_EQ(data.CountPositive(), 610u);
  EXPECT_EQ(data.column(0)[0], 3.6216);
  EXPECT_EQ(data.column(3)[0], -0.44699);
  for (std::size_t j = 0; j < data.n_features(); ++j) EXPECT_FALSE(data.encoding(j).has_value());
}

TEST(Csv, ReadsWineWithPositiveClass) {
  const std::string path = FixturePath("data/wine.csv");
  const Dataset data = ReadCsv(path, Label("label", "1"));
  EXPECT_EQ(data.n_rows(), 178u);
  EXPECT_EQ(data.n_features(), 13u);
  EXPECT_EQ(data.CountPositive(), 59u);
  // The file writes ".28" with a leading dot.
  EXPECT_EQ(data.column(data.FeatureIndex("nonflavanoid_phenols"))[0], 0.28);
  ExpectCsvError(path, Label("label"), {"wine.csv:61:", "column 'label' (14)", "'2'", "name the positive class"},
                 "positive");
}

// adult_head.csv: the header and the first 1400 data rows of UCI adult.data (its counts, from
// awk, in tests/fixtures/README.md).
TEST(Csv, ReadsAdultWithAllowMissing) {
  const std::string path = FixturePath("data/adult_head.csv");
  CsvOptions options = Label("label");
  options.allow_missing = true;
  const Dataset data = ReadCsv(path, options);
  EXPECT_EQ(data.n_rows(), 1400u);
  EXPECT_EQ(data.n_features(), 14u);
  EXPECT_EQ(data.CountPositive(), 339u);
  std::size_t n_categorical = 0;
  for (std::size_t j = 0; j < data.n_features(); ++j) n_categorical += data.encoding(j) ? 1 : 0;
  EXPECT_EQ(n_categorical, 8u);
  EXPECT_EQ(data.column(data.FeatureIndex("age"))[0], 39.0);
  const std::size_t workclass = data.FeatureIndex("workclass");
  const auto& levels = data.encoding(workclass)->levels;
  EXPECT_EQ(levels.front(), "State-gov");
  const auto question = std::find(levels.begin(), levels.end(), "?");
  ASSERT_NE(question, levels.end());
  const auto code = static_cast<double>(question - levels.begin());
  std::size_t n_question = 0;
  for (double v : data.column(workclass)) n_question += (v == code) ? 1 : 0;
  EXPECT_EQ(n_question, 89u);
  for (std::size_t j = 0; j < data.n_features(); ++j) {
    for (double v : data.column(j)) ASSERT_TRUE(std::isfinite(v)) << data.feature_names()[j];
  }
}

TEST(Csv, AdultWithoutAllowMissingNamesFirstQuestionMark) {
  const std::string path = FixturePath("data/adult_head.csv");
  ExpectCsvError(path, Label("label"),
                 {"adult_head.csv:16:", "column 'native_country' (14)", "missing value '?'"});
}

TEST(Dataset, ConstructorChecksShapes) {
  EXPECT_THROW(Dataset({"a", "b"}, {{1.0, 2.0}}, {}), InvalidArgument);
  EXPECT_THROW(Dataset({"a", "b"}, {{1.0, 2.0}, {3.0}}, {}), InvalidArgument);
  EXPECT_THROW(Dataset({"a"}, {{1.0, 2.0}}, {1.0}), InvalidArgument);
  EXPECT_THROW(Dataset({"a", "a"}, {{1.0}, {2.0}}, {}), InvalidArgument);
  const Dataset data({"a", "b"}, {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}, {1.0, 0.0, 1.0}, "y");
  EXPECT_EQ(data.n_rows(), 3u);
  EXPECT_EQ(data.n_features(), 2u);
  EXPECT_EQ(data.label_name(), "y");
  EXPECT_EQ(data.CountPositive(), 2u);
  EXPECT_FALSE(data.encoding(1).has_value());
  EXPECT_EQ(ToVector(data.column(1)), (std::vector<double>{4.0, 5.0, 6.0}));
}

TEST(Dataset, FeatureIndexListsAvailableNames) {
  const Dataset data({"alpha", "beta"}, {{1.0}, {2.0}}, {});
  EXPECT_EQ(data.FeatureIndex("beta"), 1u);
  try {
    (void)data.FeatureIndex("gamma");
    ADD_FAILURE() << "expected InvalidArgument";
  } catch (const InvalidArgument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'gamma'"), std::string::npos) << what;
    EXPECT_NE(what.find("alpha, beta"), std::string::npos) << what;
  }
}

}  // namespace
}}  // namespace perfshap

namespace perfshap { inline namespace v0 {
namespace {

TEST(Dataset, SelectRowsKeepsOrderNamesEncodingsAndLabel) {
  Dataset d({"a", "b"}, {{1, 2, 3, 4}, {10, 20, 30, 40}}, {0, 1, 1, 0}, "y");
  d.set_encoding(1, CategoricalEncoding{{"p", "q"}});
  d.set_source("mem");
  const std::vector<std::size_t> rows{3, 1, 1};
  const Dataset s = d.SelectRows(rows);
  ASSERT_EQ(s.n_rows(), 3u);
  EXPECT_EQ(s.feature_names(), d.feature_names());
  EXPECT_EQ(s.label_name(), "y");
  EXPECT_EQ(s.source(), "mem");
  EXPECT_EQ(std::vector<double>(s.column(0).begin(), s.column(0).end()), (std::vector<double>{4, 2, 2}));
  EXPECT_EQ(std::vector<double>(s.column(1).begin(), s.column(1).end()), (std::vector<double>{40, 20, 20}));
  EXPECT_EQ(std::vector<double>(s.label().begin(), s.label().end()), (std::vector<double>{0, 1, 1}));
  ASSERT_TRUE(s.encoding(1).has_value());
  EXPECT_EQ(s.encoding(1)->levels.size(), 2u);
  const std::vector<std::size_t> bad{4};
  EXPECT_THROW(d.SelectRows(bad), InvalidArgument);
}

}  // namespace
}}  // namespace perfshap
