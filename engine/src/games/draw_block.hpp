// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A block of explained rows' conditional draws, gathered for one prediction call with each
// distinct draw once. The empirical and ctree value functions draw background rows, stratified
// by weight, so a row's draws come in runs of the same background row (of 1,000 draws, often a
// few dozen distinct): a draw bitwise equal to the one before it of the same explained row is
// predicted once and its prediction shared. The predictions spread back are the same numbers a
// prediction of every draw would give, so the games' averages are unchanged bit for bit.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

class DrawBlock {
 public:
  /** Starts a block of `rows` explained rows, `draws` draws each, over `n_features` features. */
  void Start(std::size_t rows, std::size_t draws, std::size_t n_features);
  /** Adds the next row's draws (column-major: n_features columns of `draws` values). */
  void Add(std::span<const double> draws);
  /** The distinct draws so far, column-major (n_features columns of size() rows), for Predict. */
  std::span<const double> Distinct();
  /** The number of distinct draws. */
  std::size_t size() const noexcept { return distinct_; }
  /**
   * @brief Every draw's predictions from the distinct draws': out[o * m + i] =
   * predicted[o * size() + (draw i's distinct row)], o < outputs, m = rows x draws in row-major
   * order (row r's draw k is i = r * draws + k).
   */
  void Spread(std::span<const double> predicted, std::size_t outputs, std::span<double> out) const;

 private:
  std::size_t draws_ = 0, features_ = 0, capacity_ = 0, added_ = 0, distinct_ = 0;
  bool compact_ = false;
  std::vector<double> values_;  // column j's distinct draws at j * capacity_ (j * distinct_ once compact)
  std::vector<std::uint32_t> which_;  // draw i's distinct row
};

/**
 * @brief The draws a game's workers predicted: the rows of coalitions that draw and their
 * distinct draws, summed over the coalitions (the same at any thread count).
 */
class DrawCount {
 public:
  void Add(std::size_t rows, std::size_t distinct) const noexcept {
    rows_ += rows;
    distinct_ += distinct;
  }
  /** The distinct draws on average a row and coalition; 0 before any. */
  double mean() const noexcept {
    const std::uint64_t rows = rows_.load();
    return rows == 0 ? 0.0 : static_cast<double>(distinct_.load()) / static_cast<double>(rows);
  }

 private:
  mutable std::atomic<std::uint64_t> rows_{0}, distinct_{0};
};

}}}  // namespace perfshap::detail
