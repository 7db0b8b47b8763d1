// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The one column builder: the rules by which a column's cells become a data set's feature or
// label, for every way data come in — a CSV file's text cells (ReadCsv) and a table's columns in
// memory (ReadTable: numpy, pandas, Arrow, the C API). Typing (numbers or text), missing values,
// infinite values, text codes, the label and the positive class are decided here and nowhere
// else; a reader only says where a cell is (a file's line, a table's row) for the messages.

#include <cstddef>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/table.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

enum class NumberKind { kFinite, kNaN, kInfinite, kOutOfRange, kNotNumber };

/** @brief Parses the whole of `s` (trimmed) as a decimal number in strtod's syntax (".28",
 *  "1e-3", "+5"), no hexadecimal, independent of the C locale. */
NumberKind ParseNumber(std::string_view s, double& out);

/** @brief Whether a text cell is a missing spelling: empty, "?", "NA" or a NaN ("NaN", "-nan"). */
bool IsMissingSpelling(std::string_view s);

/** @brief `s` without leading and trailing spaces and tabs. */
std::string_view TrimBlanks(std::string_view s);

/** @brief The spelling of a table's null text cell kept as a level. */
inline constexpr std::string_view kNullLevel = "NA";

/** @brief One column's cells, in the order of the data set's rows. */
struct ColumnCells {
  std::size_t n = 0;
  /** Text cells (trimmed): cell k at text[k * text_stride]. */
  const std::string_view* text = nullptr;
  std::size_t text_stride = 1;
  /** Text: 1 where a cell is missing whatever its text (a table's null); none when null. */
  const unsigned char* null = nullptr;
  /** Text: whether the missing spellings ("", "?", "NA", "NaN") are missing cells. A text file has
   *  no null, so they are its nulls; a table's nulls are explicit and its text is text. */
  bool spelled_missing = true;
  /** Numbers: a table's numeric column; cell k is its row rows[k] (row k when rows is null). */
  const TableColumn* numbers = nullptr;
  const std::size_t* rows = nullptr;
  /** Numbers that may be lent to the data set as they are (float64, contiguous, every row);
   *  empty otherwise. `owner` keeps them alive (may be null: the caller's promise). */
  std::span<const double> in_place;
  std::shared_ptr<const void> owner;

  bool is_numbers() const noexcept { return numbers != nullptr; }
  std::string_view Text(std::size_t k) const noexcept { return text[k * text_stride]; }
  double Number(std::size_t k) const { return ColumnNumber(*numbers, rows != nullptr ? rows[k] : k); }
  /** Whether cell k is missing: NaN, a null, or a missing spelling (spelled_missing). */
  bool Missing(std::size_t k) const;
  /** Cell k as messages quote it: 'text', or the number ('NaN', '2.5'). */
  std::string Shown(std::size_t k) const;
};

/** @brief Where a column's cells are, for the messages. */
struct CellPlaces {
  /** The prefix of a message about cell k: "data.csv:12: column 'y' (3): ",
   *  "frame: column 'y', row 11: ". */
  std::function<std::string(std::size_t)> at;
  /** Cell k named inside a message: "line 12", "row 11". */
  std::function<std::string(std::size_t)> named;
  /** The prefix of a message about the whole column: "data.csv: column 'y' (3): ". */
  std::string column;
  /** The rows as a message counts them: "4 data rows (lines 2-5)", "4 rows". */
  std::string rows;
};

/** @brief The first problem of a column: its cell, the message and the options it names. */
struct CellProblem {
  std::size_t row = std::numeric_limits<std::size_t>::max();
  std::string message;
  std::vector<std::string> options;
  void Offer(std::size_t r, std::string m, std::vector<std::string> o = {});
  bool Found() const noexcept { return row != std::numeric_limits<std::size_t>::max(); }
};

/**
 * @brief A feature column: numeric when no present cell is text, categorical (codes 0..L-1 by
 * first appearance, `encoding` set; a missing cell kept is a level spelled as written, a null
 * "NA") when no present cell is a number, else a problem at the odd cell. Missing cells follow
 * `missing` (under kDrop none is left: their rows went first); infinite values and numbers too
 * large for a double are problems. Numbers `in_place` come back borrowed, others converted once.
 * The earliest problem is offered to `problem`; the values are then unspecified.
 */
ColumnValues BuildFeature(const ColumnCells& cells, MissingValues missing, const CellPlaces& places,
                          std::optional<CategoricalEncoding>& encoding, CellProblem& problem);

/**
 * @brief A label column: with `positive` (trimmed) 1 where the cell is it (equal text, or both
 * finite numbers and equal: "1" matches 1.0), else the number itself, 0/1 unless `regression`.
 * A missing label is a problem under every policy.
 */
ColumnValues BuildLabel(const ColumnCells& cells, std::string_view positive, bool regression,
                        const CellPlaces& places, CellProblem& problem);

/** @brief The whole-column checks of a binary label: some row has `positive`, both classes
 *  occur. @throws DataError naming the column. */
void CheckLabelClasses(const ColumnCells& cells, std::span<const double> label, std::string_view positive,
                       const CellPlaces& places);

/** @brief Up to 8 distinct cells of the column, quoted, in order of appearance ("..." for more). */
std::string DistinctCells(const ColumnCells& cells);

/** @brief The message of a missing label cell k. */
std::string MissingLabelMessage(const ColumnCells& cells, std::size_t k);

}}}  // namespace perfshap::detail
