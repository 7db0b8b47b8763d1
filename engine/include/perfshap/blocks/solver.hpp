// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/blocks/game.hpp"

namespace perfshap { inline namespace v0 {

/** @brief Why a solver stopped. */
enum class StopReason : std::uint8_t {
  kExact,      ///< every coalition evaluated: the values are exact
  kTolerance,  ///< the convergence rule held (max se / (max phi - min phi) < tolerance)
  kBudget,     ///< the coalition budget was spent first
  kTime,       ///< the time limit came first
};

/** @brief "exact", "tolerance", "budget" or "time" (result.json's "stopped_by"). */
PERFSHAP_EXPORT const char* StopReasonName(StopReason reason) noexcept;

/**
 * @brief Shapley values of a vector game, with the metadata to read them.
 *
 * phi is n_players x n_outputs, row-major: phi[i * n_outputs + k] is player i's value for
 * output k. Efficiency: sum_i phi(i, k) = full(k) - base(k).
 */
struct PERFSHAP_EXPORT ShapleyValues {
  std::vector<std::string> players;
  int n_players = 0;
  std::size_t n_outputs = 0;
  std::vector<double> phi;
  /** Standard errors of phi, same shape; empty for an exact solver. */
  std::vector<double> phi_se;
  /** v(empty), k values. */
  std::vector<double> base;
  /** v(all players), k values. */
  std::vector<double> full;
  /** Number of coalitions evaluated. */
  std::uint64_t n_evaluations = 0;
  /** False when a sampled solver stopped on its budget or time limit before its convergence
   *  rule held; always true for an exact solver. */
  bool converged = true;
  /** The convergence ratio max_j se_j / (max_j phi_j - min_j phi_j) of output 0 when the solver
   *  stopped (0 for an exact solver). */
  double convergence_ratio = 0.0;
  /** The solver that computed them ("exact", "permutation", "kernel"; "auto" names the one it
   *  chose). */
  std::string solver;
  /** Why the solver stopped (kExact for an exact solver). */
  StopReason stopped_by = StopReason::kExact;
  /** With SolverOptions::keep_samples: every sampled coalition (CoalitionWords(n) words each,
   *  row-major) and its values (k each, row-major), in the order drawn. */
  std::vector<std::uint64_t> sample_coalitions;
  std::vector<double> sample_values;
  /** When requested: v(S) for every coalition, 2^n x k row-major, row = bit mask of S. */
  std::vector<double> coalition_values;
  /** Wall time of the solve in seconds. */
  double elapsed_seconds = 0.0;

  double operator()(int i, std::size_t k) const { return phi[static_cast<std::size_t>(i) * n_outputs + k]; }
  /** @brief Player i's values for all k outputs. */
  std::span<const double> player(int i) const {
    return {phi.data() + static_cast<std::size_t>(i) * n_outputs, n_outputs};
  }
};

/** @brief Coalition evaluations per game a sampled solver spends at most when no budget is
 *  given. */
/** @brief "auto" takes the kernel solver (past the exact budget) up to this many players, the
 *  permutation solver beyond. */
inline constexpr int kAutoKernelPlayers = 128;
inline constexpr std::uint64_t kDefaultSampleBudget = 20000;

/** @brief The sampled solvers' convergence rule and sampling, as methods expose them
 *  (RobustnessOptions::sampling, XperOptions::sampling). */
struct SamplingOptions {
  /** Coalition evaluations per game at most (0 = kDefaultSampleBudget); "auto" solves exactly
   *  while 2^n fits it. */
  std::uint64_t budget = 0;
  /** Stop once max_j se_j / (max_j phi_j - min_j phi_j) < tolerance, on the game's output 0
   *  (the AUC of a retraining game, the global value of XPER); in (0, 1). */
  double tolerance = 0.01;
  /** Stop sampling this many seconds after the solve started (0 = no limit), for all the
   *  games of a batch together: a game that starts late gets one round. The only rule under
   *  which the result depends on the machine. */
  double time_limit_seconds = 0.0;
  /** Seed of the random streams: game g of a batch draws from stream (seed, g). */
  std::uint64_t seed = 0;
  /** Keep every sampled coalition and its values in the result (memory O(samples x players)). */
  bool keep_samples = false;
  /** Kernel solver: estimate output 0 with a control variate, boosted trees fitted to the
   *  samples whose Shapley values are exact (cross-fitted on two halves of the batches, so
   *  the estimate stays unbiased; Witter et al. 2025), for games of up to 128 players. Keeps
   *  the samples' coalitions and their output-0 values while it runs: O(budget x (n / 64 + 3))
   *  words per game in flight. */
  bool control_variate = true;
};

/** @brief What every solver takes: the sampling options, and the exact solver's. */
struct SolverOptions : SamplingOptions {
  /** Exact enumeration: refuse games with more players than this (2^n coalitions); 1..63. */
  int max_players = 30;
  /** Return v(S) for every coalition in ShapleyValues::coalition_values (exact only). */
  bool store_values = false;
  /** Game g of a batch draws from random stream (seed, first_game + g): a batch that is a
   *  part of a larger one (games [first_game, ...) of it, as a process of an MPI run solves
   *  its share) draws what the whole batch would. */
  std::uint64_t first_game = 0;
  /** Threads, progress (units: coalitions), cancellation. Results do not depend on threads. */
  ExecutionOptions execution;
};

/**
 * @brief The most players any method solves exactly: 2^30 (about 1.07e9) coalitions per game.
 * Each method's own exact limit (RobustnessOptions::max_features, XperOptions::max_features,
 * ShapOptions::solver_options.max_players) is clamped to it; ExactSolver itself, used directly,
 * takes up to 63.
 */
inline constexpr int kExactPlayerLimit = 30;

/**
 * @brief How a method's games were solved: the same type in every method's result
 * (RobustnessResult::solve, XperResult::solve, ShapExplanation::solve).
 */
struct SolveReport {
  /** The solver that ran ("auto" resolved: "exact", "kernel" or "permutation"; a host's solver by its name;
   *  "treeshap" for TreeSHAP, which needs no solver). */
  std::string solver = "exact";
  /** True when the values carry a sampling error (a solver that is not exact on the games). */
  bool sampled = false;
  /** Coalitions evaluated, over all the games. */
  std::uint64_t n_evaluations = 0;
  /** False when a sampled solver stopped on its budget or time limit before its convergence
   *  rule held (always true when exact). */
  bool converged = true;
  StopReason stopped_by = StopReason::kExact;
  /** max_j se_j / (max_j phi_j - min_j phi_j) of what the method reports (0 when exact). */
  double convergence_ratio = 0.0;
  /** The sampling options the method was given (budget 0 = the default). */
  SamplingOptions sampling;
};

/**
 * @brief A Shapley solver: which coalitions of a game are evaluated, with which weights.
 *
 * Solvers are chosen by name (MakeSolver); a method receives one and never constructs a
 * particular solver itself. A solver owns its blocking of the coalitions (one policy, fed by
 * each game's BlockHint), so a game's values never depend on the thread count.
 */
class PERFSHAP_EXPORT Solver {
 public:
  virtual ~Solver();
  /** @brief The registered name ("exact"). */
  virtual const std::string& name() const noexcept = 0;
  /** @brief True when this solver's values of a game of n players are exact: every coalition
   *  evaluated, no standard errors (ExactSolver; "auto" where it would enumerate). A method
   *  refuses keep_samples with such a solver. Default: false (a sampled solver). */
  virtual bool Exact(int n_players) const noexcept;
  /** @brief Receives one solved game: its index in the batch and its values. */
  using GameSink = std::function<void(std::size_t game, ShapleyValues&& values)>;
  /**
   * @brief Solves several games with the same players and outputs in one parallel pass (e.g.
   * one game per cross-validation repetition), streaming each game's values to sink(g, values)
   * once solved, in game order (g = 0, 1, ...), one call at a time, from whichever thread
   * finished it; values[g] is bitwise what Solve(*games[g]) returns. values.elapsed_seconds is
   * the time from the start of the batch to the hand-over. A sink that throws stops the batch
   * like a failing game.
   * @throws InvalidArgument when the games differ in n_players() or n_outputs(), or the solver
   *   cannot take them (the message says why and what to do).
   * @throws Cancelled when the cancellation flag is raised.
   */
  virtual void SolveBatch(std::span<const Game* const> games, const GameSink& sink) const = 0;
  /** @brief SolveBatch into a vector (every game's elapsed time is the batch's). */
  std::vector<ShapleyValues> SolveBatch(std::span<const Game* const> games) const;
  /** @brief One game. */
  ShapleyValues Solve(const Game& game) const;
};

/** @brief Options of ExactSolver. */
struct ExactOptions : SolverOptions {
  /** Visit coalitions in Gray-code order inside each block (one player changes per step). */
  bool gray_code = true;
  /** Coalitions per block; 0 = the block policy (from n, k and the game's BlockHint only,
   *  never from the thread count). */
  std::uint64_t block_size = 0;
};

/**
 * @brief Exact Shapley values by streaming all 2^n coalitions ("exact").
 *
 * phi_i = sum_S v(S) c_i(S) with c_i(S) = w(|S|-1) if i in S and -w(|S|) otherwise,
 * w(s) = s!(n-s-1)!/n! = 1/(n C(n-1, s)), computed from an exact 128-bit binomial.
 * v(S) is never stored unless asked. Coalitions are cut into fixed blocks (fixed by n, k and
 * the game's BlockHint, or block_size); each block accumulates its own partial sums, and
 * partials are added in block order, so the result is bitwise identical for any thread count.
 * The games of a batch run as one task graph (the schedule's game pipeline): a game's first
 * block may prepare it while earlier games' blocks run, and games are handed to the sink in
 * order as they complete.
 */
class PERFSHAP_EXPORT ExactSolver final : public Solver {
 public:
  explicit ExactSolver(ExactOptions options = {});
  const std::string& name() const noexcept override;
  bool Exact(int n_players) const noexcept override;
  using Solver::SolveBatch;
  /** @throws InvalidArgument when n_players() > options.max_players (the message says how many
   *  coalitions that would be and what to do) or n_players() < 1; see Solver::SolveBatch. */
  void SolveBatch(std::span<const Game* const> games, const GameSink& sink) const override;
  const ExactOptions& options() const noexcept { return options_; }

 private:
  ExactOptions options_;
};

/**
 * @brief The solver called `name`: "exact" (all 2^n coalitions), "permutation" (antithetic
 * permutation sampling), "kernel" (paired kernel sampling with exact small and large layers,
 * constrained weighted least squares), "auto" (exact while 2^n evaluations fit the budget, else
 * kernel up to kAutoKernelPlayers players, permutation beyond).
 * @throws InvalidArgument for an unknown name (listing the known ones) or bad options.
 */
PERFSHAP_EXPORT std::unique_ptr<Solver> MakeSolver(const std::string& name, const SolverOptions& options = {});

/**
 * @brief The solver a name stands for on a game of n players: "auto" is "exact" while the 2^n
 * coalitions fit the budget (options.budget, or kDefaultSampleBudget) and n <= max_players,
 * else "kernel" up to kAutoKernelPlayers players and "permutation" beyond; any other name is
 * itself. Methods use it to know beforehand what "auto" runs.
 */
PERFSHAP_EXPORT std::string ResolveSolverName(const std::string& name, int n_players, const SolverOptions& options);

/**
 * @brief A method's solver: a name (MakeSolver's: "exact", "permutation", "kernel", "auto"),
 * made by the method with its own sampling options and exact limit, or a solver object used as
 * it is (a host's own Solver subclass, or one MakeSolver made with options of the caller's).
 * A name converts implicitly, so `options.solver = "kernel"` reads as before.
 */
class PERFSHAP_EXPORT SolverSpec {
 public:
  SolverSpec(std::string name = "auto");  // NOLINT(google-explicit-constructor): a name is a spec
  SolverSpec(const char* name);           // NOLINT(google-explicit-constructor)
  /** @throws InvalidArgument for a null solver. */
  SolverSpec(std::shared_ptr<const Solver> solver);  // NOLINT(google-explicit-constructor)
  /** @brief A host's own solver type: `options.solver = std::make_shared<MySolver>()`. */
  template <class S>
    requires std::is_base_of_v<Solver, S>
  SolverSpec(std::shared_ptr<S> solver)  // NOLINT(google-explicit-constructor)
      : SolverSpec(std::shared_ptr<const Solver>(std::move(solver))) {}
  /** @brief The name given, or the object's name(). */
  const std::string& name() const noexcept;
  /** @brief The solver object given; null for a name. */
  const std::shared_ptr<const Solver>& object() const noexcept { return object_; }

 private:
  std::string name_;
  std::shared_ptr<const Solver> object_;
};

/** @brief The names MakeSolver knows. */
PERFSHAP_EXPORT std::vector<std::string> SolverNames();

/**
 * @brief The exact solver's block policy: coalitions per block for a game of n players and k
 * outputs. requested > 0 is taken as it is (at most 2^n); otherwise the blocks are as many as
 * hint.max_blocks, the partial sums' memory ((2n + 1) k doubles per block) and 2^n allow, a power
 * of two, and at least hint.min_coalitions coalitions each (or all 2^n).
 */
PERFSHAP_EXPORT std::uint64_t ExactBlockSize(int n, std::size_t k, const BlockHint& hint, std::uint64_t requested = 0);

/** @brief The Shapley weight w(s) = s!(n-s-1)!/n! for a coalition of size s not containing
 *  the player, 0 <= s < n <= 63, correctly rounded from the exact rational. */
PERFSHAP_EXPORT double ShapleyWeight(int n, int s);

}}  // namespace perfshap
