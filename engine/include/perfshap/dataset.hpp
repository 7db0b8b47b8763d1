// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/** @brief How a string (categorical) column was encoded into numbers: code k = levels[k].
 *  ReadCsv lists the levels in order of first appearance in the file; DesignEncoder's codes
 *  (TextColumns::kCodes) list them sorted. */
struct CategoricalEncoding {
  std::vector<std::string> levels;
};

/**
 * @brief A column's values, immutable and shared: copies of a ColumnValues (and of the Dataset
 * that holds it) share the values, never copy them. Owned (a vector moved in), or borrowed from
 * memory a caller holds (a numpy array, an Arrow buffer), which `owner` keeps alive: with no
 * owner, the caller keeps the memory alive and unchanged for as long as any copy lives.
 */
class PERFSHAP_EXPORT ColumnValues {
 public:
  ColumnValues() = default;
  /** @brief Owns `values`. */
  explicit ColumnValues(std::vector<double> values);
  /** @brief Borrows `values` (not copied), kept alive by `owner` (may be null: see above). */
  ColumnValues(std::span<const double> values, std::shared_ptr<const void> owner);

  std::span<const double> values() const noexcept { return {data_, size_}; }
  std::size_t size() const noexcept { return size_; }
  /** @brief Whether the values are a caller's memory rather than the column's own. */
  bool borrowed() const noexcept { return borrowed_; }
  /** @brief The same values, owned: this column when it owns them, else a copy. */
  ColumnValues Owned() const;

 private:
  std::shared_ptr<const void> keep_;
  const double* data_ = nullptr;
  std::size_t size_ = 0;
  bool borrowed_ = false;
};

/**
 * @brief A table of features in column-major storage plus an optional label.
 *
 * Feature column j is `column(j)`, a contiguous span of n_rows() doubles. A coalition of
 * features is a mask over these columns; nothing is ever copied per coalition.
 * For a binary task the label holds 1.0 for the positive class and 0.0 otherwise.
 * Columns are ColumnValues: a copy of a Dataset shares them (copying is cheap, and the values
 * are never changed), and a column may be borrowed from a caller's memory (ReadTable with
 * ColumnUse::kBorrow): Owned() gives a data set that holds all its values itself.
 */
class PERFSHAP_EXPORT Dataset {
 public:
  Dataset() = default;
  /**
   * @brief Builds a data set from columns.
   * @param names feature names, one per column, unique.
   * @param columns columns[j] has n_rows values.
   * @param label n_rows values (may be empty for unlabeled data).
   * @throws InvalidArgument on shape mismatch or duplicate names.
   */
  Dataset(std::vector<std::string> names, std::vector<std::vector<double>> columns,
          std::vector<double> label, std::string label_name = "label");
  /**
   * @brief Builds a data set from shared or borrowed columns (see ColumnValues).
   * @throws InvalidArgument as the other constructor.
   */
  Dataset(std::vector<std::string> names, std::vector<ColumnValues> columns, ColumnValues label,
          std::string label_name = "label");

  std::size_t n_rows() const noexcept { return n_rows_; }
  std::size_t n_features() const noexcept { return names_.size(); }
  const std::vector<std::string>& feature_names() const noexcept { return names_; }
  const std::string& label_name() const noexcept { return label_name_; }
  /** @brief Column j, n_rows() contiguous values. */
  std::span<const double> column(std::size_t j) const { return columns_.at(j).values(); }
  /** @brief Column j as shared values, for a data set built from this one's columns. */
  const ColumnValues& column_values(std::size_t j) const { return columns_.at(j); }
  /** @brief The label, n_rows() values (1 = positive, 0 = negative for binary data). */
  std::span<const double> label() const noexcept { return label_.values(); }
  /** @brief The label as shared values. */
  const ColumnValues& label_values() const noexcept { return label_; }
  /** @brief Encoding of feature j when it was read from strings, else nullopt. */
  const std::optional<CategoricalEncoding>& encoding(std::size_t j) const { return encodings_.at(j); }
  void set_encoding(std::size_t j, CategoricalEncoding enc) { encodings_.at(j) = std::move(enc); }
  /** @brief Where the data came from (file path or generator description), for messages. */
  const std::string& source() const noexcept { return source_; }
  void set_source(std::string s) { source_ = std::move(s); }
  /** @brief Rows removed when the data were read because a feature cell was missing
   *  (ReadCsv with MissingValues::kDrop), so front ends can report it; 0 otherwise.
   *  SelectRows keeps it, as it keeps source(). */
  std::size_t dropped_rows() const noexcept { return dropped_rows_; }
  void set_dropped_rows(std::size_t n) noexcept { dropped_rows_ = n; }
  /** @brief Index of the feature called name. @throws InvalidArgument if there is none. */
  std::size_t FeatureIndex(const std::string& name) const;
  /**
   * @brief The given rows (0-based, in that order, repeats allowed) as a new data set with the
   * same features, encodings, label name and source.
   * @throws InvalidArgument for a row index >= n_rows().
   */
  Dataset SelectRows(std::span<const std::size_t> rows) const;
  /** @brief This data set with every borrowed column copied: it no longer refers to a caller's
   *  memory (owned columns are shared, not copied). */
  Dataset Owned() const;
  /** @brief Whether any column or the label is borrowed. */
  bool borrows() const noexcept;
  /** @brief Number of rows whose label is 1. */
  std::size_t CountPositive() const noexcept;

 private:
  std::vector<std::string> names_;
  std::vector<ColumnValues> columns_;
  std::vector<std::optional<CategoricalEncoding>> encodings_;
  ColumnValues label_;
  std::string label_name_ = "label";
  std::string source_;
  std::size_t n_rows_ = 0;
  std::size_t dropped_rows_ = 0;
};

/**
 * @brief What ReadCsv does with a missing feature cell: empty, "?", "NA" or any NaN spelling
 * ("NaN", "nan", "-nan"). A missing label is an error under every policy.
 */
enum class MissingValues {
  /** An error naming the file, line and column (the default). */
  kError,
  /** In a text column, a level of its own, spelled as in the file (e.g. "?"); each spelling
   *  is its own level, so a column holding both "?" and "NA" gets two. In a numeric column,
   *  still an error: the category policy applies to text columns only. */
  kCategory,
  /** Every row with a missing cell in any feature column is removed before the columns are
   *  typed and converted; Dataset::dropped_rows() says how many. An error if no row is left. */
  kDrop,
  /** Kept: NaN in a numeric column, a level of its own (as kCategory) in a text column. The
   *  same as CsvOptions::allow_missing = true. */
  kKeep,
};

/** @brief Options of ReadCsv. */
struct CsvOptions {
  /** Name of the label column (required unless allow_no_label). */
  std::string label;
  /** Value of the label that is the positive class, compared after trimming: equal text,
   *  or both finite numbers and equal (so "1" matches "1.0"); e.g. "1", "M", "2".
   *  Empty = the label must already be 0/1 and 1 is positive. */
  std::string positive;
  /** When true, the label is kept as the raw numeric value (regression targets). */
  bool regression = false;
  /** What to do with missing feature cells (see MissingValues). A missing label is always
   *  an error. */
  MissingValues missing = MissingValues::kError;
  /** Older spelling of `missing = MissingValues::kKeep`: when true, missing values (empty,
   *  "?", "NA", "NaN", "nan", any NaN spelling) are kept, as NaN in a numeric column and as a
   *  level of their own, spelled as in the file (e.g. "?"), in a text column. When true,
   *  `missing` must be kError (its default) or kKeep, else ReadCsv throws InvalidArgument. */
  bool allow_missing = false;
  /** Field separator (not a quote, line end, letter, digit, '.', '+' or '-'). */
  char delimiter = ',';
  /** When true, an empty `label` reads every column as a feature and the label is empty. */
  bool allow_no_label = false;
  /** When true, a `label` that no column is named is no error: every column is read as a
   *  feature and the label is empty (the rows to explain may come with or without their label;
   *  the file is read once either way). */
  bool label_optional = false;
};

/**
 * @brief Reads a CSV file with a header row.
 *
 * Format: RFC 4180 quoting ("a,b", doubled quotes "" inside quotes, quoted line breaks),
 * LF, CRLF or CR line ends, an optional UTF-8 byte-order mark, blank lines skipped, every
 * cell trimmed of spaces and tabs. Line numbers in messages are physical lines (header = 1).
 *
 * Column types: a cell is a number when the whole trimmed cell parses as a decimal number
 * in strtod's syntax (".28", "-1e3", "+5"; no hexadecimal), read with std::from_chars so the
 * C locale does not matter. A feature column is numeric when none of its non-missing cells
 * is text, and categorical (codes 0..L-1 by first appearance, encoding recorded) when none
 * is a number. A column that mixes the two is an error pointing at the odd cell: most likely
 * a typo such as "abc" among numbers. Infinite values ("inf") are always an error. The label
 * column is never encoded silently: with `positive` set, label = (cell matches positive);
 * otherwise it must be 0/1 (or any finite number with `regression`).
 * @param path the CSV file; messages name it as given.
 * Missing feature cells follow `options.missing` (MissingValues); with kDrop the rows that
 * hold one are removed first, and every check and message after that sees the rows kept
 * (with their physical line numbers).
 * @param path the CSV file; messages name it as given.
 * @param options label column, positive class, missing-value policy, delimiter.
 * @return the features (the label column removed, the others in file order), the label,
 *   encodings of the categorical columns, source() = path, and dropped_rows().
 * @throws InvalidArgument for an unusable delimiter, `positive` with `regression`, or
 *   `allow_missing` with `missing` = kCategory or kDrop.
 * @throws DataError with a one-line message naming the file, line (1-based, header = 1) and
 *   column for: missing file, a directory, empty file, header only, ragged row, unclosed
 *   quote, duplicate or empty column names, unknown label column (lists the columns),
 *   missing value (kError; kCategory in a numeric column), every row dropped (kDrop),
 *   infinite value, text among numbers (and a number among text), no feature
 *   column, a label that is not 0/1 without `positive`, a `positive` that no row has, a
 *   label with one class.
 */
PERFSHAP_EXPORT Dataset ReadCsv(const std::string& path, const CsvOptions& options);

}}  // namespace perfshap
