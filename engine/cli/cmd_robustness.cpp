// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `perfshap robustness`: ShapAUC, ShapROC, ShapPRC and ShapAUPRC by coalition retraining
// (shapauc-shaproc-robustness sections 3-4), over a holdout split, K folds, Monte-Carlo splits
// or explicit --split files, with mean +- std bands, the Eq. (12) check and the section 4.4
// feature selection. Writes result.json, CSV tables and SVG figures.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "perfshap/curves.hpp"
#include "perfshap/error.hpp"
#include "perfshap/generators.hpp"
#include "perfshap/learner.hpp"
#include "perfshap/robustness.hpp"
#include "perfshap/split.hpp"
#include "report/output.hpp"
#include "schedule/schedule.hpp"
#include "report/svg.hpp"

namespace perfshap::cli {

namespace {

struct RobustnessCliOptions {
  CommonOptions common;
  std::string model = "gnb";
  double C = 1.0;
  bool no_standardize = false;
  std::string cv = "holdout";
  double test_size = 0.2;
  bool stratify = false;
  std::string split;
  int grid = 101;
  std::string strategy = "interpolation";
  std::string curve_points = "exact";
  std::string prc_baseline = "0.5";
  double slice_fpr = 0.2;
  bool select = false;
  std::string metrics;
  std::string features;
  int exact_limit = 20;
  std::size_t rows = 1000;
  CLI::Option* cv_option = nullptr;
  CLI::Option* C_option = nullptr;
};

std::string Num(double v) { return Fmt("%.17g", v); }

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

std::size_t ParseCount(const std::string& cv, const std::string& text, std::size_t lo) {
  std::size_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < lo)
    throw InvalidArgument("--cv " + cv + ": '" + text + "' is not an integer >= " + std::to_string(lo) +
                          "; use holdout, mc:R (R Monte-Carlo splits) or kfold:K");
  return v;
}

// The split plan of --cv / --split, and how messages name it.
SplitPlan MakePlan(const RobustnessCliOptions& o, const Dataset& data, std::string& name) {
  const CommonOptions& c = o.common;
  if (!o.split.empty()) {
    if (o.cv_option != nullptr && o.cv_option->count() > 0)
      throw InvalidArgument("give either --cv or --split FILE, not both");
    name = "--split " + o.split;
    return ReadSplits(o.split, data.n_rows());
  }
  const std::span<const double> strat = o.stratify ? data.label() : std::span<const double>{};
  const std::string& cv = o.cv;
  if (cv == "holdout") {
    name = "holdout";
    return {HoldoutSplit(data.n_rows(), o.test_size, c.seed, strat)};
  }
  if (cv.rfind("mc:", 0) == 0) {
    name = cv;
    return MonteCarloSplits(data.n_rows(), ParseCount(cv, cv.substr(3), 1), o.test_size, c.seed, strat);
  }
  if (cv.rfind("kfold:", 0) == 0) {
    name = cv;
    return KFoldSplits(data.n_rows(), ParseCount(cv, cv.substr(6), 2), c.seed, strat);
  }
  throw InvalidArgument("--cv '" + cv + "' is not understood; use holdout, mc:R (e.g. mc:100) or kfold:K (e.g. kfold:5)");
}

// Player i's curve (row i of an n x G row-major array).
std::vector<double> Row(const std::vector<double>& a, std::size_t i, std::size_t g) {
  return {a.begin() + static_cast<std::ptrdiff_t>(i * g), a.begin() + static_cast<std::ptrdiff_t>((i + 1) * g)};
}

// Players in decreasing |value| (the paper's waterfalls), ties by index.
std::vector<std::size_t> ByMagnitude(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return std::abs(v[a]) > std::abs(v[b]); });
  return order;
}

std::string Banded(double mean, double std, std::size_t n_splits) {
  return n_splits > 1 ? Fmt("%.4f", mean) + " +- " + Fmt("%.4f", std) : Fmt("%.6f", mean);
}

// Waterfall from `start` through the features' mean contributions (largest |phi| first, with
// std whiskers) to the metric's mean.
detail::WaterfallChart FeatureWaterfall(const RobustnessResult& r, const std::string& title, const std::string& metric,
                                        const std::string& start_label, double start, const std::vector<double>& phi,
                                        const std::vector<double>& phi_std, double end, double end_std) {
  detail::WaterfallChart w;
  w.frame.title = title;
  w.frame.x_label = metric;
  w.start_label = start_label;
  w.start_value = start;
  for (std::size_t i : ByMagnitude(phi)) {
    w.labels.push_back(r.features[i]);
    w.contributions.push_back(phi[i]);
    w.stds.push_back(phi_std[i]);
  }
  w.end_label = metric;
  w.end_value = end;
  w.end_std = end_std;
  return w;
}

void WriteFigures(const std::filesystem::path& dir, const RobustnessResult& r, std::size_t slice, double baseline,
                  std::vector<std::string>& files) {
  using namespace detail;
  const std::size_t p = r.n_features();
  const std::size_t nf = r.fpr_grid.size();
  const std::size_t nr = r.recall_grid.size();
  const std::string bands = r.n_splits > 1 ? " (mean ± std over " + std::to_string(r.n_splits) + " splits)" : "";
  // Curves of several features: legend (and colours) in decreasing |phi^AUC|.
  const std::vector<std::size_t> order = ByMagnitude(r.phi_auc_mean);
  const std::string curve_name = r.n_splits > 1 ? " (mean ± std)" : "";
  const auto write = [&](const std::string& name, const std::string& svg) {
    WriteFileAtomic(dir / name, svg);
    files.push_back(name);
  };

  write("waterfall_auc.svg",
        RenderSvg(FeatureWaterfall(r, "ShapAUC: contributions to the AUC" + bands, "AUC", "random classifier", 0.5,
                                   r.phi_auc_mean, r.phi_auc_std, r.auc_mean, r.auc_std)));

  BarChart bars;
  bars.frame.title = "ShapAUC per feature" + bands;
  bars.frame.x_label = "phi (contribution to AUC - 0.5)";
  for (std::size_t i : ByMagnitude(r.phi_auc_mean)) {
    bars.labels.push_back(r.features[i]);
    bars.values.push_back(r.phi_auc_mean[i]);
    bars.stds.push_back(r.phi_auc_std[i]);
  }
  write("bars_auc.svg", RenderSvg(bars));

  LineChart roc;
  roc.frame.title = "ROC curve" + bands + ", AUC " + Fmt("%.4f", r.auc_mean);
  roc.frame.x_label = "false positive rate";
  roc.frame.y_label = "true positive rate";
  roc.fixed_x = roc.fixed_y = true;
  roc.series.push_back({"ROC curve" + curve_name, r.fpr_grid, r.tpr_mean, r.tpr_std, false, ""});
  roc.series.push_back({"random classifier", {0.0, 1.0}, {0.0, 1.0}, {}, true, "#7f7f7f"});
  write("roc.svg", RenderSvg(roc));

  LineChart shap_roc;
  shap_roc.frame.title = "ShapROC: contributions to TPR - FPR" + bands;
  shap_roc.frame.x_label = "false positive rate";
  shap_roc.frame.y_label = "phi (contribution to TPR - FPR)";
  shap_roc.fixed_x = true;
  shap_roc.zero_line = true;
  shap_roc.x_markers = {r.fpr_grid[slice]};
  for (std::size_t i : order)
    shap_roc.series.push_back({r.features[i], r.fpr_grid, Row(r.shap_roc_mean, i, nf), Row(r.shap_roc_std, i, nf), false, ""});
  write("shap_roc.svg", RenderSvg(shap_roc));

  WaterfallChart cut;
  cut.frame.title = "ShapROC slice at FPR = " + Fmt("%g", r.fpr_grid[slice]) + bands;
  cut.frame.x_label = "true positive rate";
  cut.start_label = "random classifier (TPR = FPR)";
  cut.start_value = r.fpr_grid[slice];
  std::vector<double> at(p);
  for (std::size_t i = 0; i < p; ++i) at[i] = r.shap_roc_mean[i * nf + slice];
  for (std::size_t i : ByMagnitude(at)) {
    cut.labels.push_back(r.features[i]);
    cut.contributions.push_back(at[i]);
    cut.stds.push_back(r.shap_roc_std[i * nf + slice]);
  }
  cut.end_label = "TPR";
  cut.end_value = r.tpr_mean[slice];
  cut.end_std = r.tpr_std[slice];
  write("waterfall_slice.svg", RenderSvg(cut));

  LineChart prc;
  prc.frame.title = "Precision-recall curve" + bands + ", AUPRC " + Fmt("%.4f", r.auprc_mean);
  prc.frame.x_label = "recall";
  prc.frame.y_label = "precision";
  prc.fixed_x = prc.fixed_y = true;
  prc.series.push_back({"PR curve" + curve_name, r.recall_grid, r.precision_mean, r.precision_std, false, ""});
  prc.series.push_back({"baseline b = " + Fmt("%.4g", baseline), {0.0, 1.0}, {baseline, baseline}, {}, true, "#7f7f7f"});
  write("prc.svg", RenderSvg(prc));

  LineChart shap_prc;
  shap_prc.frame.title = "ShapPRC: contributions to precision - b" + bands;
  shap_prc.frame.x_label = "recall";
  shap_prc.frame.y_label = "phi (contribution to precision - b)";
  shap_prc.fixed_x = true;
  shap_prc.zero_line = true;
  for (std::size_t i : order)
    shap_prc.series.push_back({r.features[i], r.recall_grid, Row(r.shap_prc_mean, i, nr), Row(r.shap_prc_std, i, nr), false, ""});
  write("shap_prc.svg", RenderSvg(shap_prc));

  write("waterfall_auprc.svg",
        RenderSvg(FeatureWaterfall(r, "ShapAUPRC: contributions to the AUPRC" + bands, "AUPRC",
                                   "baseline b (random classifier)", baseline, r.phi_auprc_mean, r.phi_auprc_std,
                                   r.auprc_mean, r.auprc_std)));
}

void WriteTables(const std::filesystem::path& dir, const RobustnessResult& r, std::size_t slice,
                 const SplitPlan& plan, std::vector<std::string>& files) {
  using detail::WriteFileAtomic;
  const std::size_t p = r.n_features();
  const std::size_t nf = r.fpr_grid.size();
  const std::size_t nr = r.recall_grid.size();
  const auto removed = [&](std::size_t i) {
    return std::find(r.selection.removed.begin(), r.selection.removed.end(), i) != r.selection.removed.end();
  };

  std::string phi = "feature,phi_auc,phi_auc_std,phi_auprc,phi_auprc_std,phi_tpr_at_slice,phi_tpr_at_slice_std,"
                    "eq12_integral,flagged";
  for (const auto& m : r.metrics) {
    const std::string& name = m.metric;
    phi += ",phi_" + name + ",phi_" + name + "_std";
  }
  phi += "\n";
  for (std::size_t i = 0; i < p; ++i) {
    phi += r.features[i] + "," + Num(r.phi_auc_mean[i]) + "," + Num(r.phi_auc_std[i]) + "," + Num(r.phi_auprc_mean[i]) +
           "," + Num(r.phi_auprc_std[i]) + "," + Num(r.shap_roc_mean[i * nf + slice]) + "," +
           Num(r.shap_roc_std[i * nf + slice]) + "," + Num(r.eq12_integral[i]) + "," + (removed(i) ? "1" : "0");
    for (const auto& m : r.metrics) phi += "," + Num(m.phi_mean[i]) + "," + Num(m.phi_std[i]);
    phi += "\n";
  }
  WriteFileAtomic(dir / "phi.csv", phi);
  files.push_back("phi.csv");

  const auto curve_csv = [&](const std::string& x_name, const std::string& y_name, const std::vector<double>& grid,
                             const std::vector<double>& mean, const std::vector<double>& std,
                             const std::vector<double>& phi_mean, const std::vector<double>& phi_std, std::size_t g) {
    std::string s = x_name;
    for (const std::string& head : {y_name + "_mean", y_name + "_std"}) s.append(",").append(head);
    for (const auto& f : r.features) s.append(",phi_").append(f).append(",phi_").append(f).append("_std");
    s += '\n';
    for (std::size_t j = 0; j < g; ++j) {
      s += Num(grid[j]);
      for (double v : {mean[j], std[j]}) s.append(",").append(Num(v));
      for (std::size_t i = 0; i < p; ++i)
        for (double v : {phi_mean[i * g + j], phi_std[i * g + j]}) s.append(",").append(Num(v));
      s += '\n';
    }
    return s;
  };
  WriteFileAtomic(dir / "roc_curve.csv",
                  curve_csv("fpr", "tpr", r.fpr_grid, r.tpr_mean, r.tpr_std, r.shap_roc_mean, r.shap_roc_std, nf));
  WriteFileAtomic(dir / "pr_curve.csv", curve_csv("recall", "precision", r.recall_grid, r.precision_mean,
                                                   r.precision_std, r.shap_prc_mean, r.shap_prc_std, nr));
  files.push_back("roc_curve.csv");
  files.push_back("pr_curve.csv");

  std::string splits = "split,n_train,n_test,auc";
  for (const auto& f : r.features) splits += ",phi_" + f;
  splits += "\n";
  for (std::size_t s = 0; s < r.n_splits; ++s) {
    splits += std::to_string(s) + "," + std::to_string(plan[s].train.size()) + "," + std::to_string(plan[s].test.size()) +
              "," + Num(r.auc_by_split[s]);
    for (std::size_t i = 0; i < p; ++i) splits += "," + Num(r.phi_auc_by_split[s * p + i]);
    splits += "\n";
  }
  WriteFileAtomic(dir / "splits.csv", splits);
  files.push_back("splits.csv");

  if (!r.coalition_auc.empty()) {
    const std::size_t total = std::size_t{1} << p;
    std::string coal = "mask,features,auc_mean,auc_std\n";
    std::vector<double> column(r.n_splits);
    for (std::size_t s = 0; s < total; ++s) {
      std::string members;
      for (std::size_t i = 0; i < p; ++i)
        if ((s >> i) & 1U) members += (members.empty() ? "" : "+") + r.features[i];
      double mean = 0.0;
      for (std::size_t k = 0; k < r.n_splits; ++k) mean += r.coalition_auc[k * total + s];
      mean /= static_cast<double>(r.n_splits);
      double var = 0.0;
      for (std::size_t k = 0; k < r.n_splits; ++k) var += std::pow(r.coalition_auc[k * total + s] - mean, 2);
      coal += std::to_string(s) + ",\"" + members + "\"," + Num(mean) + "," +
              Num(std::sqrt(var / static_cast<double>(r.n_splits))) + "\n";
    }
    WriteFileAtomic(dir / "coalitions.csv", coal);
    files.push_back("coalitions.csv");
  }
}

Json NamedValues(const std::vector<std::string>& names, const std::vector<double>& v) {
  Json j = Json::object();
  for (std::size_t i = 0; i < names.size(); ++i) j[names[i]] = v[i];
  return j;
}

Json NamedCurves(const RobustnessResult& r, const std::vector<double>& mean, const std::vector<double>& std,
                 std::size_t g) {
  Json j = Json::object();
  for (std::size_t i = 0; i < r.n_features(); ++i)
    j[r.features[i]] = Json{{"mean", Row(mean, i, g)}, {"std", Row(std, i, g)}};
  return j;
}

void RunRobustness(const RobustnessCliOptions& o) {
  const CommonOptions& c = o.common;
  PrepareOut(c);
  // The thread pool starts while the data and the splits are read.
  std::optional<detail::PoolWarmUp> warm_up(std::in_place, MakeExecution(c, "coalitions"));
  const Dataset data = LoadDataOrProbitDesign(c, o.rows);

  RobustnessOptions opt;
  LearnerParams params;
  if (o.C_option != nullptr && o.C_option->count() > 0) params["C"] = Num(o.C);
  if (o.no_standardize) params["standardize"] = "false";
  opt.learner = MakeLearner(o.model, params);
  for (const auto& name : SplitList(o.features)) opt.features.push_back(data.FeatureIndex(name));
  ParseCurvePoints(o.curve_points, opt.curves);
  opt.curves.strategy = ParseGridStrategy(o.strategy);
  opt.grid_points = o.grid;
  opt.prc_baseline = ParsePrcBaseline(o.prc_baseline);
  for (const auto& name : SplitList(o.metrics)) opt.extra_metrics.push_back(name);
  opt.select = o.select;
  opt.max_features = o.exact_limit;
  if (!(o.slice_fpr >= 0.0 && o.slice_fpr <= 1.0))
    throw InvalidArgument("--slice-fpr " + Fmt("%g", o.slice_fpr) + " is outside [0, 1]; it is a false positive rate");
  std::string plan_name;
  const SplitPlan plan = MakePlan(o, data, plan_name);
  opt.plan_name = plan_name;
  opt.execution = MakeExecution(c, "coalitions");

  warm_up.reset();
  const RobustnessResult r = ExplainRobustness(data, plan, opt);
  const std::size_t p = r.n_features();
  const std::size_t nf = r.fpr_grid.size();
  const std::size_t nr = r.recall_grid.size();
  // The FPR grid point nearest to --slice-fpr (the first of two equally near).
  std::size_t slice = 0;
  for (std::size_t j = 1; j < nf; ++j)
    if (std::abs(r.fpr_grid[j] - o.slice_fpr) < std::abs(r.fpr_grid[slice] - o.slice_fpr)) slice = j;

  // Console summary.
  std::ostringstream s;
  const std::size_t n_splits = r.n_splits;
  s << "perfshap robustness: " << data.source() << "\n"
    << "  " << data.n_rows() << " rows, " << p << " features, " << data.CountPositive() << " positive; model "
    << opt.learner->name() << "; " << n_splits << " split(s) (" << plan_name << ")\n"
    << "  curves: " << CurvePointsName(r.curves) << ", strategy " << GridStrategyName(r.curves.strategy) << ", "
    << nf << "-point grids, PR baseline b = " << PrcBaselineName(opt.prc_baseline) << "\n\n"
    << "  AUC   " << Banded(r.auc_mean, r.auc_std, n_splits) << " = 0.5 (random classifier) + sum of phi\n"
    << "  AUPRC " << Banded(r.auprc_mean, r.auprc_std, n_splits) << "\n"
    << "";
  std::size_t width = 8;
  for (const auto& name : r.features) width = std::max(width, name.size() + 2);
  const std::size_t cell_width = n_splits > 1 ? 20 : 12;
  const auto pad = [](std::string text, std::size_t w) {
    if (text.size() < w) text.append(w - text.size(), ' ');
    return text;
  };
  s << "  " << pad("feature", width) << pad("phi(AUC)", cell_width) << pad("phi(AUPRC)", cell_width)
    << pad("trapz(ROC)", cell_width) << pad("trapz(PRC)", cell_width) << "phi(TPR @ FPR "
    << Fmt("%g", r.fpr_grid[slice]) << ")\n";
  for (std::size_t i : ByMagnitude(r.phi_auc_mean)) {
    const auto cell = [&](double m, double sd) {
      return n_splits > 1 ? Fmt("%+.4f", m) + " +- " + Fmt("%.4f", sd) : Fmt("%+.6f", m);
    };
    s << "  " << pad(r.features[i], width) << pad(cell(r.phi_auc_mean[i], r.phi_auc_std[i]), cell_width)
      << pad(cell(r.phi_auprc_mean[i], r.phi_auprc_std[i]), cell_width)
      << pad(cell(r.shap_roc_integrated_mean[i], r.shap_roc_integrated_std[i]), cell_width)
      << pad(cell(r.shap_prc_integrated_mean[i], r.shap_prc_integrated_std[i]), cell_width)
      << cell(r.shap_roc_mean[i * nf + slice], r.shap_roc_std[i * nf + slice]) << "\n";
  }
  s << "  trapz(ROC), trapz(PRC): grid trapezoid of the feature's ShapROC / ShapPRC curve\n";
  for (const auto& m : r.metrics) {
    s << "  " << m.metric << ": " << Banded(m.value_mean, m.value_std, n_splits)
      << " = prior-only model " << Banded(m.base_mean, m.base_std, n_splits) << " + sum of phi\n";
  }
  s << "  Eq. (12) gap, max |phi^AUC - trapezoid of ShapROC|: " << Fmt("%.3g", r.eq12_gap) << "\n";
  std::string flagged;
  for (std::size_t i : r.selection.removed) flagged += (flagged.empty() ? "" : ", ") + r.features[i];
  s << "  section 4.4: " << (flagged.empty() ? std::string("no feature flagged") : "flagged " + flagged)
    << " (mean phi^AUC < 0 or band including 0)\n";
  if (r.selection.retrained)
    s << "  --select: AUC " << Banded(r.selection.auc_before_mean, r.selection.auc_before_std, n_splits) << " -> "
      << Banded(r.selection.auc_after_mean, r.selection.auc_after_std, n_splits) << ", AUPRC "
      << Banded(r.selection.auprc_before_mean, r.selection.auprc_before_std, n_splits) << " -> "
      << Banded(r.selection.auprc_after_mean, r.selection.auprc_after_std, n_splits) << "\n";
  s << "\n  " << r.n_trainings << " trainings in " << Fmt("%.4f", r.elapsed_seconds) << " s on " << r.threads
    << " thread(s)\n";

  if (c.out.empty()) {
    Say(c, s.str());
    return;
  }
  const std::filesystem::path dir(c.out);
  std::vector<std::string> files{"result.json"};
  WriteTables(dir, r, slice, plan, files);
  WriteFigures(dir, r, slice, r.prc_baseline_mean, files);
  s << "  wrote " << c.out << "/{result.json, *.csv, *.svg}\n";
  Say(c, s.str());

  Json result;
  result["value"] = r.auc_mean;
  result["value_std"] = r.auc_std;
  result["base"] = r.base;
  result["phi"] = NamedValues(r.features, r.phi_auc_mean);
  result["phi_std"] = NamedValues(r.features, r.phi_auc_std);
  result["auprc"] = r.auprc_mean;
  result["auprc_std"] = r.auprc_std;
  result["prc_baseline"] = opt.prc_baseline == PrcBaseline::kHalf ? Json(0.5) : Json("prevalence");
  result["prc_baseline_value"] = r.prc_baseline_mean;
  result["phi_auprc"] = NamedValues(r.features, r.phi_auprc_mean);
  result["phi_auprc_std"] = NamedValues(r.features, r.phi_auprc_std);
  // Per feature, in the order of "features": mean and std over the splits of the grid
  // trapezoid of its ShapROC / ShapPRC curve.
  result["shap_roc_integrated"] =
      Json{{"mean", r.shap_roc_integrated_mean}, {"std", r.shap_roc_integrated_std}};
  result["shap_prc_integrated"] =
      Json{{"mean", r.shap_prc_integrated_mean}, {"std", r.shap_prc_integrated_std}};
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
  if (n_splits == 1 && !r.coalition_auc.empty()) result["coalition_values"] = r.coalition_auc;
  else result["coalition_values"] = nullptr;
  result["eq12_gap"] = r.eq12_gap;
  result["eq12"] = Json{{"integral", NamedValues(r.features, r.eq12_integral)},
                        {"difference", NamedValues(r.features, r.eq12_difference)}};
  result["n_trainings"] = r.n_trainings;
  Json slice_json;
  slice_json["fpr"] = r.fpr_grid[slice];
  slice_json["tpr_mean"] = r.tpr_mean[slice];
  slice_json["tpr_std"] = r.tpr_std[slice];
  std::vector<double> at(p), at_std(p);
  for (std::size_t i = 0; i < p; ++i) {
    at[i] = r.shap_roc_mean[i * nf + slice];
    at_std[i] = r.shap_roc_std[i * nf + slice];
  }
  slice_json["phi"] = NamedValues(r.features, at);
  slice_json["phi_std"] = NamedValues(r.features, at_std);
  result["slice"] = slice_json;
  Json metrics = Json::object();
  for (const auto& m : r.metrics)
    metrics[m.metric] =
        Json{{"value", m.value_mean}, {"value_std", m.value_std}, {"base", m.base_mean}, {"base_std", m.base_std},
             {"phi", NamedValues(r.features, m.phi_mean)}, {"phi_std", NamedValues(r.features, m.phi_std)}};
  result["metrics"] = metrics;
  Json selection;
  std::vector<std::string> removed, kept;
  for (std::size_t i : r.selection.removed) removed.push_back(r.features[i]);
  for (std::size_t i : r.selection.kept) kept.push_back(r.features[i]);
  selection["rule"] = "mean phi^AUC < 0 or |mean| <= std (band includes 0)";
  selection["flagged"] = removed;
  selection["kept"] = kept;
  selection["retrained"] = r.selection.retrained;
  selection["auc_before"] = Json{{"mean", r.selection.auc_before_mean}, {"std", r.selection.auc_before_std}};
  selection["auc_after"] = Json{{"mean", r.selection.auc_after_mean}, {"std", r.selection.auc_after_std}};
  selection["auprc_before"] = Json{{"mean", r.selection.auprc_before_mean}, {"std", r.selection.auprc_before_std}};
  selection["auprc_after"] = Json{{"mean", r.selection.auprc_after_mean}, {"std", r.selection.auprc_after_std}};
  result["selection"] = selection;
  result["data"] = data.source();
  result["label"] = data.label_name();
  result["model"] = r.learner;
  if (r.learner_params.count("C") != 0) result["C"] = std::stod(r.learner_params.at("C"));
  if (r.learner_params.count("standardize") != 0) result["standardize"] = r.learner_params.at("standardize") == "true";
  result["cv"] = plan_name;
  result["n_splits"] = n_splits;
  result["test_size"] = o.split.empty() && o.cv.rfind("kfold:", 0) != 0 ? Json(o.test_size) : Json(nullptr);
  result["stratify"] = o.stratify;
  result["curve_points"] = CurvePointsName(r.curves);
  result["strategy"] = GridStrategyName(r.curves.strategy);
  result["grid"] = nf;
  result["std_ddof"] = 0;
  result["auc_by_split"] = r.auc_by_split;
  result["files"] = files;
  WriteResult(c, result, "robustness", r.features, r.threads, r.elapsed_seconds);
}

}  // namespace

void SetupRobustness(CLI::App& app) {
  auto o = std::make_shared<RobustnessCliOptions>();
  AddCommonOptions(app, o->common, 0);
  app.add_option("--model", o->model, "learner retrained on every coalition: gnb|logistic|linear|probit")
      ->capture_default_str();
  o->C_option = app.add_option("--C", o->C, "logistic: inverse L2 strength (sklearn LogisticRegression C)")->capture_default_str();
  app.add_flag("--no-standardize", o->no_standardize, "logistic/probit/linear: fit on raw columns (no StandardScaler)");
  o->cv_option = app.add_option("--cv", o->cv, "splits: holdout, mc:R (Monte-Carlo) or kfold:K")->capture_default_str();
  app.add_option("--test-size", o->test_size, "test fraction of holdout and mc splits")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 0.99));
  app.add_flag("--stratify", o->stratify, "split each class in the same proportion");
  app.add_option("--split", o->split, "JSON with explicit splits: {\"train\":[..],\"test\":[..]} or {\"splits\":[..]}");
  app.add_option("--grid", o->grid, "points of the FPR and recall grids from 0 to 1")
      ->capture_default_str()
      ->check(CLI::Range(2, 100001));
  app.add_option("--strategy", o->strategy, "reading between curve points: optimistic|pessimistic|interpolation")
      ->capture_default_str();
  app.add_option("--curve-points", o->curve_points,
                 "exact (every distinct score) or thresholds:101 (the authors' scripts)")
      ->capture_default_str();
  app.add_option("--prc-baseline", o->prc_baseline, "b of ShapPRC/ShapAUPRC: 0.5 (paper) or prevalence")
      ->capture_default_str();
  app.add_option("--slice-fpr", o->slice_fpr, "FPR of the waterfall slice figure")->capture_default_str();
  app.add_flag("--select", o->select, "retrain without the flagged features (section 4.4), report before/after");
  app.add_option("--metrics", o->metrics,
                 "extra metrics explained too, comma-separated: accuracy, balanced_accuracy, sensitivity, "
                 "specificity, precision, f1, brier, log_loss, average_precision, mse, mae, rmse, r2");
  app.add_option("--features", o->features, "comma-separated feature columns (default: all but the label)");
  app.add_option("--exact-limit", o->exact_limit, "largest number of features solved exactly (2^n trainings per split)")
      ->capture_default_str()
      ->check(CLI::Range(1, 30));
  app.add_option("--rows", o->rows, "rows of the built-in probit design (without --data)")
      ->capture_default_str()
      ->check(CLI::Range(10, 100000000));
  app.callback([o] { RunRobustness(*o); });
}

}  // namespace perfshap::cli
