// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/robustness_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

#include "perfshap/blocks/curves.hpp"
#include "report/csv.hpp"
#include "report/figure_bounds.hpp"
#include "report/format.hpp"
#include "report/learner_json.hpp"
#include "report/sampling_report.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

// Player i's curve (row i of an n x G row-major array).
std::vector<double> Row(const std::vector<double>& a, std::size_t i, std::size_t g) {
  return {a.begin() + static_cast<std::ptrdiff_t>(i * g),
          a.begin() + static_cast<std::ptrdiff_t>((i + 1) * g)};
}

// Column j of an n x G row-major array: every player's value at grid point j.
std::vector<double> Column(const std::vector<double>& a, std::size_t n, std::size_t g, std::size_t j) {
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = a[i * g + j];
  return out;
}

// Players in decreasing |value| (the paper's waterfalls), ties by index.
std::vector<std::size_t> ByMagnitude(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return std::abs(v[a]) > std::abs(v[b]); });
  return order;
}

// Waterfall from `start` through the features' mean contributions (largest |phi| first, with
// std whiskers) to the metric's mean.
WaterfallChart FeatureWaterfall(const RobustnessResult& r, const std::string& title,
                                const std::string& x_label, const std::string& start_label, double start,
                                const std::vector<double>& phi, const std::vector<double>& phi_std,
                                const std::string& end_label, double end, double end_std) {
  WaterfallChart w;
  w.frame.title = title;
  w.frame.x_label = x_label;
  w.start_label = start_label;
  w.start_value = start;
  for (std::size_t i : ByMagnitude(phi)) {
    w.labels.push_back(r.features[i]);
    w.contributions.push_back(phi[i]);
    w.stds.push_back(phi_std[i]);
  }
  w.end_label = end_label;
  w.end_value = end;
  w.end_std = end_std;
  return w;
}

// Every feature's contribution curve (ShapROC, ShapPRC) with its std band, the legend (and
// the colours) in decreasing |phi^AUC|.
LineChart ContributionCurves(const RobustnessResult& r, const std::string& title, const std::string& x_label,
                             const std::string& y_label, const std::vector<double>& grid,
                             const std::vector<double>& mean, const std::vector<double>& std) {
  const std::size_t g = grid.size();
  LineChart chart;
  chart.frame.title = title;
  chart.frame.x_label = x_label;
  chart.frame.y_label = y_label;
  chart.fixed_x = true;
  chart.zero_line = true;
  for (std::size_t i : ByMagnitude(r.phi_auc_mean))
    chart.series.push_back({r.features[i], grid, Row(mean, i, g), Row(std, i, g), false, ""});
  return chart;
}

// A curve table: the grid, the curve's mean and std, then every feature's phi mean and std.
CsvTable CurveCsv(const RobustnessResult& r, const std::string& x_name, const std::string& y_name,
                  const std::vector<double>& grid, const std::vector<double>& mean,
                  const std::vector<double>& std, const std::vector<double>& phi_mean,
                  const std::vector<double>& phi_std) {
  const std::size_t g = grid.size();
  std::vector<std::string> header{x_name, y_name + "_mean", y_name + "_std"};
  for (const auto& f : r.features) {
    header.push_back("phi_" + f);
    header.push_back("phi_" + f + "_std");
  }
  CsvTable csv(header);
  for (std::size_t j = 0; j < g; ++j) {
    csv.Row().Number(grid[j]).Number(mean[j]).Number(std[j]);
    for (std::size_t i = 0; i < r.n_features(); ++i)
      csv.Number(phi_mean[i * g + j]).Number(phi_std[i * g + j]);
  }
  return csv;
}

Json NamedCurves(const RobustnessResult& r, const std::vector<double>& mean, const std::vector<double>& std,
                 std::size_t g) {
  Json j = Json::object();
  for (std::size_t i = 0; i < r.n_features(); ++i)
    j[r.features[i]] = MeanStd(Row(mean, i, g), Row(std, i, g));
  return j;
}

std::vector<std::string> Names(const RobustnessResult& r, const std::vector<std::size_t>& players) {
  std::vector<std::string> names;
  for (std::size_t i : players) names.push_back(r.features[i]);
  return names;
}

}  // namespace

RobustnessRun DescribeRobustnessRun(const Dataset& data, const SplitSequence& splits, std::string plan_name) {
  RobustnessRun run;
  run.data = data.source();
  run.n_rows = data.n_rows();
  run.n_positive = data.CountPositive();
  run.label = data.label_name();
  run.column_names = data.feature_names();
  run.dropped_rows = data.dropped_rows();
  run.plan = std::move(plan_name);
  run.train_sizes.reserve(splits.size());
  run.test_sizes.reserve(splits.size());
  for (std::size_t r = 0; r < splits.size(); ++r) {
    const auto [train, test] = splits.Sizes(r);
    run.train_sizes.push_back(train);
    run.test_sizes.push_back(test);
  }
  return run;
}

std::size_t RobustnessSliceIndex(const RobustnessResult& r, double fpr) {
  std::size_t slice = 0;
  for (std::size_t j = 1; j < r.fpr_grid.size(); ++j)
    if (std::abs(r.fpr_grid[j] - fpr) < std::abs(r.fpr_grid[slice] - fpr)) slice = j;
  return slice;
}

namespace {

SolverSummary RobustnessSolverSummary(const RobustnessResult& r) {
  SolverSummary s;
  s.solve = r.solve;
  s.unit = "coalitions";
  s.n_games = r.n_splits;
  s.games = "splits";
  return s;
}

}  // namespace

std::string RobustnessConsoleText(const RobustnessResult& r, const RobustnessRun& run,
                                  const std::string& out) {
  const std::size_t nf = r.fpr_grid.size();
  const std::size_t n_splits = r.n_splits;
  const std::size_t slice = RobustnessSliceIndex(r, run.slice_fpr);
  std::ostringstream s;
  s << "perfshap robustness: " << run.data << "\n"
    << "  " << run.n_rows << " rows, " << r.n_features() << " features, " << run.n_positive
    << " positive; model " << r.learner << "; " << n_splits << " split(s) (" << run.plan << ")\n";
  if (run.dropped_rows > 0) s << "  " << run.dropped_rows << " rows with a missing cell were dropped\n";
  if (r.players.size() != run.column_names.size())
    s << "  players: " << r.players.size() << " groups of the " << run.column_names.size()
      << " encoded columns (one-hot text columns, groups)\n";
  s << "  curves: " << CurvePointsName(r.curves) << ", strategy " << GridStrategyName(r.curves.strategy)
    << ", " << nf << "-point grids, PR baseline b = " << PrcBaselineName(r.prc_baseline) << "\n"
    << SolverConsoleText(RobustnessSolverSummary(r)) << "\n"
    << "  AUC   " << BandCell(r.auc_mean, r.auc_std, n_splits, false)
    << " = 0.5 (random classifier) + sum of phi\n"
    << "  AUPRC " << BandCell(r.auprc_mean, r.auprc_std, n_splits, false) << "\n";
  std::size_t width = 8;
  for (const auto& name : r.features) width = std::max(width, name.size() + 2);
  const std::size_t cell_width = n_splits > 1 ? 20 : 12;
  const auto cell = [&](double m, double sd) {
    return PadRight(BandCell(m, sd, n_splits, true), cell_width);
  };
  const bool sampled = r.solve.sampled;
  s << "  " << PadRight("feature", width) << PadRight("phi(AUC)", cell_width)
    << (sampled ? PadRight("se(AUC)", 11) : std::string()) << PadRight("phi(AUPRC)", cell_width)
    << PadRight("trapz(ROC)", cell_width) << PadRight("trapz(PRC)", cell_width) << "phi(TPR @ FPR "
    << Fmt("%g", r.fpr_grid[slice]) << ")\n";
  for (std::size_t i : ByMagnitude(r.phi_auc_mean)) {
    s << "  " << PadRight(r.features[i], width) << cell(r.phi_auc_mean[i], r.phi_auc_std[i])
      << (sampled ? PadRight(Fmt("%.4f", r.phi_auc_se[i]), 11) : std::string())
      << cell(r.phi_auprc_mean[i], r.phi_auprc_std[i])
      << cell(r.shap_roc_integrated_mean[i], r.shap_roc_integrated_std[i])
      << cell(r.shap_prc_integrated_mean[i], r.shap_prc_integrated_std[i])
      << BandCell(r.shap_roc_mean[i * nf + slice], r.shap_roc_std[i * nf + slice], n_splits, true) << "\n";
  }
  s << "  trapz(ROC), trapz(PRC): grid trapezoid of the feature's ShapROC / ShapPRC curve\n";
  if (sampled)
    s << "  " << (n_splits > 1 ? "+- is the spread across splits (std); " : "")
      << "se(AUC) is the sampling standard error of phi(AUC) (" << r.solve.solver << " solver)\n";
  for (const auto& m : r.metrics) {
    s << "  " << m.metric << ": " << BandCell(m.value_mean, m.value_std, n_splits, false)
      << " = prior-only model " << BandCell(m.base_mean, m.base_std, n_splits, false) << " + sum of phi\n";
  }
  s << "  Eq. (12) gap, max |phi^AUC - trapezoid of ShapROC|: " << Fmt("%.3g", r.eq12_gap) << "\n";
  std::string flagged;
  for (std::size_t i : r.selection.removed) flagged += (flagged.empty() ? "" : ", ") + r.features[i];
  s << "  section 4.4: " << (flagged.empty() ? std::string("no feature flagged") : "flagged " + flagged)
    << " (mean phi^AUC < 0 or band including 0)\n";
  const RobustnessSelection& sel = r.selection;
  if (sel.retrained)
    s << "  retrained without them: AUC "
      << BandCell(sel.auc_before_mean, sel.auc_before_std, n_splits, false) << " -> "
      << BandCell(sel.auc_after_mean, sel.auc_after_std, n_splits, false) << ", AUPRC "
      << BandCell(sel.auprc_before_mean, sel.auprc_before_std, n_splits, false) << " -> "
      << BandCell(sel.auprc_after_mean, sel.auprc_after_std, n_splits, false) << "\n";
  s << "\n  " << r.n_trainings << " trainings in " << Fmt("%.4f", r.elapsed_seconds) << " s on " << r.threads
    << " thread(s)\n";
  if (!out.empty()) s << "  wrote " << out << "/{result.json, *.csv, *.svg}\n";
  return s.str();
}

Json RobustnessResultJson(const RobustnessResult& r, const RobustnessRun& run,
                          const std::vector<std::string>& files) {
  const std::size_t p = r.n_features();
  const std::size_t nf = r.fpr_grid.size();
  const std::size_t nr = r.recall_grid.size();
  const std::size_t slice = RobustnessSliceIndex(r, run.slice_fpr);
  Json result;
  result["value"] = r.auc_mean;
  result["value_std"] = r.auc_std;
  result["base"] = r.base;
  result["phi"] = NamedValues(r.features, r.phi_auc_mean);
  result["phi_std"] = NamedValues(r.features, r.phi_auc_std);
  // Sampling standard errors of phi (0 when exact), apart from phi_std, the spread over splits.
  result["phi_se"] = NamedValues(r.features, r.phi_auc_se);
  AddSolverJson(result, RobustnessSolverSummary(r));
  result["auprc"] = r.auprc_mean;
  result["auprc_std"] = r.auprc_std;
  result["prc_baseline"] = r.prc_baseline == PrcBaseline::kHalf ? Json(0.5) : Json("prevalence");
  result["prc_baseline_value"] = r.prc_baseline_mean;
  result["phi_auprc"] = NamedValues(r.features, r.phi_auprc_mean);
  result["phi_auprc_std"] = NamedValues(r.features, r.phi_auprc_std);
  result["phi_auprc_se"] = NamedValues(r.features, r.phi_auprc_se);
  // Per feature, in the order of "features": mean and std over the splits of the grid
  // trapezoid of its ShapROC / ShapPRC curve.
  result["shap_roc_integrated"] = MeanStd(r.shap_roc_integrated_mean, r.shap_roc_integrated_std);
  result["shap_prc_integrated"] = MeanStd(r.shap_prc_integrated_mean, r.shap_prc_integrated_std);
  Json curves;
  curves["fpr"] = r.fpr_grid;
  curves["tpr_mean"] = r.tpr_mean;
  curves["tpr_std"] = r.tpr_std;
  curves["shap_roc"] = NamedCurves(r, r.shap_roc_mean, r.shap_roc_std, nf);
  curves["recall"] = r.recall_grid;
  curves["precision_mean"] = r.precision_mean;
  curves["precision_std"] = r.precision_std;
  curves["shap_prc"] = NamedCurves(r, r.shap_prc_mean, r.shap_prc_std, nr);
  result["curves"] = curves;
  if (r.n_splits == 1 && !r.coalition_auc.empty())
    result["coalition_values"] = r.coalition_auc;
  else
    result["coalition_values"] = nullptr;
  result["eq12_gap"] = r.eq12_gap;
  result["eq12"] = Json{{"integral", NamedValues(r.features, r.eq12_integral)},
                        {"difference", NamedValues(r.features, r.eq12_difference)}};
  result["n_trainings"] = r.n_trainings;
  Json slice_json;
  slice_json["fpr"] = r.fpr_grid[slice];
  slice_json["tpr_mean"] = r.tpr_mean[slice];
  slice_json["tpr_std"] = r.tpr_std[slice];
  slice_json["phi"] = NamedValues(r.features, Column(r.shap_roc_mean, p, nf, slice));
  slice_json["phi_std"] = NamedValues(r.features, Column(r.shap_roc_std, p, nf, slice));
  result["slice"] = slice_json;
  Json metrics = Json::object();
  for (const auto& m : r.metrics)
    metrics[m.metric] = Json{{"value", m.value_mean},
                             {"value_std", m.value_std},
                             {"base", m.base_mean},
                             {"base_std", m.base_std},
                             {"phi", NamedValues(r.features, m.phi_mean)},
                             {"phi_std", NamedValues(r.features, m.phi_std)},
                             {"phi_se", NamedValues(r.features, m.phi_se)}};
  result["metrics"] = metrics;
  const RobustnessSelection& sel = r.selection;
  Json selection;
  selection["rule"] = "mean phi^AUC < 0 or |mean| <= std (band includes 0)";
  selection["flagged"] = Names(r, sel.removed);
  selection["kept"] = Names(r, sel.kept);
  selection["retrained"] = sel.retrained;
  selection["auc_before"] = MeanStd(sel.auc_before_mean, sel.auc_before_std);
  selection["auc_after"] = MeanStd(sel.auc_after_mean, sel.auc_after_std);
  selection["auprc_before"] = MeanStd(sel.auprc_before_mean, sel.auprc_before_std);
  selection["auprc_after"] = MeanStd(sel.auprc_after_mean, sel.auprc_after_std);
  result["selection"] = selection;
  result["players"] = PlayersJson(r.players, run.column_names);
  result["input"] = InputJson(run.missing, run.dropped_rows, run.groups);
  result["data"] = run.data;
  result["label"] = run.label;
  result["model"] = r.learner;
  if (r.learner_params.count("C") != 0) result["C"] = std::stod(r.learner_params.at("C"));
  if (r.learner_params.count("standardize") != 0)
    result["standardize"] = r.learner_params.at("standardize") == "true";
  result["model_params"] = LearnerParamsJson(r.learner, r.learner_params);
  result["cv"] = run.plan;
  result["n_splits"] = r.n_splits;
  result["test_size"] = run.test_size ? Json(*run.test_size) : Json(nullptr);
  result["stratify"] = run.stratify;
  result["curve_points"] = CurvePointsName(r.curves);
  result["strategy"] = GridStrategyName(r.curves.strategy);
  result["grid"] = nf;
  result["std_ddof"] = 0;
  result["auc_by_split"] = r.auc_by_split;
  if (!r.interaction_auc_mean.empty()) {
    // The players' interaction matrix on the AUC (SII split between (i, j) and (j, i); each row
    // adds up to phi^AUC_i), mean and std over the splits.
    Json mean = Json::array();
    Json std_ = Json::array();
    for (std::size_t i = 0; i < p; ++i) {
      mean.push_back(
          std::vector<double>(r.interaction_auc_mean.begin() + static_cast<std::ptrdiff_t>(i * p),
                              r.interaction_auc_mean.begin() + static_cast<std::ptrdiff_t>((i + 1) * p)));
      std_.push_back(
          std::vector<double>(r.interaction_auc_std.begin() + static_cast<std::ptrdiff_t>(i * p),
                              r.interaction_auc_std.begin() + static_cast<std::ptrdiff_t>((i + 1) * p)));
    }
    result["interactions"] = {{"index", "shapley"}, {"metric", "auc"}, {"mean", mean}, {"std", std_}};
  }
  result["files"] = files;
  return result;
}

void AddRobustnessTables(ReportContent& out, const RobustnessResult& r, const RobustnessRun& run) {
  const std::size_t p = r.n_features();
  const std::size_t nf = r.fpr_grid.size();
  const std::size_t slice = RobustnessSliceIndex(r, run.slice_fpr);
  const auto removed = [&](std::size_t i) {
    return std::find(r.selection.removed.begin(), r.selection.removed.end(), i) != r.selection.removed.end();
  };

  std::vector<std::string> header{
      "feature",       "phi_auc",          "phi_auc_std",          "phi_auprc",
      "phi_auprc_std", "phi_tpr_at_slice", "phi_tpr_at_slice_std", "eq12_integral",
      "flagged"};
  for (const auto& m : r.metrics) {
    header.push_back("phi_" + m.metric);
    header.push_back("phi_" + m.metric + "_std");
  }
  CsvTable phi(header);
  for (std::size_t i = 0; i < p; ++i) {
    phi.Row()
        .Text(r.features[i])
        .Number(r.phi_auc_mean[i])
        .Number(r.phi_auc_std[i])
        .Number(r.phi_auprc_mean[i])
        .Number(r.phi_auprc_std[i])
        .Number(r.shap_roc_mean[i * nf + slice])
        .Number(r.shap_roc_std[i * nf + slice])
        .Number(r.eq12_integral[i])
        .Text(removed(i) ? "1" : "0");
    for (const auto& m : r.metrics) phi.Number(m.phi_mean[i]).Number(m.phi_std[i]);
  }
  out.Table("phi.csv", std::move(phi));
  if (!r.interaction_auc_mean.empty()) {
    // Long form, one row per pair: the pair's Shapley interaction index (twice the matrix entry).
    CsvTable pairs({"feature_a", "feature_b", "sii_auc", "sii_auc_std"});
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = i + 1; j < p; ++j)
        pairs.Row()
            .Text(r.features[i])
            .Text(r.features[j])
            .Number(2.0 * r.interaction_auc_mean[i * p + j])
            .Number(2.0 * r.interaction_auc_std[i * p + j]);
    out.Table("interactions.csv", std::move(pairs));
  }
  out.Table("roc_curve.csv",
            CurveCsv(r, "fpr", "tpr", r.fpr_grid, r.tpr_mean, r.tpr_std, r.shap_roc_mean, r.shap_roc_std));
  out.Table("pr_curve.csv", CurveCsv(r, "recall", "precision", r.recall_grid, r.precision_mean,
                                     r.precision_std, r.shap_prc_mean, r.shap_prc_std));

  const bool sampled = r.solve.sampled;
  std::vector<std::string> split_header{"split", "n_train", "n_test", "auc"};
  for (const auto& f : r.features) split_header.push_back("phi_" + f);
  if (sampled)
    for (const auto& f : r.features) split_header.push_back("se_" + f);
  CsvTable splits(split_header);
  for (std::size_t s = 0; s < r.n_splits; ++s) {
    splits.Row().Count(s).Count(run.train_sizes[s]).Count(run.test_sizes[s]).Number(r.auc_by_split[s]);
    for (std::size_t i = 0; i < p; ++i) splits.Number(r.phi_auc_by_split[s * p + i]);
    if (sampled)
      for (std::size_t i = 0; i < p; ++i) splits.Number(r.phi_auc_se_by_split[s * p + i]);
  }
  out.Table("splits.csv", std::move(splits));
  if (!r.sample_auc.empty())
    out.Table("samples.csv", [&] {
      return SamplesCsv(r.sample_coalitions, r.sample_split, static_cast<int>(p), r.sample_auc, "split",
                        "auc");
    });

  if (!r.coalition_auc.empty() && out.options().tables) {  // 2^p rows
    const std::size_t total = std::size_t{1} << p;
    CsvTable coal({"mask", "features", "auc_mean", "auc_std"});
    for (std::size_t s = 0; s < total; ++s) {
      std::string members;
      for (std::size_t i = 0; i < p; ++i)
        if ((s >> i) & 1U) members += (members.empty() ? "" : "+") + r.features[i];
      double mean = 0.0;
      for (std::size_t k = 0; k < r.n_splits; ++k) mean += r.coalition_auc[k * total + s];
      mean /= static_cast<double>(r.n_splits);
      double var = 0.0;
      for (std::size_t k = 0; k < r.n_splits; ++k) var += std::pow(r.coalition_auc[k * total + s] - mean, 2);
      coal.Row().Count(s).Quoted(members).Number(mean).Number(
          std::sqrt(var / static_cast<double>(r.n_splits)));
    }
    out.Table("coalitions.csv", std::move(coal));
  }
}

void AddRobustnessFigures(ReportContent& out, const RobustnessResult& r, const RobustnessRun& run) {
  const std::size_t p = r.n_features();
  const std::size_t nf = r.fpr_grid.size();
  const std::size_t slice = RobustnessSliceIndex(r, run.slice_fpr);
  const double baseline = r.prc_baseline_mean;
  // The bands are the spread across splits; a sampled solver's standard errors are named apart.
  double largest_se = 0.0;
  for (double se : r.phi_auc_se) largest_se = std::max(largest_se, se);
  const std::string sampling =
      r.solve.sampled ? r.solve.solver + " sampling se of phi(AUC) <= " + Fmt("%.2g", largest_se) : "";
  const std::string bands = r.n_splits > 1 ? " (mean ± std over " + std::to_string(r.n_splits) + " splits" +
                                                 (sampling.empty() ? "" : "; " + sampling) + ")"
                            : sampling.empty() ? ""
                                               : " (" + sampling + ")";
  const std::string curve_name = r.n_splits > 1 ? " (mean ± std)" : "";

  out.Figure("waterfall_auc.svg", FigureSet::kSummary, [&] {
    return Chart(FeatureWaterfall(r, "ShapAUC: contributions to the AUC" + bands, "AUC", "random classifier",
                                  0.5, r.phi_auc_mean, r.phi_auc_std, "AUC", r.auc_mean, r.auc_std));
  });

  BarChart bars;
  bars.frame.title = "ShapAUC per feature" + bands;
  bars.frame.x_label = "phi (contribution to AUC - 0.5)";
  for (std::size_t i : ByMagnitude(r.phi_auc_mean)) {
    bars.labels.push_back(r.features[i]);
    bars.values.push_back(r.phi_auc_mean[i]);
    bars.stds.push_back(r.phi_auc_std[i]);
  }
  out.Figure("bars_auc.svg", FigureSet::kSummary, [&] { return bars; });

  LineChart roc;
  roc.frame.title = "ROC curve" + bands + ", AUC " + Fmt("%.4f", r.auc_mean);
  roc.frame.x_label = "false positive rate";
  roc.frame.y_label = "true positive rate";
  roc.fixed_x = roc.fixed_y = true;
  roc.series.push_back({"ROC curve" + curve_name, r.fpr_grid, r.tpr_mean, r.tpr_std, false, ""});
  roc.series.push_back({"random classifier", {0.0, 1.0}, {0.0, 1.0}, {}, true, "#7f7f7f"});
  out.Figure("roc.svg", FigureSet::kSummary, [&] { return roc; });

  LineChart shap_roc =
      ContributionCurves(r, "ShapROC: contributions to TPR - FPR" + bands, "false positive rate",
                         "phi (contribution to TPR - FPR)", r.fpr_grid, r.shap_roc_mean, r.shap_roc_std);
  shap_roc.x_markers = {r.fpr_grid[slice]};
  out.Figure("shap_roc.svg", FigureSet::kSummary, [&] { return shap_roc; });

  out.Figure("waterfall_slice.svg", FigureSet::kSummary, [&] {
    return Chart(FeatureWaterfall(r, "ShapROC slice at FPR = " + Fmt("%g", r.fpr_grid[slice]) + bands,
                                  "true positive rate", "random classifier (TPR = FPR)", r.fpr_grid[slice],
                                  Column(r.shap_roc_mean, p, nf, slice), Column(r.shap_roc_std, p, nf, slice),
                                  "TPR", r.tpr_mean[slice], r.tpr_std[slice]));
  });

  LineChart prc;
  prc.frame.title = "Precision-recall curve" + bands + ", AUPRC " + Fmt("%.4f", r.auprc_mean);
  prc.frame.x_label = "recall";
  prc.frame.y_label = "precision";
  prc.fixed_x = prc.fixed_y = true;
  prc.series.push_back(
      {"PR curve" + curve_name, r.recall_grid, r.precision_mean, r.precision_std, false, ""});
  prc.series.push_back(
      {"baseline b = " + Fmt("%.4g", baseline), {0.0, 1.0}, {baseline, baseline}, {}, true, "#7f7f7f"});
  out.Figure("prc.svg", FigureSet::kSummary, [&] { return prc; });

  out.Figure("shap_prc.svg", FigureSet::kSummary, [&] {
    return Chart(ContributionCurves(r, "ShapPRC: contributions to precision - b" + bands, "recall",
                                    "phi (contribution to precision - b)", r.recall_grid, r.shap_prc_mean,
                                    r.shap_prc_std));
  });

  out.Figure("waterfall_auprc.svg", FigureSet::kSummary, [&] {
    return Chart(FeatureWaterfall(r, "ShapAUPRC: contributions to the AUPRC" + bands, "AUPRC",
                                  "baseline b (random classifier)", baseline, r.phi_auprc_mean,
                                  r.phi_auprc_std, "AUPRC", r.auprc_mean, r.auprc_std));
  });

  if (!r.interaction_auc_mean.empty() && p <= kMaxFeaturesShown) {
    // Each pair's Shapley interaction index on the AUC (twice the matrix entry), coloured by its
    // mean over the splits, the band written in the cell when the matrix is small enough to read.
    out.Figure("interactions_auc.svg", FigureSet::kSummary, [&] {
      HeatmapChart chart;
      chart.frame.title = "ShapAUC interactions: Shapley interaction index of each pair" + bands;
      chart.rows = p;
      chart.cols = p;
      chart.x_max = static_cast<double>(p);
      chart.y_max = static_cast<double>(p);
      chart.x_labels = r.features;
      chart.y_labels.assign(r.features.rbegin(), r.features.rend());  // the first feature at the top
      chart.color_label = "SII on the AUC (mean)";
      for (std::size_t a = 0; a < p; ++a) {
        const std::size_t i = p - 1 - a;
        for (std::size_t j = 0; j < p; ++j) {
          const bool diagonal = i == j;
          chart.values.push_back(diagonal ? std::numeric_limits<double>::quiet_NaN()
                                          : 2.0 * r.interaction_auc_mean[i * p + j]);
          if (p <= 10)
            chart.cell_text.push_back(
                diagonal
                    ? ""
                    : Fmt("%+.3f", 2.0 * r.interaction_auc_mean[i * p + j]) +
                          (r.n_splits > 1 ? "±" + Fmt("%.3f", 2.0 * r.interaction_auc_std[i * p + j]) : ""));
        }
      }
      return chart;
    });
  }
}

void BuildRobustnessReport(ReportContent& out, const RobustnessResult& r, const RobustnessRun& run) {
  AddRobustnessTables(out, r, run);
  AddRobustnessFigures(out, r, run);
  std::vector<std::string> files{"result.json"};
  files.insert(files.end(), out.files().begin(), out.files().end());
  Json body = RobustnessResultJson(r, run, files);
  body["figures"] = out.figures();
  out.Result({"robustness", r.features, run.seed, r.threads, r.elapsed_seconds}, body);
}
}}}  // namespace perfshap::detail
