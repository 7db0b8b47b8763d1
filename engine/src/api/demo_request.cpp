// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/demo_request.hpp"

#include "api/run_inputs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <numeric>
#include <span>

#include "explain/solver_choice.hpp"
#include "games/additive_score_game.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace api {

detail::DemoReport DemoResponse::Report() const {
  detail::DemoReport report = base;
  report.values = &values;
  report.xper = xper ? &*xper : nullptr;
  report.robustness = robustness ? &*robustness : nullptr;
  report.sampled = &sampled;
  report.treeshap = treeshap ? &*treeshap : nullptr;
  report.tree_interactions = tree_interactions ? &*tree_interactions : nullptr;
  report.interventional = interventional ? &*interventional : nullptr;
  report.sage = sage ? &*sage : nullptr;
  report.sage_gaussian = sage_gaussian ? &*sage_gaussian : nullptr;
  report.axom = axom ? &*axom : nullptr;
  report.chain = &chain;
  return report;
}

namespace {

/** What every section of the demo reads: the request, the design's rows and players, the holdout
 *  split (m test rows), and a section's execution (its progress; the estimate is said once). */
struct DemoContext {
  const DemoRequest& request;
  const Dataset& data;
  const std::vector<Player>& players;
  Split split;
  std::size_t m;
  std::function<ExecutionOptions(const std::string&)> section;
};

/** The estimate of every section before any of them runs (each section checks its own again). */
void CheckDemoCost(const DemoRequest& request, const Dataset& data, std::size_t p) {
  const auto m_rows =
      static_cast<std::size_t>(std::ceil(request.test_size * static_cast<double>(data.n_rows())));
  std::vector<CostEstimate> steps;
  XperOptions xo;
  xo.comparator = m_rows <= 3000 ? XperComparator::kFull : XperComparator::kPermuted;
  xo.max_features = std::min(request.exact_limit, 20);
  xo.execution.threads = request.execution.threads;
  XperShape xs;
  xs.rows = m_rows;
  xs.columns = data.n_features();
  xs.players = p;
  xs.additive = true;  // the probit
  if (p <= 20) steps.push_back(EstimateXperCost(xs, xo));
  RobustnessOptions ro;
  ro.max_features = std::min(request.exact_limit, 20);
  ro.execution.threads = request.execution.threads;
  RobustnessShape rs;
  rs.source = data.source();
  rs.rows = data.n_rows();
  rs.columns = data.n_features();
  rs.players = p;
  rs.splits = 20;
  rs.test_rows = m_rows;
  if (p <= 20) steps.push_back(EstimateRobustnessCost(rs, ro));
  steps.push_back(EstimateAxomCost(m_rows, 2000, 51, data.n_features(), 8, 1));
  ShapShape ts;
  ts.approach = "tree";
  ts.rows = m_rows;
  ts.features = data.n_features();
  ts.players = p;
  ts.trees = 100;
  ts.leaves = 100 * std::min<std::size_t>(256, data.n_rows());
  ts.depth = 8;
  steps.push_back(EstimateShapCost(ts, ShapOptions{}));
  const ExecutionOptions exec = request.execution_of ? request.execution_of("demo") : request.execution;
  CheckCost(CostEstimate::Sequence("demo", steps), exec, "use fewer rows", {"rows"});
}

/** The linear probability model: the linear learner (OLS) on the training rows; its raw-scale
 *  coefficients, intercept first: a GLM's additive terms are linear, so the slope is the term at
 *  x = 1 minus the term at x = 0 and the intercept takes the terms at 0 (both 0 when the terms
 *  are raw coefficient x value, as they are unless a column's scale is extreme). */
std::vector<double> LinearCoefficients(const Dataset& data, const Split& split, const std::vector<Player>& players) {
  std::vector<double> coef(data.n_features() + 1);
  const auto ols = MakeLearner("linear")->Train(data, split.train, std::span<const Player>(players));
  const std::size_t f = data.n_features();
  std::vector<double> at(2 * f);  // terms at x = 1 (row 0) and x = 0 (row 1), column-major
  std::vector<double> x01(2 * f);
  for (std::size_t j = 0; j < f; ++j) {
    x01[2 * j] = 1.0;
    x01[2 * j + 1] = 0.0;
  }
  Link link = Link::kIdentity;
  if (!ols->AdditiveTerms(x01, 2, coef[0], at, link))
    throw Error("demo: the linear model has no additive terms");
  for (std::size_t j = 0; j < f; ++j) {
    coef[j + 1] = at[2 * j] - at[2 * j + 1];
    coef[0] += at[2 * j + 1];
  }
  return coef;
}

/** The linear probability model's test rows: labels, scores, probabilities, 0/1 predictions, and
 *  each player's contribution (an excluded feature sits at its training mean). */
struct LinearScores {
  std::vector<double> y, score, prob, yhat;
  std::vector<std::vector<double>> contrib;
  double centred_intercept = 0.0;
};

LinearScores ScoreTestRows(const DemoContext& c, const std::vector<double>& coef) {
  const Dataset& data = c.data;
  const Split& split = c.split;
  const std::vector<Player>& players = c.players;
  const std::size_t m = c.m;
  const std::size_t p = players.size();
  LinearScores s;
  std::vector<double>& y = s.y;
  std::vector<double>& score = s.score;
  std::vector<double>& prob = s.prob;
  std::vector<double>& yhat = s.yhat;
  y.resize(m);
  score.assign(m, coef[0]);
  prob.resize(m);
  yhat.resize(m);
  // A player's contribution is the sum of its columns' (one column: that column's).
  std::vector<std::vector<double>>& contrib = s.contrib;
  contrib.assign(p, std::vector<double>(m, 0.0));
  double& centred_intercept = s.centred_intercept;
  centred_intercept = coef[0];
  for (std::size_t i = 0; i < p; ++i) {
    for (std::size_t j : players[i].columns) {
      const auto col = data.column(j);
      double mean = 0;
      for (std::size_t r : split.train) mean += col[r];
      if (!std::isfinite(mean)) {
        // The sum overflowed (values near the largest double): summed scaled by a power of two,
        // which is exact, so the mean is the one the sum would give with room to hold it.
        double largest = 0.0;
        for (std::size_t r : split.train) largest = std::max(largest, std::abs(col[r]));
        int e = 0;
        std::frexp(largest, &e);
        mean = 0;
        for (std::size_t r : split.train) mean += std::ldexp(col[r], -e);
        mean = std::ldexp(mean / static_cast<double>(split.train.size()), e);
      } else {
        mean /= static_cast<double>(split.train.size());
      }
      centred_intercept += coef[j + 1] * mean;
      for (std::size_t t = 0; t < m; ++t) {
        contrib[i][t] += coef[j + 1] * (col[split.test[t]] - mean);
        score[t] += coef[j + 1] * col[split.test[t]];
      }
    }
  }
  for (std::size_t t = 0; t < m; ++t) {
    y[t] = data.label()[split.test[t]];
    prob[t] = std::clamp(score[t], 0.0, 1.0);
    yhat[t] = score[t] > 0.5 ? 1.0 : 0.0;
  }
  if (std::all_of(y.begin(), y.end(), [&](double v) { return v == y[0]; }))
    throw DataError(data.source() + ": the test split has only one class; use a larger test size",
                    {"test_size"});
  return s;
}

/** XPER (issue 4): a probit fitted once on the training rows; its test AUC decomposed by
 *  marginalising the excluded features over the test sample (exact, full comparator for
 *  samples up to 3000 rows, the package's one-permutation comparator above). */
void XperSection(const DemoContext& c, DemoResponse& out) {
  try {
    const auto probit = MakeLearner("probit")->Train(c.data, c.split.train, std::span<const Player>(c.players));
    XperOptions xo;
    xo.players = c.players;
    xo.metric = "auc";
    xo.comparator = c.m <= 3000 ? XperComparator::kFull : XperComparator::kPermuted;
    xo.seed = c.request.seed;
    xo.max_features = std::min(c.request.exact_limit, 20);
    xo.execution = c.section("xper");
    out.xper = ExplainXper(*probit, c.data.SelectRows(c.split.test), xo);
  } catch (const Error& e) {
    out.base.xper_skipped = e.what();
  }
}

/** Robustness (issue 3): ShapAUC by retraining Gaussian naive Bayes on every coalition of 20
 *  stratified Monte-Carlo CV splits; mean and std of each phi over the splits. */
void RobustnessSection(const DemoContext& c, DemoResponse& out) {
  try {
    RobustnessOptions ro;
    ro.learner = MakeLearner("gnb");
    ro.players = c.players;
    ro.max_features = std::min(c.request.exact_limit, 20);
    ro.plan_name = "mc:20";
    ro.execution = c.section("robustness");
    const SplitPlan plan =
        MakeSplitPlan(ro.plan_name, c.data.n_rows(), c.request.test_size, c.request.seed, c.data.label());
    out.robustness = ExplainRobustness(c.data, plan, ro);
  } catch (const Error& e) {
    out.base.robustness_skipped = e.what();
  }
}

/** Sampled solvers (issue 10): ShapAUC of a generated 40-feature probit design, of which the
 *  first four features matter, by the kernel solver to a 2% tolerance (2^40 trainings per split
 *  would be exact); gnb retrained on 3 stratified Monte-Carlo CV splits. */
void SampledSection(const DemoContext& c, DemoResponse& out) {
  ProbitDesign wide;
  wide.n_rows = 600;
  wide.seed = c.request.seed;
  wide.variances.assign(40, 1.0);
  wide.beta.assign(41, 0.0);
  for (std::size_t j = 1; j <= 4; ++j) wide.beta[j] = 1.0 - 0.2 * static_cast<double>(j - 1);
  const Dataset wide_data = GenerateProbitDesign(wide);
  RobustnessOptions ro;
  ro.learner = MakeLearner("gnb");
  ro.solver = "kernel";
  ro.sampling.tolerance = 0.02;
  ro.sampling.seed = c.request.seed;
  ro.plan_name = "mc:3";
  ro.execution = c.section("sampled");
  const SplitPlan plan =
      MakeSplitPlan(ro.plan_name, wide_data.n_rows(), c.request.test_size, c.request.seed, wide_data.label());
  out.sampled = ExplainRobustness(wide_data, plan, ro);
}

/** SAGE (issue 38): the probit's log-loss on the test rows decomposed over the features, the
 *  features off a coalition from the background rows, and drawn given the others (gaussian). */
void SageSections(const DemoContext& c, const Model& probit, const std::vector<double>& x,
                  ColumnMatrix background, const SolverOptions& solver, DemoResponse& out) {
  std::vector<double> labels(c.m);
  for (std::size_t t = 0; t < c.m; ++t) labels[t] = c.data.label()[c.split.test[t]];
  SageOptions options;
  options.metric = "log_loss";
  options.solver = "exact";
  options.solver_options = solver;
  options.solver_options.seed = c.request.seed;
  options.solver_options.execution = c.section("sage");
  out.sage = ExplainSage(probit, {x, c.m}, labels, background, {}, c.data.feature_names(), options);
  options.conditional = ShapConditional::kGaussian;
  options.conditional_samples = 100;
  out.sage_gaussian = ExplainSage(probit, {x, c.m}, labels, background, {}, c.data.feature_names(), options);
}

/** Prediction explanations (issue 11): a random forest on the training rows, TreeSHAP of its
 *  P(y=1) on the test rows; the XPER probit's probabilities by interventional SHAP, exact, on the
 *  first 20 test rows against 100 training rows drawn with the seed. */
void PredictionSections(const DemoContext& c, DemoResponse& out) {
  try {
    std::vector<std::size_t> columns(c.data.n_features());
    std::iota(columns.begin(), columns.end(), std::size_t{0});
    if (c.players.size() != c.data.n_features())
      throw InvalidArgument(
          "the prediction explanations take one column per player; without groups they run");
    ForestOptions fo;
    fo.n_estimators = 100;
    fo.max_depth = 8;
    fo.seed = c.request.seed;
    fo.execution = c.section("forest");
    const auto forest = FitForest(fo, c.data, c.split.train, columns);
    std::vector<double> x(c.data.n_features() * c.m);
    for (std::size_t j = 0; j < c.data.n_features(); ++j)
      for (std::size_t t = 0; t < c.m; ++t) x[j * c.m + t] = c.data.column(j)[c.split.test[t]];
    out.treeshap = ExplainTrees(*forest, {x, c.m}, {}, c.data.feature_names(), c.section("treeshap"));
    out.tree_interactions = ExplainTreeInteractions(
        *forest, FeatureColumns::ColumnMajor(x, c.m, c.data.n_features()), {}, {}, c.section("treeshap"));
    const auto probit = MakeLearner("probit")->Train(c.data, c.split.train, columns);
    const std::size_t shown = std::min<std::size_t>(20, c.m);
    const std::size_t nb = std::min<std::size_t>(100, c.split.train.size());
    std::vector<double> rows(c.data.n_features() * shown);
    std::vector<double> bg(c.data.n_features() * nb);
    RandomStream rng(c.request.seed, 12);
    std::vector<std::size_t> pool = c.split.train;
    for (std::size_t b = 0; b < nb; ++b) std::swap(pool[b], pool[b + rng.Below(pool.size() - b)]);
    for (std::size_t j = 0; j < c.data.n_features(); ++j) {
      for (std::size_t t = 0; t < shown; ++t) rows[j * shown + t] = x[j * c.m + t];
      for (std::size_t b = 0; b < nb; ++b) bg[j * nb + b] = c.data.column(j)[pool[b]];
    }
    ShapOptions so;
    so.solver = "exact";
    so.solver_options.max_players = std::min(c.request.exact_limit, 20);
    so.solver_options.execution = c.section("shap");
    out.interventional =
        ExplainInterventional(*probit, {rows, shown}, {bg, nb}, {}, c.data.feature_names(), so);
    SageSections(c, *probit, x, {bg, nb}, so.solver_options, out);
  } catch (const Error& e) {
    out.base.predictions_skipped = e.what();
  }
}

/** AXOM (issue 12): the paper's protocol on the same data, untuned (a 50-tree forest), 2,000
 *  neighbours per test point: how much the tree's, the forest's and AXOM's explanations move. */
void AxomSection(const DemoContext& c, DemoResponse& out) {
  try {
    AxomProtocolOptions ao;
    ao.tune = false;
    ao.trees = 50;
    ao.max_depth = 8;
    ao.test_fraction = c.request.test_size;
    ao.seed = c.request.seed;
    ao.robustness.neighbours = 2000;
    ao.robustness.seed = c.request.seed;
    ao.execution = c.section("axom");
    out.axom = RunAxomProtocol(c.data, ao);
  } catch (const Error& e) {
    out.base.axom_skipped = e.what();
  }
}

/** Shapley Chains (issue 13): the paper's xor data, chain and -> or -> xor of logistic links; x1
 *  and x2 reach xor only through and / or (indirect contributions). */
void ChainsSection(const DemoContext& c, DemoResponse& out) {
  const LogicChainData logic = GenerateLogicChainData(400, c.request.seed);
  MultiOutputData chain_data{logic.data, logic.output_names, logic.outputs};
  std::vector<std::size_t> train(300);
  std::iota(train.begin(), train.end(), std::size_t{0});
  std::vector<std::size_t> explain(100);
  std::iota(explain.begin(), explain.end(), std::size_t{300});
  ChainOptions co;
  co.seed = c.request.seed;
  co.shap.solver_options.execution = c.section("chains");
  out.chain = ExplainChain(*MakeLearner("logistic"), chain_data, {0, 1, 2}, train, explain, co);
}

}  // namespace

DemoResponse RunDemo(const DemoRequest& request) {
  // The design: text columns one-hot, the missing-value policy, the groups' players.
  const Design design = ReadDesign(request.data, request.seed);
  const Dataset& data = design.data;
  const std::vector<Player>& players = design.players;
  std::vector<std::string> player_names;
  for (const Player& player : players) player_names.push_back(player.name);
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t p = players.size();
  if (static_cast<int>(p) > request.exact_limit)
    throw InvalidArgument(data.source() + " has " + std::to_string(p) + " features, above the exact limit " +
                              std::to_string(request.exact_limit) + " (" + detail::CoalitionCountText(p) +
                              " coalitions); raise the exact limit (at most 30) or select fewer columns",
                          {"max_features"});
  // Over the processes of an MPI run: every one read the same, or the job ends here.
  RunInputs(request.execution).Data(data).Agree();
  CheckDemoCost(request, data, p);
  // Each section's execution: the progress, the limits; the estimate was said above.
  const auto section = [&request](const std::string& what) {
    ExecutionOptions exec = request.execution_of ? request.execution_of(what) : request.execution;
    exec.on_estimate = nullptr;
    return exec;
  };
  const Split split = HoldoutSplit(data.n_rows(), request.test_size, request.seed, data.label());
  const DemoContext c{request, data, players, split, split.test.size(), section};
  const std::vector<double> coef = LinearCoefficients(data, split, players);
  LinearScores s = ScoreTestRows(c, coef);
  const std::vector<double>& y = s.y;
  const std::vector<double>& score = s.score;
  const std::vector<double>& prob = s.prob;
  const std::vector<double>& yhat = s.yhat;
  const std::size_t m = c.m;

  DemoResponse out;
  detail::DemoReport& report = out.base;
  report.metrics = {{"auc", RocAuc(y, score)},
                    {"average_precision", AveragePrecision(y, score)},
                    {"auprc_trapezoid", AuprcTrapezoid(y, score)},
                    {"accuracy", Accuracy(y, yhat)},
                    {"balanced_accuracy", BalancedAccuracy(y, yhat)},
                    {"sensitivity", Sensitivity(y, yhat)},
                    {"specificity", Specificity(y, yhat)},
                    {"precision", Precision(y, yhat)},
                    {"f1", F1(y, yhat)},
                    {"brier", Brier(y, prob)},
                    {"log_loss", LogLoss(y, prob)},
                    {"mse", Mse(y, score)},
                    {"r2", R2(y, score)}};

  detail::AdditiveScoreGame game(player_names, std::move(s.contrib), s.centred_intercept - 0.5, y);
  SolverOptions exact;
  exact.max_players = std::min(request.exact_limit, 30);
  exact.execution = section("coalitions");
  out.values = MakeSolver("exact", exact)->Solve(game);
  XperSection(c, out);
  RobustnessSection(c, out);
  SampledSection(c, out);
  PredictionSections(c, out);
  AxomSection(c, out);
  ChainsSection(c, out);

  report.data = data.source();
  report.n_rows = data.n_rows();
  report.n_features = p;
  report.n_positive = data.CountPositive();
  report.n_train = split.train.size();
  report.n_test = m;
  report.seed = request.seed;
  report.features = player_names;
  report.players = players;
  report.column_names = data.feature_names();
  report.missing = MissingValuesName(request.data.missing);
  report.dropped_rows = data.dropped_rows();
  report.groups = request.data.groups_source;
  report.coefficients = coef;
  report.threads = ResolvedThreads(exact.execution);
  report.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}}}  // namespace perfshap::api
