// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <span>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/blocks/players.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief The players of a method: `players` when given (checked: columns in range, none empty,
 * no column in two players, unique names), else one per column of `features` (all columns when
 * empty; each at most once).
 * @throws InvalidArgument naming the bad column or player.
 */
std::vector<Player> ResolvePlayers(const Dataset& data, std::span<const std::size_t> features,
                                   std::span<const Player> players);

}}}  // namespace perfshap::detail
