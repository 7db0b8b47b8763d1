// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/csv.hpp"

#include <cmath>
#include <utility>

#include "report/format.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::string CsvNumber(double v) { return std::isfinite(v) ? Fmt("%.17g", v) : std::string(); }

std::string CsvCell(std::string_view text) {
  // A spreadsheet takes a cell that begins with = + - @ (or a tab or CR before one) as a formula
  // even in quotes: OWASP's rule, an apostrophe before it, shows it as text.
  const bool formula = !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos;
  const bool quote = formula || text.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return std::string(text);
  std::string out = formula ? "\"'" : "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

CsvTable::CsvTable(const std::vector<std::string>& header, NonFinite non_finite) : non_finite_(non_finite) {
  for (std::size_t i = 0; i < header.size(); ++i) text_.append(i > 0 ? "," : "").append(CsvCell(header[i]));
  text_ += '\n';
}

CsvTable& CsvTable::Row() {
  if (row_open_) text_ += '\n';
  row_open_ = true;
  row_empty_ = true;
  return *this;
}

void CsvTable::Separate() {
  if (!row_empty_) text_ += ',';
  row_empty_ = false;
}

CsvTable& CsvTable::Text(std::string_view text) {
  Separate();
  text_.append(CsvCell(text));
  return *this;
}

CsvTable& CsvTable::Quoted(std::string_view text) {
  Separate();
  const std::string cell = CsvCell(text);
  if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"' && cell.size() > text.size())
    text_.append(cell);
  else
    text_.append("\"").append(cell).append("\"");
  return *this;
}

CsvTable& CsvTable::Number(double v) {
  Separate();
  text_ += non_finite_ == NonFinite::kEmpty ? CsvNumber(v) : Fmt("%.17g", v);
  return *this;
}

CsvTable& CsvTable::Count(std::uint64_t v) {
  Separate();
  text_ += std::to_string(v);
  return *this;
}

std::string CsvTable::Text() const& { return row_open_ ? text_ + '\n' : text_; }

std::string CsvTable::Text() && {
  if (row_open_) text_ += '\n';
  row_open_ = false;
  return std::move(text_);
}
}}}  // namespace perfshap::detail
