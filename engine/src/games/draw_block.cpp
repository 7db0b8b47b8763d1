// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "games/draw_block.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "common/allocation.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

void DrawBlock::Start(std::size_t rows, std::size_t draws, std::size_t n_features) {
  draws_ = draws;
  features_ = n_features;
  capacity_ = rows * draws;
  PERFSHAP_CHECK(capacity_ <= std::numeric_limits<std::uint32_t>::max(),
                 "a block of draws too large to index");
  added_ = distinct_ = 0;
  compact_ = false;
  if (values_.size() < features_ * capacity_)
    ResizeOrThrow(values_, features_ * capacity_, "the conditional draws of a block of explained rows");
  if (which_.size() < capacity_) ResizeOrThrow(which_, capacity_, "the index of a block's distinct draws");
}

void DrawBlock::Add(std::span<const double> draws) {
  PERFSHAP_CHECK(!compact_ && added_ + draws_ <= capacity_ && draws.size() == features_ * draws_,
                 "DrawBlock: a row's draws beyond the block");
  for (std::size_t k = 0; k < draws_; ++k) {
    bool repeat = k > 0;
    for (std::size_t j = 0; repeat && j < features_; ++j)
      repeat = std::bit_cast<std::uint64_t>(draws[j * draws_ + k]) ==
               std::bit_cast<std::uint64_t>(draws[j * draws_ + k - 1]);
    if (repeat) {
      which_[added_ + k] = which_[added_ + k - 1];
      continue;
    }
    for (std::size_t j = 0; j < features_; ++j) values_[j * capacity_ + distinct_] = draws[j * draws_ + k];
    which_[added_ + k] = static_cast<std::uint32_t>(distinct_++);
  }
  added_ += draws_;
}

std::span<const double> DrawBlock::Distinct() {
  if (!compact_) {
    // Column j moves from j * capacity_ to j * distinct_, never past a column still to move.
    for (std::size_t j = 1; j < features_; ++j)
      std::copy_n(values_.begin() + static_cast<std::ptrdiff_t>(j * capacity_), distinct_,
                  values_.begin() + static_cast<std::ptrdiff_t>(j * distinct_));
    compact_ = true;
  }
  return {values_.data(), features_ * distinct_};
}

void DrawBlock::Spread(std::span<const double> predicted, std::size_t outputs, std::span<double> out) const {
  PERFSHAP_CHECK(predicted.size() >= outputs * distinct_ && out.size() >= outputs * added_,
                 "DrawBlock: the predictions do not fit the block");
  for (std::size_t o = 0; o < outputs; ++o)
    for (std::size_t i = 0; i < added_; ++i) out[o * added_ + i] = predicted[o * distinct_ + which_[i]];
}

}}}  // namespace perfshap::detail
