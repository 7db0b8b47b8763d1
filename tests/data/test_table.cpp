// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// ReadTable: an in-memory table gives the data set ReadCsv gives for the CSV file of the same
// cells (numbers read in place through any stride and element type, text codes by first
// appearance, the label and missing-value rules), and one-line errors naming the column and row.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/table.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::ExpectDataError;

void ExpectSameData(const Dataset& a, const Dataset& b) {
  ASSERT_EQ(a.n_rows(), b.n_rows());
  ASSERT_EQ(a.feature_names(), b.feature_names());
  EXPECT_EQ(a.label_name(), b.label_name());
  for (std::size_t j = 0; j < a.n_features(); ++j) {
    for (std::size_t i = 0; i < a.n_rows(); ++i) {
      const double x = a.column(j)[i];
      const double y = b.column(j)[i];
      EXPECT_TRUE(x == y || (std::isnan(x) && std::isnan(y))) << j << "," << i << ": " << x << " vs " << y;
    }
    ASSERT_EQ(a.encoding(j).has_value(), b.encoding(j).has_value()) << j;
    if (a.encoding(j)) {
      EXPECT_EQ(a.encoding(j)->levels, b.encoding(j)->levels);
    }
  }
  EXPECT_EQ(std::vector<double>(a.label().begin(), a.label().end()),
            std::vector<double>(b.label().begin(), b.label().end()));
  EXPECT_EQ(a.dropped_rows(), b.dropped_rows());
}

TableColumn Text(const std::string& name, std::vector<std::string> cells, std::vector<unsigned char> missing = {}) {
  TableColumn c;
  c.name = name;
  c.type = ColumnType::kText;
  c.text = std::move(cells);
  c.text_missing = std::move(missing);
  return c;
}

template <typename T>
TableColumn Numbers(const std::string& name, ColumnType type, const std::vector<T>& values, std::size_t step = 1) {
  TableColumn c;
  c.name = name;
  c.type = type;
  c.data = values.data();
  c.stride = static_cast<std::ptrdiff_t>(step * sizeof(T));
  return c;
}

TEST(ReadTable, EqualsReadCsvOnTheSameCells) {
  // A row-major float32 matrix (stride 2 floats), int64 and text columns, a 0/1 int8 label.
  const std::vector<float> xy = {0.5f, -1.25f, 1.0f, 2.0f, 3.5f, 1e-3f, -7.0f, 8.0f};
  const std::vector<std::int64_t> count = {3, 1, 4, 1};
  const std::vector<std::int8_t> label = {0, 1, 1, 0};
  Table t;
  t.source = "frame";
  t.n_rows = 4;
  t.columns = {Numbers("x", ColumnType::kFloat32, xy, 2), Numbers("count", ColumnType::kInt64, count),
               Text("colour", {"red", "blue", "red", "green"}), Numbers("y", ColumnType::kFloat32, std::vector<float>{}),
               Numbers("label", ColumnType::kInt8, label)};
  t.columns[3].data = xy.data() + 1;  // the matrix's second column
  t.columns[3].stride = 2 * sizeof(float);
  CsvOptions o;
  o.label = "label";
  const Dataset table = ReadTable(t, o);
  // The same cells as text: float32 values printed exactly (as doubles).
  std::string csv = "x,count,colour,y,label\n";
  for (std::size_t i = 0; i < 4; ++i) {
    char row[200];
    std::snprintf(row, sizeof row, "%.17g,%lld,%s,%.17g,%d\n", static_cast<double>(xy[2 * i]),
                  static_cast<long long>(count[i]), std::vector<std::string>{"red", "blue", "red", "green"}[i].c_str(),
                  static_cast<double>(xy[2 * i + 1]), label[i]);
    csv += row;
  }
  const Dataset file = ReadCsv(testing::WriteTempFile("table_same.csv", csv), o);
  ExpectSameData(table, file);
  EXPECT_EQ(table.source(), "frame");
  EXPECT_EQ(table.column(0)[1], 1.0);
  EXPECT_EQ(table.column(3)[2], static_cast<double>(1e-3f));
}

TEST(ReadTable, PositiveClassMissingPoliciesAndDroppedRowsAsReadCsv) {
  const std::vector<double> a = {1.0, std::nan(""), 3.0, 4.0, 5.0};
  Table t;
  t.n_rows = 5;
  t.columns = {Numbers("a", ColumnType::kFloat64, a), Text("c", {"u", "", "v", "", "u"}, {0, 0, 0, 1, 0}),
               Text("label", {"yes", "no", "yes", "no", "no"})};
  CsvOptions drop;
  drop.label = "label";
  drop.positive = "yes";
  drop.missing = MissingValues::kDrop;
  const Dataset table = ReadTable(t, drop);
  const std::string csv = "a,c,label\n1,u,yes\n,,no\n3,v,yes\n4,NA,no\n5,u,no\n";
  const Dataset file = ReadCsv(testing::WriteTempFile("table_drop.csv", csv), drop);
  ExpectSameData(table, file);  // rows 1 (NaN and an empty text cell, not missing: dropped for a) and 3
  EXPECT_EQ(table.dropped_rows(), 2u);
  // Kept missing text cells are the level "NA", as the CSV file spelled them.
  CsvOptions keep = drop;
  keep.missing = MissingValues::kKeep;
  const Dataset kept = ReadTable(t, keep);
  ExpectSameData(kept, ReadCsv(testing::WriteTempFile("table_keep.csv", csv), keep));
  // A numeric positive class matches numbers equal to it.
  const std::vector<double> y = {2, 1, 2, 2, 1};
  t.columns[2] = Numbers("label", ColumnType::kFloat64, y);
  CsvOptions two = keep;
  two.positive = "2.0";
  const Dataset numeric = ReadTable(t, two);
  EXPECT_EQ(std::vector<double>(numeric.label().begin(), numeric.label().end()), (std::vector<double>{1, 0, 1, 1, 0}));
}

TEST(ReadTable, ErrorsNameTheSourceColumnAndRow) {
  const std::vector<double> a = {1.0, 2.0, std::nan(""), 4.0};
  const std::vector<double> y = {0, 1, 0, 1};
  const std::vector<double> bad_y = {0, 1, 2, 1};
  const std::vector<double> inf = {1.0, std::numeric_limits<double>::infinity(), 3.0, 4.0};
  CsvOptions o;
  o.label = "y";
  Table t;
  t.source = "X";
  t.n_rows = 4;
  t.columns = {Numbers("a", ColumnType::kFloat64, a), Numbers("y", ColumnType::kFloat64, y)};
  ExpectDataError([&] { ReadTable(t, o); }, {"X: column 'a', row 2: missing value 'NaN'"}, "missing");
  t.columns[0] = Numbers("a", ColumnType::kFloat64, inf);
  ExpectDataError([&] { ReadTable(t, o); }, {"X: column 'a', row 1:", "infinite"});
  t.columns[0] = Numbers("a", ColumnType::kFloat64, y);
  t.columns[1] = Numbers("y", ColumnType::kFloat64, bad_y);
  ExpectDataError([&] { ReadTable(t, o); }, {"column 'y', row 2:", "not 0 or 1"}, "positive");
  const std::vector<double> ones(4, 1.0);
  t.columns[1] = Numbers("y", ColumnType::kFloat64, ones);
  ExpectDataError([&] { ReadTable(t, o); }, {"same class"}, "label");
  CsvOptions other = o;
  other.label = "z";
  ExpectDataError([&] { ReadTable(t, other); }, {"no column named 'z'", "'a', 'y'"}, "label");
  t.columns[1].name = "a";
  ExpectDataError([&] { ReadTable(t, o); }, {"both named 'a'"});
}

}  // namespace
}}  // namespace perfshap
