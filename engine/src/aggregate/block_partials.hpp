// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief Partial sums owned by fixed blocks, combined in block order.
 *
 * Block b writes only row b (by the one task that runs it), so there is no lock on the
 * result path; ReduceInOrder() adds rows 0, 1, ..., n_blocks-1 left to right, so the bits of
 * the total do not depend on which thread ran which block.
 */
class BlockPartials {
 public:
  BlockPartials(std::size_t n_blocks, std::size_t width)
      : width_(width), n_blocks_(n_blocks), data_(n_blocks * width, 0.0) {}

  std::size_t n_blocks() const noexcept { return n_blocks_; }
  std::size_t width() const noexcept { return width_; }
  std::span<double> Row(std::size_t block) noexcept { return {data_.data() + block * width_, width_}; }
  std::span<const double> Row(std::size_t block) const noexcept {
    return {data_.data() + block * width_, width_};
  }

  /** @brief out[j] = sum over blocks in order of Row(b)[j]. */
  std::vector<double> ReduceInOrder() const {
    std::vector<double> out(width_);
    ReduceInOrder(out);
    return out;
  }
  /** @brief The same sums into out (width() values), without allocating. */
  void ReduceInOrder(std::span<double> out) const {
    std::fill(out.begin(), out.end(), 0.0);
    for (std::size_t b = 0; b < n_blocks_; ++b) {
      const double* row = data_.data() + b * width_;
      for (std::size_t j = 0; j < width_; ++j) out[j] += row[j];
    }
  }
  /** @brief Zeroes every row, for reuse by another game of the same shape. */
  void Clear() noexcept { std::fill(data_.begin(), data_.end(), 0.0); }

 private:
  std::size_t width_;
  std::size_t n_blocks_;
  std::vector<double> data_;
};

}}}  // namespace perfshap::detail
