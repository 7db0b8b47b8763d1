// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// RetrainGame and ExplainRobustness (ShapAUC / ShapROC / ShapPRC / ShapAUPRC by coalition
// retraining). Reference numbers:
// - tests/fixtures/refs/shapauc/banknote_gnb_seed0.json: sklearn 1.2.1 GaussianNB on banknote, every
//   coalition's test AUC and the ShapAUC values (see its README);
// - tests/fixtures/shaproc_banknote_peer.json: the authors' 101-threshold procedure on that split:
//   the coalitions' own areas and their Shapley values (ShapAUC / ShapAUPRC scripts), and for the
//   three strategies the ShapROC / ShapPRC curves and their grid integrals, written by
//     /usr/bin/python3 bench/peer_shaproc_authors.py banknote --json tests/fixtures/shaproc_banknote_peer.json
//   (sklearn 1.2.1 GaussianNB().fit(...).predict_proba(...)[:, 1] per coalition, the reference's
//   train-row order; exact Shapley formula in Python).
#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/vector_kernels.hpp"
#include "games/retrain_game.hpp"
#include "support/learners.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/split.hpp"
#include "support/shapley_properties.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

nlohmann::json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

struct BanknoteCase {
  Dataset data;
  nlohmann::json ref;
  Split split;  // the reference's rows, train rows in its (shuffled) order
};

void LoadBanknote(BanknoteCase& c) {
  const std::string ref_path = testing::FixturePath("refs/shapauc/banknote_gnb_seed0.json");
  const std::string data_path = testing::FixturePath("data/banknote.csv");
  CsvOptions csv;
  csv.label = "label";
  c.data = ReadCsv(data_path, csv);
  c.ref = ReadJson(ref_path);
  c.split.train = c.ref["train_rows"].get<std::vector<std::size_t>>();
  c.split.test = c.ref["test_rows"].get<std::vector<std::size_t>>();
}

std::string Sci(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", v);
  return buf;
}

bool OneLine(const std::string& s) { return s.find('\n') == std::string::npos && !s.empty(); }

// A copy of `data` with column `source` duplicated as "<name>_copy" at position `at`.
Dataset WithDuplicate(const Dataset& data, std::size_t source, std::size_t at) {
  std::vector<std::string> names;
  std::vector<std::vector<double>> cols;
  for (std::size_t j = 0; j < data.n_features(); ++j) {
    if (j == at) {
      names.push_back(data.feature_names()[source] + "_copy");
      cols.emplace_back(data.column(source).begin(), data.column(source).end());
    }
    names.push_back(data.feature_names()[j]);
    cols.emplace_back(data.column(j).begin(), data.column(j).end());
  }
  Dataset out(names, std::move(cols), std::vector<double>(data.label().begin(), data.label().end()), "label");
  out.set_source("banknote with a duplicate");
  return out;
}

// Acceptance of issue 3: every coalition AUC and every phi equal the reference to 1e-9;
// efficiency sum phi = AUC - 0.5 to 1e-12. Both with the reference's train-row order and with
// the sorted order of --split files.
TEST(RetrainGame, BanknoteEveryCoalitionAucAndPhiMatchReference) {
  BanknoteCase c;
  LoadBanknote(c);
  const auto auc = c.ref["auc_by_coalition_bitmask"]["auc"].get<std::vector<double>>();
  const std::vector<std::string> names{"variance", "skewness", "curtosis", "entropy"};
  for (bool sorted : {false, true}) {
    Split split = c.split;
    if (sorted) std::sort(split.train.begin(), split.train.end());
    const RobustnessResult r = ExplainRobustness(c.data, {split}, RobustnessOptions{});
    ASSERT_EQ(r.features, names);
    ASSERT_EQ(r.coalition_auc.size(), 16U);
    double max_auc_err = 0.0;
    for (std::size_t s = 0; s < 16; ++s) {
      max_auc_err = std::max(max_auc_err, std::abs(r.coalition_auc[s] - auc[s]));
      EXPECT_NEAR(r.coalition_auc[s], auc[s], 1e-9) << "coalition " << s;
    }
    double max_phi_err = 0.0;
    double sum = 0.0;
    for (std::size_t i = 0; i < 4; ++i) {
      const double ref = c.ref["phi"][names[i]].get<double>();
      max_phi_err = std::max(max_phi_err, std::abs(r.phi_auc_mean[i] - ref));
      EXPECT_NEAR(r.phi_auc_mean[i], ref, 1e-9) << names[i];
      EXPECT_EQ(r.phi_auc_std[i], 0.0);
      sum += r.phi_auc_mean[i];
    }
    EXPECT_NEAR(r.auc_mean, c.ref["full"]["auc"].get<double>(), 1e-9);
    EXPECT_NEAR(sum, r.auc_mean - 0.5, 1e-12);
    EXPECT_EQ(r.auc_std, 0.0);
    EXPECT_EQ(r.n_trainings, 15U);
    RecordProperty(sorted ? "max_err_sorted" : "max_err",
                   Sci(max_auc_err) + " " + Sci(max_phi_err));
  }
}

// Efficiency for every output of the vector game (AUC, each ROC and PR grid point, AUPRC,
// extra metrics), at the game level.
TEST(RetrainGame, EfficiencyHoldsForEveryOutput) {
  BanknoteCase c;
  LoadBanknote(c);
  const std::vector<std::size_t> columns{0, 1, 2, 3};
  const auto split_ptr = testing::PrepareSplit("gnb", c.data, columns, c.split.train, c.split.test);
    const PreparedSplit& split = *split_ptr;
  CurveGridOptions curve_options;
  curve_options.fpr_grid = DefaultCurveGrid(CurveMode::kExact, 21);
  curve_options.recall_grid = DefaultCurveGrid(CurveMode::kExact, 11);
  const CurveGridEvaluator evaluator(curve_options);
  detail::RetrainGameSettings settings;
  settings.evaluator = &evaluator;
  settings.extra_metrics = {&FindMetric("brier", "robustness"), &FindMetric("accuracy", "robustness")};
  const detail::RetrainGame game(split, settings);
  ASSERT_EQ(game.n_outputs(), 2U + 21U + 11U + 2U);
  const ShapleyValues values = ExactSolver().Solve(game);
  EXPECT_TRUE(testing::CheckEfficiency(game, values, 1e-12));
  // v(empty): curve payoffs 0 (random classifier); metrics of the prior-only model.
  for (std::size_t k = 0; k < game.curve_outputs(); ++k) EXPECT_EQ(values.base[k], 0.0) << k;
  const auto y = split.test_labels();
  double prior = 0.0;
  for (std::size_t r : c.split.train) prior += c.data.label()[r];
  prior /= static_cast<double>(c.split.train.size());
  const std::vector<double> constant(y.size(), prior);
  EXPECT_NEAR(values.base[game.curve_outputs()], Brier(y, constant), 1e-12);
  const std::vector<double> zeros(y.size(), prior > 0.5 ? 1.0 : 0.0);
  EXPECT_NEAR(values.base[game.curve_outputs() + 1], Accuracy(y, zeros), 1e-15);
}

// Acceptance: --curve-points thresholds:101 reproduces the authors' scripts for the three
// strategies: phi / phi_auprc are the Shapley values of each coalition's own areas (their
// ShapAUC / ShapAUPRC scripts, the same for every strategy), the ShapROC / ShapPRC curves and
// their grid integrals those of their ShapROC / ShapPRC scripts. perfshap's GaussianNB
// probabilities equal sklearn's to the last bits or so; the 101-threshold counts then agree
// exactly (no probability lies within rounding of a threshold), so the numbers agree to the
// trapezoids' and the Shapley sums' rounding.
TEST(RetrainGame, ThresholdsModeReproducesTheAuthorsScripts) {
  BanknoteCase c;
  LoadBanknote(c);
  const auto peer = ReadJson(testing::FixturePath("shaproc_banknote_peer.json"));
  double max_err = 0.0;
  std::vector<RobustnessResult> runs;
  for (const char* strategy : {"optimistic", "pessimistic", "interpolation"}) {
    RobustnessOptions options;
    ParseCurvePoints("thresholds:101", options.curves);
    options.curves.strategy = ParseGridStrategy(strategy);
    const RobustnessResult r = ExplainRobustness(c.data, {c.split}, options);
    const auto& ref = peer[strategy];
    const auto check = [&](double got, double want, const std::string& what) {
      max_err = std::max(max_err, std::abs(got - want));
      EXPECT_NEAR(got, want, 1e-13) << strategy << " " << what;
    };
    const auto auc_gain = peer["coalition_auc_gain"].get<std::vector<double>>();
    for (std::size_t s = 0; s < 16; ++s) check(r.coalition_auc[s] - 0.5, auc_gain[s], "coalition " + std::to_string(s));
    ASSERT_EQ(r.fpr_grid, peer["grid"].get<std::vector<double>>());
    double sum_auc = 0.0;
    double sum_auprc = 0.0;
    for (std::size_t i = 0; i < 4; ++i) {
      const std::string f = r.features[i];
      check(r.phi_auc_mean[i], peer["phi_auc"][i].get<double>(), "phi_auc " + f);
      check(r.phi_auprc_mean[i], peer["phi_auprc"][i].get<double>(), "phi_auprc " + f);
      check(r.shap_roc_integrated_mean[i], ref["shap_roc_integrated"][i].get<double>(),
            "shap_roc_integrated " + f);
      check(r.shap_prc_integrated_mean[i], ref["shap_prc_integrated"][i].get<double>(),
            "shap_prc_integrated " + f);
      EXPECT_EQ(r.shap_roc_integrated_std[i], 0.0);
      for (std::size_t j = 0; j < 101; ++j) {
        check(r.shap_roc_mean[i * 101 + j], ref["shap_roc"][i][j].get<double>(), "shap_roc " + f + " " + std::to_string(j));
        check(r.shap_prc_mean[i * 101 + j], ref["shap_prc"][i][j].get<double>(), "shap_prc " + f + " " + std::to_string(j));
      }
      sum_auc += r.phi_auc_mean[i];
      sum_auprc += r.phi_auprc_mean[i];
    }
    // Efficiency: the own areas of the full model, AUC = 0.5 + sum phi, AUPRC = 0.5 + sum phi.
    EXPECT_NEAR(r.auc_mean, 0.5 + peer["coalition_auc_gain"][15].get<double>(), 1e-15);
    EXPECT_NEAR(r.auprc_mean, 0.5 + peer["coalition_auprc_gain"][15].get<double>(), 1e-15);
    EXPECT_NEAR(sum_auc, r.auc_mean - 0.5, 1e-15);
    EXPECT_NEAR(sum_auprc, r.auprc_mean - 0.5, 1e-15);
    // Eq. (12): the grid integral of the mean ShapROC curve is shap_roc_integrated (one split).
    for (std::size_t i = 0; i < 4; ++i)
      EXPECT_NEAR(r.eq12_integral[i], r.shap_roc_integrated_mean[i], 1e-15) << strategy;
    runs.push_back(r);
  }
  // Strategy independence of the own areas: bitwise, while the integrated curves do depend on it.
  for (std::size_t t = 1; t < runs.size(); ++t) {
    EXPECT_EQ(runs[t].phi_auc_mean, runs[0].phi_auc_mean);
    EXPECT_EQ(runs[t].phi_auprc_mean, runs[0].phi_auprc_mean);
    EXPECT_EQ(runs[t].coalition_auc, runs[0].coalition_auc);
    EXPECT_EQ(runs[t].auprc_mean, runs[0].auprc_mean);
    EXPECT_GT(std::abs(runs[t].shap_roc_integrated_mean[0] - runs[0].shap_roc_integrated_mean[0]), 1e-3);
  }
  RecordProperty("max_err", Sci(max_err));
}

// The authors' ShapAUC / ShapAUPRC scripts written out literally for one coalition's
// probabilities: thresholds j * 0.01, positive iff p > t, the (x, y) points sorted by x with
// equal x merged into the largest y, closed at x = 1 (ROC (1, 1), PR (1, prevalence)), then the
// trapezoid of (TPR - FPR) over FPR and of (precision - b) over recall.
std::pair<double, double> ScriptOwnAreas(std::span<const double> y, std::span<const double> p, double b) {
  double positives = 0.0;
  for (const double v : y) positives += v;
  const double negatives = static_cast<double>(y.size()) - positives;
  std::vector<std::pair<double, double>> roc;
  std::vector<std::pair<double, double>> pr;
  for (int j = 0; j <= 100; ++j) {
    const double t = j * 0.01;
    double tp = 0.0;
    double fp = 0.0;
    for (std::size_t r = 0; r < y.size(); ++r)
      if (p[r] > t) (y[r] == 1.0 ? tp : fp) += 1.0;
    roc.emplace_back(fp / negatives, tp / positives);
    pr.emplace_back(tp / positives, tp + fp > 0.0 ? tp / (tp + fp) : 1.0);
  }
  const auto area = [](std::vector<std::pair<double, double>> points, double closing_y, bool minus_x,
                       double shift) {
    std::sort(points.begin(), points.end());
    std::vector<std::pair<double, double>> knots;
    for (const auto& q : points) {
      if (!knots.empty() && knots.back().first == q.first)
        knots.back().second = std::max(knots.back().second, q.second);
      else
        knots.push_back(q);
    }
    if (knots.back().first < 1.0) knots.emplace_back(1.0, closing_y);
    double sum = 0.0;
    for (std::size_t k = 1; k < knots.size(); ++k) {
      const double f0 = knots[k - 1].second - (minus_x ? knots[k - 1].first : shift);
      const double f1 = knots[k].second - (minus_x ? knots[k].first : shift);
      sum += (knots[k].first - knots[k - 1].first) * (f0 + f1) / 2.0;
    }
    return sum;
  };
  return {area(roc, 1.0, true, 0.0), area(pr, positives / static_cast<double>(y.size()), false, b)};
}

// Thresholds mode, brute force: phi and phi_auprc are the Shapley values (formula written out)
// of the coalitions' own areas computed literally from each coalition's probabilities, for both
// baselines b (0.5, and the split's test prevalence: v(A) = trapz(precision - b, recall)), for
// every strategy (bitwise the same); efficiency: sum phi = area(N) - area(empty) = AUC - 0.5.
TEST(RetrainGame, ThresholdsModePhiIsShapleyOfOwnAreasForEveryStrategy) {
  ProbitDesign design;
  design.n_rows = 300;
  design.variances = {1.0, 1.5, 0.7, 1.0};
  design.beta = {-0.3, 0.7, -0.4, 0.2, 0.0};
  const Dataset data = GenerateProbitDesign(design);
  const Split split = HoldoutSplit(data.n_rows(), 0.3, 3, data.label());
  const std::vector<std::size_t> columns{0, 1, 2, 3};
  constexpr int n = 4;
  const auto prepared_ptr = testing::PrepareSplit("gnb", data, columns, split.train, split.test);
  const PreparedSplit& prepared = *prepared_ptr;
  const auto trainer = prepared.MakeFitter();
  const auto y = prepared.test_labels();
  const double prevalence = detail::TestPrevalence(prepared);
  for (const PrcBaseline baseline : {PrcBaseline::kHalf, PrcBaseline::kPrevalence}) {
    const double b = baseline == PrcBaseline::kHalf ? 0.5 : prevalence;
    std::vector<double> v_auc(1 << n, 0.0);
    std::vector<double> v_auprc(1 << n, 0.0);
    std::vector<double> p(y.size());
    for (Coalition s = 1; s < (Coalition{1} << n); ++s) {
      trainer->Score(s, p, ScoreScale::kProbability);
      std::tie(v_auc[s], v_auprc[s]) = ScriptOwnAreas(y, p, b);
    }
    std::vector<RobustnessResult> runs;
    for (const char* strategy : {"optimistic", "pessimistic", "interpolation"}) {
      RobustnessOptions options;
      ParseCurvePoints("thresholds:101", options.curves);
      options.curves.strategy = ParseGridStrategy(strategy);
      options.prc_baseline = baseline;
      runs.push_back(ExplainRobustness(data, {split}, options));
    }
    const RobustnessResult& r = runs[0];
    const auto factorial = [](int m) {
      double f = 1.0;
      for (int j = 2; j <= m; ++j) f *= j;
      return f;
    };
    double sum_auc = 0.0;
    double sum_auprc = 0.0;
    for (int i = 0; i < n; ++i) {
      double phi_auc = 0.0;
      double phi_auprc = 0.0;
      for (Coalition s = 0; s < (Coalition{1} << n); ++s) {
        if ((s >> i) & 1U) continue;
        const int size = std::popcount(s);
        const double w = factorial(size) * factorial(n - size - 1) / factorial(n);
        phi_auc += w * (v_auc[s | (Coalition{1} << i)] - v_auc[s]);
        phi_auprc += w * (v_auprc[s | (Coalition{1} << i)] - v_auprc[s]);
      }
      EXPECT_NEAR(r.phi_auc_mean[i], phi_auc, 1e-14) << i;
      EXPECT_NEAR(r.phi_auprc_mean[i], phi_auprc, 1e-14) << i;
      sum_auc += r.phi_auc_mean[i];
      sum_auprc += r.phi_auprc_mean[i];
    }
    const Coalition all = (Coalition{1} << n) - 1;
    EXPECT_NEAR(sum_auc, v_auc[all], 1e-14);
    EXPECT_NEAR(sum_auprc, v_auprc[all], 1e-14);
    EXPECT_NEAR(r.auc_mean - 0.5, v_auc[all], 1e-15);
    EXPECT_NEAR(r.auprc_mean - b, v_auprc[all], 1e-15);
    for (Coalition s = 1; s <= all; ++s) EXPECT_NEAR(r.coalition_auc[s] - 0.5, v_auc[s], 1e-15) << s;
    for (std::size_t t = 1; t < runs.size(); ++t) {
      EXPECT_EQ(runs[t].phi_auc_mean, r.phi_auc_mean);
      EXPECT_EQ(runs[t].phi_auprc_mean, r.phi_auprc_mean);
      EXPECT_EQ(runs[t].auc_mean, r.auc_mean);
      EXPECT_EQ(runs[t].auprc_mean, r.auprc_mean);
      EXPECT_EQ(runs[t].coalition_auc, r.coalition_auc);
      EXPECT_NE(runs[t].shap_roc_integrated_mean, r.shap_roc_integrated_mean);  // this one reads the grid
    }
  }
}

// shap_roc_integrated / shap_prc_integrated in exact mode: per split the grid trapezoid of each
// player's ShapROC / ShapPRC curve, mean and std over the splits. Checked against the curves of
// each split solved alone (numpy trapz written out, population std over the splits); the mean is
// Eq. (12)'s integral of the mean curve, and it is not phi^AUC (the exact AUC is no grid integral).
TEST(RetrainGame, IntegratedCurvesAreTheGridTrapezoidPerSplitWithBands) {
  ProbitDesign design;
  design.n_rows = 400;
  design.variances = {1.0, 1.0, 2.0};
  design.beta = {0.1, 0.6, -0.5, 0.3};
  const Dataset data = GenerateProbitDesign(design);
  const SplitPlan plan = MonteCarloSplits(data.n_rows(), 5, 0.25, 9, data.label());
  RobustnessOptions options;
  options.grid_points = 21;
  const RobustnessResult r = ExplainRobustness(data, plan, options);
  const std::size_t p = r.n_features();
  const std::size_t g = r.fpr_grid.size();
  ASSERT_EQ(g, 21U);
  ASSERT_EQ(r.shap_roc_integrated_mean.size(), p);
  ASSERT_EQ(r.shap_prc_integrated_std.size(), p);
  const auto trapz = [](const std::vector<double>& x, const double* f) {
    double sum = 0.0;
    for (std::size_t k = 1; k < x.size(); ++k) sum += (x[k] - x[k - 1]) * (f[k] + f[k - 1]) / 2.0;
    return sum;
  };
  std::vector<std::vector<double>> roc(p), prc(p);
  for (const Split& split : plan) {
    const RobustnessResult alone = ExplainRobustness(data, {split}, options);
    for (std::size_t i = 0; i < p; ++i) {
      roc[i].push_back(trapz(alone.fpr_grid, alone.shap_roc_mean.data() + i * g));
      prc[i].push_back(trapz(alone.recall_grid, alone.shap_prc_mean.data() + i * g));
    }
  }
  const auto mean_std = [](const std::vector<double>& v) {
    double mean = 0.0;
    for (const double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    double var = 0.0;
    for (const double x : v) var += (x - mean) * (x - mean);
    return std::pair{mean, std::sqrt(var / static_cast<double>(v.size()))};
  };
  double largest_gap = 0.0;
  for (std::size_t i = 0; i < p; ++i) {
    const auto [roc_mean, roc_std] = mean_std(roc[i]);
    const auto [prc_mean, prc_std] = mean_std(prc[i]);
    EXPECT_NEAR(r.shap_roc_integrated_mean[i], roc_mean, 1e-14) << i;
    EXPECT_NEAR(r.shap_roc_integrated_std[i], roc_std, 1e-14) << i;
    EXPECT_NEAR(r.shap_prc_integrated_mean[i], prc_mean, 1e-14) << i;
    EXPECT_NEAR(r.shap_prc_integrated_std[i], prc_std, 1e-14) << i;
    EXPECT_GT(roc_std, 1e-4) << i;  // the bands are real, not a copy of one split
    EXPECT_NEAR(r.shap_roc_integrated_mean[i], r.eq12_integral[i], 1e-14) << i;
    EXPECT_NEAR(r.shap_roc_integrated_mean[i], trapz(r.fpr_grid, r.shap_roc_mean.data() + i * g), 1e-14) << i;
    EXPECT_NEAR(r.shap_prc_integrated_mean[i], trapz(r.recall_grid, r.shap_prc_mean.data() + i * g), 1e-14)
        << i;
    largest_gap = std::max(largest_gap, std::abs(r.shap_roc_integrated_mean[i] - r.phi_auc_mean[i]));
  }
  EXPECT_GT(largest_gap, 1e-6);
  EXPECT_NEAR(largest_gap, r.eq12_gap, 1e-14);
}

// Section 4.4 / Fig. 12: a duplicated feature is a symmetric player and gets the same value for
// every output. The copy sits next to its original, so that both enter the naive Bayes sums at
// the same place and the two coalitions' models are bitwise equal.
TEST(RetrainGame, DuplicatedFeatureGetsTheSamePhi) {
  BanknoteCase c;
  LoadBanknote(c);
  const Dataset dup = WithDuplicate(c.data, 0, 1);  // variance, variance_copy, skewness, ...
  const std::vector<std::size_t> columns{0, 1, 2, 3, 4};
  const auto split_ptr = testing::PrepareSplit("gnb", dup, columns, c.split.train, c.split.test);
    const PreparedSplit& split = *split_ptr;
  CurveGridOptions curve_options;
  curve_options.fpr_grid = DefaultCurveGrid(CurveMode::kExact, 11);
  curve_options.recall_grid = DefaultCurveGrid(CurveMode::kExact, 11);
  const CurveGridEvaluator evaluator(curve_options);
  detail::RetrainGameSettings settings;
  settings.evaluator = &evaluator;
  const detail::RetrainGame game(split, settings);
  const ShapleyValues values = ExactSolver().Solve(game);
  EXPECT_TRUE(testing::CheckSymmetry(game, values, 0, 1, 1e-12));
  EXPECT_TRUE(testing::CheckEfficiency(game, values, 1e-12));

  // Through the one-call API, with Monte-Carlo bands: equal means and equal stds.
  const SplitPlan plan = MonteCarloSplits(dup.n_rows(), 5, 0.2, 11);
  const RobustnessResult r = ExplainRobustness(dup, plan, RobustnessOptions{});
  EXPECT_NEAR(r.phi_auc_mean[0], r.phi_auc_mean[1], 1e-12);
  EXPECT_NEAR(r.phi_auc_std[0], r.phi_auc_std[1], 1e-12);
  for (std::size_t j = 0; j < r.fpr_grid.size(); ++j)
    EXPECT_NEAR(r.shap_roc_mean[j], r.shap_roc_mean[r.fpr_grid.size() + j], 1e-12) << j;
}

// Thread-count independence: every number of a Monte-Carlo run is bitwise the same on 1, 2 and
// 4 threads (gnb on banknote; logistic with warm starts on the probit design).
TEST(RetrainGame, MonteCarloBandsAreBitwiseIdenticalForOneTwoFourThreads) {
  ProbitDesign design;
  design.n_rows = 400;
  design.variances = {1.2, 1.0, 1.0, 0.5, 2.0, 1.0};
  design.beta = {0.05, 0.5, 0.5, 0.0, 0.3, -0.2, 0.0};
  const Dataset probit = GenerateProbitDesign(design);
  BanknoteCase c;
  LoadBanknote(c);
  for (const std::string learner : {"gnb", "logistic"}) {
    const Dataset& data = learner == "gnb" ? c.data : probit;
    const SplitPlan plan = MonteCarloSplits(data.n_rows(), 7, 0.25, 5, data.label());
    std::vector<RobustnessResult> runs;
    for (int threads : {1, 2, 4}) {
      RobustnessOptions options;
      options.learner = MakeLearner(learner);
      options.extra_metrics = {"brier"};
      options.select = true;
      // A host's arena of that size: `threads` alone is capped at the machine's cores, and the
      // 4-thread case must run on 4 workers on a 2-core machine too.
      tbb::task_arena arena(threads);
      options.execution.arena = &arena;
      runs.push_back(ExplainRobustness(data, plan, options));
    }
    for (std::size_t t = 1; t < runs.size(); ++t) {
      const RobustnessResult& a = runs[0];
      const RobustnessResult& b = runs[t];
      EXPECT_EQ(a.auc_mean, b.auc_mean);
      EXPECT_EQ(a.auc_std, b.auc_std);
      EXPECT_EQ(a.phi_auc_mean, b.phi_auc_mean);
      EXPECT_EQ(a.phi_auc_std, b.phi_auc_std);
      EXPECT_EQ(a.phi_auc_by_split, b.phi_auc_by_split);
      EXPECT_EQ(a.phi_auprc_mean, b.phi_auprc_mean);
      EXPECT_EQ(a.phi_auprc_std, b.phi_auprc_std);
      EXPECT_EQ(a.tpr_mean, b.tpr_mean);
      EXPECT_EQ(a.tpr_std, b.tpr_std);
      EXPECT_EQ(a.precision_mean, b.precision_mean);
      EXPECT_EQ(a.precision_std, b.precision_std);
      EXPECT_EQ(a.shap_roc_mean, b.shap_roc_mean);
      EXPECT_EQ(a.shap_roc_std, b.shap_roc_std);
      EXPECT_EQ(a.shap_prc_mean, b.shap_prc_mean);
      EXPECT_EQ(a.shap_prc_std, b.shap_prc_std);
      EXPECT_EQ(a.shap_roc_integrated_mean, b.shap_roc_integrated_mean);
      EXPECT_EQ(a.shap_roc_integrated_std, b.shap_roc_integrated_std);
      EXPECT_EQ(a.shap_prc_integrated_mean, b.shap_prc_integrated_mean);
      EXPECT_EQ(a.shap_prc_integrated_std, b.shap_prc_integrated_std);
      EXPECT_EQ(a.coalition_auc, b.coalition_auc);
      EXPECT_EQ(a.metrics[0].phi_mean, b.metrics[0].phi_mean);
      EXPECT_EQ(a.metrics[0].phi_std, b.metrics[0].phi_std);
      EXPECT_EQ(a.selection.removed, b.selection.removed);
      EXPECT_EQ(a.selection.auc_after_mean, b.selection.auc_after_mean);
      EXPECT_EQ(a.selection.auc_after_std, b.selection.auc_after_std);
      EXPECT_EQ(a.threads, 1);
      EXPECT_EQ(b.threads, t == 1 ? 2 : 4);
    }
  }
}

// A worker handed from one game to another (MakeWorkerFrom, as the solver does when a thread
// moves on) gives a fresh worker's values: GaussianNB (ranked and with a metric of the
// probabilities, so both paths) and logistic (warm starts), splits of different sizes, two
// evaluators.
TEST(RetrainGame, ReboundWorkerEqualsFreshWorker) {
  ProbitDesign design;
  design.n_rows = 300;
  design.variances = {1.2, 1.0, 1.0, 0.5, 2.0};
  design.beta = {0.05, 0.5, 0.5, 0.0, 0.3, -0.2};
  const Dataset data = GenerateProbitDesign(design);
  const std::vector<std::size_t> columns{0, 1, 2, 3, 4};
  const SplitPlan plan = KFoldSplits(data.n_rows(), 7, 2, data.label());  // test parts of 42 / 43 rows
  CurveGridOptions narrow;
  narrow.fpr_grid = DefaultCurveGrid(CurveMode::kExact, 11);
  narrow.recall_grid = DefaultCurveGrid(CurveMode::kExact, 5);
  const CurveGridEvaluator wide_evaluator{CurveGridOptions{}};
  const CurveGridEvaluator narrow_evaluator(narrow);
  for (const std::string learner : {"gnb", "logistic"}) {
    for (bool metric : {false, true}) {
      std::vector<std::unique_ptr<PreparedSplit>> splits;
      std::vector<std::unique_ptr<detail::RetrainGame>> games;
      for (std::size_t r = 0; r < 3; ++r) {
        splits.push_back(testing::PrepareSplit(learner, data, columns, plan[r].train, plan[r].test));
        detail::RetrainGameSettings settings;
        settings.evaluator = r == 1 ? &narrow_evaluator : &wide_evaluator;
        if (metric) settings.extra_metrics = {&FindMetric("brier", "robustness")};
        games.push_back(std::make_unique<detail::RetrainGame>(*splits.back(), settings));
      }
      // One worker through games 0, 1, 2, 0 (every coalition of each before moving on),
      // against a fresh worker per game.
      std::unique_ptr<GameWorker> moving = games[0]->MakeWorker();
      const Coalition total = Coalition{1} << columns.size();
      for (std::size_t g : {0, 1, 2, 0}) {
        moving = games[g]->MakeWorkerFrom(std::move(moving));
        const auto fresh = games[g]->MakeWorker();
        std::vector<double> a(games[g]->n_outputs()), b(games[g]->n_outputs());
        moving->Reset();
        fresh->Reset();
        for (Coalition r = 0; r < total; ++r) {
          const Coalition s = GrayCode(r);
          moving->Evaluate(s, a);
          fresh->Evaluate(s, b);
          ASSERT_EQ(a, b) << learner << (metric ? " with a metric" : "") << " game " << g
                          << " coalition " << s;
        }
      }
    }
  }
}

// The AVX2 / AVX-512 kernels (GaussianNB moments, ranking keys and sort) give the portable
// path's bits: the whole computation with the kernels on and off. On a CPU without them (or with
// PERFSHAP_NO_VECTOR_KERNELS=1) both runs take the portable path, which must then repeat its bits.
TEST(RetrainGame, VectorKernelsGiveThePortableBits) {
  ProbitDesign design;
  design.n_rows = 600;
  design.variances = {1.2, 1.0, 1.0, 0.5, 2.0, 1.0};  // six players: a block of four and one of two
  design.beta = {0.05, 0.5, 0.5, 0.0, 0.3, -0.2, 0.0};
  const Dataset probit = GenerateProbitDesign(design);
  BanknoteCase c;
  LoadBanknote(c);
  std::vector<const Dataset*> sets{&probit, &c.data};
  for (const Dataset* data : sets) {
    const SplitPlan plan = MonteCarloSplits(data->n_rows(), 5, 0.25, 3, data->label());
    RobustnessOptions options;
    options.learner = MakeLearner("gnb");
    options.extra_metrics = {"brier"};
    const RobustnessResult vector = ExplainRobustness(*data, plan, options);
    detail::EnableVectorKernels(false);
    const RobustnessResult portable = ExplainRobustness(*data, plan, options);
    detail::EnableVectorKernels(true);
    EXPECT_EQ(vector.phi_auc_by_split, portable.phi_auc_by_split);
    EXPECT_EQ(vector.auc_by_split, portable.auc_by_split);
    EXPECT_EQ(vector.coalition_auc, portable.coalition_auc);
    EXPECT_EQ(vector.shap_roc_mean, portable.shap_roc_mean);
    EXPECT_EQ(vector.shap_prc_mean, portable.shap_prc_mean);
    EXPECT_EQ(vector.phi_auprc_mean, portable.phi_auprc_mean);
    EXPECT_EQ(vector.tpr_mean, portable.tpr_mean);
    EXPECT_EQ(vector.precision_mean, portable.precision_mean);
    EXPECT_EQ(vector.metrics[0].phi_mean, portable.metrics[0].phi_mean);
  }
}

// Bands: the mean and ddof-0 std over the splits of the per-split values; every split's phi sums
// to its AUC - 0.5.
TEST(RetrainGame, BandsAreMeanAndPopulationStdOverSplits) {
  ProbitDesign design;
  design.n_rows = 300;
  const Dataset data = GenerateProbitDesign(design);
  const SplitPlan plan = KFoldSplits(data.n_rows(), 5, 3, data.label());
  const RobustnessResult r = ExplainRobustness(data, plan, RobustnessOptions{});
  ASSERT_EQ(r.n_splits, 5U);
  const std::size_t p = r.n_features();
  for (std::size_t i = 0; i < p; ++i) {
    double mean = 0.0;
    for (std::size_t s = 0; s < 5; ++s) mean += r.phi_auc_by_split[s * p + i];
    mean /= 5.0;
    double var = 0.0;
    for (std::size_t s = 0; s < 5; ++s) var += std::pow(r.phi_auc_by_split[s * p + i] - mean, 2);
    EXPECT_NEAR(r.phi_auc_mean[i], mean, 1e-15);
    EXPECT_NEAR(r.phi_auc_std[i], std::sqrt(var / 5.0), 1e-15);
  }
  for (std::size_t s = 0; s < 5; ++s) {
    double sum = 0.0;
    for (std::size_t i = 0; i < p; ++i) sum += r.phi_auc_by_split[s * p + i];
    EXPECT_NEAR(sum, r.auc_by_split[s] - 0.5, 1e-12);
  }
  EXPECT_GT(r.auc_std, 0.0);
  // Exact mode: the trapezoid of the ShapROC curves over the 101-point grid approximates phi^AUC.
  EXPECT_LT(r.eq12_gap, 0.01);
}

// --prc-baseline prevalence: precision payoffs relative to the test prevalence; the empty
// coalition's precision is that prevalence.
TEST(RetrainGame, PrevalenceBaselineShiftsPrecisionPayoffs) {
  ProbitDesign design;
  design.n_rows = 500;
  design.beta = {-1.0, 0.8, 0.5, 0.0};  // about 25 % positives
  const Dataset data = GenerateProbitDesign(design);
  const Split split = HoldoutSplit(data.n_rows(), 0.3, 1, data.label());
  RobustnessOptions half;
  RobustnessOptions prevalence;
  prevalence.prc_baseline = PrcBaseline::kPrevalence;
  const RobustnessResult a = ExplainRobustness(data, {split}, half);
  const RobustnessResult b = ExplainRobustness(data, {split}, prevalence);
  double positives = 0.0;
  for (std::size_t row : split.test) positives += data.label()[row];
  const double prev = positives / static_cast<double>(split.test.size());
  EXPECT_DOUBLE_EQ(b.prc_baseline_mean, prev);
  EXPECT_EQ(a.auprc_mean, b.auprc_mean);  // the raw AUPRC does not depend on b
  double sum_a = 0.0;
  double sum_b = 0.0;
  for (std::size_t i = 0; i < a.n_features(); ++i) {
    sum_a += a.phi_auprc_mean[i];
    sum_b += b.phi_auprc_mean[i];
  }
  EXPECT_NEAR(sum_a, a.auprc_mean - 0.5, 1e-12);
  EXPECT_NEAR(sum_b, b.auprc_mean - prev, 1e-12);
  // The raw precision is the payoff plus b: the same up to one rounding.
  ASSERT_EQ(a.precision_mean.size(), b.precision_mean.size());
  for (std::size_t j = 0; j < a.precision_mean.size(); ++j)
    EXPECT_NEAR(a.precision_mean[j], b.precision_mean[j], 1e-15) << j;
}

// Section 4.4: the flagged features are those with a negative mean or a band containing 0; the
// "after" numbers are those of the model trained without them on the same splits.
TEST(RetrainGame, SelectionRetrainsWithoutFlaggedFeatures) {
  ProbitDesign design;
  design.n_rows = 600;
  design.variances = {1.2, 1.0, 1.0, 1.0};
  design.beta = {0.05, 0.9, 0.6, 0.0, 0.0};  // x3, x4 carry nothing
  const Dataset data = GenerateProbitDesign(design);
  const SplitPlan plan = MonteCarloSplits(data.n_rows(), 10, 0.25, 2);
  RobustnessOptions options;
  options.select = true;
  const RobustnessResult r = ExplainRobustness(data, plan, options);
  std::vector<std::size_t> expected_removed;
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < r.n_features(); ++i) {
    const bool flagged = r.phi_auc_mean[i] < 0 || std::abs(r.phi_auc_mean[i]) <= r.phi_auc_std[i];
    (flagged ? expected_removed : kept).push_back(i);
  }
  EXPECT_EQ(r.selection.removed, expected_removed);
  EXPECT_EQ(r.selection.kept, kept);
  ASSERT_FALSE(r.selection.removed.empty());
  EXPECT_TRUE(r.selection.retrained);
  EXPECT_EQ(r.selection.auc_before_mean, r.auc_mean);
  EXPECT_EQ(r.n_trainings, 10U * 15U + 10U);
  RobustnessOptions only_kept;
  only_kept.features = kept;
  const RobustnessResult after = ExplainRobustness(data, plan, only_kept);
  EXPECT_NEAR(r.selection.auc_after_mean, after.auc_mean, 1e-15);
  EXPECT_NEAR(r.selection.auc_after_std, after.auc_std, 1e-15);
  EXPECT_NEAR(r.selection.auprc_after_mean, after.auprc_mean, 1e-15);
}

// Bad input: one-line errors naming what is wrong and where.
TEST(RetrainGame, BadInputGivesOneLineErrors) {
  ProbitDesign design;
  design.n_rows = 200;
  const Dataset data = GenerateProbitDesign(design);
  const Split split = HoldoutSplit(data.n_rows(), 0.25, 0, data.label());
  const auto expect_error = [](auto&& call, const std::string& needle, bool data_error) {
    try {
      call();
      ADD_FAILURE() << "expected an error mentioning " << needle;
    } catch (const DataError& e) {
      EXPECT_TRUE(data_error) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_TRUE(OneLine(e.what())) << e.what();
    } catch (const InvalidArgument& e) {
      EXPECT_FALSE(data_error) << e.what();
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_TRUE(OneLine(e.what())) << e.what();
    }
  };
  // More features than the exact limit.
  RobustnessOptions limit;
  limit.max_features = 2;
  expect_error([&] { ExplainRobustness(data, {split}, limit); }, "exact limit of 2", false);
  // A training split with one class.
  Split one_class_train;
  for (std::size_t r = 0; r < data.n_rows(); ++r) {
    if (data.label()[r] == 0.0 && one_class_train.train.size() < 100) one_class_train.train.push_back(r);
    else one_class_train.test.push_back(r);
  }
  const SplitPlan plan_train{split, one_class_train};
  RobustnessOptions named;
  named.plan_name = "test plan";
  expect_error([&] { ExplainRobustness(data, plan_train, named); }, "split 1 of test plan", true);
  expect_error([&] { ExplainRobustness(data, plan_train, named); }, "one class", true);
  // A test split with one class is reported, not skipped.
  Split one_class_test = split;
  one_class_test.test.clear();
  for (std::size_t r = 0; r < data.n_rows(); ++r)
    if (data.label()[r] == 1.0 && one_class_test.test.size() < 20) one_class_test.test.push_back(r);
  one_class_test.train.clear();
  for (std::size_t r = 0; r < data.n_rows(); ++r)
    if (std::find(one_class_test.test.begin(), one_class_test.test.end(), r) == one_class_test.test.end())
      one_class_test.train.push_back(r);
  const SplitPlan plan_test{split, split, one_class_test};
  expect_error([&] { ExplainRobustness(data, plan_test, named); }, "test part of split 2 of test plan", true);
  // A constant column names the feature.
  std::vector<std::vector<double>> cols;
  for (std::size_t j = 0; j < data.n_features(); ++j) cols.emplace_back(data.column(j).begin(), data.column(j).end());
  cols.emplace_back(data.n_rows(), 3.5);
  std::vector<std::string> names = data.feature_names();
  names.push_back("flat");
  const Dataset with_constant(names, cols, std::vector<double>(data.label().begin(), data.label().end()));
  expect_error([&] { ExplainRobustness(with_constant, {split}, RobustnessOptions{}); }, "feature 'flat' is constant",
               true);
  // A label that is not 0/1.
  std::vector<double> label(data.label().begin(), data.label().end());
  label[7] = 2.0;
  const Dataset bad_label(data.feature_names(), std::vector<std::vector<double>>(cols.begin(), cols.end() - 1), label);
  expect_error([&] { ExplainRobustness(bad_label, {split}, RobustnessOptions{}); }, "data row 7", true);
  // The linear learner's predictions are not probabilities: no thresholds mode, no Brier.
  RobustnessOptions linear;
  linear.learner = MakeLearner("linear");
  ParseCurvePoints("thresholds:101", linear.curves);
  expect_error([&] { ExplainRobustness(data, {split}, linear); }, "use the exact curve mode", false);
  linear.curves.mode = CurveMode::kExact;
  linear.extra_metrics = {"brier"};
  expect_error([&] { ExplainRobustness(data, {split}, linear); }, "metric brier needs probabilities", false);
  // Empty plan, repeated feature.
  expect_error([&] { ExplainRobustness(data, {}, RobustnessOptions{}); }, "plan is empty", false);
  RobustnessOptions twice;
  twice.features = {0, 0};
  expect_error([&] { ExplainRobustness(data, {split}, twice); }, "listed twice", false);
}

TEST(RetrainGame, ParsesBaselinesAndMetrics) {
  EXPECT_EQ(ParsePrcBaseline("0.5"), PrcBaseline::kHalf);
  EXPECT_EQ(ParsePrcBaseline("prevalence"), PrcBaseline::kPrevalence);
  EXPECT_THROW(ParsePrcBaseline("0.3"), InvalidArgument);
  std::vector<std::string> names = MetricNames("robustness");
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"accuracy", "average_precision", "balanced_accuracy", "brier", "f1",
                                             "log_loss", "mae", "mse", "precision", "r2", "rmse", "sensitivity",
                                             "specificity"}));
  for (const std::string& name : names) EXPECT_EQ(FindMetric(name, "robustness").name, name);
  EXPECT_THROW(FindMetric("auc2", "robustness"), InvalidArgument);
  EXPECT_THROW(FindMetric("auc", "robustness"), InvalidArgument);  // the main output, not an extra one
}

}  // namespace
}}  // namespace perfshap
