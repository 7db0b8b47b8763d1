// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <memory>
#include <vector>

#include "perfshap/blocks/game.hpp"

namespace perfshap { inline namespace v0 { namespace testing {

/** @brief A game given by a function of the coalition (vector-valued). */
class FunctionGame final : public Game {
 public:
  using Fn = std::function<void(Coalition, std::span<double>)>;
  FunctionGame(int n, std::size_t k, Fn fn) : n_(n), k_(k), fn_(std::move(fn)) {}
  int n_players() const override { return n_; }
  std::size_t n_outputs() const override { return k_; }
  std::unique_ptr<GameWorker> MakeWorker() const override;

 private:
  int n_;
  std::size_t k_;
  Fn fn_;
};

/** @brief Unanimity game u_T: v(S) = 1 if T is a subset of S. phi_i = 1/|T| for i in T. */
FunctionGame UnanimityGame(int n, Coalition t);
/** @brief Weighted majority game: v(S) = 1 if sum_{i in S} w_i >= quota. */
FunctionGame WeightedMajorityGame(std::vector<double> weights, double quota);
/** @brief Additive game: v(S) = sum_{i in S} a_i (k = 1). phi_i = a_i. */
FunctionGame AdditiveGame(std::vector<double> a);
/** @brief A rich vector game with k outputs mixing products, maxima and interactions. */
FunctionGame MixedVectorGame(int n, std::size_t k, unsigned salt);
/** @brief a * g1 + b * g2 (same n and k). */
FunctionGame LinearCombination(const Game& g1, double a, const Game& g2, double b);

/**
 * @brief A game of any number of players given by its Harsanyi dividends (EvaluateWide too):
 * v(S) = sum over the terms T that S holds of d_T, whose Shapley values are known in closed
 * form: phi_i = sum over the terms holding i of d_T / |T|. Terms of one or two players alone
 * would make antithetic permutation pairs exact; Random() mixes sizes 1 to 4.
 */
class DividendGame final : public Game {
 public:
  struct Term {
    std::vector<int> players;
    double d;
  };
  explicit DividendGame(int n, std::vector<Term> terms) : n_(n), terms_(std::move(terms)) {}
  /** @brief n players, 3n terms of 1 to 4 players with normal dividends, drawn from (seed). */
  static DividendGame Random(int n, unsigned seed);
  int n_players() const override { return n_; }
  std::size_t n_outputs() const override { return 1; }
  std::unique_ptr<GameWorker> MakeWorker() const override;
  /** @brief The closed-form Shapley values. */
  std::vector<double> Shapley() const;
  /** @brief v of the coalition whose members have in[i] != 0. */
  double Value(std::span<const std::uint8_t> in) const;

 private:
  int n_;
  std::vector<Term> terms_;
};

/** @brief Shapley values by enumerating all n! permutations (n <= 9): n x k row-major. */
std::vector<double> BruteForcePermutationShapley(const Game& game);

}}}  // namespace perfshap::testing
