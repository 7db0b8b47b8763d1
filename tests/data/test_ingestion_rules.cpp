// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// One ingestion path: a CSV file and an in-memory table of the same cells go through one column
// builder, so every label and typing rule gives the same data set, or the same error (the same
// words after the place, the same options named). One table of cases; each is read as a CSV
// file, as a table of text columns (the file's missing spellings as nulls), and (when its cells
// are numbers) as float64 columns, copied and lent in place.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <regex>
#include <span>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/table.hpp"
#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 {
namespace {

struct Case {
  const char* what;
  std::vector<std::string> label;  // the label column's cells
  std::string positive;
  bool regression = false;
  std::optional<std::vector<double>> expected;  // nullopt: an error
  std::vector<std::string> options;             // the options the error names
};

/** What a read gave: the label and features, or the error's words after the place. */
struct Outcome {
  std::optional<Dataset> data;
  std::string words;
  std::vector<std::string> options;
};

/** The message after its place ("f.csv:3: column 'y' (2): ", "t: column 'y', row 1: "), with
 *  the cells it points at ("line 2", "row 0") and counts ("4 data rows (lines 2-5)") as a file
 *  and a table name them told apart only by the kind of place. */
std::string Words(const std::string& message) {
  static const std::regex place(R"(column '[^']*'( \(\d+\))?(, row \d+)?: )");
  static const std::regex cell(R"((line|row) \d+)");
  static const std::regex rows(R"((\d+) data rows \(lines \d+-\d+\))");
  std::smatch m;
  std::string words = std::regex_search(message, m, place) ? std::string(m.suffix()) : message;
  words = std::regex_replace(words, cell, "<cell>");
  return std::regex_replace(words, rows, "$1 rows");
}

/** Equal, NaN equal to NaN. */
bool SameValues(std::span<const double> a, std::span<const double> b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
  return true;
}

template <class Read>
Outcome Try(const Read& read) {
  Outcome o;
  try {
    o.data = read();
  } catch (const DataError& e) {
    o.words = Words(e.what());
    o.options = e.options();
  }
  return o;
}

std::string CsvText(const std::vector<std::string>& x, const std::vector<std::string>& y) {
  std::string text = "x,y\n";
  for (std::size_t i = 0; i < y.size(); ++i) text += x[i] + "," + y[i] + "\n";
  return text;
}

/** A text column of the cells, a CSV file's missing spellings ("", "?", "NA", "NaN") as nulls:
 *  a table's nulls are explicit (numpy's None, Arrow's validity), and its text is text. */
TableColumn TextColumn(const std::string& name, const std::vector<std::string>& cells) {
  TableColumn c;
  c.name = name;
  c.type = ColumnType::kText;
  c.text = cells;
  c.text_missing.assign(cells.size(), 0);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    std::string t = cells[i];
    while (!t.empty() && t.front() == ' ') t.erase(t.begin());
    while (!t.empty() && t.back() == ' ') t.pop_back();
    c.text_missing[i] = t.empty() || t == "?" || t == "NA" || t == "NaN" ? 1 : 0;
  }
  return c;
}

TableColumn Float64Column(const std::string& name, const std::vector<double>& values) {
  TableColumn c;
  c.name = name;
  c.data = values.data();
  c.stride = sizeof(double);
  return c;
}

/** The cells as numbers (a missing spelling as NaN), or nullopt when one is text. */
std::optional<std::vector<double>> AsNumbers(const std::vector<std::string>& cells) {
  std::vector<double> out;
  for (const std::string& cell : cells) {
    std::string t = cell;
    while (!t.empty() && t.front() == ' ') t.erase(t.begin());
    while (!t.empty() && t.back() == ' ') t.pop_back();
    if (t.empty() || t == "?" || t == "NA") {
      out.push_back(std::nan(""));
      continue;
    }
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() + t.size()) return std::nullopt;
    out.push_back(v);
  }
  return out;
}

void ExpectSame(const Outcome& a, const Outcome& b, bool same_words, const std::string& where) {
  ASSERT_EQ(a.data.has_value(), b.data.has_value()) << where << ": " << a.words << " | " << b.words;
  if (!a.data) {
    EXPECT_EQ(a.options, b.options) << where;
    if (same_words) {
      EXPECT_EQ(a.words, b.words) << where;
    }
    return;
  }
  EXPECT_TRUE(SameValues(a.data->label(), b.data->label())) << where;
  ASSERT_EQ(a.data->n_features(), b.data->n_features()) << where;
  for (std::size_t j = 0; j < a.data->n_features(); ++j) {
    EXPECT_TRUE(SameValues(a.data->column(j), b.data->column(j))) << where;
    EXPECT_EQ(a.data->encoding(j).has_value(), b.data->encoding(j).has_value()) << where;
  }
}

TEST(IngestionRules, CsvAndTablesAgreeOnEveryLabelRule) {
  const std::vector<Case> cases = {
      {"0/1 written 1.0 and 0.0", {"1.0", "0.0", "1", "0"}, "", false, std::vector<double>{1, 0, 1, 0}, {}},
      {"0/1 with spaces", {" 1", "0 ", " 0 ", "1"}, "", false, std::vector<double>{1, 0, 0, 1}, {}},
      {"a positive class with spaces", {" yes", "no ", "yes", " no"}, " yes ", false,
       std::vector<double>{1, 0, 1, 0}, {}},
      {"text labels", {"M", "B", "B", "M"}, "M", false, std::vector<double>{1, 0, 0, 1}, {}},
      {"numeric labels, positive 2.0", {"2", "1", "2.0", "1"}, "2.0", false, std::vector<double>{1, 0, 1, 0}, {}},
      {"positive 1 matches 1.0", {"1.0", "0", "1", "0"}, "1", false, std::vector<double>{1, 0, 1, 0}, {}},
      {"positive 1e0 matches 1", {"1", "0", "1", "0"}, "1e0", false, std::vector<double>{1, 0, 1, 0}, {}},
      {"labels 0, 1, 2 without a positive class", {"0", "1", "2", "1"}, "", false, std::nullopt, {"positive"}},
      {"text labels without a positive class", {"a", "b", "a", "b"}, "", false, std::nullopt, {"positive"}},
      {"one class", {"1", "1.0", "1", "1"}, "", false, std::nullopt, {"label", "positive"}},
      {"a positive class no row has", {"a", "b", "a", "b"}, "z", false, std::nullopt, {"positive"}},
      {"a missing label (empty)", {"1", "", "0", "1"}, "", false, std::nullopt, {}},
      {"a missing label (?)", {"1", "0", "?", "1"}, "", false, std::nullopt, {}},
      {"a missing label (NaN)", {"1", "0", "1", "NaN"}, "", false, std::nullopt, {}},
      {"a regression target", {"1.5", " -2", "3e2", "0"}, "", true, std::vector<double>{1.5, -2, 300, 0}, {}},
      {"a regression target that is text", {"1.5", "two", "3", "0"}, "", true, std::nullopt, {"label"}},
      {"an infinite label", {"1", "inf", "0", "1"}, "", false, std::nullopt, {"positive"}},
  };
  const std::vector<std::string> x = {"0.5", "1.5", "2.5", "3.5"};
  const std::vector<double> x_values = {0.5, 1.5, 2.5, 3.5};
  for (const Case& c : cases) {
    CsvOptions o;
    o.label = "y";
    o.positive = c.positive;
    o.regression = c.regression;
    const Outcome file = Try([&] { return ReadCsv(testing::WriteTempFile("rules.csv", CsvText(x, c.label)), o); });
    if (c.expected) {
      ASSERT_TRUE(file.data.has_value()) << c.what << ": " << file.words;
      const auto y = file.data->label();
      EXPECT_EQ(std::vector<double>(y.begin(), y.end()), *c.expected) << c.what;
    } else {
      EXPECT_FALSE(file.data.has_value()) << c.what;
      EXPECT_EQ(file.options, c.options) << c.what << ": " << file.words;
    }
    Table text;
    text.source = "frame";
    text.n_rows = c.label.size();
    text.columns = {TextColumn("x", x), TextColumn("y", c.label)};
    ExpectSame(file, Try([&] { return ReadTable(text, o); }), true, std::string(c.what) + " (text columns)");
    if (const auto numbers = AsNumbers(c.label)) {
      Table numeric;
      numeric.n_rows = numbers->size();
      numeric.columns = {Float64Column("x", x_values), Float64Column("y", *numbers)};
      // Numbers shown as numbers ("'1'" for a cell "1.0"): the same error, not the same quote.
      ExpectSame(file, Try([&] { return ReadTable(numeric, o); }), false, std::string(c.what) + " (float64)");
      const auto shared = std::make_shared<const Table>(numeric);
      ExpectSame(file, Try([&] { return ReadTableInPlace(shared, o); }), false,
                 std::string(c.what) + " (float64 in place)");
    }
  }
}

TEST(IngestionRules, CsvAndTablesAgreeOnFeatureTypingAndMissingCells) {
  struct FeatureCase {
    const char* what;
    std::vector<std::string> cells;
    MissingValues missing;
    bool numeric;  // expected typing when read
    bool error;
  };
  const std::vector<FeatureCase> cases = {
      {"numbers written as text", {"1.0", " 2", "+3", ".5"}, MissingValues::kError, true, false},
      {"levels with spaces", {" red", "blue ", "red", "green"}, MissingValues::kError, false, false},
      {"text among numbers", {"1", "2", "abc", "4"}, MissingValues::kError, true, true},
      {"a number among text", {"a", "b", "7", "c"}, MissingValues::kError, false, true},
      {"an infinite cell", {"1", "inf", "2", "3"}, MissingValues::kError, true, true},
      {"a missing cell, error", {"1", "?", "2", "3"}, MissingValues::kError, true, true},
      {"a missing cell kept", {"1", "NA", "2", "3"}, MissingValues::kKeep, true, false},
      {"a missing level kept", {"a", "?", "b", "a"}, MissingValues::kCategory, false, false},
      {"an empty level kept", {"a", "", "b", "a"}, MissingValues::kKeep, false, false},
      {"a missing number as a category", {"1", "", "2", "3"}, MissingValues::kCategory, true, true},
      {"a missing cell dropped", {"1", "", "2", "3"}, MissingValues::kDrop, true, false},
  };
  const std::vector<std::string> y = {"1", "0", "1", "0"};
  for (const FeatureCase& c : cases) {
    CsvOptions o;
    o.label = "y";
    o.missing = c.missing;
    std::string csv = "f,y\n";
    for (std::size_t i = 0; i < y.size(); ++i) csv += "\"" + c.cells[i] + "\"," + y[i] + "\n";
    const Outcome file = Try([&] { return ReadCsv(testing::WriteTempFile("typing.csv", csv), o); });
    ASSERT_EQ(file.data.has_value(), !c.error) << c.what << ": " << file.words;
    if (file.data) {
      EXPECT_EQ(!file.data->encoding(0).has_value(), c.numeric) << c.what;
    }
    Table text;
    text.n_rows = y.size();
    text.columns = {TextColumn("f", c.cells), TextColumn("y", y)};
    const Outcome table = Try([&] { return ReadTable(text, o); });
    ExpectSame(file, table, true, c.what);
    if (file.data && table.data) {
      EXPECT_EQ(file.data->dropped_rows(), table.data->dropped_rows()) << c.what;
      if (file.data->encoding(0)) {
        // A missing cell kept is a level spelled as written in the file, "NA" for a null.
        std::vector<std::string> levels = file.data->encoding(0)->levels;
        for (std::string& level : levels)
          if (level == "?" || level.empty()) level = "NA";
        EXPECT_EQ(levels, table.data->encoding(0)->levels) << c.what;
      }
    }
  }
}

TEST(IngestionRules, InPlaceLendsContiguousFloat64AndCopiesTheRest) {
  const std::vector<double> a = {0.5, 1.5, 2.5, 3.5};
  const std::vector<double> y = {1, 0, 1, 0};
  const std::vector<float> b = {1, 2, 3, 4};
  auto table = std::make_shared<Table>();
  table->n_rows = 4;
  table->columns = {Float64Column("a", a), Float64Column("y", y)};
  TableColumn fb;
  fb.name = "b";
  fb.type = ColumnType::kFloat32;
  fb.data = b.data();
  fb.stride = sizeof(float);
  table->columns.push_back(fb);
  CsvOptions o;
  o.label = "y";
  std::weak_ptr<const Table> watch = table;
  Dataset lent = ReadTableInPlace(table, o);
  EXPECT_EQ(lent.column(0).data(), a.data());  // the caller's buffer
  EXPECT_EQ(lent.label().data(), y.data());    // already 0/1: lent too
  EXPECT_NE(lent.column(1).data(), nullptr);
  EXPECT_TRUE(lent.borrows());
  EXPECT_TRUE(lent.column_values(0).borrowed());
  EXPECT_FALSE(lent.column_values(1).borrowed());  // float32: converted once
  const Dataset copy = ReadTable(*table, o);
  EXPECT_NE(copy.column(0).data(), a.data());
  EXPECT_FALSE(copy.borrows());
  // The data set shares the table's ownership; Owned() lets go of the caller's memory.
  table.reset();
  EXPECT_FALSE(watch.expired());
  Dataset owned = lent.Owned();
  EXPECT_FALSE(owned.borrows());
  EXPECT_NE(owned.column(0).data(), a.data());
  EXPECT_EQ(owned.column(1).data(), lent.column(1).data());  // owned columns are shared, not copied
  lent = Dataset();
  EXPECT_TRUE(watch.expired());
  // A positive class converts the label; a dropped row converts the columns it touches.
  CsvOptions positive = o;
  positive.positive = "1";
  auto again = std::make_shared<Table>();
  again->n_rows = 4;
  again->columns = {Float64Column("a", a), Float64Column("y", y)};
  EXPECT_NE(ReadTableInPlace(again, positive).label().data(), y.data());
  const std::vector<double> holes = {0.5, std::nan(""), 2.5, 3.5};
  const std::vector<double> y3 = {1, 0, 0, 1};
  again->columns = {Float64Column("a", holes), Float64Column("y", y3)};
  CsvOptions drop = o;
  drop.missing = MissingValues::kDrop;
  const Dataset dropped = ReadTableInPlace(again, drop);
  EXPECT_EQ(dropped.n_rows(), 3u);
  EXPECT_FALSE(dropped.borrows());
}

}  // namespace
}}  // namespace perfshap
