// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "perfshap/dataset.hpp"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {

ColumnValues::ColumnValues(std::vector<double> values) {
  auto owned = std::make_shared<const std::vector<double>>(std::move(values));
  data_ = owned->data();
  size_ = owned->size();
  keep_ = std::move(owned);
}

ColumnValues::ColumnValues(std::span<const double> values, std::shared_ptr<const void> owner)
    : keep_(std::move(owner)), data_(values.data()), size_(values.size()), borrowed_(true) {}

ColumnValues ColumnValues::Owned() const {
  if (!borrowed_) return *this;
  return ColumnValues(std::vector<double>(data_, data_ + size_));
}

namespace {

std::vector<ColumnValues> Shared(std::vector<std::vector<double>> columns) {
  std::vector<ColumnValues> out;
  out.reserve(columns.size());
  for (auto& c : columns) out.emplace_back(std::move(c));
  return out;
}

}  // namespace

Dataset::Dataset(std::vector<std::string> names, std::vector<std::vector<double>> columns,
                 std::vector<double> label, std::string label_name)
    : Dataset(std::move(names), Shared(std::move(columns)), ColumnValues(std::move(label)), std::move(label_name)) {}

Dataset::Dataset(std::vector<std::string> names, std::vector<ColumnValues> columns, ColumnValues label,
                 std::string label_name)
    : names_(std::move(names)),
      columns_(std::move(columns)),
      label_(std::move(label)),
      label_name_(std::move(label_name)) {
  PERFSHAP_CHECK(names_.size() == columns_.size(),
                 "Dataset: " + std::to_string(names_.size()) + " feature names but " +
                     std::to_string(columns_.size()) + " columns; give one name per column");
  if (!columns_.empty()) {
    n_rows_ = columns_.front().size();
  } else {
    n_rows_ = label_.size();
  }
  for (std::size_t j = 0; j < columns_.size(); ++j) {
    PERFSHAP_CHECK(columns_[j].size() == n_rows_,
                   "Dataset: column '" + names_[j] + "' (" + std::to_string(j + 1) + ") has " +
                       std::to_string(columns_[j].size()) + " values but column '" + names_[0] + "' has " +
                       std::to_string(n_rows_) + "; all columns need the same length");
  }
  PERFSHAP_CHECK(label_.size() == 0 || label_.size() == n_rows_,
                 "Dataset: the label has " + std::to_string(label_.size()) + " values but the columns have " +
                     std::to_string(n_rows_) + " rows; give one label per row (or none)");
  std::unordered_map<std::string, std::size_t> seen;
  seen.reserve(names_.size());
  for (std::size_t j = 0; j < names_.size(); ++j) {
    auto [it, inserted] = seen.emplace(names_[j], j);
    PERFSHAP_CHECK(inserted, "Dataset: feature name '" + names_[j] + "' is used by columns " +
                                 std::to_string(it->second + 1) + " and " + std::to_string(j + 1) +
                                 "; feature names must be unique");
  }
  encodings_.resize(names_.size());
}

Dataset Dataset::SelectRows(std::span<const std::size_t> rows) const {
  for (std::size_t r : rows)
    PERFSHAP_CHECK(r < n_rows_, "SelectRows: row " + std::to_string(r) + " is out of range (the data has " +
                                    std::to_string(n_rows_) + " rows)");
  std::vector<std::vector<double>> cols(columns_.size(), std::vector<double>(rows.size()));
  for (std::size_t j = 0; j < columns_.size(); ++j) {
    const std::span<const double> from = columns_[j].values();
    for (std::size_t t = 0; t < rows.size(); ++t) cols[j][t] = from[rows[t]];
  }
  std::vector<double> label;
  if (label_.size() > 0) {
    label.resize(rows.size());
    const std::span<const double> from = label_.values();
    for (std::size_t t = 0; t < rows.size(); ++t) label[t] = from[rows[t]];
  }
  Dataset out(names_, std::move(cols), std::move(label), label_name_);
  out.encodings_ = encodings_;
  out.source_ = source_;
  out.dropped_rows_ = dropped_rows_;
  return out;
}

std::size_t Dataset::FeatureIndex(const std::string& name) const {
  for (std::size_t j = 0; j < names_.size(); ++j) {
    if (names_[j] == name) return j;
  }
  std::string available;
  constexpr std::size_t kMaxListed = 20;
  for (std::size_t j = 0; j < names_.size() && j < kMaxListed; ++j) {
    if (j > 0) available += ", ";
    available += names_[j];
  }
  if (names_.size() > kMaxListed) {
    available += ", ... (" + std::to_string(names_.size() - kMaxListed) + " more)";
  }
  throw InvalidArgument("no feature named '" + name + "'" +
                        (source_.empty() ? std::string() : " in " + source_) +
                        "; available features: " + (available.empty() ? "(none)" : available));
}

std::size_t Dataset::CountPositive() const noexcept {
  std::size_t count = 0;
  for (double y : label_.values()) count += (y == 1.0) ? 1 : 0;
  return count;
}

Dataset Dataset::Owned() const {
  Dataset out = *this;
  for (ColumnValues& c : out.columns_) c = c.Owned();
  out.label_ = label_.Owned();
  return out;
}

bool Dataset::borrows() const noexcept {
  bool any = label_.borrowed();
  for (const ColumnValues& c : columns_) any = any || c.borrowed();
  return any;
}

}}  // namespace perfshap
