// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/split_base.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::string Quote(const std::string& s) { return "'" + s + "'"; }

std::string FormatNumber(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

std::string FormatMagnitude(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", v);
  return buf;
}

bool ExtremeMagnitude(double largest) noexcept {
  constexpr int kExponent = 400;
  return largest >= std::ldexp(1.0, kExponent) || (largest > 0.0 && largest < std::ldexp(1.0, -kExponent));
}

void SplitBase::InitCommon(const std::string& learner, bool classifier, const Dataset& data,
                           std::span<const Player> players, std::span<const std::size_t> train_rows,
                           std::span<const std::size_t> test_rows, const std::string& split_name) {
  learner_name_ = learner;
  split_name_ = split_name;
  source_ = data.source();
  std::vector<std::uint8_t> used(data.n_features(), 0);
  player_begin_.assign(1, 0);
  for (const Player& player : players) {
    PERFSHAP_CHECK(!player.columns.empty(), learner + ": player '" + player.name + "' has no column");
    for (std::size_t c : player.columns) {
      PERFSHAP_CHECK(c < data.n_features(), learner + ": feature column index " + std::to_string(c) +
                                                " is out of range (the data has " +
                                                std::to_string(data.n_features()) + " features)");
      PERFSHAP_CHECK(used[c] == 0, learner + ": feature column '" + data.feature_names()[c] +
                                       "' belongs to two players; give each column to one player");
      used[c] = 1;
      columns_.push_back(c);
      column_names_.push_back(data.feature_names()[c]);
    }
    player_begin_.push_back(columns_.size());
    player_names_.push_back(player.name);
  }
  PERFSHAP_CHECK(train_rows.size() >= 2,
                 learner + ": need at least 2 training rows, got " + std::to_string(train_rows.size()));
  for (auto rows : {train_rows, test_rows}) {
    std::size_t largest = 0;  // one check per list: a branch-free max
    for (std::size_t r : rows) largest = std::max(largest, r);
    if (largest >= data.n_rows())
      for (std::size_t r : rows)
        PERFSHAP_CHECK(r < data.n_rows(), learner + ": row index " + std::to_string(r) +
                                              " is out of range (the data has " + std::to_string(data.n_rows()) +
                                              " rows)");
  }
  if (data.label().size() != data.n_rows())
    throw DataError(source_ + ": the data has no label column; " + learner + " needs one", {"label"});

  n_train_ = train_rows.size();
  const auto label = data.label();
  train_label_.resize(n_train_);
  test_label_.resize(test_rows.size());
  for (std::size_t i = 0; i < n_train_; ++i) train_label_[i] = label[train_rows[i]];
  for (std::size_t i = 0; i < test_rows.size(); ++i) test_label_[i] = label[test_rows[i]];
  if (!classifier) return;
  std::size_t ones = 0;
  std::size_t others = 0;
  for (double v : train_label_) {
    ones += v == 1.0 ? 1 : 0;
    others += (v != 0.0 && v != 1.0) ? 1 : 0;
  }
  if (others != 0)
    for (std::size_t i = 0; i < n_train_; ++i) {
      const double v = train_label_[i];
      if (v != 0.0 && v != 1.0)
        throw DataError(source_ + ": label '" + data.label_name() + "' of data row " + std::to_string(train_rows[i]) +
                            " is " + FormatNumber(v) + ", but " + learner +
                            " needs a 0/1 label; name the positive class",
                        {"positive"});
    }
  class_count_[1] = static_cast<double>(ones);
  class_count_[0] = static_cast<double>(n_train_ - ones);
  if (class_count_[0] == 0.0 || class_count_[1] == 0.0)
    throw DataError(source_ + ": " + split_name_ + " hold one class only (all " + std::to_string(n_train_) +
                    " training labels are " + (class_count_[1] == 0.0 ? "negative" : "positive") + "); " + learner +
                    " needs both classes: use a stratified or larger training split");
}

void SplitBase::ThrowMissing(const Dataset& data, std::size_t q, std::span<const std::size_t> train_rows,
                             std::span<const std::size_t> test_rows) const {
  const auto col = data.column(columns_[q]);
  for (auto rows : {train_rows, test_rows})
    for (std::size_t r : rows)
      if (!std::isfinite(col[r]))
        throw DataError(source_ + ": feature " + Quote(column_names_[q]) + " has a missing value in data row " +
                        std::to_string(r) + "; drop or impute the row before training " + learner_name_);
  throw DataError(source_ + ": feature " + Quote(column_names_[q]) + " has a missing value");
}

void SplitBase::ThrowConstant(std::size_t i, double value) const {
  const bool one = player_begin_[i + 1] - player_begin_[i] == 1;
  throw DataError(source_ + ": feature " + Quote(player_names_[i]) + " is constant on " + split_name_ +
                  (one ? " (all " + std::to_string(n_train_) + " values are " + FormatNumber(value) + ")"
                       : " (every one of its " + std::to_string(player_begin_[i + 1] - player_begin_[i]) +
                             " columns)") +
                  "; drop the column");
}

std::size_t SplitBase::PlayerOf(std::size_t q) const noexcept {
  return static_cast<std::size_t>(std::upper_bound(player_begin_.begin(), player_begin_.end(), q) -
                                  player_begin_.begin()) -
         1;
}

void FitterBase::BindBase(const SplitBase& split) {
  base_ = &split;
  const std::size_t p = split.n_columns();
  players_.clear();
  players_.reserve(static_cast<std::size_t>(split.n_players()));
  members_.clear();
  members_.reserve(p);
  in_.assign(p, 0);
  in_next_.assign(p, 0);
  added_ = -1;
  fitted_ = false;
}

void FitterBase::SetCoalition(std::span<const std::uint32_t> players, std::span<const std::uint8_t> skip) {
  const std::size_t n = static_cast<std::size_t>(base_->n_players());
  players_.assign(players.begin(), players.end());
  members_.clear();
  std::fill(in_next_.begin(), in_next_.end(), 0);
  for (std::size_t k = 0; k < players.size(); ++k) {
    const std::size_t i = players[k];
    PERFSHAP_DCHECK(i < n && (k == 0 || players[k - 1] < players[k]));
    for (std::size_t q = base_->player_begin(i); q < base_->player_begin(i + 1); ++q) {
      if (!skip.empty() && skip[q] != 0) continue;
      members_.push_back(q);
      in_next_[q] = 1;
    }
  }
  // One position added to the last successfully fitted coalition, nothing removed: a warm
  // start may begin with a one-dimensional step in it.
  added_ = -1;
  if (fitted_) {
    std::size_t n_added = 0;
    bool removed = false;
    std::size_t last_added = 0;
    for (std::size_t q = 0; q < in_.size(); ++q) {
      if (in_next_[q] != 0 && in_[q] == 0) {
        ++n_added;
        last_added = q;
      }
      removed = removed || (in_[q] != 0 && in_next_[q] == 0);
    }
    if (!removed && n_added == 1) added_ = static_cast<int>(last_added);
  }
  std::swap(in_, in_next_);
  fitted_ = false;
}

void FitterBase::ThrowForCoalition(const std::string& what, const std::string& advice,
                                   std::vector<std::string> options) const {
  std::string features;
  for (std::size_t k = 0; k < players_.size(); ++k)
    features += (k ? ", " : "") + Quote(base_->player_names()[players_[k]]);
  throw DataError(base_->source() + ": " + base_->learner_name() + " on " + base_->split_name() + " with features {" +
                      features + "}: " + what + "; " + advice,
                  std::move(options));
}

}}}  // namespace perfshap::detail
