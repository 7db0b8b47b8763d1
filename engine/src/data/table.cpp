// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// ReadTable: columns already in memory through the column builder ReadCsv uses (one set of rules
// for typing, missing values, text codes, the label and the positive class), so a table and the
// CSV file of the same cells give the same data. Numbers are converted straight from the caller's
// buffers (one copy), or lent in place (ReadTableInPlace, float64 contiguous).
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

#include "data/column_builder.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/table.hpp"

namespace perfshap { inline namespace v0 {
namespace {

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

using detail::CellPlaces;
using detail::CellProblem;
using detail::ColumnCells;

bool IsText(const TableColumn& c) { return c.type == ColumnType::kText; }

/** A text column's cells, trimmed as the CSV reader trims them, for the rows read. */
struct TextCells {
  std::vector<std::string_view> text;
  std::vector<unsigned char> null;
};

class Reader {
 public:
  Reader(const Table& t, const CsvOptions& o, std::shared_ptr<const void> owner, bool lend)
      : t_(t), o_(o), owner_(std::move(owner)), lend_(lend) {}

  Dataset Read() {
    PERFSHAP_CHECK(!(o_.regression && !o_.positive.empty()),
                   "a positive class names a class and cannot be combined with a regression label; drop one of them",
                   {"positive"});
    PERFSHAP_CHECK(!(o_.allow_missing && o_.missing != MissingValues::kError && o_.missing != MissingValues::kKeep),
                   "table options: allow_missing keeps missing values, which contradicts the missing-value policy; "
                   "set only `missing`",
                   {"allow_missing", "missing"});
    CheckShape();
    const std::size_t label_col = FindLabel();
    const MissingValues missing = o_.allow_missing ? MissingValues::kKeep : o_.missing;
    const std::size_t n_cols = t_.columns.size();
    // Every column's cells as the builder reads them (text trimmed once).
    std::vector<TextCells> text(n_cols);
    for (std::size_t j = 0; j < n_cols; ++j) {
      const TableColumn& c = t_.columns[j];
      if (!IsText(c)) continue;
      text[j].text.resize(t_.n_rows);
      for (std::size_t i = 0; i < t_.n_rows; ++i) text[j].text[i] = detail::TrimBlanks(c.text[i]);
      if (!c.text_missing.empty()) text[j].null = c.text_missing;
    }
    // kDrop: rows with a missing feature go first, before text columns take their levels.
    std::vector<std::size_t> rows;
    std::size_t dropped = 0;
    if (missing == MissingValues::kDrop) {
      std::vector<ColumnCells> all(n_cols);
      for (std::size_t j = 0; j < n_cols; ++j) all[j] = Cells(j, text[j], nullptr, t_.n_rows);
      for (std::size_t i = 0; i < t_.n_rows; ++i) {
        bool any = false;
        for (std::size_t j = 0; j < n_cols && !any; ++j) any = j != label_col && all[j].Missing(i);
        if (any) {
          ++dropped;
          continue;
        }
        rows.push_back(i);
      }
      if (rows.empty())
        throw DataError(t_.source + ": every one of the " + std::to_string(t_.n_rows) +
                            " rows has a missing feature value, so dropping such rows leaves none; impute the "
                            "missing values, or keep them in text columns as a level of their own (missing = "
                            "category)",
                        {"missing"});
      for (TextCells& c : text) {
        if (c.text.empty()) continue;
        TextCells kept;
        for (std::size_t i : rows) {
          kept.text.push_back(c.text[i]);
          if (!c.null.empty()) kept.null.push_back(c.null[i]);
        }
        c = std::move(kept);
      }
    }
    const std::size_t* row_map = dropped > 0 ? rows.data() : nullptr;
    const std::size_t n = dropped > 0 ? rows.size() : t_.n_rows;
    std::vector<std::string> names;
    std::vector<ColumnValues> columns;
    std::vector<std::optional<CategoricalEncoding>> encodings;
    ColumnValues label;
    CellProblem first;  // the earliest row's problem, then the leftmost column's
    const std::string positive(detail::TrimBlanks(o_.positive));
    for (std::size_t j = 0; j < n_cols; ++j) {
      const ColumnCells cells = Cells(j, text[j], row_map, n);
      const CellPlaces places = Places(j, row_map, n);
      CellProblem problem;
      if (j == label_col) {
        label = detail::BuildLabel(cells, positive, o_.regression, places, problem);
      } else {
        names.push_back(t_.columns[j].name);
        encodings.emplace_back();
        columns.push_back(detail::BuildFeature(cells, missing, places, encodings.back(), problem));
      }
      if (problem.Found()) first.Offer(problem.row, std::move(problem.message), std::move(problem.options));
    }
    if (first.Found()) throw DataError(first.message, first.options);
    if (label_col < n_cols && !o_.regression)
      detail::CheckLabelClasses(Cells(label_col, text[label_col], row_map, n), label.values(), positive,
                                Places(label_col, row_map, n));
    Dataset data(std::move(names), std::move(columns), std::move(label),
                 label_col < n_cols ? t_.columns[label_col].name : std::string());
    for (std::size_t j = 0; j < encodings.size(); ++j)
      if (encodings[j]) data.set_encoding(j, std::move(*encodings[j]));
    data.set_source(t_.source);
    data.set_dropped_rows(dropped);
    return data;
  }

 private:
  ColumnCells Cells(std::size_t j, const TextCells& text, const std::size_t* rows, std::size_t n) const {
    const TableColumn& c = t_.columns[j];
    ColumnCells cells;
    cells.n = n;
    if (IsText(c)) {
      cells.text = text.text.data();
      cells.null = text.null.empty() ? nullptr : text.null.data();
      cells.spelled_missing = false;  // a table's nulls are explicit: "?" or "NA" is a level
      return cells;
    }
    cells.numbers = &c;
    cells.rows = rows;
    if (lend_ && rows == nullptr && c.type == ColumnType::kFloat64 && c.stride == sizeof(double) && c.data != nullptr)
      cells.in_place = std::span<const double>(static_cast<const double*>(c.data), n);
    cells.owner = owner_;
    return cells;
  }

  CellPlaces Places(std::size_t j, const std::size_t* rows, std::size_t n) const {
    CellPlaces places;
    const std::string column = t_.source + ": column " + detail::Quoted(t_.columns[j].name);
    const auto row = [rows](std::size_t k) { return std::to_string(rows != nullptr ? rows[k] : k); };
    places.at = [column, row](std::size_t k) { return column + ", row " + row(k) + ": "; };
    places.named = [row](std::size_t k) { return "row " + row(k); };
    places.column = column + ": ";
    places.rows = std::to_string(n) + " rows";
    return places;
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
    const std::string label(detail::TrimBlanks(o_.label));
    std::size_t label_col = n;
    if (label.empty()) {
      if (!o_.allow_no_label)
        throw DataError(t_.source + ": no label column was given; name the label column, one of the columns: " +
                            detail::QuotedList(names),
                        {"label"});
    } else {
      label_col = static_cast<std::size_t>(std::find(names.begin(), names.end(), label) - names.begin());
      if (label_col == n && !o_.label_optional)
        throw DataError(t_.source + ": no column named " + detail::Quoted(label) + " for the label; the columns are " +
                            detail::QuotedList(names) + "; name one of them as the label",
                        {"label"});
    }
    if (n - (label_col < n ? 1 : 0) == 0)
      throw DataError(t_.source + ": the table has no feature columns besides the label; add feature columns");
    return label_col;
  }

  const Table& t_;
  const CsvOptions& o_;
  std::shared_ptr<const void> owner_;
  bool lend_ = false;
};

}  // namespace

Dataset ReadTable(const Table& table, const CsvOptions& options) { return Reader(table, options, nullptr, false).Read(); }

Dataset ReadTableInPlace(std::shared_ptr<const Table> table, const CsvOptions& options) {
  PERFSHAP_CHECK(table != nullptr, "ReadTableInPlace: no table");
  const Table& t = *table;
  return Reader(t, options, std::move(table), true).Read();
}

}}  // namespace perfshap
