// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Each method's cost estimate (cost.hpp) from the shapes of its inputs, computable before the
// data are split, the model is fitted or any buffer is sized, so that a front end can refuse a
// request within a second of reading its inputs. The entry points (ExplainRobustness,
// ExplainXper, ExplainInterventional, ...) check the same estimates themselves.
//
// Model evaluations count one row predicted by a model, or one training row's pass in a fit;
// the memory parts are the buffers that grow with the inputs (the inputs themselves excluded).

#include <cstddef>
#include <string>
#include <vector>

#include "perfshap/blocks/cost.hpp"
#include "perfshap/export.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/xper.hpp"

namespace perfshap { inline namespace v0 {

/** @brief What to change when a method's estimate is refused (CheckCost's remedy). */
inline constexpr const char* kRobustnessRemedy =
    "use fewer splits, a sampled solver (kernel or permutation) with a budget, or fewer features";
inline constexpr const char* kXperRemedy = "use the permuted comparator, fewer rows, or a sampled solver with a budget";
/** @brief XPER under a conditional value function: the draws are what grows. */
inline constexpr const char* kXperConditionalRemedy =
    "use fewer conditional_samples or rows, or a sampled solver with a budget";
/** @brief The remedy of an XPER request that is refused (kXperRemedy, or the conditional one's). */
inline const char* XperRemedy(const XperOptions& options) {
  return options.conditional == ShapConditional::kMarginal ? kXperRemedy : kXperConditionalRemedy;
}
/** @brief The options a refused XPER request names: the comparator's (marginal) or the draws'
 *  (conditional), then the solver's and `more`. */
inline std::vector<std::string> XperRemedyOptions(const XperOptions& options,
                                                  std::vector<std::string> more = {}) {
  std::vector<std::string> names{
      options.conditional == ShapConditional::kMarginal ? "comparator" : "conditional_samples", "solver",
      "budget"};
  names.insert(names.end(), more.begin(), more.end());
  return names;
}
inline constexpr const char* kShapRemedy =
    "explain fewer rows, use a smaller background, or a sampled solver (kernel or permutation) with a budget";
inline constexpr const char* kTreeShapRemedy = "explain fewer rows, or use a smaller background";
/** @brief The same for tree interaction values. */
inline constexpr const char* kTreeInteractionRemedy =
    "explain fewer rows, or name the features whose interactions you need";
inline constexpr const char* kAxomRemedy = "use fewer neighbours, test points or trees";
inline constexpr const char* kChainsRemedy =
    "explain fewer rows, use a smaller background, or a sampled solver (kernel or permutation) with a budget";
inline constexpr const char* kXperMonteCarloRemedy = "use fewer samples or rows";
inline constexpr const char* kFitRemedy = "use fewer features, group them, or a learner that needs less";

/** @brief The coalitions a solver evaluates on a game of n players: 2^n for an exact solver
 *  (+infinity past 2^1023), the budget (or kDefaultSampleBudget) for a sampled one ("auto"
 *  resolved as ResolveSolverName does; an object by Solver::Exact). */
PERFSHAP_EXPORT double SolverCoalitions(const SolverSpec& solver, int n_players, const SolverOptions& options);

/** @brief The shape of a robustness request. */
struct RobustnessShape {
  std::string source;        ///< how messages name the data
  std::size_t rows = 0;      ///< rows of the data set
  std::size_t columns = 0;   ///< feature columns of the design (after one-hot encoding)
  std::size_t players = 0;   ///< players (columns or groups)
  std::size_t splits = 0;    ///< splits of the plan
  std::size_t test_rows = 0; ///< test rows of one split (the largest)
  /** The splits are drawn a window at a time (a drawn plan), not held whole: the plan's
   *  memory is a window's, whatever the number of splits. */
  bool drawn = false;
};

/** @brief Trainings, scorings and the memory of ExplainRobustness (the split plan included).
 *  @throws InvalidArgument where ExplainRobustness refuses the solver (the exact solver past
 *  its limit), with the same message. */
PERFSHAP_EXPORT CostEstimate EstimateRobustnessCost(const RobustnessShape& shape, const RobustnessOptions& options);

/** @brief The shape of an XPER request. */
struct XperShape {
  std::size_t rows = 0;     ///< rows of the sample
  std::size_t columns = 0;  ///< the model's feature columns
  std::size_t players = 0;
  /** The model has additive terms (GLMs, naive Bayes): no model calls per coalition. */
  bool additive = false;
};

/** @brief Hybrid points (n^2 per coalition) and the memory of ExplainXper: the comparison grid
 *  of the full comparator on a model without additive terms is n^2 doubles per thread.
 *  @throws InvalidArgument where ExplainXper refuses the solver, with the same message. */
PERFSHAP_EXPORT CostEstimate EstimateXperCost(const XperShape& shape, const XperOptions& options);

/** @brief The shape of a SHAP request. */
struct ShapShape {
  std::string approach = "interventional";  ///< interventional, retrain or tree
  std::size_t rows = 0;        ///< explained rows
  std::size_t background = 0;  ///< background rows (interventional; tree-interventional)
  std::size_t features = 0;    ///< the model's features
  std::size_t players = 0;
  std::size_t outputs = 1;     ///< model outputs
  std::size_t train_rows = 0;  ///< retrain: training rows
  std::size_t trees = 0;       ///< tree: trees, leaves over all trees, deepest tree
  std::size_t leaves = 0;
  std::size_t depth = 0;
  /** tree: rows of each explained row's interaction matrix (0: no interaction values). */
  std::size_t interaction_rows = 0;
};

/** @brief Model evaluations and memory of ExplainInterventional / ExplainByRetraining /
 *  ExplainTrees. @throws InvalidArgument where they refuse the solver, with the same message. */
PERFSHAP_EXPORT CostEstimate EstimateShapCost(const ShapShape& shape, const ShapOptions& options);

/** @brief The fit of `learner` on rows x columns: the Newton / least-squares learners hold a
 *  columns^2 matrix and take about rows x columns^2 operations an iteration; trees sort every
 *  column. The method name in the estimate is `method`. */
PERFSHAP_EXPORT CostEstimate EstimateFitCost(const std::string& method, const Learner& learner, std::size_t rows,
                                             std::size_t columns);

/** @brief AXOM's robustness: every point's neighbours predicted by every tree. */
PERFSHAP_EXPORT CostEstimate EstimateAxomCost(std::size_t points, std::size_t neighbours, std::size_t trees,
                                              std::size_t features, std::size_t depth, std::size_t seeds);

/** @brief Shapley Chains: per order and link, interventional SHAP of rows against a background
 *  over features + earlier outputs. */
PERFSHAP_EXPORT CostEstimate EstimateChainsCost(std::size_t rows, std::size_t background, std::size_t features,
                                                std::size_t outputs, std::size_t orders, const ShapOptions& options);

/** @brief The XPER Monte Carlo experiment: `samples` XPER runs of `rows` rows (3 players). */
PERFSHAP_EXPORT CostEstimate EstimateXperMonteCarloCost(std::size_t samples, std::size_t rows, std::size_t train_rows,
                                                        bool full_comparator, int threads);

}}  // namespace perfshap
