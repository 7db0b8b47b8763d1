// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What every learner's prepared split and fitter share: the checks of the rows, the players and
// the label, the players' columns laid out in player order, the coalition's members, and the
// one-line messages that name the split and the coalition.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/players.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief "'name'". */
std::string Quote(const std::string& s);
/** @brief A double with 17 significant digits. */
std::string FormatNumber(double v);
/** @brief A magnitude for a message, with 2 significant digits ("3.6e+154"). */
std::string FormatMagnitude(double v);
/**
 * @brief Whether values of this largest magnitude are beyond the range in which a learner can
 * square them and add n squares in a double: |x| >= 2^400 (about 2.6e120), or 0 < |x| < 2^-400
 * (about 3.9e-121). Ordinary data lies far inside; a learner scales such a column exactly (by a
 * power of two) or refuses it, naming the feature.
 */
bool ExtremeMagnitude(double largest) noexcept;

/**
 * @brief The part of a PreparedSplit that is the same for every learner.
 *
 * The players' columns are laid out in player order: position q in [0, n_columns()) is data
 * column column(q), and player i owns positions [player_begin(i), player_begin(i + 1)). A
 * coalition trains on the positions of its players, increasing.
 */
class SplitBase : public PreparedSplit {
 public:
  std::size_t n_columns() const noexcept { return columns_.size(); }
  std::size_t column(std::size_t q) const noexcept { return columns_[q]; }
  std::size_t player_begin(std::size_t i) const noexcept { return player_begin_[i]; }
  /** @brief Name of the column at position q (the player's name for a one-column player). */
  const std::string& column_name(std::size_t q) const noexcept { return column_names_[q]; }
  std::span<const double> train_labels() const noexcept { return train_label_; }
  const std::string& source() const noexcept { return source_; }

 protected:
  /**
   * @brief Checks and records what every learner needs (see Learner::Prepare for the errors).
   * @param classifier whether the label must be 0/1 with both classes among the training rows.
   */
  void InitCommon(const std::string& learner, bool classifier, const Dataset& data, std::span<const Player> players,
                  std::span<const std::size_t> train_rows, std::span<const std::size_t> test_rows,
                  const std::string& split_name);
  /** @brief DataError for a missing value of position q: the first such row, training rows first. */
  [[noreturn]] void ThrowMissing(const Dataset& data, std::size_t q, std::span<const std::size_t> train_rows,
                                 std::span<const std::size_t> test_rows) const;
  /** @brief DataError for player i, all of whose columns are constant on the training rows
   *  (value = the first column's value). */
  [[noreturn]] void ThrowConstant(std::size_t i, double value) const;
  /** @brief The player owning position q. */
  std::size_t PlayerOf(std::size_t q) const noexcept;

  std::vector<std::size_t> columns_;
  std::vector<std::size_t> player_begin_;
  std::vector<std::string> column_names_;
  std::vector<double> train_label_;
  double class_count_[2] = {0.0, 0.0};
};

/**
 * @brief The part of a CoalitionFitter that is the same for every learner: the coalition's
 * positions (members), which of them a warm start may keep, and the messages.
 */
class FitterBase : public CoalitionFitter {
 protected:
  /** @brief Rebind for a fitter of one split type: `bind(split)` when `split` is a `Split`
   *  (true), else false. */
  template <typename Split, typename BindFn>
  static bool RebindIf(const PreparedSplit& split, BindFn&& bind) {
    const auto* s = dynamic_cast<const Split*>(&split);
    if (s == nullptr) return false;
    bind(*s);
    return true;
  }

  /** @brief Sizes the bookkeeping for `split` and forgets the previous coalition. */
  void BindBase(const SplitBase& split);
  /**
   * @brief Sets members_ to the positions of `players` (increasing), skipping positions with
   * skip[q] != 0 when skip is not empty, and added_ to the one position added to the last
   * fitted coalition when that is all that changed (-1 otherwise). Marks the fit as started.
   */
  void SetCoalition(std::span<const std::uint32_t> players, std::span<const std::uint8_t> skip = {});
  /** @brief DataError naming the learner, the split and the coalition's players. */
  [[noreturn]] void ThrowForCoalition(const std::string& what, const std::string& advice,
                                      std::vector<std::string> options = {}) const;

  const SplitBase* base_ = nullptr;
  std::vector<std::uint32_t> players_;   // the coalition's players
  std::vector<std::size_t> members_;     // its positions, increasing
  std::vector<std::uint8_t> in_;         // per position: in the last fitted coalition
  std::vector<std::uint8_t> in_next_;    // scratch
  int added_ = -1;
  bool fitted_ = false;
};

}}}  // namespace perfshap::detail
