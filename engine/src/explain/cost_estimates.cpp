// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Each method's cost estimate from its inputs' shapes (perfshap/cost_estimates.hpp). The memory
// parts follow the buffers the methods size from their inputs (named as the messages name
// them); bench/run_cost_bench.sh prints each estimate beside the measured peak memory.
#include "perfshap/cost_estimates.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "explain/robustness_splits.hpp"
#include "explain/solver_choice.hpp"
#include "perfshap/blocks/solver.hpp"

namespace perfshap { inline namespace v0 {

namespace {

constexpr double kDouble = sizeof(double);
constexpr double kIndex = sizeof(std::size_t);

double D(std::size_t v) { return static_cast<double>(v); }

std::string Count(std::size_t v) { return FormatCount(D(v)); }

// The solver's memory besides the game's: the exact solver's per-block partial sums
// (ExactBlockSize's policy), the kernel solver's normal matrices and right-hand sides.
double SolverBytes(const detail::SolverChoice& choice, int n, std::size_t k, const BlockHint& hint) {
  const double nd = static_cast<double>(n);
  const std::string& solver = choice.name;
  if (choice.exact) {
    if (n < 1 || n > kMaxExactPlayers) return 0.0;
    const double total = std::ldexp(1.0, n);
    const double block = static_cast<double>(ExactBlockSize(n, k, hint));
    return std::ceil(total / block) * (2.0 * nd + 1.0) * D(k) * kDouble;
  }
  if (solver == "kernel") {
    // At least one batch's normal matrix (n x n) and right-hand sides (n x k).
    const double batches = std::clamp(std::floor(8.0e6 / std::max(1.0, nd * nd)), 1.0, 64.0);
    return batches * (nd * nd + nd * D(k)) * kDouble;
  }
  return 2.0 * nd * D(k) * kDouble;  // permutation: running sums of phi and their squares
}

// The exact solver's default block hint (games with other hints are close enough for an
// estimate: the hint only moves how many partial sums are kept, within the 256 MB default).
BlockHint DefaultHint() { return BlockHint{}; }

}  // namespace

double SolverCoalitions(const SolverSpec& solver, int n_players, const SolverOptions& options) {
  const bool exact = solver.object() ? solver.object()->Exact(n_players)
                                     : ResolveSolverName(solver.name(), n_players, options) == "exact";
  if (exact) return n_players > 1023 ? HUGE_VAL : std::ldexp(1.0, n_players);
  return static_cast<double>(options.budget > 0 ? options.budget : kDefaultSampleBudget);
}

CostEstimate EstimateRobustnessCost(const RobustnessShape& shape, const RobustnessOptions& options) {
  SolverOptions so;
  const detail::SolverChoice solver =
      detail::RobustnessSolver(shape.source.empty() ? std::string("the data") : shape.source, shape.players, options, so);
  const int p = static_cast<int>(std::min<std::size_t>(shape.players, 1u << 20));
  const double coalitions = SolverCoalitions(options.solver, p, so);
  CostEstimate e;
  e.method = "robustness";
  e.work = Count(shape.splits) + (shape.splits == 1 ? " split x " : " splits x ") + FormatCount(coalitions) +
           " coalition trainings of " + Count(shape.rows) + " rows";
  const double per_training = options.learner ? options.learner->EstimateFit(shape.rows, shape.columns).operations
                                              : D(shape.rows) * D(shape.columns);
  // A coalition training reads its players' columns only: half of them on average.
  e.model_evaluations = D(shape.splits) * coalitions * std::max(D(shape.rows), 0.5 * per_training);
  e.units = D(shape.splits) * coalitions;
  // The splits and their games held at once: all of a plan in memory, a window of a drawn one.
  const double held = D(detail::SplitWindow(shape.drawn, shape.splits, shape.rows));
  e.AddMemory("split plan", held * (D(shape.rows) * kIndex + 64.0));
  e.AddMemory("split games", held * 768.0);
  const double k = 2.0 * options.grid_points + 2.0 + D(options.extra_metrics.size());
  e.AddMemory("per-split values", D(shape.splits) * D(shape.players) * 3.0 * kDouble + D(shape.players) * k * 6.0 * kDouble);
  if (solver.exact && p <= 22 && D(shape.splits) * std::ldexp(1.0, p) <= std::ldexp(1.0, 22))
    e.AddMemory("coalition AUCs", D(shape.splits) * std::ldexp(1.0, p) * kDouble);
  const double in_flight = std::min(D(shape.splits), 2.0 * ResolvedThreads(options.execution) + 2.0);
  const FitCost fit = options.learner ? options.learner->EstimateFit(shape.rows, shape.columns) : FitCost{};
  e.AddMemory("prepared splits", in_flight * (D(shape.rows) * (D(shape.columns) + 2.0) * kDouble + fit.bytes));
  e.AddMemory("solver state", in_flight * SolverBytes(solver, p, static_cast<std::size_t>(k), DefaultHint()));
  if (options.sampling.keep_samples)
    e.AddMemory("kept samples", D(shape.splits) * coalitions * (std::ceil(D(shape.players) / 64.0) + 2.0) * kDouble);
  return e;
}

CostEstimate EstimateXperCost(const XperShape& shape, const XperOptions& options) {
  SolverOptions so;
  const detail::SolverChoice solver = detail::XperSolver(shape.players, options, so);
  const int p = static_cast<int>(std::min<std::size_t>(shape.players, 1u << 20));
  const double coalitions = SolverCoalitions(options.solver, p, so);
  const double n = D(shape.rows);
  const double threads = ResolvedThreads(options.execution);
  CostEstimate e;
  e.method = "xper";
  e.work = FormatCount(coalitions) + " coalitions x " + Count(shape.rows) + "^2 hybrid points";
  e.model_evaluations = coalitions * n * n;
  e.units = coalitions;
  const bool full = options.comparator == XperComparator::kFull;
  const bool rank = options.metric == "auc";
  if (options.conditional != ShapConditional::kMarginal) {
    // ConditionalXperGame: M draws per individual and coalition, all predicted and kept per worker
    // (the AUC's comparison sample is every individual's), G groups of n + 1 outputs solved.
    const double m = D(options.conditional_samples);
    e.work = FormatCount(coalitions) + " coalitions x " + Count(shape.rows) + " rows x " +
             Count(options.conditional_samples) + " conditional draws";
    e.model_evaluations = coalitions * n * m;
    e.AddMemory("conditional draws", threads * n * m * 3.0 * kDouble);
    e.AddMemory("individual values", n * D(shape.players) * 2.0 * kDouble);
    e.AddMemory("solver state", SolverBytes(solver, p, (shape.rows + 1) * kConditionalGroups, DefaultHint()));
    return e;
  }
  if (!shape.additive) {
    // Each worker predicts one individual's n hybrid rows at a time; the full comparator of the
    // AUC keeps all n^2 hybrid predictions of a coalition (XperGame's comparison grid).
    e.AddMemory("hybrid rows", threads * n * (D(shape.columns) + 2.0) * kDouble);
    if (full && rank) e.AddMemory("comparison grid", threads * n * n * kDouble);
  }
  e.AddMemory("individual values", n * D(shape.players) * (solver.exact ? 1.0 : 2.0) * kDouble);
  e.AddMemory("solver state", SolverBytes(solver, p, shape.rows + 1, DefaultHint()));
  if (options.store_coalition_values && p <= 40) e.AddMemory("coalition values", std::ldexp(1.0, p) * (n + 1.0) * kDouble);
  return e;
}

CostEstimate EstimateShapCost(const ShapShape& shape, const ShapOptions& options) {
  CostEstimate e;
  e.method = "shap";
  const double R = D(shape.rows), B = D(shape.background), F = D(shape.features), K = D(shape.outputs);
  const double P = D(shape.players);
  const double threads = ResolvedThreads(options.solver_options.execution);
  e.AddMemory("SHAP values", R * K * (P + 2.0) * kDouble);
  if (shape.approach == "tree") {
    e.method = "treeshap";
    const double depth = std::max<double>(1.0, D(shape.depth));
    if (B > 0.0) {
      e.work = Count(shape.rows) + " rows x " + Count(shape.background) + " background rows x " + Count(shape.trees) +
               " trees";
      e.model_evaluations = R * B * D(shape.trees) * depth / 8.0 + (R + B) * D(shape.trees);
      e.AddMemory("leaf patterns", (R + B) * D(shape.trees) * 2.0 * kDouble);
    } else {
      e.work = Count(shape.rows) + " rows x " + Count(shape.leaves) + " leaves";
      e.model_evaluations = R * D(shape.leaves) * depth / 8.0;
      e.AddMemory("leaf paths", D(shape.leaves) * depth * 4.0 * kDouble);
    }
    if (shape.interaction_rows > 0) {
      // Every leaf's pairs for every row: about depth^2 / 2 products per leaf and row more.
      const double rows_kept = D(shape.interaction_rows);
      e.work += ", interaction values of " + Count(shape.interaction_rows) + " features with every other";
      e.model_evaluations += R * D(shape.leaves) * depth * depth / 16.0 * (B > 0.0 ? 4.0 : 1.0);
      e.AddMemory("interaction values", R * K * rows_kept * (F + 1.0) * kDouble);
    }
    e.units = R;
    return e;
  }
  const int p = static_cast<int>(std::min<std::size_t>(shape.players, 1u << 20));
  SolverOptions so;
  const detail::SolverChoice solver = detail::ShapSolver(shape.players, options, so);
  const double coalitions = SolverCoalitions(options.solver, p, so);
  e.units = coalitions;
  if (shape.approach == "retrain") {
    e.work = FormatCount(coalitions) + " coalition trainings on " + Count(shape.train_rows) + " rows";
    e.model_evaluations = coalitions * (D(shape.train_rows) + R);
  } else {
    e.work = FormatCount(coalitions) + " coalitions x " + Count(shape.rows) + " rows x " + Count(shape.background) +
             " background rows";
    e.model_evaluations = coalitions * R * B;
    // A worker's hybrid batch: row_block = 4096 / B explained rows (at least one) x B rows.
    const double batch = std::max(1.0, std::floor(4096.0 / std::max(1.0, B))) * B;
    e.AddMemory("hybrid rows", threads * std::min(batch, R * B) * (F + K) * kDouble);
  }
  if (!solver.exact) e.AddMemory("standard errors", R * K * P * kDouble);
  e.AddMemory("solver state", SolverBytes(solver, p, static_cast<std::size_t>(R * K), BlockHint{1, 256, std::uint64_t{256} << 20}));
  return e;
}

CostEstimate EstimateFitCost(const std::string& method, const Learner& learner, std::size_t rows,
                             std::size_t columns) {
  const FitCost fit = learner.EstimateFit(rows, columns);
  CostEstimate e;
  e.method = method;
  e.work = "fitting " + learner.name() + " on " + Count(rows) + " rows x " + Count(columns) + " columns";
  e.model_evaluations = fit.operations;
  e.AddMemory("model fit", fit.bytes);
  return e;
}

CostEstimate EstimateAxomCost(std::size_t points, std::size_t neighbours, std::size_t trees, std::size_t features,
                              std::size_t depth, std::size_t seeds) {
  CostEstimate e;
  e.method = "axom";
  e.work = Count(seeds) + (seeds == 1 ? " run x " : " runs x ") + Count(points) + " points x " + Count(neighbours) +
           " neighbours x " + Count(trees) + " trees";
  // Each neighbour is predicted, and explained from cached per-tree values, by every tree.
  e.model_evaluations = D(seeds) * D(points) * D(neighbours) * D(trees) * std::max<double>(1.0, D(depth));
  e.units = D(seeds) * D(points);
  e.AddMemory("explanations", D(points) * D(features) * 4.0 * kDouble);
  return e;
}

CostEstimate EstimateChainsCost(std::size_t rows, std::size_t background, std::size_t features, std::size_t outputs,
                                std::size_t orders, const ShapOptions& options) {
  // The last link has every feature and every earlier output: the exact solver's limit first.
  SolverOptions so = options.solver_options;
  detail::SolverChoice solver;
  solver.name = options.solver.name();
  if (outputs > 0) solver = detail::ShapSolver(features + outputs - 1, options, so);
  CostEstimate e;
  e.method = "chains";
  const int last = static_cast<int>(std::min<std::size_t>(features + outputs, 1u << 20));
  double coalitions = 0.0;
  for (std::size_t j = 0; j < outputs; ++j)
    coalitions += SolverCoalitions(options.solver, static_cast<int>(std::min<std::size_t>(features + j, 1u << 20)), so);
  e.work = Count(orders) + (orders == 1 ? " order x " : " orders x ") + FormatCount(coalitions) +
           " link coalitions x " + Count(rows) + " rows x " + Count(background) + " background rows";
  e.model_evaluations = D(orders) * coalitions * D(rows) * D(background);
  e.units = D(orders) * coalitions;
  e.AddMemory("SHAP values", D(orders) * D(outputs) * D(rows) * D(features + outputs) * 2.0 * kDouble);
  // The solver state of the widest game, the last link's (its own resolution of "auto").
  if (!options.solver.object()) {
    solver.name = ResolveSolverName(options.solver.name(), last, options.solver_options);
    solver.exact = solver.name == "exact";
  }
  e.AddMemory("solver state", SolverBytes(solver, last, rows, BlockHint{1, 256, std::uint64_t{256} << 20}));
  return e;
}

CostEstimate EstimateXperMonteCarloCost(std::size_t samples, std::size_t rows, std::size_t train_rows,
                                        bool full_comparator, int threads) {
  CostEstimate e;
  e.method = "xper-montecarlo";
  const double test = D(rows > train_rows ? rows - train_rows : 0);
  e.work = Count(samples) + " samples x 2^3 coalitions x " + FormatCount(test) + "^2 hybrid points";
  e.model_evaluations = D(samples) * 8.0 * test * test + D(samples) * D(rows) * 3.0 * 30.0;
  e.units = D(samples);
  // Each thread holds one sample: its design, and the additive path's rank scratch.
  e.AddMemory("samples in flight", D(threads) * (D(rows) * 5.0 + test * (full_comparator ? 8.0 : 4.0)) * kDouble);
  e.AddMemory("per-sample results", D(samples) * 16.0 * kDouble);
  return e;
}

}}  // namespace perfshap
