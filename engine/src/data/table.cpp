// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// ReadTable: ReadCsv's rules over columns already in memory. Numbers are converted straight from
// the caller's buffers into the data set's columns (one copy); text columns take codes by first
// appearance, as ReadCsv's do, so a table and the CSV file of the same cells give the same data.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/table.hpp"

namespace perfshap::inline v0 {
namespace {

constexpr const char* kMissingLevel = "NA";

template <typename T>
double Load(const TableColumn& c, std::size_t i) {
  T v;
  std::memcpy(&v, static_cast<const char*>(c.data) + static_cast<std::ptrdiff_t>(i) * c.stride, sizeof v);
  return static_cast<double>(v);
}

}  // namespace

double ColumnNumber(const TableColumn& c, std::size_t i) {
  switch (c.type) {
    case ColumnType::kFloat64: return Load<double>(c, i);
    case ColumnType::kFloat32: return Load<float>(c, i);
    case ColumnType::kInt64: return Load<std::int64_t>(c, i);
    case ColumnType::kInt32: return Load<std::int32_t>(c, i);
    case ColumnType::kInt16: return Load<std::int16_t>(c, i);
    case ColumnType::kInt8: return Load<std::int8_t>(c, i);
    case ColumnType::kUInt64: return Load<std::uint64_t>(c, i);
    case ColumnType::kUInt32: return Load<std::uint32_t>(c, i);
    case ColumnType::kUInt16: return Load<std::uint16_t>(c, i);
    case ColumnType::kUInt8: return Load<std::uint8_t>(c, i);
    case ColumnType::kBool: return Load<std::uint8_t>(c, i) != 0 ? 1.0 : 0.0;
    case ColumnType::kText: break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

namespace {

bool IsText(const TableColumn& c) { return c.type == ColumnType::kText; }

bool Missing(const TableColumn& c, std::size_t i) {
  if (IsText(c)) return !c.text_missing.empty() && c.text_missing[i] != 0;
  return std::isnan(ColumnNumber(c, i));
}

std::string Cell(const TableColumn& c, std::size_t i) {
  if (IsText(c)) return Missing(c, i) ? std::string("missing") : detail::Quoted(c.text[i]);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", ColumnNumber(c, i));
  return buf;
}

class Reader {
 public:
  Reader(const Table& t, const CsvOptions& o) : t_(t), o_(o) {}

  Dataset Read() {
    CheckShape();
    const std::size_t label_col = FindLabel();
    const MissingValues missing = o_.allow_missing ? MissingValues::kKeep : o_.missing;
    // kDrop: rows with a missing feature go first, before text columns take their levels.
    std::vector<std::size_t> rows;
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < t_.n_rows; ++i) {
      bool any = false;
      for (std::size_t j = 0; j < t_.columns.size() && !any; ++j) any = j != label_col && Missing(t_.columns[j], i);
      if (any && missing == MissingValues::kDrop) {
        ++dropped;
        continue;
      }
      rows.push_back(i);
    }
    if (rows.empty())
      throw DataError(t_.source + ": every one of the " + std::to_string(t_.n_rows) +
                          " rows has a missing feature value, so dropping such rows leaves none; impute the "
                          "missing values",
                      {"missing"});
    std::vector<std::string> names;
    std::vector<std::vector<double>> columns;
    std::vector<std::optional<CategoricalEncoding>> encodings;
    for (std::size_t j = 0; j < t_.columns.size(); ++j) {
      if (j == label_col) continue;
      names.push_back(t_.columns[j].name);
      encodings.emplace_back();
      columns.push_back(Feature(t_.columns[j], rows, missing, encodings.back()));
    }
    std::vector<double> label;
    if (label_col < t_.columns.size()) label = Label(t_.columns[label_col], rows);
    Dataset data(std::move(names), std::move(columns), std::move(label),
                 label_col < t_.columns.size() ? t_.columns[label_col].name : std::string());
    for (std::size_t j = 0; j < encodings.size(); ++j)
      if (encodings[j]) data.set_encoding(j, std::move(*encodings[j]));
    data.set_source(t_.source);
    data.set_dropped_rows(dropped);
    return data;
  }

 private:
  std::string Where(const TableColumn& c) const { return t_.source + ": column " + detail::Quoted(c.name) + ": "; }
  std::string Where(const TableColumn& c, std::size_t i) const {
    return t_.source + ": column " + detail::Quoted(c.name) + ", row " + std::to_string(i) + ": ";
  }

  void CheckShape() const {
    std::unordered_map<std::string_view, std::size_t> seen;
    for (std::size_t j = 0; j < t_.columns.size(); ++j) {
      const TableColumn& c = t_.columns[j];
      if (c.name.empty())
        throw DataError(t_.source + ": column " + std::to_string(j + 1) + " has no name; give every column a name");
      const auto [it, inserted] = seen.emplace(c.name, j);
      if (!inserted)
        throw DataError(t_.source + ": columns " + std::to_string(it->second + 1) + " and " + std::to_string(j + 1) +
                        " are both named " + detail::Quoted(c.name) + "; column names must be unique, rename one");
      if (IsText(c)) {
        PERFSHAP_CHECK(c.text.size() == t_.n_rows && (c.text_missing.empty() || c.text_missing.size() == t_.n_rows),
                       t_.source + ": text column " + detail::Quoted(c.name) + " has " + std::to_string(c.text.size()) +
                           " cells for " + std::to_string(t_.n_rows) + " rows; give every column one cell per row");
      } else {
        PERFSHAP_CHECK(c.data != nullptr || t_.n_rows == 0,
                       t_.source + ": numeric column " + detail::Quoted(c.name) + " has no values");
      }
    }
    if (t_.n_rows == 0) throw DataError(t_.source + ": the table has no rows; give at least one row");
  }

  std::size_t FindLabel() const {
    std::vector<std::string> names;
    for (const TableColumn& c : t_.columns) names.push_back(c.name);
    const std::size_t n = t_.columns.size();
    std::size_t label_col = n;
    if (o_.label.empty()) {
      if (!o_.allow_no_label)
        throw DataError(t_.source + ": no label column was given; name the label column, one of the columns: " +
                            detail::QuotedList(names),
                        {"label"});
    } else {
      label_col = static_cast<std::size_t>(std::find(names.begin(), names.end(), o_.label) - names.begin());
      if (label_col == n && !o_.label_optional)
        throw DataError(t_.source + ": no column named " + detail::Quoted(o_.label) + " for the label; the columns are " +
                            detail::QuotedList(names) + "; name one of them as the label",
                        {"label"});
    }
    if (n - (label_col < n ? 1 : 0) == 0)
      throw DataError(t_.source + ": the table has no feature columns besides the label; add feature columns");
    return label_col;
  }

  std::vector<double> Feature(const TableColumn& c, const std::vector<std::size_t>& rows, MissingValues missing,
                              std::optional<CategoricalEncoding>& encoding) const {
    std::vector<double> values(rows.size());
    const bool keep = missing == MissingValues::kKeep || missing == MissingValues::kCategory;
    if (!IsText(c)) {
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const double v = ColumnNumber(c, rows[r]);
        if (std::isnan(v)) {
          if (missing == MissingValues::kCategory)
            throw DataError(Where(c, rows[r]) +
                                "missing value (NaN) in a numeric column; making missing values a level of their own "
                                "(missing = category) applies to text columns only: drop the rows with missing values "
                                "(missing = drop) or impute them",
                            {"missing"});
          if (!keep)
            throw DataError(Where(c, rows[r]) +
                                "missing value (NaN); fill it in or drop the rows with missing values (missing = drop)",
                            {"missing"});
        } else if (std::isinf(v)) {
          throw DataError(Where(c, rows[r]) + Cell(c, rows[r]) + " is infinite; replace it with a finite number");
        }
        values[r] = v;
      }
      return values;
    }
    CategoricalEncoding enc;
    std::unordered_map<std::string_view, double> codes;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const std::size_t i = rows[r];
      const bool is_missing = Missing(c, i);
      if (is_missing && !keep)
        throw DataError(Where(c, i) +
                            "missing value; fill it in, drop the rows with missing values (missing = drop) or make it "
                            "a level of its own (missing = category)",
                        {"missing"});
      const std::string_view cell = is_missing ? std::string_view(kMissingLevel) : std::string_view(c.text[i]);
      const auto [it, inserted] = codes.emplace(cell, static_cast<double>(enc.levels.size()));
      if (inserted) enc.levels.emplace_back(cell);
      values[r] = it->second;
    }
    encoding = std::move(enc);
    return values;
  }

  std::vector<double> Label(const TableColumn& c, const std::vector<std::size_t>& rows) const {
    PERFSHAP_CHECK(!(o_.regression && !o_.positive.empty()),
                   "a positive class names a class and cannot be combined with a regression label; drop one of them",
                   {"positive"});
    std::vector<double> label(rows.size());
    const std::string& positive = o_.positive;
    char* end = nullptr;
    const double positive_value = positive.empty() ? 0.0 : std::strtod(positive.c_str(), &end);
    const bool positive_is_number = !positive.empty() && end == positive.c_str() + positive.size() &&
                                    std::isfinite(positive_value);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const std::size_t i = rows[r];
      if (Missing(c, i))
        throw DataError(Where(c, i) + "the label is missing; every row needs a label: fill it in or remove the row");
      if (!positive.empty()) {
        label[r] = IsText(c) ? (c.text[i] == positive ? 1.0 : 0.0)
                             : (positive_is_number && ColumnNumber(c, i) == positive_value ? 1.0 : 0.0);
        continue;
      }
      if (IsText(c))
        throw DataError(Where(c, i) + "the label " + detail::Quoted(c.text[i]) +
                            " is text; name the positive class (a value of this column)",
                        {"positive"});
      const double v = ColumnNumber(c, i);
      if (!std::isfinite(v))
        throw DataError(Where(c, i) + "the label " + Cell(c, i) + " is not a finite number; fix it", {"label"});
      if (!o_.regression && v != 0.0 && v != 1.0)
        throw DataError(Where(c, i) + "the label " + Cell(c, i) + " is not 0 or 1; name the positive class",
                        {"positive"});
      label[r] = v;
    }
    if (!o_.regression) {
      std::size_t n_positive = 0;
      for (double y : label) n_positive += y == 1.0 ? 1 : 0;
      if (!positive.empty() && n_positive == 0)
        throw DataError(Where(c) + "no row has the value " + detail::Quoted(positive) +
                            " given as the positive class; name one of the column's values",
                        {"positive"});
      if (n_positive == 0 || n_positive == label.size())
        throw DataError(Where(c) + "all " + std::to_string(label.size()) +
                            " rows have the same class; a binary task needs both classes: check the label and the "
                            "positive class",
                        {"label", "positive"});
    }
    return label;
  }

  const Table& t_;
  const CsvOptions& o_;
};

}  // namespace

Dataset ReadTable(const Table& table, const CsvOptions& options) { return Reader(table, options).Read(); }

}  // namespace perfshap
