// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The solvers' last check before a game's values leave them: every Shapley value, v(empty)
// and v(all) finite. The games name a non-finite value where they first see one (a model's
// score, a term); this catches what no game checks (finite values whose weighted sums overflow,
// a host's own game), so that no NaN or infinity reaches a result.

#include "perfshap/blocks/solver.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/**
 * @brief Checks that values.phi, values.base and values.full are finite (the standard errors
 * may be infinite: "unknown" with fewer than two batches).
 * @throws DataError naming the first non-finite value's player and output, and what to do.
 */
void CheckFiniteValues(const ShapleyValues& values);

}}}  // namespace perfshap::detail
