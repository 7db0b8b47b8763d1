// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "data/column_builder.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <system_error>
#include <unordered_map>
#include <utility>

#include "data/message_text.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

constexpr std::size_t kMaxListedValues = 8;  // distinct values listed in a message

std::string Show(std::string_view s) { return Quoted(s); }

/** "3 other cells of this column are numbers" / "1 other cell of this column is a number". */
std::string OtherCells(std::size_t count, const char* one, const char* many) {
  return std::to_string(count) + (count == 1 ? " other cell of this column is " + std::string(one)
                                             : " other cells of this column are " + std::string(many));
}

}  // namespace

NumberKind ParseNumber(std::string_view s, double& out) {
  const char* first = s.data();
  const char* last = first + s.size();
  if (first != last && *first == '+') {
    ++first;  // from_chars rejects a leading '+', strtod accepts it
    if (first != last && (*first == '+' || *first == '-')) return NumberKind::kNotNumber;
  }
  if (first == last) return NumberKind::kNotNumber;
  const auto [ptr, ec] = std::from_chars(first, last, out);
  if (ec == std::errc::invalid_argument || ptr != last) return NumberKind::kNotNumber;
  if (ec == std::errc::result_out_of_range) {
    // libstdc++ reports underflow (e.g. 1e-320) as out of range too; strtod tells them apart.
    const std::string copy(first, last);
    const double v = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(v)) return NumberKind::kOutOfRange;
    out = v;
    return NumberKind::kFinite;
  }
  if (std::isnan(out)) return NumberKind::kNaN;
  if (std::isinf(out)) return NumberKind::kInfinite;
  return NumberKind::kFinite;
}

bool IsMissingSpelling(std::string_view s) {
  if (s.empty() || s == "?" || s == "NA") return true;
  double v = 0.0;
  return ParseNumber(s, v) == NumberKind::kNaN;
}

std::string_view TrimBlanks(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
  return t;
}

bool ColumnCells::Missing(std::size_t k) const {
  if (is_numbers()) return std::isnan(Number(k));
  return (null != nullptr && null[k] != 0) || (spelled_missing && IsMissingSpelling(Text(k)));
}

std::string ColumnCells::Shown(std::size_t k) const {
  if (!is_numbers()) return Show(Text(k));
  const double v = Number(k);
  if (std::isnan(v)) return "'NaN'";
  char buf[40];
  std::snprintf(buf, sizeof buf, "'%.17g'", v);
  return buf;
}

void CellProblem::Offer(std::size_t r, std::string m, std::vector<std::string> o) {
  if (r < row) {
    row = r;
    message = std::move(m);
    options = std::move(o);
  }
}

std::string DistinctCells(const ColumnCells& cells) {
  std::vector<std::string> seen;
  std::size_t more = 0;
  for (std::size_t k = 0; k < cells.n; ++k) {
    std::string v = cells.Shown(k);
    if (std::find(seen.begin(), seen.end(), v) != seen.end()) continue;
    if (seen.size() < kMaxListedValues) {
      seen.push_back(std::move(v));
    } else if (++more > 1000) {
      break;  // enough to say "more"
    }
  }
  std::string out;
  for (std::size_t k = 0; k < seen.size(); ++k) out += (k > 0 ? ", " : "") + seen[k];
  if (more > 0) out += ", ...";
  return out;
}

std::string MissingLabelMessage(const ColumnCells& cells, std::size_t k) {
  return "the label is missing (" + cells.Shown(k) + "); every row needs a label: fill it in or remove the row";
}

namespace {

/** A missing cell where the policy allows none (kError, or kDrop before its rows went). */
void OfferMissing(const ColumnCells& cells, const CellPlaces& places, std::size_t k, CellProblem& problem) {
  problem.Offer(k,
                places.at(k) + "missing value " + cells.Shown(k) +
                    "; fill it in, drop the rows with missing values (missing = drop) or, in a text column, make it "
                    "a level of its own (missing = category)",
                {"missing"});
}

/** A numeric column's missing cell under kCategory (a level applies to text columns only). */
void OfferMissingNumberAsCategory(const ColumnCells& cells, const CellPlaces& places, std::size_t first_missing,
                                  bool any_present, CellProblem& problem) {
  const std::string cell = cells.Shown(first_missing);
  problem.Offer(first_missing,
                places.at(first_missing) +
                    (any_present ? "missing value " + cell +
                                       " in a numeric column; making missing values a level of their own (missing = "
                                       "category) applies to text columns only: drop the rows with missing values "
                                       "(missing = drop) or impute them"
                                 : "every cell of this column is missing (the first is " + cell +
                                       "), so it holds no value to use; leave the column out"),
                {"missing"});
}

/** A numeric table column: every cell a number or NaN. */
ColumnValues NumericFeature(const ColumnCells& cells, MissingValues missing, const CellPlaces& places,
                            CellProblem& problem) {
  const std::size_t n = cells.n;
  const bool lend = cells.in_place.size() == n && n > 0;
  std::vector<double> values(lend ? 0 : n);
  std::size_t first_missing = n;
  std::size_t n_present = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double v = lend ? cells.in_place[k] : cells.Number(k);
    if (!lend) values[k] = v;
    if (std::isnan(v)) {
      if (first_missing == n) first_missing = k;
      if (missing == MissingValues::kError || missing == MissingValues::kDrop) {
        OfferMissing(cells, places, k, problem);
        break;
      }
    } else if (std::isinf(v)) {
      problem.Offer(k, places.at(k) + cells.Shown(k) + " is infinite; replace it with a finite number");
      break;
    } else {
      ++n_present;
    }
  }
  if (!problem.Found() && missing == MissingValues::kCategory && first_missing < n)
    OfferMissingNumberAsCategory(cells, places, first_missing, n_present > 0, problem);
  if (lend) return ColumnValues(cells.in_place, cells.owner);
  return ColumnValues(std::move(values));
}

}  // namespace

ColumnValues BuildFeature(const ColumnCells& cells, MissingValues missing, const CellPlaces& places,
                          std::optional<CategoricalEncoding>& encoding, CellProblem& problem) {
  if (cells.is_numbers()) return NumericFeature(cells, missing, places, problem);
  const std::size_t n = cells.n;
  std::vector<double> values(n, std::numeric_limits<double>::quiet_NaN());
  std::size_t n_numeric = 0;
  std::size_t n_text = 0;
  std::size_t first_numeric = n;
  std::size_t first_text = n;
  std::size_t first_missing = n;
  const bool missing_is_error = missing == MissingValues::kError || missing == MissingValues::kDrop;
  for (std::size_t k = 0; k < n; ++k) {
    const std::string_view cell = cells.Text(k);
    double v = 0.0;
    const NumberKind kind = ParseNumber(cell, v);
    if (cells.Missing(k)) {
      if (first_missing == n) first_missing = k;
      if (missing_is_error) {
        OfferMissing(cells, places, k, problem);
        break;  // later rows cannot come first
      }
      continue;
    }
    switch (kind) {
      case NumberKind::kNaN:  // "NaN" among a table's text: text (its nulls are explicit)
        if (n_text++ == 0) first_text = k;
        break;
      case NumberKind::kFinite:
        values[k] = v;
        if (n_numeric++ == 0) first_numeric = k;
        break;
      case NumberKind::kInfinite:
        problem.Offer(k, places.at(k) + cells.Shown(k) + " is infinite; replace it with a finite number");
        break;
      case NumberKind::kOutOfRange:
        problem.Offer(k, places.at(k) + cells.Shown(k) + " is too large for a double; rescale the column");
        break;
      default:
        if (n_text++ == 0) first_text = k;
        break;
    }
    if (problem.Found()) break;
  }
  // A mix of numbers and text before any other problem: point at the odd cell (Offer keeps
  // whichever problem comes first).
  if (n_numeric > 0 && n_text > 0) {
    if (n_numeric >= n_text) {
      problem.Offer(first_text, places.at(first_text) + cells.Shown(first_text) + " is not a number, but " +
                                    OtherCells(n_numeric, "a number", "numbers") + " (first at " +
                                    places.named(first_numeric) + "); fix the cell");
    } else {
      problem.Offer(first_numeric,
                    places.at(first_numeric) + cells.Shown(first_numeric) + " is a number, but " +
                        OtherCells(n_text, "text", "text") + " (first at " + places.named(first_text) +
                        "); a text (categorical) column must hold no numbers: fix the cell or write the level "
                        "as text (e.g. 'level_" +
                        EscapeControls(cells.Text(first_numeric).substr(0, kMaxQuotedChars)) + "')");
    }
    return ColumnValues(std::move(values));
  }
  if (problem.Found()) return ColumnValues(std::move(values));
  if (n_text == 0) {  // numeric (possibly all missing)
    if (missing == MissingValues::kCategory && first_missing < n)
      OfferMissingNumberAsCategory(cells, places, first_missing, n_numeric > 0, problem);
    return ColumnValues(std::move(values));
  }
  // Categorical: codes 0..L-1 by first appearance. Under kCategory and kKeep a missing cell is
  // kept as a level of its own, spelled as written ("?", "NA", empty; a null as kNullLevel).
  CategoricalEncoding enc;
  std::unordered_map<std::string_view, double> codes;
  for (std::size_t k = 0; k < n; ++k) {
    const std::string_view cell = cells.null != nullptr && cells.null[k] != 0 ? kNullLevel : cells.Text(k);
    const auto [it, inserted] = codes.emplace(cell, static_cast<double>(enc.levels.size()));
    if (inserted) enc.levels.emplace_back(cell);
    values[k] = it->second;
  }
  encoding = std::move(enc);
  return ColumnValues(std::move(values));
}

ColumnValues BuildLabel(const ColumnCells& cells, std::string_view positive, bool regression,
                        const CellPlaces& places, CellProblem& problem) {
  const std::size_t n = cells.n;
  double positive_value = 0.0;
  const bool positive_is_number = !positive.empty() && ParseNumber(positive, positive_value) == NumberKind::kFinite;
  // The values pass unchanged (a 0/1 or regression float64 column): lent as they are.
  const bool lend = positive.empty() && cells.in_place.size() == n && n > 0;
  std::vector<double> label(lend ? 0 : n, 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    if (cells.Missing(k)) {
      problem.Offer(k, places.at(k) + MissingLabelMessage(cells, k));
      break;
    }
    double v = 0.0;
    NumberKind kind = NumberKind::kFinite;
    if (cells.is_numbers()) {
      v = cells.Number(k);
      if (std::isinf(v)) kind = NumberKind::kInfinite;
    } else {
      kind = ParseNumber(cells.Text(k), v);
    }
    if (!positive.empty()) {
      const bool is_positive = (!cells.is_numbers() && cells.Text(k) == positive) ||
                               (positive_is_number && kind == NumberKind::kFinite && v == positive_value);
      label[k] = is_positive ? 1.0 : 0.0;
      continue;
    }
    if (regression) {
      if (kind != NumberKind::kFinite) {
        problem.Offer(k, places.at(k) + "the regression target " + cells.Shown(k) +
                             " is not a finite number; fix the cell or choose another label column",
                      {"label"});
        break;
      }
    } else if (kind != NumberKind::kFinite || (v != 0.0 && v != 1.0)) {
      problem.Offer(k, places.at(k) + "the label " + cells.Shown(k) +
                           " is not 0 or 1; name the positive class (values in this column: " + DistinctCells(cells) +
                           ")",
                    {"positive"});
      break;
    }
    if (!lend) label[k] = v;
  }
  if (lend) return ColumnValues(cells.in_place, cells.owner);
  return ColumnValues(std::move(label));
}

void CheckLabelClasses(const ColumnCells& cells, std::span<const double> label, std::string_view positive,
                       const CellPlaces& places) {
  std::size_t n_positive = 0;
  for (double y : label) n_positive += (y == 1.0) ? 1 : 0;
  if (!positive.empty() && n_positive == 0)
    throw DataError(places.column + "no row has the value " + Show(positive) +
                        " given as the positive class; the values are " + DistinctCells(cells) + "; name one of them",
                    {"positive"});
  if (n_positive == 0 || n_positive == label.size()) {
    const std::string cls = positive.empty() ? std::string(n_positive == 0 ? "0" : "1")
                                             : std::string(n_positive == 0 ? "not " : "") + Show(positive);
    throw DataError(places.column + "all " + places.rows + " have the same class (" + cls +
                        "); a binary task needs both classes: check the label column and the positive class, or use "
                        "a data set with both classes",
                    {"label", "positive"});
  }
}

}}}  // namespace perfshap::detail
