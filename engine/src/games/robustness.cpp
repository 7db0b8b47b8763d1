// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// ExplainRobustness: one RetrainGame per split, solved together by ExactSolver::SolveBatch
// (repetitions x coalition blocks in one parallel pass), then Welford bands over the splits in
// split order, the Eq. (12) check and the section 4.4 selection.
#include "perfshap/robustness.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "games/retrain_game.hpp"
#include "perfshap/error.hpp"
#include "perfshap/solver.hpp"
#include "perfshap/welford.hpp"
#include "schedule/schedule.hpp"

namespace perfshap {

namespace {

constexpr std::array<std::pair<const char*, RobustnessMetric>, 13> kMetricNames{{
    {"accuracy", RobustnessMetric::kAccuracy},
    {"balanced_accuracy", RobustnessMetric::kBalancedAccuracy},
    {"sensitivity", RobustnessMetric::kSensitivity},
    {"specificity", RobustnessMetric::kSpecificity},
    {"precision", RobustnessMetric::kPrecision},
    {"f1", RobustnessMetric::kF1},
    {"brier", RobustnessMetric::kBrier},
    {"log_loss", RobustnessMetric::kLogLoss},
    {"average_precision", RobustnessMetric::kAveragePrecision},
    {"mse", RobustnessMetric::kMse},
    {"mae", RobustnessMetric::kMae},
    {"rmse", RobustnessMetric::kRmse},
    {"r2", RobustnessMetric::kR2},
}};

std::string Str(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string SplitLabel(std::size_t r, std::size_t n_splits, const std::string& plan) {
  if (n_splits == 1) return plan.empty() ? std::string("the split") : "the split (" + plan + ")";
  return "split " + std::to_string(r) + " of " + (plan.empty() ? std::string("the plan") : plan) + " (0-based, " +
         std::to_string(n_splits) + " splits)";
}

// Mean and std (ddof 0) of one scalar over the splits, in split order.
std::pair<double, double> Band(const std::vector<double>& x) {
  WelfordBands band(1);
  for (double v : x) band.Add(std::span<const double>(&v, 1));
  return {band.mean()[0], band.StdDev(0)[0]};
}

}  // namespace

PrcBaseline ParsePrcBaseline(const std::string& text) {
  if (text == "0.5" || text == "half" || text == ".5" || text == "0.50") return PrcBaseline::kHalf;
  if (text == "prevalence") return PrcBaseline::kPrevalence;
  throw InvalidArgument("--prc-baseline '" + text + "' is not understood; use 0.5 (the paper) or prevalence");
}

const char* PrcBaselineName(PrcBaseline baseline) noexcept {
  return baseline == PrcBaseline::kPrevalence ? "prevalence" : "0.5";
}

RobustnessMetric ParseRobustnessMetric(const std::string& name) {
  for (const auto& [text, metric] : kMetricNames)
    if (name == text) return metric;
  std::string list;
  for (const auto& [text, metric] : kMetricNames) list += (list.empty() ? "" : ", ") + std::string(text);
  throw InvalidArgument("unknown metric '" + name + "'; use one of " + list);
}

const char* RobustnessMetricName(RobustnessMetric metric) noexcept {
  for (const auto& [text, m] : kMetricNames)
    if (m == metric) return text;
  return "?";
}

RobustnessResult ExplainRobustness(const Dataset& data, const SplitPlan& plan, const RobustnessOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  const std::string& source = data.source();
  PERFSHAP_CHECK(!plan.empty(), "ExplainRobustness: the split plan is empty; give at least one train/test split");
  PERFSHAP_CHECK(options.grid_points >= 2, "--grid " + std::to_string(options.grid_points) +
                                               " is below 2; a grid needs at least the points 0 and 1");
  PERFSHAP_CHECK(std::isfinite(options.class_threshold),
                 "the class threshold must be a finite number, got " + Str(options.class_threshold));
  const int limit = std::clamp(options.max_features, 1, 30);
  PERFSHAP_CHECK(options.learner != nullptr, "ExplainRobustness: no learner");
  const Learner& learner = *options.learner;
  if (!learner.is_classifier() && options.curves.mode == CurveMode::kThresholds)
    throw InvalidArgument("--curve-points " + CurvePointsName(options.curves) +
                          " needs probabilities, and the linear learner's predictions are not; use --curve-points exact");
  if (!learner.is_classifier())
    for (RobustnessMetric m : options.extra_metrics)
      if (m == RobustnessMetric::kBrier || m == RobustnessMetric::kLogLoss)
        throw InvalidArgument(std::string("metric ") + RobustnessMetricName(m) +
                              " needs probabilities, and the linear learner's predictions are not; use mse or r2");

  // Players.
  std::vector<Player> players = options.players;
  if (players.empty()) {
    std::vector<std::size_t> columns = options.features;
    if (columns.empty())
      for (std::size_t j = 0; j < data.n_features(); ++j) columns.push_back(j);
    for (std::size_t i = 0; i < columns.size(); ++i) {
      PERFSHAP_CHECK(columns[i] < data.n_features(), "feature column " + std::to_string(columns[i]) +
                                                         " is out of range (" + source + " has " +
                                                         std::to_string(data.n_features()) + " features)");
      for (std::size_t j = 0; j < i; ++j)
        PERFSHAP_CHECK(columns[j] != columns[i],
                       "feature '" + data.feature_names()[columns[i]] + "' is listed twice; list each feature once");
    }
    players = SingleColumnPlayers(data, columns);
  }
  std::vector<std::size_t> columns;
  for (const Player& player : players) columns.insert(columns.end(), player.columns.begin(), player.columns.end());
  const std::size_t p = players.size();
  PERFSHAP_CHECK(p >= 1, source + " has no feature column to explain");
  if (p > static_cast<std::size_t>(limit))
    throw InvalidArgument(source + " has " + std::to_string(p) + " features: exact ShapAUC needs 2^" +
                          std::to_string(p) + " trainings per split, above the exact limit of " +
                          std::to_string(limit) + " features; select fewer features (--features) or raise " +
                          "--exact-limit (at most 30); there is no sampled solver for retraining games yet");
  const int n = static_cast<int>(p);

  // Data checks that name the culprit before any training.
  const auto label = data.label();
  if (label.size() != data.n_rows())
    throw DataError(source + ": the data has no label column; robustness needs a 0/1 label (--label)");
  for (std::size_t r = 0; r < label.size(); ++r)
    if (label[r] != 0.0 && label[r] != 1.0)
      throw DataError(source + ": label '" + data.label_name() + "' of data row " + std::to_string(r) + " is " +
                      Str(label[r]) + ", but the AUC needs a 0/1 label; name the positive class (--positive)");
  for (std::size_t c : columns) {
    const auto col = data.column(c);
    bool constant = true;
    for (std::size_t r = 1; r < col.size() && constant; ++r) constant = col[r] == col[0];
    if (constant && !col.empty() && !std::isnan(col[0]))
      throw DataError(source + ": feature '" + data.feature_names()[c] + "' is constant (all " +
                      std::to_string(col.size()) + " values are " + Str(col[0]) +
                      "); it cannot change any model: drop the column (--features)");
  }
  const std::size_t n_splits = plan.size();

  // The curves: both grids from DefaultCurveGrid(mode, grid_points) unless given.
  CurveGridOptions curve_options = options.curves;
  curve_options.auprc = AuprcDefinition::kTrapezoid;
  if (curve_options.fpr_grid.empty()) curve_options.fpr_grid = DefaultCurveGrid(curve_options.mode, options.grid_points);
  if (curve_options.recall_grid.empty())
    curve_options.recall_grid = DefaultCurveGrid(curve_options.mode, options.grid_points);
  const CurveGridEvaluator evaluator(curve_options);
  const std::size_t n_fpr = evaluator.fpr_grid().size();
  const std::size_t n_rec = evaluator.recall_grid().size();

  // One game per split.
  const std::uint64_t total = std::uint64_t{1} << n;
  const bool keep_coalitions = total * n_splits <= (std::uint64_t{1} << 22);
  RobustnessResult result;
  if (keep_coalitions) result.coalition_auc.assign(total * n_splits, 0.5);
  std::vector<double> baselines(n_splits, 0.5);
  std::vector<std::unique_ptr<detail::RetrainGame>> games;
  // Each game prepares its split's shared statistics (PreparedSplit) when the solver first
  // needs it, inside the solver's parallel pass; a failing split is reported as the solver
  // reports any block: the lowest one, whatever the thread count.
  // Per split, in parallel: the checks that name the culprit before any training (rows in
  // range, both classes in the test part), then its game. The error reported is the one of the
  // lowest failing split, whatever the thread count.
  games.resize(n_splits);
  std::vector<std::exception_ptr> failures(n_splits);
  detail::Schedule build(options.execution);
  build.ForEachBlock(n_splits, 0, [&](std::size_t r) {
    try {
      const Split& rows = plan[r];
      for (const auto* list : {&rows.train, &rows.test}) {
        std::size_t largest = 0;  // one check per list: a branch-free max
        for (std::size_t row : *list) largest = std::max(largest, row);
        if (largest >= data.n_rows())
          for (std::size_t row : *list)
            PERFSHAP_CHECK(row < data.n_rows(), SplitLabel(r, n_splits, options.plan_name) + ": row index " +
                                                    std::to_string(row) + " is out of range (" + source + " has " +
                                                    std::to_string(data.n_rows()) + " rows)");
      }
      std::size_t test_pos = 0;
      for (std::size_t row : rows.test) test_pos += static_cast<std::size_t>(label[row] == 1.0);
      if (rows.test.empty() || test_pos == 0 || test_pos == rows.test.size())
        throw DataError(source + ": the test part of " + SplitLabel(r, n_splits, options.plan_name) +
                        " holds one class only (all " + std::to_string(rows.test.size()) + " test labels are " +
                        (test_pos == 0 ? "negative" : "positive") +
                        "), so its AUC and curves are undefined; use --stratify, a larger --test-size or fewer folds");
      detail::RetrainGameSettings settings;
      settings.evaluator = &evaluator;
      settings.split_label = SplitLabel(r, n_splits, options.plan_name);
      if (options.prc_baseline == PrcBaseline::kPrevalence) baselines[r] = detail::TestPrevalence(label, plan[r].test);
      settings.prc_baseline = baselines[r];
      settings.extra_metrics = options.extra_metrics;
      settings.class_threshold = options.class_threshold;
      if (keep_coalitions) settings.coalition_auc = std::span<double>(result.coalition_auc).subspan(r * total, total);
      detail::SplitSource split;
      split.learner = &learner;
      split.data = &data;
      split.players = players;
      split.train_rows = plan[r].train;
      split.test_rows = plan[r].test;
      split.name = "the training rows of " + SplitLabel(r, n_splits, options.plan_name);
      games[r] = std::make_unique<detail::RetrainGame>(std::move(split), std::move(settings));
    } catch (...) {
      failures[r] = std::current_exception();
    }
  });
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
  std::vector<const Game*> game_ptrs;
  for (const auto& g : games) game_ptrs.push_back(g.get());
  const std::size_t k = games[0]->n_outputs();
  const std::size_t curve_outputs = games[0]->curve_outputs();
  const std::size_t auprc_at = games[0]->auprc_offset();
  const std::size_t prc_at = games[0]->prc_offset();

  SolverOptions solver_options;
  solver_options.max_players = limit;
  solver_options.execution = options.execution;
  const std::unique_ptr<Solver> solver = MakeSolver(options.solver, solver_options);

  // Bands over the splits, in split order (section 4.2): phi of every output, and the full
  // model's raw values (AUC, tpr at the FPR grid, precision at the recall grid, AUPRC, metrics),
  // taken from each split's values as the solver hands them over (in split order) and then
  // dropped.
  WelfordBands phi_band(p * k);
  WelfordBands full_band(k);
  const std::size_t n_extra = options.extra_metrics.size();
  WelfordBands base_band(n_extra);
  std::vector<double> raw(k);
  std::vector<double> raw_base(n_extra);
  // Per split, the grid trapezoid of each player's ShapROC and ShapPRC curve (what the authors'
  // ShapROC / ShapPRC scripts integrate, eqs. 9 and 12): players' ROC integrals, then PRC ones.
  WelfordBands integrated_band(2 * p);
  std::vector<double> integrated(2 * p);
  result.phi_auc_by_split.resize(n_splits * p);
  result.auc_by_split.resize(n_splits);
  solver->SolveBatch(game_ptrs, [&](std::size_t r, ShapleyValues&& sv) {
    phi_band.Add(sv.phi);
    raw[0] = sv.full[0] + 0.5;
    for (std::size_t j = 0; j < n_fpr; ++j) raw[1 + j] = sv.full[1 + j] + evaluator.fpr_grid()[j];
    for (std::size_t j = 0; j < n_rec; ++j) raw[prc_at + j] = sv.full[prc_at + j] + baselines[r];
    raw[auprc_at] = sv.full[auprc_at] + baselines[r];
    for (std::size_t e = 0; e < n_extra; ++e) {
      raw[curve_outputs + e] = sv.full[curve_outputs + e];
      raw_base[e] = sv.base[curve_outputs + e];
    }
    full_band.Add(raw);
    if (n_extra > 0) base_band.Add(raw_base);
    const std::span<const double> phi(sv.phi);
    for (std::size_t i = 0; i < p; ++i) {
      integrated[i] = GridTrapezoid(evaluator.fpr_grid(), phi.subspan(i * k + 1, n_fpr));
      integrated[p + i] = GridTrapezoid(evaluator.recall_grid(), phi.subspan(i * k + prc_at, n_rec));
    }
    integrated_band.Add(integrated);
    result.auc_by_split[r] = raw[0];
    for (std::size_t i = 0; i < p; ++i) result.phi_auc_by_split[r * p + i] = sv(static_cast<int>(i), 0);
    // Solved: its split's prepared statistics go (--select retrains on them later).
    if (!options.select) games[r]->ReleaseSplit();
  });
  const std::vector<double>& phi_mean = phi_band.mean();
  const std::vector<double> phi_std = phi_band.StdDev(0);
  const std::vector<double>& full_mean = full_band.mean();
  const std::vector<double> full_std = full_band.StdDev(0);

  result.features = games[0]->player_names();
  result.players = players;
  result.learner = learner.name();
  result.learner_params = learner.params();
  result.curves = evaluator.options();
  result.prc_baseline = options.prc_baseline;
  result.n_splits = n_splits;
  result.auc_mean = full_mean[0];
  result.auc_std = full_std[0];
  result.auprc_mean = full_mean[auprc_at];
  result.auprc_std = full_std[auprc_at];
  result.prc_baseline_mean = Band(baselines).first;
  result.fpr_grid.assign(evaluator.fpr_grid().begin(), evaluator.fpr_grid().end());
  result.recall_grid.assign(evaluator.recall_grid().begin(), evaluator.recall_grid().end());
  result.tpr_mean.assign(full_mean.begin() + 1, full_mean.begin() + 1 + static_cast<std::ptrdiff_t>(n_fpr));
  result.tpr_std.assign(full_std.begin() + 1, full_std.begin() + 1 + static_cast<std::ptrdiff_t>(n_fpr));
  const auto prc_begin = static_cast<std::ptrdiff_t>(prc_at);
  const auto prc_end = static_cast<std::ptrdiff_t>(prc_at + n_rec);
  result.precision_mean.assign(full_mean.begin() + prc_begin, full_mean.begin() + prc_end);
  result.precision_std.assign(full_std.begin() + prc_begin, full_std.begin() + prc_end);
  result.phi_auc_mean.resize(p);
  result.phi_auc_std.resize(p);
  result.phi_auprc_mean.resize(p);
  result.phi_auprc_std.resize(p);
  result.shap_roc_mean.resize(p * n_fpr);
  result.shap_roc_std.resize(p * n_fpr);
  result.shap_prc_mean.resize(p * n_rec);
  result.shap_prc_std.resize(p * n_rec);
  for (std::size_t i = 0; i < p; ++i) {
    const std::size_t row = i * k;
    result.phi_auc_mean[i] = phi_mean[row];
    result.phi_auc_std[i] = phi_std[row];
    result.phi_auprc_mean[i] = phi_mean[row + auprc_at];
    result.phi_auprc_std[i] = phi_std[row + auprc_at];
    for (std::size_t j = 0; j < n_fpr; ++j) {
      result.shap_roc_mean[i * n_fpr + j] = phi_mean[row + 1 + j];
      result.shap_roc_std[i * n_fpr + j] = phi_std[row + 1 + j];
    }
    for (std::size_t j = 0; j < n_rec; ++j) {
      result.shap_prc_mean[i * n_rec + j] = phi_mean[row + prc_at + j];
      result.shap_prc_std[i * n_rec + j] = phi_std[row + prc_at + j];
    }
  }
  const std::vector<double>& integrated_mean = integrated_band.mean();
  const std::vector<double> integrated_std = integrated_band.StdDev(0);
  const auto n_players = static_cast<std::ptrdiff_t>(p);
  result.shap_roc_integrated_mean.assign(integrated_mean.begin(), integrated_mean.begin() + n_players);
  result.shap_roc_integrated_std.assign(integrated_std.begin(), integrated_std.begin() + n_players);
  result.shap_prc_integrated_mean.assign(integrated_mean.begin() + n_players, integrated_mean.end());
  result.shap_prc_integrated_std.assign(integrated_std.begin() + n_players, integrated_std.end());
  const std::vector<double> base_mean = n_extra > 0 ? base_band.mean() : std::vector<double>{};
  const std::vector<double> base_std = n_extra > 0 ? base_band.StdDev(0) : std::vector<double>{};
  for (std::size_t e = 0; e < n_extra; ++e) {
    RobustnessMetricResult m;
    m.metric = options.extra_metrics[e];
    m.value_mean = full_mean[curve_outputs + e];
    m.value_std = full_std[curve_outputs + e];
    m.base_mean = base_mean[e];
    m.base_std = base_std[e];
    for (std::size_t i = 0; i < p; ++i) {
      m.phi_mean.push_back(phi_mean[i * k + curve_outputs + e]);
      m.phi_std.push_back(phi_std[i * k + curve_outputs + e]);
    }
    result.metrics.push_back(std::move(m));
  }

  // Eq. (12): phi_i^AUC ~ sum_k (f_k - f_{k-1}) (phi_i^{ROC,f_k} + phi_i^{ROC,f_{k-1}}) / 2,
  // the trapezoid integral of player i's ShapROC curve (the paper prints the sum with a minus
  // sign in its last line; its derivation, eq. (9), has the plus).
  result.eq12_integral.resize(p);
  result.eq12_difference.resize(p);
  for (std::size_t i = 0; i < p; ++i) {
    double integral = 0.0;
    const double* curve = result.shap_roc_mean.data() + i * n_fpr;
    for (std::size_t j = 1; j < n_fpr; ++j)
      integral += (result.fpr_grid[j] - result.fpr_grid[j - 1]) * (curve[j] + curve[j - 1]) / 2.0;
    result.eq12_integral[i] = integral;
    result.eq12_difference[i] = result.phi_auc_mean[i] - integral;
    result.eq12_gap = std::max(result.eq12_gap, std::abs(result.eq12_difference[i]));
  }

  // Section 4.4: flag features whose contribution is negative or whose band includes 0, and
  // retrain without them on the same splits.
  RobustnessSelection& sel = result.selection;
  for (std::size_t i = 0; i < p; ++i) {
    const double m = result.phi_auc_mean[i];
    if (m < 0.0 || std::abs(m) <= result.phi_auc_std[i]) sel.removed.push_back(i);
    else sel.kept.push_back(i);
  }
  std::tie(sel.auc_before_mean, sel.auc_before_std) = std::pair{result.auc_mean, result.auc_std};
  std::tie(sel.auprc_before_mean, sel.auprc_before_std) = std::pair{result.auprc_mean, result.auprc_std};
  sel.auc_after_mean = sel.auc_before_mean;
  sel.auc_after_std = sel.auc_before_std;
  sel.auprc_after_mean = sel.auprc_before_mean;
  sel.auprc_after_std = sel.auprc_before_std;
  std::uint64_t trainings = n_splits * (total - 1 + (n_extra > 0 ? 1 : 0));
  if (options.select && !sel.removed.empty()) {
    Coalition kept = 0;
    for (std::size_t i : sel.kept) kept |= Coalition{1} << i;
    std::vector<double> auc_after(n_splits), auprc_after(n_splits);
    detail::Schedule schedule(options.execution);
    schedule.ForEachBlock(n_splits, 0, [&](std::size_t r) {
      // The same game without the coalition sink: the main pass's values stay as they were.
      detail::RetrainGameSettings settings = games[r]->settings();
      settings.coalition_auc = {};
      const detail::RetrainGame game(games[r]->split(), std::move(settings));
      auto worker = game.MakeWorker();
      worker->Reset();  // a cold start: the retrained model does not depend on the main pass
      std::vector<double> out(k);
      worker->Evaluate(kept, out);
      auc_after[r] = out[0] + 0.5;
      auprc_after[r] = out[auprc_at] + baselines[r];
    });
    std::tie(sel.auc_after_mean, sel.auc_after_std) = Band(auc_after);
    std::tie(sel.auprc_after_mean, sel.auprc_after_std) = Band(auprc_after);
    sel.retrained = true;
    if (kept != 0) trainings += n_splits;
  }
  result.n_trainings = trainings;
  result.threads = ResolvedThreads(options.execution);
  result.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

}  // namespace perfshap
