// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Shared property checks for every solver (efficiency, symmetry, null player, linearity),
// used by the tests of each solver as xgboost's CheckShapAdditivity is.

#include <functional>

#include <gtest/gtest.h>

#include "perfshap/blocks/solver.hpp"

namespace perfshap { inline namespace v0 { namespace testing {

/** A solver under test: game -> Shapley values. */
using SolveFn = std::function<ShapleyValues(const Game&)>;

/** @brief sum_i phi(i, k) == v(N) - v(empty) for every output k, within tol. */
::testing::AssertionResult CheckEfficiency(const Game& game, const ShapleyValues& values, double tol);
/** @brief Players i and j are interchangeable in game (checked over all coalitions: the values
 *  bitwise equal, or within game_tol where a game's arithmetic rounds differently), and their
 *  values are equal within tol. */
::testing::AssertionResult CheckSymmetry(const Game& game, const ShapleyValues& values, int i, int j,
                                         double tol, double game_tol = 0.0);
/** @brief Player i adds nothing to any coalition (checked, as above), and its value is 0 within tol. */
::testing::AssertionResult CheckNullPlayer(const Game& game, const ShapleyValues& values, int i, double tol,
                                           double game_tol = 0.0);
/** @brief solve(a g1 + b g2) == a solve(g1) + b solve(g2) within tol. */
::testing::AssertionResult CheckLinearity(const SolveFn& solve, const Game& g1, const Game& g2, double a,
                                          double b, double tol);
/** @brief values equal the n x k row-major reference within tol. */
::testing::AssertionResult CheckMatches(const ShapleyValues& values, const std::vector<double>& reference, double tol);

}}}  // namespace perfshap::testing
