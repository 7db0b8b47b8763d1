// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// XPER (eXplainable PERformance, Hue, Hurlin, Perignon, Saurin): Shapley decomposition of a
// model's performance metric over its features, globally and for every individual, by
// marginalising the excluded features over the sample. See
// shared/seeds/xper-performance-decomposition.txt and ARCHITECTURE.md (the G terms).

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/game_settings.hpp"
#include "perfshap/blocks/metric_registry.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/shap.hpp"

namespace perfshap { inline namespace v0 {

// The metrics XPER decomposes are the registered ones with an XPER term (metric_registry.hpp,
// MetricNames("xper")): auc, brier, accuracy, balanced_accuracy, sensitivity, specificity,
// precision, cost, mse, mae, r2. Each is an average of individual terms G(y_i; f(x_i); delta)
// (ARCHITECTURE.md "XPER's individual terms G"); losses are decomposed with their sign flipped so
// that larger is better: Brier -> -Brier, cost -> -cost, MSE -> -MSE, MAE -> -MAE.

/** @brief Options of ExplainXper. */
struct XperOptions {
  /** The metric decomposed, by its registered name (FindMetric(metric, "xper")). */
  std::string metric = "auc";
  /** Misclassification cost: cost of a false positive (y = 0 predicted 1) and of a false
   *  negative. perfshap's order; the XPER package's (CFP, CFN) is perfshap's (cfn, cfp). */
  double cfp = 1.0;
  double cfn = 1.0;
  /** Class rule of the 0/1 metrics: yhat = 1{prediction > threshold}. */
  double threshold = 0.5;
  /** The library default is the XPER package's comparison (one permutation), so that code
   *  ported from the package gets the package's numbers; `perfshap xper` defaults to kFull
   *  (exact, no Monte Carlo noise; README "Comparator"). */
  XperComparator comparator = XperComparator::kPermuted;
  /** kPermuted: pi as n 0-based indices (permutation[k] = pi(k)); empty = drawn from `seed`
   *  (Fisher-Yates on RandomStream(seed, kXperPermutationStream)). Ignored by kFull. */
  std::vector<std::size_t> permutation;
  std::uint64_t seed = 0;
  /** Use Model::AdditiveTerms when the model has them (no model calls per coalition); false
   *  forces the generic batched-Predict path (same values up to rounding, for checking). */
  bool use_additive_terms = true;
  /** Keep every v(S) and v_i(S) in XperResult::coalition_values (2^p (n + 1) doubles). */
  bool store_coalition_values = false;
  /** Pairwise Shapley interaction indices of the global value too (XperResult::interactions):
   *  exact (ExactInteractions of the global game) with an exact solver, else sampled
   *  (SampledInteractions with `sampling`: standard errors in interactions_se). The global game
   *  is evaluated once more per coalition (2^p, or 4 a draw). */
  bool interactions = false;
  /** The Shapley solver: a name (MakeSolver: "exact", "permutation", "kernel", "auto"), made
   *  here with `sampling`, or a solver object used as it is (SolverSpec). */
  SolverSpec solver = "exact";
  /** The sampled solvers' budget (coalitions), tolerance (on the global value), time limit
   *  and seed (of the coalitions drawn; `seed` above draws the comparison permutation). */
  SamplingOptions sampling;
  /** The players as groups of the sample's columns (a one-hot text column, a group); empty =
   *  one player per column. Every column in exactly one player. */
  std::vector<Player> players;
  /** Refuse more features than this for the exact solver (2^p coalitions, each O(n^2));
   *  clamped to 1..kExactPlayerLimit. */
  int max_features = 20;
  /** The value function of the features off a coalition. kMarginal (the paper's): the other
   *  individuals' values, as they are. A conditional one (kGaussian, kCopula, kEmpirical, kCtree;
   *  issue 38): `conditional_samples` draws given the individual's own values on the coalition,
   *  from the distribution fitted to ExplainXper's background (the sample when none), so that no
   *  hybrid point pairs values that do not occur together; v(empty) is then the metric of draws
   *  from the joint distribution. The draws' Monte Carlo error is in phi_se (10 groups of draws,
   *  each an estimate; kConditionalGroups). The AUC's comparison sample is every individual's
   *  draws (kFull) or one draw an individual (kPermuted). kRegression gives no draws: refused. */
  ShapConditional conditional = ShapConditional::kMarginal;
  std::size_t conditional_samples = 1000;
  /** Threads, progress (units: coalitions), cancellation. Results do not depend on threads. */
  ExecutionOptions execution;
};

/** @brief Random stream id of the permutation drawn from XperOptions::seed. */
inline constexpr std::uint64_t kXperPermutationStream = 0x58504552;  // "XPER"

/**
 * @brief An XPER decomposition: global values, individual values, and their metadata.
 *
 * Efficiency (Shapley): base + sum_j phi[j] = value, and for every individual i,
 * individual_base[i] + sum_j individual_phi(i, j) = individual_value[i] (up to rounding, about
 * 1e-15). The global values are the means of the individual ones.
 */
struct PERFSHAP_EXPORT XperResult {
  /** Player names, p of them: the sample's columns in the model's order, or the groups. */
  std::vector<std::string> features;
  /** The players and their columns of the sample. */
  std::vector<Player> players;
  std::string metric = "auc";
  XperComparator comparator = XperComparator::kPermuted;
  std::size_t n_rows = 0;
  /** The metric on the sample as the decomposition counts it, v(all features): e.g. -MSE,
   *  -Brier; for AUC the sample AUC with ties counted one half (sklearn roc_auc_score). */
  double value = 0.0;
  /** phi_0 = v(empty): the benchmark (metric when y is independent of the features). */
  double base = 0.0;
  /** phi_j, p values, and their standard errors (a sampled solver's and a conditional value
   *  function's draws'; empty when neither samples). */
  std::vector<double> phi;
  std::vector<double> phi_se;
  /** phi_j / (value - base), the share of the performance above the benchmark (paper,
   *  section 4); NaN when value == base. */
  std::vector<double> phi_normalised;
  /** phi_i0 = v_i(empty), n values: individual benchmarks. */
  std::vector<double> individual_base;
  /** v_i(all features) = G(y_i; x_i), n values: individual contributions to `value`. */
  std::vector<double> individual_value;
  /** phi_ij, n x p row-major: row i is individual i's values (ready for clustering). */
  std::vector<double> individual_phi;
  /** Standard errors of individual_phi, same shape (sampled solvers; empty when exact). */
  std::vector<double> individual_phi_se;
  /** The permutation pi used by kPermuted (empty for kFull). */
  std::vector<std::size_t> permutation;
  /** When requested: 2^p rows (row = bit mask of S, bit j = feature j) of n + 1 values:
   *  column 0 is v(S), column 1 + i is v_i(S). Empty otherwise. */
  std::vector<double> coalition_values;
  /** With XperOptions::interactions: the players' interaction matrix of the global value, p x p
   *  row-major (InteractionValues' convention: off the diagonal, half the pair's Shapley
   *  interaction index; on it, phi_j minus the rest of row j, so each row adds up to phi_j), and
   *  its standard errors when sampled (else empty). */
  std::vector<double> interactions;
  std::vector<double> interactions_se;
  /** True when the additive-score fast path was used (no model calls per coalition). */
  bool additive_fast_path = false;
  /** The value function (XperOptions::conditional) and, for a conditional one, its draws a
   *  coalition and individual and the background rows its distribution was fitted to. */
  ShapConditional conditional = ShapConditional::kMarginal;
  std::size_t conditional_samples = 0;
  std::size_t background_rows = 0;
  /** The conditional draws the model predicted, on average a coalition (one that draws) and
   *  row: at most conditional_samples, fewer where drawn background rows repeat (empirical,
   *  ctree: a repeated draw is predicted once); 0 when none were drawn. */
  double conditional_distinct_draws = 0.0;
  /** How the game was solved: the solver ("auto" resolved), coalitions evaluated (2^p when
   *  exact), whether its tolerance held (always when exact), why it stopped and its
   *  convergence ratio then. */
  SolveReport solve;
  /** With sampling.keep_samples: every sampled coalition (CoalitionWords(p) words each) and
   *  its v(S), in the solver's order. */
  std::vector<std::uint64_t> sample_coalitions;
  std::vector<double> sample_value;
  int threads = 1;
  double elapsed_seconds = 0.0;

  std::size_t n_features() const noexcept { return features.size(); }
  /** @brief phi_ij. */
  double individual(std::size_t i, std::size_t j) const { return individual_phi[i * features.size() + j]; }
  /** @brief Individual i's p values phi_i1..phi_ip. */
  std::span<const double> individual_row(std::size_t i) const {
    return {individual_phi.data() + i * features.size(), features.size()};
  }
};

/**
 * @brief Exact XPER of `model` on `sample`: one streamed pass over the 2^p coalitions gives
 * every phi_j and every phi_ij.
 *
 * v_i(S) = (1/n) sum_u G(y_i; f(z_iu); delta), z_iu = (x_i on S, x_u off S) (XPER eq. for the
 * estimator, paper section 3), v(S) = mean_i v_i(S); phi by the Shapley formula on v and on
 * each v_i. Models with an additive score (Model::AdditiveTerms) take the fast path: per
 * coalition two length-n vectors a_i(S) = intercept + sum_{j in S} term_j(x_ij) and
 * b_u = sum_{j not in S} term_j(x_uj), index(z_iu) = a_i + b_u, no model call; the AUC then
 * compares indices (the link is monotone), the other metrics use link(index). Other models
 * are called through Predict on the n x n hybrid grid in row blocks.
 *
 * @param model fitted model with sample.n_features() inputs, in the sample's column order.
 * @param sample features and label (0/1 for the classification metrics, real for mse, mae,
 *   r2), n >= 2 rows.
 * @throws InvalidArgument on a shape mismatch, a bad permutation (wrong length, repeated or
 *   out-of-range index), more than options.max_features features for the exact solver,
 *   sampling options out of range, coalition values asked of a sampled solver, n > 65535 with the full
 *   comparator, or a non-finite cost/threshold.
 * @throws DataError for a sample on which the metric is undefined: one class for AUC or
 *   balanced accuracy, no positive for sensitivity, no negative for specificity, a label
 *   that is not 0/1 for a classification metric, a constant target for R2; or a model that
 *   predicts a non-finite value.
 * @throws Cancelled when the cancellation flag is raised.
 */
PERFSHAP_EXPORT XperResult ExplainXper(const Model& model, const Dataset& sample, const XperOptions& options);

/**
 * @brief ExplainXper with a conditional value function's training sample: `background` (the
 * model's features, column-major) is what options.conditional's distribution is fitted to; no
 * rows: the sample's. Ignored by the marginal value function.
 * @throws InvalidArgument as ExplainXper, and for a background of another width, fewer than 2 rows
 *   or a value that is not finite, kRegression, or interactions with a conditional value function.
 */
PERFSHAP_EXPORT XperResult ExplainXper(const Model& model, const Dataset& sample, const XperOptions& options,
                                       ColumnMatrix background);
}}  // namespace perfshap
