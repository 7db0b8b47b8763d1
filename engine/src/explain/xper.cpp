// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// ExplainXper: XperGame + ExactSolver, unpacked into an XperResult.
#include "perfshap/xper.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "common/allocation.hpp"
#include "explain/conditional_groups.hpp"
#include "explain/finite_result.hpp"
#include "explain/players.hpp"
#include "explain/prediction_parts.hpp"
#include "explain/solver_choice.hpp"
#include "games/xper_conditional_game.hpp"
#include "games/xper_game.hpp"
#include "perfshap/blocks/interactions.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {

namespace {

// Fisher-Yates on a counter-based stream: the same seed gives the same pi everywhere.
std::vector<std::size_t> DrawPermutation(std::size_t n, std::uint64_t seed) {
  std::vector<std::size_t> pi(n);
  for (std::size_t k = 0; k < n; ++k) pi[k] = k;
  RandomStream rng(seed, kXperPermutationStream);
  for (std::size_t k = n; k > 1; --k) std::swap(pi[k - 1], pi[rng.Below(k)]);
  return pi;
}

// Whether the model has additive terms (asked on no rows: nothing is computed).
bool HasAdditiveTerms(const Model& model) {
  double intercept = 0.0;
  Link link = Link::kIdentity;
  return model.AdditiveTerms({}, 0, intercept, {}, link);
}

}  // namespace

XperComparator ParseXperComparator(const std::string& name) {
  if (name == "permuted") return XperComparator::kPermuted;
  if (name == "full") return XperComparator::kFull;
  throw InvalidArgument("unknown XPER comparator '" + name + "'; use permuted or full", {"comparator"});
}

const char* XperComparatorName(XperComparator comparator) noexcept {
  return comparator == XperComparator::kFull ? "full" : "permuted";
}

namespace {

/** A game's first `count` outputs as a game of their own: XPER's global value without the
 *  individuals (a conditional game's: the global value over each group of draws). */
class FirstOutputsGame final : public Game {
 public:
  FirstOutputsGame(const Game& game, std::size_t count) : game_(game), count_(count) {}
  int n_players() const override { return game_.n_players(); }
  std::size_t n_outputs() const override { return count_; }
  std::vector<std::string> player_names() const override { return game_.player_names(); }
  std::unique_ptr<GameWorker> MakeWorker() const override {
    return std::make_unique<Worker>(game_.MakeWorker(), game_.n_outputs(), count_);
  }

 private:
  class Worker final : public GameWorker {
   public:
    Worker(std::unique_ptr<GameWorker> inner, std::size_t k, std::size_t count)
        : inner_(std::move(inner)), all_(k), count_(count) {}
    void Reset() override { inner_->Reset(); }
    void Evaluate(Coalition s, std::span<double> out) override {
      inner_->Evaluate(s, all_);
      std::copy_n(all_.begin(), count_, out.begin());
    }

   private:
    std::unique_ptr<GameWorker> inner_;
    std::vector<double> all_;
    std::size_t count_;
  };
  const Game& game_;
  std::size_t count_;
};

// ConditionalXperGame's outputs (o * groups + g: output o over group g's draws) reduced to
// XperGame's: values averaged over the groups; phi_se^2 = the variance of the groups' mean (their
// spread) + the groups' mean solver standard error squared (they share the solver's coalitions;
// AverageConditionalGroups' rule).
ShapleyValues AverageXperGroups(ShapleyValues grouped, std::size_t groups) {
  const std::size_t K = grouped.n_outputs / groups;
  const auto G = static_cast<double>(groups);
  const auto mean_of = [&](const std::vector<double>& v) {
    std::vector<double> out(v.size() / groups, 0.0);
    for (std::size_t t = 0; t < out.size(); ++t)
      for (std::size_t g = 0; g < groups; ++g) out[t] += v[t * groups + g] / G;
    return out;
  };
  ShapleyValues sv = grouped;
  sv.n_outputs = K;
  sv.phi = mean_of(grouped.phi);
  sv.base = mean_of(grouped.base);
  sv.full = mean_of(grouped.full);
  sv.coalition_values = mean_of(grouped.coalition_values);
  sv.sample_values = mean_of(grouped.sample_values);
  const std::vector<double> solver_se =
      grouped.phi_se.empty() ? std::vector<double>(sv.phi.size(), 0.0) : mean_of(grouped.phi_se);
  sv.phi_se.assign(sv.phi.size(), 0.0);
  for (std::size_t t = 0; t < sv.phi.size(); ++t) {
    double ss = 0.0;
    for (std::size_t g = 0; g < groups; ++g) {
      const double d = grouped.phi[t * groups + g] - sv.phi[t];
      ss += d * d;
    }
    sv.phi_se[t] = std::sqrt(ss / (G - 1.0) / G + solver_se[t] * solver_se[t]);
  }
  return sv;
}

// The conditional value function's checks, and its distribution fitted to the background (the
// sample's columns when it has no rows).
std::unique_ptr<detail::ConditionalFeatures> FitXperConditional(const Dataset& sample,
                                                                const XperOptions& options,
                                                                ColumnMatrix background) {
  if (options.conditional == ShapConditional::kRegression)
    throw InvalidArgument(
        "XPER averages its individual terms over draws of the features off a coalition, and conditional "
        "regression gives no draws: use gaussian, copula, empirical or ctree",
        {"conditional"});
  if (!options.permutation.empty())
    throw InvalidArgument(
        "a permutation pairs the sample's rows for the marginal value function; a conditional one draws "
        "its comparison sample: drop the permutation",
        {"permutation", "conditional"});
  const std::size_t F = sample.n_features();
  std::vector<double> own;
  if (background.n_rows == 0) {
    own.reserve(F * sample.n_rows());
    for (std::size_t j = 0; j < F; ++j)
      own.insert(own.end(), sample.column(j).begin(), sample.column(j).end());
    background = ColumnMatrix{own, sample.n_rows()};
  }
  if (background.values.size() != background.n_rows * F)
    throw InvalidArgument("the background has " + std::to_string(background.values.size()) + " values, not " +
                              std::to_string(background.n_rows) + " rows x the sample's " +
                              std::to_string(F) + " columns",
                          {"background"});
  return detail::FitConditional(options.conditional, options.conditional_samples, background, F);
}

// The interaction values of the global value (the game's first output; a conditional game's
// first `groups` outputs, one a group of draws, averaged with their spread in the se): the
// interactions' own pass.
void SolveInteractions(XperResult& r, const Game& game, std::size_t groups, bool exact,
                       SolverOptions solver_options) {
  const FirstOutputsGame global(game, groups);
  solver_options.store_values = false;
  InteractionValues iv = exact ? ExactInteractions(global, InteractionIndex::kShapley, solver_options)
                               : SampledInteractions(global, InteractionIndex::kShapley, solver_options);
  if (groups > 1) iv = detail::AverageInteractionGroups(iv, groups);
  r.interactions = std::move(iv.values);
  r.interactions_se = std::move(iv.se);
}

// A conditional run's draws a coalition and individual, the background its distribution was
// fitted to, and the draws the model predicted.
void DescribeDraws(XperResult& r, std::size_t samples, std::size_t background_rows,
                   const detail::ConditionalXperGame& drawn) {
  r.conditional_samples = samples;
  r.background_rows = background_rows;
  r.conditional_distinct_draws = drawn.draw_count().mean();
}

}  // namespace

XperResult ExplainXper(const Model& model, const Dataset& sample, const XperOptions& options) {
  return ExplainXper(model, sample, options, ColumnMatrix{});
}

XperResult ExplainXper(const Model& model, const Dataset& sample, const XperOptions& options,
                       ColumnMatrix background) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<Player> players = detail::ResolvePlayers(sample, {}, options.players);
  const std::size_t p = players.size();
  const std::size_t n = sample.n_rows();
  SolverOptions solver_options;
  const detail::SolverChoice choice = detail::XperSolver(p, options, solver_options);

  {
    XperShape shape;
    shape.rows = n;
    shape.columns = sample.n_features();
    shape.players = p;
    shape.additive = options.use_additive_terms && HasAdditiveTerms(model);
    CheckCost(EstimateXperCost(shape, options), options.execution, XperRemedy(options),
              XperRemedyOptions(options, {"rows"}));
  }

  detail::XperGameSettings settings;
  settings.metric = &FindMetric(options.metric, "xper");
  settings.cfp = options.cfp;
  settings.cfn = options.cfn;
  settings.threshold = options.threshold;
  settings.comparator = options.comparator;
  settings.use_additive_terms = options.use_additive_terms;
  if (!options.players.empty()) settings.players = players;
  const bool conditional = options.conditional != ShapConditional::kMarginal;
  const bool uses_comparison =
      !conditional && options.comparator == XperComparator::kPermuted &&
      (settings.metric->xper_statistic == XperStatistic::kRank || settings.metric->xper_needs_delta);
  if (uses_comparison)
    settings.permutation =
        options.permutation.empty() ? DrawPermutation(n, options.seed) : options.permutation;

  std::unique_ptr<detail::ConditionalFeatures> features;
  std::unique_ptr<detail::XperGame> marginal;
  std::unique_ptr<detail::ConditionalXperGame> drawn;
  if (conditional) {
    features = FitXperConditional(sample, options, background);
    drawn = std::make_unique<detail::ConditionalXperGame>(model, sample, std::move(settings), *features,
                                                          options.conditional_samples, kConditionalGroups,
                                                          options.sampling.seed);
  } else {
    marginal = std::make_unique<detail::XperGame>(model, sample, std::move(settings));
  }
  const detail::XperGame& game = conditional ? drawn->xper() : *marginal;
  ShapleyValues sv = conditional
                         ? AverageXperGroups(choice.Make(solver_options)->Solve(*drawn), kConditionalGroups)
                         : choice.Make(solver_options)->Solve(game);

  XperResult r;
  r.features = game.player_names();
  r.players = players;
  r.metric = options.metric;
  r.comparator = options.comparator;
  r.n_rows = n;
  r.value = sv.full[0];
  r.base = sv.base[0];
  r.phi.resize(p);
  r.phi_normalised.resize(p);
  const double spread = r.value - r.base;
  for (std::size_t j = 0; j < p; ++j) {
    r.phi[j] = sv(static_cast<int>(j), 0);
    // Paper section 4: contributions as a share of the performance above the benchmark.
    r.phi_normalised[j] = spread != 0.0 ? r.phi[j] / spread : std::numeric_limits<double>::quiet_NaN();
  }
  r.individual_base.assign(sv.base.begin() + 1, sv.base.end());
  r.individual_value.assign(sv.full.begin() + 1, sv.full.end());
  detail::ResizeOrThrow(r.individual_phi, n * p, "the individual XPER values (rows x players)");
  for (std::size_t j = 0; j < p; ++j) {
    const auto row = sv.player(static_cast<int>(j));
    for (std::size_t i = 0; i < n; ++i) r.individual_phi[i * p + j] = row[1 + i];
  }
  if (!sv.phi_se.empty()) {
    const std::size_t k = sv.n_outputs;
    r.phi_se.resize(p);
    r.individual_phi_se.resize(n * p);
    for (std::size_t j = 0; j < p; ++j) {
      r.phi_se[j] = sv.phi_se[j * k];
      for (std::size_t i = 0; i < n; ++i) r.individual_phi_se[i * p + j] = sv.phi_se[j * k + 1 + i];
    }
  }
  r.solve = detail::ReportOf(choice, sv, options.sampling);
  r.sample_coalitions = std::move(sv.sample_coalitions);
  for (std::size_t t = 0; t < sv.sample_values.size(); t += sv.n_outputs)
    r.sample_value.push_back(sv.sample_values[t]);
  if (uses_comparison) r.permutation = game.settings().permutation;
  r.coalition_values = std::move(sv.coalition_values);
  if (options.interactions)
    SolveInteractions(r, conditional ? static_cast<const Game&>(*drawn) : game,
                      conditional ? kConditionalGroups : 1, choice.exact, solver_options);
  r.additive_fast_path = !conditional && game.additive();
  r.conditional = options.conditional;
  if (conditional)
    DescribeDraws(r, options.conditional_samples, background.n_rows > 0 ? background.n_rows : n, *drawn);
  // The last guard of the result path (explain/finite_result.hpp); phi_normalised is NaN by
  // definition when value == base.
  const auto feature = [&](std::size_t t) { return "feature '" + r.features[t % p] + "'"; };
  const auto individual = [&](std::size_t t) { return "row " + std::to_string(t / p) + ", " + feature(t); };
  const auto row = [](std::size_t i) { return "row " + std::to_string(i); };
  detail::RequireFinite("XPER", "the " + r.metric, r.value);
  detail::RequireFinite("XPER", "the benchmark (no feature)", r.base);
  detail::RequireFinite("XPER", "phi", r.phi, feature);
  detail::RequireFinite("XPER", "an individual benchmark", r.individual_base, row);
  detail::RequireFinite("XPER", "an individual value", r.individual_value, row);
  detail::RequireFinite("XPER", "an individual phi", r.individual_phi, individual);
  r.threads = ResolvedThreads(options.execution);
  r.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}
}}  // namespace perfshap
