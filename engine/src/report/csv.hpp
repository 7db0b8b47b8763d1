// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The CSV tables of every reporter: a header row, then rows of cells; numbers with %.17g (they
// read back to the same double). Text cells (feature names, labels) are written as RFC 4180
// fields through CsvCell, so that any name reads back whole with any CSV reader.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief A number for a CSV cell: %.17g, "" for NaN and infinities. */
std::string CsvNumber(double v);

/**
 * @brief A text as one RFC 4180 field: as it is when it needs nothing, else in double quotes
 * with inner quotes doubled (a comma, a quote, a line end, a space at either end). A text that
 * begins with =, +, -, @, a tab or a CR is quoted with an apostrophe before it ("'=x"), so that a
 * spreadsheet shows it as text rather than running it as a formula (OWASP's rule for CSV).
 */
std::string CsvCell(std::string_view text);

/** @brief A CSV table built row by row: `table.Row().Text(name).Number(v)`, then Text(). */
class CsvTable {
 public:
  /** @brief How a NaN or an infinity is written: as printf prints it ("nan", "inf") or empty. */
  enum class NonFinite { kPrinted, kEmpty };

  /** @brief A table with this header row (the column names, each a CsvCell). */
  explicit CsvTable(const std::vector<std::string>& header, NonFinite non_finite = NonFinite::kPrinted);

  /** @brief Starts the next row. */
  CsvTable& Row();
  /** @brief A text cell (CsvCell: quoted when it needs to be). */
  CsvTable& Text(std::string_view text);
  /** @brief A text cell always in double quotes (CsvCell's escapes). */
  CsvTable& Quoted(std::string_view text);
  /** @brief A number, %.17g. */
  CsvTable& Number(double v);
  /** @brief An integer. */
  CsvTable& Count(std::uint64_t v);

  /** @brief The table: one line per row, each ended by "\n". */
  std::string Text() const&;
  /** @brief The table, its text moved out (a writer that is done with the table). */
  std::string Text() &&;

 private:
  void Separate();
  std::string text_;
  NonFinite non_finite_;
  bool row_open_ = false;
  bool row_empty_ = true;
};

}}}  // namespace perfshap::detail
