// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// In-memory tables: columns a front end already holds (numpy arrays, a pandas DataFrame, a
// database cursor's buffers) read into a Dataset with the rules of ReadCsv, without text.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/** @brief The element type of a numeric TableColumn. */
enum class ColumnType { kFloat64, kFloat32, kInt64, kInt32, kInt16, kInt8, kUInt64, kUInt32, kUInt16, kUInt8, kBool,
                        kText };

/**
 * @brief One column of a Table: numbers read in place (a typed pointer and a stride, so a
 * row-major matrix's column needs no copy before ReadTable converts it), or text cells.
 */
struct TableColumn {
  std::string name;
  ColumnType type = ColumnType::kFloat64;
  /** Numbers: the first row's value; row i is at `data + i * stride` bytes. Not owned: it must
   *  outlive ReadTable. */
  const void* data = nullptr;
  /** Numbers: bytes from one row's value to the next (may be any multiple of the element size). */
  std::ptrdiff_t stride = 0;
  /** kText: one cell per row. */
  std::vector<std::string> text;
  /** kText: 1 where the cell is missing (its text is then ignored); empty = none missing. */
  std::vector<unsigned char> text_missing;
};

/** @brief Named columns of equal length, and what to call them in messages. */
struct Table {
  /** Where the table came from ("pandas.DataFrame"), as Dataset::source() and in messages. */
  std::string source = "table";
  std::size_t n_rows = 0;
  std::vector<TableColumn> columns;
};

/**
 * @brief Reads a table as ReadCsv reads a file with the same cells, through the same column
 * builder: the label column named by `options.label` (0/1, `positive`, or any finite number with
 * `regression`), the other columns as features in table order. Text cells are trimmed of spaces
 * and tabs as a CSV file's are, and typed by the same rules: a text column whose cells are all
 * numbers ("1.0", " 2") is numeric, one of text only is categorical (codes by first appearance,
 * levels recorded), a mix is an error naming the odd cell. Missing cells (NaN in a numeric
 * column, a null in a text column) follow `options.missing`; a null kept as a level is spelled
 * "NA". A table's nulls are explicit, so its text is text: "?" or "NA" is a level, where a CSV
 * file (which has no null) reads these spellings as missing cells. The positive class is compared after
 * trimming: equal text, or both finite numbers and equal ("1" matches 1.0). Each value is
 * converted to double once; the data set holds all its values (the table may go after the call).
 * @throws InvalidArgument for columns of unequal length, a numeric column without data, or
 *   `positive` with `regression`.
 * @throws DataError naming the source, column and row (0-based) as ReadCsv names file, line
 *   and column: duplicate or empty names, no label column, a missing value under kError, an
 *   infinite value, text among numbers, a label that is not 0/1, one class, no row left after
 *   kDrop.
 */
PERFSHAP_EXPORT Dataset ReadTable(const Table& table, const CsvOptions& options);

/**
 * @brief As ReadTable, with every float64 column of stride 8 read in place: the data set lends
 * it (Dataset::column() points into the table's buffer) instead of copying it, and a label that
 * is already 0/1 (or a regression target) too; other columns are converted once. The data set
 * and every copy share the ownership of `table`, whose columns' buffers must stay alive and
 * unchanged for as long as they live (an Arrow import's table holds its arrays; a caller's lent
 * buffers are the caller's promise): for a call's life, or Dataset::Owned() for longer.
 * @throws as ReadTable.
 */
PERFSHAP_EXPORT Dataset ReadTableInPlace(std::shared_ptr<const Table> table, const CsvOptions& options);

/** @brief Row `row` of a numeric column as a double (NaN stays NaN; a text column gives NaN). */
PERFSHAP_EXPORT double ColumnNumber(const TableColumn& column, std::size_t row);

}}  // namespace perfshap
