// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// ReadCsv: one pass splits the file into cells (string_views into the file text), then one
// pass per column decides numeric vs categorical and converts. Every error names the file,
// the physical line (header = line 1) and the column, on one line.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "data/column_builder.hpp"
#include "data/message_text.hpp"
#include "data/text_lines.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

// Quoting, one-line escaping and name lists are message_text.hpp's.
std::string OneLine(std::string_view s) { return detail::EscapeControls(s); }
std::string Show(std::string_view s) { return detail::Quoted(s); }

std::string Where(const std::string& path, std::size_t line) {
  return OneLine(path) + ":" + std::to_string(line) + ": ";
}

std::string ColumnRef(const std::vector<std::string>& names, std::size_t j) {
  return "column " + Show(names[j]) + " (" + std::to_string(j + 1) + ")";
}

std::string ListNames(const std::vector<std::string>& names) { return detail::QuotedList(names); }

using detail::CellProblem;
using detail::ColumnCells;
using detail::IsMissingSpelling;

/// Splits CSV text into records of fields. Fields are views into the text, or into `store`
/// for quoted fields whose doubled quotes had to be undone. Every field is trimmed of
/// spaces and tabs (inside quotes too). Blank lines are skipped.
class CsvSplitter {
 public:
  CsvSplitter(const std::string& path, std::string_view text, char delimiter, std::deque<std::string>& store)
      : path_(path), text_(text), delimiter_(delimiter), store_(store) {}

  /// Reads the next non-blank record; false at the end of the text.
  bool Next(std::vector<std::string_view>& fields, std::size_t& record_line) {
    const std::size_t n = text_.size();
    while (pos_ < n) {
      fields.clear();
      record_line = line_;
      bool any_quoted = false;
      for (;;) {
        while (pos_ < n && IsBlank(text_[pos_])) ++pos_;
        if (pos_ < n && text_[pos_] == '"') {
          any_quoted = true;
          fields.push_back(Trim(ReadQuoted(fields.size() + 1)));
        } else {
          const std::size_t start = pos_;
          while (pos_ < n && !IsEnd(text_[pos_])) ++pos_;
          fields.push_back(Trim(text_.substr(start, pos_ - start)));
        }
        if (pos_ < n && text_[pos_] == delimiter_) {
          ++pos_;
          continue;
        }
        // End of record: "\n", "\r\n", a lone "\r", or the end of the text.
        if (pos_ < n) {
          if (text_[pos_] == '\r' && pos_ + 1 < n && text_[pos_ + 1] == '\n') ++pos_;
          ++pos_;
          ++line_;
        }
        break;
      }
      if (fields.size() == 1 && fields[0].empty() && !any_quoted) continue;  // blank line
      return true;
    }
    return false;
  }

 private:
  bool IsBlank(char c) const noexcept { return (c == ' ' || c == '\t') && c != delimiter_; }
  bool IsEnd(char c) const noexcept { return c == delimiter_ || c == '\n' || c == '\r'; }

  std::string_view Trim(std::string_view s) const noexcept {
    while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
    while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
    return s;
  }

  /// pos_ is on the opening quote; leaves pos_ on the delimiter or line end after the field.
  std::string_view ReadQuoted(std::size_t field_number) {
    const std::size_t n = text_.size();
    const std::size_t open_line = line_;
    const std::size_t start = ++pos_;
    bool doubled = false;
    for (;;) {
      if (pos_ >= n) {
        throw DataError(Where(path_, open_line) + "field " + std::to_string(field_number) +
                        ": the quote opened here is never closed; add the closing '\"' "
                        "(a quote inside a quoted field is written as \"\")");
      }
      const char c = text_[pos_];
      if (c == '"') {
        if (pos_ + 1 < n && text_[pos_ + 1] == '"') {
          doubled = true;
          pos_ += 2;
          continue;
        }
        break;
      }
      // A quoted field may span lines; count them so later messages name the right line.
      if (c == '\n' || (c == '\r' && !(pos_ + 1 < n && text_[pos_ + 1] == '\n'))) ++line_;
      ++pos_;
    }
    std::string_view raw = text_.substr(start, pos_ - start);
    ++pos_;  // the closing quote
    while (pos_ < n && IsBlank(text_[pos_])) ++pos_;
    if (pos_ < n && !IsEnd(text_[pos_])) {
      throw DataError(Where(path_, line_) + "field " + std::to_string(field_number) + ": unexpected text " +
                      Show(text_.substr(pos_, 1)) +
                      " after the closing quote; put the whole value inside the quotes");
    }
    if (!doubled) return raw;
    std::string unescaped;
    unescaped.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
      unescaped += raw[i];
      if (raw[i] == '"') ++i;  // skip the second quote of a doubled pair
    }
    store_.push_back(std::move(unescaped));
    return store_.back();
  }

  const std::string& path_;
  std::string_view text_;
  char delimiter_;
  std::deque<std::string>& store_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

std::string ReadFileText(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    throw DataError(OneLine(path) + ": cannot access the file (" + ec.message() +
                    "); check the path and its permissions");
  }
  if (!fs::exists(st)) {
    std::string hint = "check the path";
    if (fs::path(path).is_relative()) {
      std::error_code cwd_ec;
      const fs::path cwd = fs::current_path(cwd_ec);
      if (!cwd_ec) hint += " (relative to the current directory '" + OneLine(cwd.string()) + "')";
    }
    throw DataError(OneLine(path) + ": no such file; " + hint);
  }
  if (fs::is_directory(st)) {
    throw DataError(OneLine(path) + ": is a directory, not a CSV file; pass the path of a CSV file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw DataError(OneLine(path) + ": cannot open the file (" + std::strerror(err) +
                    "); check that it is readable");
  }
  std::string text;
  std::error_code size_ec;
  const auto size = fs::file_size(path, size_ec);
  // A gzip file is named as such (its header holds NUL bytes); other binary input (a NUL byte,
  // or a line beyond kMaxLineBytes) is refused as soon as it is read, not after the whole file.
  char magic[2] = {0, 0};
  in.read(magic, 2);
  const auto got = static_cast<std::size_t>(in.gcount());
  if (got == 2 && static_cast<unsigned char>(magic[0]) == 0x1f &&
      static_cast<unsigned char>(magic[1]) == 0x8b)
    throw DataError(OneLine(path) + ": is gzip-compressed; decompress it first (gunzip)");
  text.append(magic, got);
  detail::ReadCheckedText(
      in, text, [&](std::size_t line) { return Where(path, line); }, {},
      size_ec ? 0 : static_cast<std::size_t>(size));
  return text;
}

/// Cell access over the row-major cell table.
struct CellTable {
  std::vector<std::string_view> cells;
  std::vector<std::size_t> lines;  // physical line of each data row
  std::size_t n_cols = 0;
  std::size_t NumRows() const noexcept { return lines.size(); }
  std::string_view At(std::size_t row, std::size_t col) const { return cells[row * n_cols + col]; }
};

/// Column j's cells, for the column builder.
ColumnCells CellsOf(const CellTable& table, std::size_t j) {
  ColumnCells cells;
  cells.n = table.NumRows();
  cells.text = table.cells.data() + j;
  cells.text_stride = table.n_cols;
  return cells;
}

/// Where column j's cells are: the file's physical lines.
detail::CellPlaces PlacesOf(const std::string& path, const CellTable& table, const std::vector<std::string>& names,
                            std::size_t j) {
  detail::CellPlaces places;
  const std::string column = ColumnRef(names, j) + ": ";
  places.at = [&path, &table, column](std::size_t k) { return Where(path, table.lines[k]) + column; };
  places.named = [&table](std::size_t k) { return "line " + std::to_string(table.lines[k]); };
  places.column = OneLine(path) + ": " + column;
  places.rows = std::to_string(table.NumRows()) + " data rows (lines " + std::to_string(table.lines.front()) + "-" +
                std::to_string(table.lines.back()) + ")";
  return places;
}

/// Checks the options agree with one another (delimiter, positive class, missing values) and
/// returns the missing-value policy they ask for.
MissingValues CheckCsvOptions(const CsvOptions& options) {
  const char delim = options.delimiter;
  const bool bad_delimiter = delim == '"' || delim == '\n' || delim == '\r' || delim == '\0' ||
                             delim == '.' || delim == '+' || delim == '-' || (delim >= '0' && delim <= '9') ||
                             (delim >= 'a' && delim <= 'z') || (delim >= 'A' && delim <= 'Z');
  PERFSHAP_CHECK(!bad_delimiter, "CSV delimiter " + Show(std::string_view(&delim, 1)) +
                                     " cannot be used (it would clash with quotes, line ends "
                                     "or numbers); use ',', ';', a tab or '|'");
  PERFSHAP_CHECK(!(options.regression && !options.positive.empty()),
                 "a positive class names a class and cannot be combined with a regression label; "
                 "drop one of them",
                 {"positive"});
  if (options.allow_missing && options.missing != MissingValues::kError &&
      options.missing != MissingValues::kKeep) {
    throw InvalidArgument(
        "CSV options: allow_missing keeps missing values, which contradicts the missing-value policy "
        "(missing = " +
            std::string(options.missing == MissingValues::kDrop ? "drop" : "category") +
            "); set only `missing`",
        {"allow_missing", "missing"});
  }
  return options.allow_missing ? MissingValues::kKeep : options.missing;
}

/// Throws unless every header name is non-empty and no two are alike.
void CheckHeaderNames(const std::string& path, std::size_t header_line, const std::vector<std::string>& names) {
  std::unordered_map<std::string_view, std::size_t> seen;
  for (std::size_t j = 0; j < names.size(); ++j) {
    if (names[j].empty()) {
      throw DataError(Where(path, header_line) + "column " + std::to_string(j + 1) +
                      " has no name in the header; give every column a name");
    }
    auto [it, inserted] = seen.emplace(names[j], j);
    if (!inserted) {
      throw DataError(Where(path, header_line) + "columns " + std::to_string(it->second + 1) + " and " +
                      std::to_string(j + 1) + " are both named " + Show(names[j]) +
                      "; column names must be unique, rename one of them");
    }
  }
}

/// The index of the label column among `names` (names.size() for none), as the options allow;
/// throws when no feature column is left besides it.
std::size_t FindLabelColumn(const std::string& path, std::size_t header_line, const std::vector<std::string>& names,
                            const std::string& label_name, const CsvOptions& options) {
  const std::size_t n_cols = names.size();
  std::size_t label_col = n_cols;
  if (label_name.empty()) {
    if (!options.allow_no_label) {
      throw DataError(Where(path, header_line) +
                      "no label column was given; name the label column, "
                      "one of the columns: " +
                          ListNames(names),
                      {"label"});
    }
  } else {
    label_col = static_cast<std::size_t>(std::find(names.begin(), names.end(), label_name) - names.begin());
    if (label_col == n_cols && !options.label_optional) {
      throw DataError(Where(path, header_line) + "no column named " + Show(label_name) +
                      " for the label; the columns are " + ListNames(names) +
                      "; name one of them as the label",
                      {"label"});
    }
  }
  if (n_cols - (label_col < n_cols ? 1 : 0) == 0) {
    throw DataError(Where(path, header_line) +
                    "the file has no feature columns besides the "
                    "label " +
                    Show(label_name) + "; add feature columns");
  }
  return label_col;
}

/// The data rows after the header, as a cell table; throws for a row whose field count is not
/// the header's, or when there is no row. `fields` is the splitter's scratch record.
CellTable ReadDataRows(CsvSplitter& splitter, std::vector<std::string_view>& fields, std::string_view view,
                       const std::string& path, const std::vector<std::string>& names, std::size_t header_line) {
  const std::size_t n_cols = names.size();
  CellTable table;
  table.n_cols = n_cols;
  const auto n_lines = static_cast<std::size_t>(std::count(view.begin(), view.end(), '\n'));
  table.cells.reserve(n_cols * (n_lines + 1));
  table.lines.reserve(n_lines + 1);
  std::size_t line = 0;
  while (splitter.Next(fields, line)) {
    if (fields.size() != n_cols) {
      std::string detail;
      if (fields.size() < n_cols) {
        detail = "; " + ColumnRef(names, fields.size()) + " and after are absent";
      } else {
        detail = "; field " + std::to_string(n_cols + 1) + " " + Show(fields[n_cols]) +
                 " has no column (an unquoted delimiter inside a value? quote it as \"a,b\")";
      }
      throw DataError(Where(path, line) + "expected " + std::to_string(n_cols) +
                      " fields, as in the header, but found " + std::to_string(fields.size()) + detail +
                      "; make every row have one field per column");
    }
    table.cells.insert(table.cells.end(), fields.begin(), fields.end());
    table.lines.push_back(line);
  }
  if (table.NumRows() == 0) {
    throw DataError(Where(path, header_line) +
                    "the file has a header but no data rows; add "
                    "rows below the header");
  }
  return table;
}

/// missing = drop: removes every row with a missing feature cell from `table` before the columns
/// are typed, so that a text column's missing spellings never become levels; returns how many
/// rows went. A missing label in a dropped row is still an error: offered to
/// `dropped_label_problem` (keyed by physical line), reported with the other columns' problems.
std::size_t DropRowsMissingFeatures(const std::string& path, const std::vector<std::string>& names,
                                    std::size_t label_col, CellTable& table, CellProblem& dropped_label_problem) {
  const std::size_t n_cols = table.n_cols;
  std::size_t dropped_rows = 0;
  CellTable kept;
  kept.n_cols = n_cols;
  kept.cells.reserve(table.cells.size());
  kept.lines.reserve(table.NumRows());
  std::size_t first_dropped = table.NumRows();
  std::size_t first_dropped_col = 0;
  for (std::size_t i = 0; i < table.NumRows(); ++i) {
    std::size_t j = 0;
    while (j < n_cols && (j == label_col || !IsMissingSpelling(table.At(i, j)))) ++j;
    if (j == n_cols) {
      for (std::size_t c = 0; c < n_cols; ++c) kept.cells.push_back(table.At(i, c));
      kept.lines.push_back(table.lines[i]);
      continue;
    }
    if (dropped_rows++ == 0) {
      first_dropped = i;
      first_dropped_col = j;
    }
    if (label_col < n_cols && IsMissingSpelling(table.At(i, label_col))) {
      dropped_label_problem.Offer(table.lines[i], Where(path, table.lines[i]) + ColumnRef(names, label_col) + ": " +
                                                      detail::MissingLabelMessage(CellsOf(table, label_col), i));
    }
  }
  if (kept.NumRows() == 0 && !dropped_label_problem.Found()) {
    const std::string rows = table.NumRows() == 1
                                 ? std::string("the only data row has")
                                 : "every one of the " + std::to_string(table.NumRows()) + " data rows has";
    throw DataError(OneLine(path) + ": " + rows + " a missing feature value (the first: line " +
                        std::to_string(table.lines[first_dropped]) + ", " + ColumnRef(names, first_dropped_col) +
                        ", " + Show(table.At(first_dropped, first_dropped_col)) +
                        "), so dropping such rows leaves none; impute the missing values, or keep them "
                        "in text columns as a level of their own (missing = category)",
                    {"missing"});
  }
  // Every row dropped, one of them with a missing label: that label is the problem to report
  // (there are no columns left to type).
  if (kept.NumRows() == 0) throw DataError(dropped_label_problem.message);
  table = std::move(kept);
  return dropped_rows;
}

/// The table's columns, typed: the features with their encodings, and the label.
struct TypedColumns {
  std::vector<std::string> feature_names;
  std::vector<ColumnValues> columns;
  std::vector<std::optional<CategoricalEncoding>> encodings;
  ColumnValues label;
};

/// Types every column through the one column builder; throws the problem on the earliest line
/// (then leftmost column), a dropped row's missing label among them.
TypedColumns BuildColumns(const std::string& path, const CellTable& table, const std::vector<std::string>& names,
                          std::size_t label_col, const std::string& positive, bool regression, MissingValues missing,
                          CellProblem& dropped_label_problem) {
  TypedColumns typed;
  CellProblem first_problem;
  for (std::size_t j = 0; j < table.n_cols; ++j) {
    CellProblem problem;
    const ColumnCells cells = CellsOf(table, j);
    const detail::CellPlaces places = PlacesOf(path, table, names, j);
    if (j == label_col) {
      typed.label = detail::BuildLabel(cells, positive, regression, places, problem);
    } else {
      typed.feature_names.push_back(names[j]);
      typed.encodings.emplace_back();
      typed.columns.push_back(detail::BuildFeature(cells, missing, places, typed.encodings.back(), problem));
    }
    // Keyed by physical line, so that a dropped row's missing label takes its place in line order.
    if (problem.Found()) {
      first_problem.Offer(table.lines[problem.row], std::move(problem.message), std::move(problem.options));
    }
  }
  if (dropped_label_problem.Found()) {
    first_problem.Offer(dropped_label_problem.row, std::move(dropped_label_problem.message));
  }
  if (first_problem.Found()) throw DataError(first_problem.message, first_problem.options);
  return typed;
}

}  // namespace

Dataset ReadCsv(const std::string& path, const CsvOptions& options) {
  const MissingValues missing = CheckCsvOptions(options);

  std::string text = ReadFileText(path);
  std::string_view view(text);
  if (view.size() >= 3 && view.substr(0, 3) == "\xEF\xBB\xBF") view.remove_prefix(3);  // BOM
  if (view.size() >= 2 && static_cast<unsigned char>(view[0]) == 0x1f &&
      static_cast<unsigned char>(view[1]) == 0x8b) {
    throw DataError(OneLine(path) + ": is gzip-compressed; decompress it first (gunzip)");
  }

  std::deque<std::string> store;
  CsvSplitter splitter(path, view, options.delimiter, store);
  std::vector<std::string_view> fields;
  std::size_t header_line = 1;
  if (!splitter.Next(fields, header_line)) {
    throw DataError(Where(path, 1) +
                    (text.empty() ? "the file is empty" : "the file holds only blank lines") +
                    "; expected a header row of column names followed by data rows");
  }

  // Header.
  std::vector<std::string> names(fields.begin(), fields.end());
  const std::size_t n_cols = names.size();
  CheckHeaderNames(path, header_line, names);
  const std::string label_name(detail::TrimBlanks(options.label));
  const std::string positive(detail::TrimBlanks(options.positive));
  const std::size_t label_col = FindLabelColumn(path, header_line, names, label_name, options);

  // Data rows; under kDrop, without the rows that miss a feature value.
  CellTable table = ReadDataRows(splitter, fields, view, path, names, header_line);
  std::size_t dropped_rows = 0;
  CellProblem dropped_label_problem;  // keyed by physical line
  if (missing == MissingValues::kDrop) {
    dropped_rows = DropRowsMissingFeatures(path, names, label_col, table, dropped_label_problem);
  }

  // Columns, through the one column builder.
  TypedColumns typed =
      BuildColumns(path, table, names, label_col, positive, options.regression, missing, dropped_label_problem);

  // Whole-column checks of a binary label.
  if (label_col < n_cols && !options.regression)
    detail::CheckLabelClasses(CellsOf(table, label_col), typed.label.values(), positive,
                              PlacesOf(path, table, names, label_col));

  Dataset data(std::move(typed.feature_names), std::move(typed.columns), std::move(typed.label),
               label_col < n_cols ? label_name : std::string());
  for (std::size_t j = 0; j < typed.encodings.size(); ++j) {
    if (typed.encodings[j]) data.set_encoding(j, std::move(*typed.encodings[j]));
  }
  data.set_source(path);
  data.set_dropped_rows(dropped_rows);
  return data;
}

}}  // namespace perfshap
