// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace perfshap {

/** @brief A player of a game: a named set of columns of the design (the encoded Dataset a
 *  learner sees); a feature is a player of one column, a one-hot text column or a group of
 *  columns is one player of several. */
struct Player {
  std::string name;
  /** Column indices of the design, increasing. */
  std::vector<std::size_t> columns;
};

}  // namespace perfshap
