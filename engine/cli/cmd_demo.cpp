// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap demo`: the main job on built-in generated data. Loads (or generates) data, fits a
// linear probability model on a stratified holdout split, reports the test metrics, and
// decomposes the test AUC and accuracy over the features with exact Shapley values.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "commands.hpp"
#include "games/additive_score_game.hpp"
#include "models/least_squares/least_squares.hpp"
#include "perfshap/error.hpp"
#include "perfshap/generators.hpp"
#include "perfshap/learner.hpp"
#include "perfshap/metric.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/solver.hpp"
#include "perfshap/split.hpp"
#include "perfshap/xper.hpp"

namespace perfshap::cli {

namespace {

struct DemoOptions {
  CommonOptions common;
  std::size_t rows = 1000;
  double test_size = 0.3;
  int exact_limit = 24;
};

void RunDemo(const DemoOptions& o) {
  const CommonOptions& c = o.common;
  PrepareOut(c);
  const Dataset data = LoadDataOrProbitDesign(c, o.rows);
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t p = data.n_features();
  if (static_cast<int>(p) > o.exact_limit)
    throw InvalidArgument(data.source() + " has " + std::to_string(p) + " features, above --exact-limit " +
                          std::to_string(o.exact_limit) + " (2^" + std::to_string(p) +
                          " coalitions); raise --exact-limit (at most 30) or select fewer columns");

  const Split split = HoldoutSplit(data.n_rows(), o.test_size, c.seed, data.label());
  const std::vector<double> coef = detail::FitLeastSquares(data, split.train);

  // Test-row scores of the linear probability model; an excluded feature sits at its
  // training mean, so coalition S scores intercept + sum_{j in S} b_j (x_j - mean_j).
  const std::size_t m = split.test.size();
  std::vector<double> y(m), score(m, coef[0]), prob(m), yhat(m);
  std::vector<std::vector<double>> contrib(p, std::vector<double>(m));
  double centred_intercept = coef[0];
  for (std::size_t j = 0; j < p; ++j) {
    const auto col = data.column(j);
    double mean = 0;
    for (std::size_t r : split.train) mean += col[r];
    mean /= static_cast<double>(split.train.size());
    centred_intercept += coef[j + 1] * mean;
    for (std::size_t t = 0; t < m; ++t) {
      contrib[j][t] = coef[j + 1] * (col[split.test[t]] - mean);
      score[t] += coef[j + 1] * col[split.test[t]];
    }
  }
  for (std::size_t t = 0; t < m; ++t) {
    y[t] = data.label()[split.test[t]];
    prob[t] = std::clamp(score[t], 0.0, 1.0);
    yhat[t] = score[t] > 0.5 ? 1.0 : 0.0;
  }
  if (std::all_of(y.begin(), y.end(), [&](double v) { return v == y[0]; }))
    throw DataError(data.source() + ": the test split has only one class; use a larger --test-size");

  Json metrics;
  metrics["auc"] = RocAuc(y, score);
  metrics["average_precision"] = AveragePrecision(y, score);
  metrics["auprc_trapezoid"] = AuprcTrapezoid(y, score);
  metrics["accuracy"] = Accuracy(y, yhat);
  metrics["balanced_accuracy"] = BalancedAccuracy(y, yhat);
  metrics["sensitivity"] = Sensitivity(y, yhat);
  metrics["specificity"] = Specificity(y, yhat);
  metrics["precision"] = Precision(y, yhat);
  metrics["f1"] = F1(y, yhat);
  metrics["brier"] = Brier(y, prob);
  metrics["log_loss"] = LogLoss(y, prob);
  metrics["mse"] = Mse(y, score);
  metrics["r2"] = R2(y, score);

  detail::AdditiveScoreGame game(data.feature_names(), std::move(contrib), centred_intercept - 0.5, y);
  SolverOptions exact;
  exact.max_players = std::min(o.exact_limit, 30);
  exact.execution = MakeExecution(c, "coalitions");
  const ShapleyValues values = MakeSolver("exact", exact)->Solve(game);

  // XPER (issue 4): a probit fitted once on the training rows; its test AUC decomposed by
  // marginalising the excluded features over the test sample (exact, full comparator for
  // samples up to 3000 rows, the package's one-permutation comparator above).
  Json xper_json;
  std::string xper_text;
  try {
    std::vector<std::size_t> all_columns(p);
    for (std::size_t j = 0; j < p; ++j) all_columns[j] = j;
    const auto probit = Train("probit", data, split.train, all_columns);
    XperOptions xo;
    xo.metric = "auc";
    xo.comparator = m <= 3000 ? XperComparator::kFull : XperComparator::kPermuted;
    xo.seed = c.seed;
    xo.max_features = std::min(o.exact_limit, 20);
    xo.execution = MakeExecution(c, "xper");
    const XperResult xr = ExplainXper(*probit, data.SelectRows(split.test), xo);
    std::ostringstream x;
    x << "\nXPER: the probit's test AUC decomposed (" << XperComparatorName(xo.comparator) << " comparator, "
      << xr.n_coalitions << " coalitions, " << m << " x " << m << " hybrid points each)\n"
      << "  benchmark phi_0    " << Fmt("%.6f", xr.base) << "\n";
    Json xphi;
    for (std::size_t j = 0; j < p; ++j) {
      const auto& name = xr.features[j];
      x << "  " << name << std::string(19 - std::min<std::size_t>(18, name.size()), ' ') << Fmt("%+.6f", xr.phi[j])
        << "   ("
        << (std::isfinite(xr.phi_normalised[j]) ? Fmt("%.1f", 100.0 * xr.phi_normalised[j]) + "%" : "n/a")
        << " of AUC - phi_0)\n";
      xphi[name] = xr.phi[j];
    }
    x << "  AUC = phi_0 + sum phi = " << Fmt("%.6f", xr.value) << "\n";
    xper_text = x.str();
    xper_json["comparator"] = XperComparatorName(xo.comparator);
    xper_json["value"] = xr.value;
    xper_json["base"] = xr.base;
    xper_json["phi"] = xphi;
  } catch (const Error& e) {
    xper_text = std::string("\nXPER: skipped: ") + e.what() + "\n";
    xper_json["skipped"] = e.what();
  }

  // Robustness (issue 3): ShapAUC by retraining Gaussian naive Bayes on every coalition of
  // 20 stratified Monte-Carlo CV splits; mean and std of each phi over the splits.
  Json robust_json;
  std::string robust_text;
  try {
    RobustnessOptions ro;
    ro.learner = MakeLearner("gnb");
    ro.max_features = std::min(o.exact_limit, 20);
    ro.plan_name = "mc:20";
    ro.execution = MakeExecution(c, "robustness");
    const SplitPlan plan = MonteCarloSplits(data.n_rows(), 20, o.test_size, c.seed, data.label());
    const RobustnessResult rr = ExplainRobustness(data, plan, ro);
    std::ostringstream r;
    r << "\nRobustness (ShapAUC): naive Bayes retrained on every coalition of 20 Monte-Carlo CV splits ("
      << rr.n_trainings << " trainings)\n"
      << "  AUC                " << Fmt("%.6f", rr.auc_mean) << " +- " << Fmt("%.6f", rr.auc_std) << "\n";
    Json rphi, rstd;
    for (std::size_t j = 0; j < rr.n_features(); ++j) {
      const auto& name = rr.features[j];
      r << "  " << name << std::string(19 - std::min<std::size_t>(18, name.size()), ' ')
        << Fmt("%+.6f", rr.phi_auc_mean[j]) << " +- " << Fmt("%.6f", rr.phi_auc_std[j]) << "\n";
      rphi[name] = rr.phi_auc_mean[j];
      rstd[name] = rr.phi_auc_std[j];
    }
    r << "  AUC = 0.5 + sum phi in every split; bands are standard deviations over the splits\n";
    robust_text = r.str();
    robust_json["value"] = rr.auc_mean;
    robust_json["value_std"] = rr.auc_std;
    robust_json["phi"] = rphi;
    robust_json["phi_std"] = rstd;
    robust_json["n_trainings"] = rr.n_trainings;
  } catch (const Error& e) {
    robust_text = std::string("\nRobustness: skipped: ") + e.what() + "\n";
    robust_json["skipped"] = e.what();
  }
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  std::ostringstream s;
  s << "perfshap demo: " << data.source() << "\n"
    << "  " << data.n_rows() << " rows, " << p << " features, " << data.CountPositive() << " positive; split "
    << split.train.size() << " train / " << m << " test (stratified, seed " << c.seed << ")\n"
    << "  model: linear probability model (least squares), class = score > 0.5\n\n"
    << "Test metrics\n";
  for (auto it = metrics.begin(); it != metrics.end(); ++it)
    s << "  " << it.key() << std::string(20 - std::min<std::size_t>(19, it.key().size()), ' ')
      << Fmt("%.6f", it.value().get<double>()) << "\n";
  double sum_auc = 0, sum_acc = 0;
  s << "\nExact Shapley decomposition (" << values.n_evaluations << " coalitions)\n"
    << "  feature            phi(AUC)    phi(accuracy)\n";
  for (int i = 0; i < values.n_players; ++i) {
    sum_auc += values(i, 0);
    sum_acc += values(i, 1);
    const auto& name = values.players[static_cast<std::size_t>(i)];
    s << "  " << name << std::string(19 - std::min<std::size_t>(18, name.size()), ' ') << Fmt("%+.6f", values(i, 0))
      << "   " << Fmt("%+.6f", values(i, 1)) << "\n";
  }
  s << "  sum                " << Fmt("%+.6f", sum_auc) << "   " << Fmt("%+.6f", sum_acc) << "\n"
    << "  AUC = 0.5 + sum phi(AUC) = " << Fmt("%.6f", 0.5 + sum_auc) << "; accuracy = "
    << Fmt("%.6f", values.base[1]) << " (no feature) + sum = " << Fmt("%.6f", values.base[1] + sum_acc) << "\n"
    << xper_text << robust_text << "\ncomputed in " << Fmt("%.4f", elapsed) << " s on " << ResolvedThreads(exact.execution)
    << " thread(s)\n";
  if (!c.out.empty()) s << "  wrote " << c.out << "/result.json\n";
  Say(c, s.str());

  Json result;
  result["data"] = data.source();
  result["n_rows"] = data.n_rows();
  result["n_train"] = split.train.size();
  result["n_test"] = m;
  result["model"] = "linear_probability";
  result["coefficients"] = coef;
  result["metrics"] = metrics;
  result["value"] = 0.5 + values.full[0];
  result["base"] = 0.5;
  Json phi, phi_acc;
  for (int i = 0; i < values.n_players; ++i) {
    phi[values.players[static_cast<std::size_t>(i)]] = values(i, 0);
    phi_acc[values.players[static_cast<std::size_t>(i)]] = values(i, 1);
  }
  result["phi"] = phi;
  result["accuracy_base"] = values.base[1];
  result["phi_accuracy"] = phi_acc;
  result["efficiency_gap"] = sum_auc - values.full[0];
  result["n_coalitions"] = values.n_evaluations;
  result["xper"] = xper_json;
  result["robustness"] = robust_json;
  WriteResult(c, result, "demo", data.feature_names(), ResolvedThreads(exact.execution), elapsed);
}

}  // namespace

void SetupDemo(CLI::App& app) {
  auto o = std::make_shared<DemoOptions>();
  AddCommonOptions(app, o->common, 2024);
  app.add_option("--rows", o->rows, "rows of the generated probit design")->capture_default_str()->check(CLI::Range(10, 100000000));
  app.add_option("--test-size", o->test_size, "test fraction of the holdout split")->capture_default_str()->check(CLI::Range(0.01, 0.99));
  app.add_option("--exact-limit", o->exact_limit, "largest number of features solved exactly")->capture_default_str()->check(CLI::Range(1, 30));
  app.callback([o] { RunDemo(*o); });
}

}  // namespace perfshap::cli
