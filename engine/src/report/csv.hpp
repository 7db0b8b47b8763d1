// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The CSV tables of every reporter: a header row, then rows of cells; numbers with %.17g (they
// read back to the same double).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace perfshap::inline v0::detail {

/** @brief A number for a CSV cell: %.17g, "" for NaN and infinities. */
std::string CsvNumber(double v);

/** @brief A CSV table built row by row: `table.Row().Text(name).Number(v)`, then Text(). */
class CsvTable {
 public:
  /** @brief How a NaN or an infinity is written: as printf prints it ("nan", "inf") or empty. */
  enum class NonFinite { kPrinted, kEmpty };

  /** @brief A table with this header row (the column names, written as given). */
  explicit CsvTable(const std::vector<std::string>& header, NonFinite non_finite = NonFinite::kPrinted);

  /** @brief Starts the next row. */
  CsvTable& Row();
  /** @brief A cell written as given (no quoting). */
  CsvTable& Text(std::string_view text);
  /** @brief A cell in double quotes (the text holds no quote). */
  CsvTable& Quoted(std::string_view text);
  /** @brief A number, %.17g. */
  CsvTable& Number(double v);
  /** @brief An integer. */
  CsvTable& Count(std::uint64_t v);

  /** @brief The table: one line per row, each ended by "\n". */
  std::string Text() const;

 private:
  void Separate();
  std::string text_;
  NonFinite non_finite_;
  bool row_open_ = false;
  bool row_empty_ = true;
};

}  // namespace perfshap::detail
