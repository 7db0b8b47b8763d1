// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/axom_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>

#include "report/csv.hpp"
#include "report/format.hpp"
#include "report/json.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {


const ExplanationRobustness& Model(const AxomRun& r, int m) {
  return m == 0 ? r.robustness.tree : m == 1 ? r.robustness.forest : r.robustness.axom;
}

const AxomComparison& Comparison(const AxomRun& r, int c) {
  return c == 0 ? r.tree_vs_forest : c == 1 ? r.tree_vs_axom : r.forest_vs_axom;
}

/** Mean and population std of the finite values. */
struct MeanStdOf {
  double mean = std::numeric_limits<double>::quiet_NaN();
  double std = std::numeric_limits<double>::quiet_NaN();
  std::size_t n = 0;
};
MeanStdOf Summary(const std::vector<double>& v) {
  MeanStdOf s;
  double sum = 0.0;
  for (double x : v)
    if (std::isfinite(x)) {
      sum += x;
      ++s.n;
    }
  if (s.n == 0) return s;
  s.mean = sum / static_cast<double>(s.n);
  double ss = 0.0;
  for (double x : v)
    if (std::isfinite(x)) ss += (x - s.mean) * (x - s.mean);
  s.std = std::sqrt(ss / static_cast<double>(s.n));
  return s;
}

/** Mean and sample std (ddof 1) over seeds. */
MeanStdOf OverSeeds(const std::vector<double>& v) {
  MeanStdOf s = Summary(v);
  if (s.n > 1) s.std *= std::sqrt(static_cast<double>(s.n) / static_cast<double>(s.n - 1));
  if (s.n == 1) s.std = 0.0;
  return s;
}

double KeptMean(const ExplanationRobustness& r) {
  double sum = 0.0;
  for (std::size_t k : r.kept) sum += static_cast<double>(k);
  return r.kept.empty() ? 0.0 : sum / static_cast<double>(r.kept.size());
}

Json TestJson(const AxomTest& t) {
  return {{"statistic", NumberOrNull(t.statistic)}, {"p_value", NumberOrNull(t.p_value)}, {"method", t.method}};
}

}  // namespace

Json AxomRunJson(const AxomRun& r, std::uint64_t seed) {
  Json j;
  j["seed"] = seed;
  for (int m = 0; m < 3; ++m) {
    const ExplanationRobustness& e = Model(r, m);
    const MeanStdOf l = Summary(e.l_bar);
    Json model = {{"L_mean", NumberOrNull(l.mean)},
                  {"L_std", NumberOrNull(l.std)},
                  {"L_hat_mean", NumberOrNull(Summary(e.l_hat).mean)},
                  {"accuracy", m == 0 ? r.tree_accuracy : r.forest_accuracy},
                  {"kept_neighbours_mean", KeptMean(e)}};
    if (m < 2) model["setting"] = (m == 0 ? r.tree_setting : r.forest_setting).Describe();
    j[kAxomModels[m]] = model;
  }
  Json p;
  for (int c = 0; c < 3; ++c) {
    const AxomComparison& cmp = Comparison(r, c);
    p[kAxomComparisons[c]] = {{"paired_t", TestJson(cmp.paired_t)},
                          {"wilcoxon", TestJson(cmp.wilcoxon)},
                          {"student_t", TestJson(cmp.student_t)},
                          {"mann_whitney", TestJson(cmp.mann_whitney)},
                          {"points", cmp.n}};
  }
  j["p_values"] = p;
  j["mislabelling"] = r.mislabelling;
  j["seconds"] = {{"tuning", r.seconds_tuning}, {"fit", r.seconds_fit}, {"robustness", r.seconds_robustness}};
  return j;
}

namespace {

/** The per-seed values of one quantity. */
template <class F>
std::vector<double> PerSeed(const AxomDataReport& d, F f) {
  std::vector<double> v;
  for (const AxomRun& r : d.runs) v.push_back(f(r));
  return v;
}

}  // namespace

Json AxomSummaries(const AxomDataReport& d) {
  Json j;
  for (int m = 0; m < 3; ++m) {
    const MeanStdOf l = OverSeeds(PerSeed(d, [&](const AxomRun& r) { return Summary(Model(r, m).l_bar).mean; }));
    const MeanStdOf s = OverSeeds(PerSeed(d, [&](const AxomRun& r) { return Summary(Model(r, m).l_bar).std; }));
    const MeanStdOf h = OverSeeds(PerSeed(d, [&](const AxomRun& r) { return Summary(Model(r, m).l_hat).mean; }));
    const MeanStdOf a =
        OverSeeds(PerSeed(d, [&](const AxomRun& r) { return m == 0 ? r.tree_accuracy : r.forest_accuracy; }));
    j[kAxomModels[m]] = {{"L_mean", NumberOrNull(l.mean)},          {"L_mean_std_over_seeds", NumberOrNull(l.std)},
                     {"L_std", NumberOrNull(s.mean)},           {"L_hat_mean", NumberOrNull(h.mean)},
                     {"accuracy", NumberOrNull(a.mean)},        {"accuracy_std_over_seeds", NumberOrNull(a.std)}};
  }
  Json p;
  for (int c = 0; c < 3; ++c) {
    Json tests;
    for (const char* test : {"paired_t", "wilcoxon", "student_t", "mann_whitney"}) {
      std::vector<double> ps = PerSeed(d, [&](const AxomRun& r) {
        const AxomComparison& cmp = Comparison(r, c);
        const std::string t = test;
        return t == "paired_t" ? cmp.paired_t.p_value
               : t == "wilcoxon" ? cmp.wilcoxon.p_value
               : t == "student_t" ? cmp.student_t.p_value
                                  : cmp.mann_whitney.p_value;
      });
      std::vector<double> finite;
      for (double v : ps)
        if (std::isfinite(v)) finite.push_back(v);
      std::sort(finite.begin(), finite.end());
      const double median = finite.empty() ? std::numeric_limits<double>::quiet_NaN()
                                           : (finite[(finite.size() - 1) / 2] + finite[finite.size() / 2]) / 2.0;
      std::size_t below = 0;
      for (double v : finite) below += v < 0.05 ? 1 : 0;
      tests[test] = {{"median", NumberOrNull(median)}, {"below_0.05", below}, {"seeds", finite.size()}};
    }
    p[kAxomComparisons[c]] = tests;
  }
  j["p_values"] = p;
  const MeanStdOf mis = OverSeeds(PerSeed(d, [](const AxomRun& r) { return r.mislabelling; }));
  j["mislabelling"] = NumberOrNull(mis.mean);
  j["mislabelling_std_over_seeds"] = NumberOrNull(mis.std);
  std::size_t axom_better = 0;
  for (const AxomRun& r : d.runs) axom_better += Summary(r.robustness.axom.l_bar).mean < Summary(r.robustness.forest.l_bar).mean ? 1 : 0;
  j["axom_more_robust_than_rf_in_seeds"] = axom_better;
  j["seeds"] = d.runs.size();
  return j;
}

Chart AxomBoxFigure(const std::vector<const AxomDataReport*>& reports) {
  BoxChart chart;
  chart.frame.title = "L_bar of the explanations per test point (lower is more robust)";
  chart.frame.y_label = "L_bar";
  for (int m = 0; m < 3; ++m) chart.series_names.push_back(kAxomModelNames[m]);
  for (const AxomDataReport* d : reports) {
    BoxGroup group;
    group.label = d->name;
    for (int m = 0; m < 3; ++m) {
      std::vector<double> values;
      for (const AxomRun& r : d->runs)
        for (double v : Model(r, m).l_bar)
          if (std::isfinite(v)) values.push_back(v);
      group.values.push_back(std::move(values));
    }
    chart.groups.push_back(std::move(group));
  }
  return chart;
}

namespace {

Chart HeatFigure(const ExplanationHeatmaps& h, const std::vector<double>& values, const std::string& title,
                 const std::vector<std::string>& names) {
  HeatmapChart chart;
  chart.frame.title = title;
  chart.frame.x_label = names[static_cast<std::size_t>(h.feature_a)] + " - x_i";
  chart.frame.y_label = names[static_cast<std::size_t>(h.feature_b)] + " - x_i";
  chart.rows = h.grid;
  chart.cols = h.grid;
  chart.values = values;
  chart.x_min = -h.eps;
  chart.x_max = h.eps;
  chart.y_min = -h.eps;
  chart.y_max = h.eps;
  chart.lattice = true;
  chart.marker = true;
  chart.marker_x = 0.0;
  chart.marker_y = 0.0;
  return chart;
}

/** The heat maps of eqs. 2, 3 and 6 of models first..2 (0 tree, 1 forest, 2 AXOM), each grid x
 *  grid cells as --heatmap-grid asks (bounded by the computation, not by the rows), their names
 *  added to `files`; `over` names what eq. 6 averages over. */
void AddHeatFigures(ReportContent& out, const ExplanationHeatmaps& h, int first,
                    const std::vector<std::string>& names, const std::string& over,
                    std::vector<std::string>& files) {
  for (int m = first; m < 3; ++m) {
    const std::string model = kAxomModels[m];
    out.Figure("heat_difference_" + model + ".svg", FigureSet::kSummary, [&] {
      return HeatFigure(h, h.difference[m], std::string("eq. 2: ||g(x_i) - g(x_m)||, ") + kAxomModelNames[m],
                        names);
    });
    out.Figure("heat_ratio_" + model + ".svg", FigureSet::kSummary, [&] {
      return HeatFigure(h, h.ratio[m],
                        std::string("eq. 3: ||g(x_i) - g(x_m)|| / ||x_i - x_m||, ") + kAxomModelNames[m],
                        names);
    });
    out.Figure("heat_mean_ratio_" + model + ".svg", FigureSet::kSummary, [&] {
      return HeatFigure(h, h.mean_ratio[m], "eq. 6: eq. 3 averaged over " + over + ", " + kAxomModelNames[m],
                        names);
    });
    for (const char* kind : {"heat_difference_", "heat_ratio_", "heat_mean_ratio_"}) files.push_back(kind + model + ".svg");
  }
}

}  // namespace

std::string AxomPct(double v) { return std::isfinite(v) ? Fmt("%.1f%%", 100.0 * v) : std::string("n/a"); }
std::string AxomNum(double v, int decimals) {
  return std::isfinite(v) ? Fmt(decimals == 2 ? "%.2f" : decimals == 3 ? "%.3f" : "%.4f", v) : std::string("n/a");
}


std::string AxomConsoleText(const AxomDataReport& d, const AxomReportSettings& settings) {
  const Json s = AxomSummaries(d);
  const AxomRun& first = d.runs.front();
  std::ostringstream o;
  o << "perfshap axom: " << first.data << "\n"
    << "  " << first.n_features << " features, " << first.n_classes << " classes; " << first.n_train << " training / "
    << first.n_test << " test rows; " << d.runs.size() << " seed(s); " << first.trees << "-tree forests"
    << (settings.tune ? " (tuned by grid search)" : "") << "\n"
    << "  robustness: " << settings.neighbours << " neighbours per test point in the box of half-width "
    << Fmt("%g", settings.eps) << " (features min-max normalised), g = "
    << (settings.full_matrix ? "every class's SHAP values" : "the SHAP values of the predicted class") << "\n"
    << "  model            accuracy    L_bar mean   L_bar std   L_hat mean   kept neighbours\n";
  for (int m = 0; m < 3; ++m) {
    const Json& j = s[kAxomModels[m]];
    auto v = [&](const char* k) { return j[k].is_null() ? std::numeric_limits<double>::quiet_NaN() : j[k].get<double>(); };
    double kept = 0.0;
    for (const AxomRun& r : d.runs) kept += KeptMean(Model(r, m));
    o << "  " << PadRight(kAxomModelNames[m], 17) << PadRight(AxomPct(v("accuracy")), 12) << PadRight(AxomNum(v("L_mean"), 4), 13)
      << PadRight(AxomNum(v("L_std"), 4), 12) << PadRight(AxomNum(v("L_hat_mean"), 2), 13)
      << Fmt("%.0f", kept / static_cast<double>(d.runs.size())) << "\n";
  }
  o << "  weak mislabelling (trees voting against the forest): " << AxomPct(s["mislabelling"].get<double>()) << "\n"
    << "  p-values (paired t / Wilcoxon signed-rank, median over seeds):";
  for (int c = 0; c < 3; ++c) {
    const Json& p = s["p_values"][kAxomComparisons[c]];
    auto med = [&](const char* t) { return p[t]["median"].is_null() ? std::numeric_limits<double>::quiet_NaN() : p[t]["median"].get<double>(); };
    o << " " << kAxomComparisonNames[c] << " " << AxomNum(med("paired_t"), 4) << " / " << AxomNum(med("wilcoxon"), 4)
      << (c < 2 ? ";" : "");
  }
  o << "\n  AXOM's L_bar below RF's in " << s["axom_more_robust_than_rf_in_seeds"].get<std::size_t>() << " of "
    << d.runs.size() << " seed(s)\n";
  double tuning = 0, fit = 0, rob = 0;
  for (const AxomRun& r : d.runs) {
    tuning += r.seconds_tuning;
    fit += r.seconds_fit;
    rob += r.seconds_robustness;
  }
  o << "  seconds: tuning " << Fmt("%.2f", tuning) << ", fitting " << Fmt("%.2f", fit) << ", robustness "
    << Fmt("%.2f", rob) << "\n";
  return o.str();
}

void BuildAxomReport(ReportContent& out, const AxomDataReport& d, const AxomReportSettings& settings) {
  CsvTable points({"seed", "row", "L_bar_dt", "L_hat_dt", "kept_dt", "L_bar_rf", "L_hat_rf", "kept_rf", "L_bar_axom",
                   "L_hat_axom", "kept_axom", "mislabelling"},
                  CsvTable::NonFinite::kEmpty);
  for (std::size_t s = 0; s < d.runs.size(); ++s) {
    const AxomRun& r = d.runs[s];
    for (std::size_t i = 0; i < r.test_rows.size(); ++i) {
      points.Row().Count(d.seeds[s]).Count(r.test_rows[i]);
      for (int m = 0; m < 3; ++m) {
        const ExplanationRobustness& e = Model(r, m);
        points.Number(e.l_bar[i]).Number(e.l_hat[i]).Count(e.kept[i]);
      }
      points.Number(r.robustness.mislabelling[i]);
    }
  }
  out.Table("points.csv", std::move(points));
  out.Figure("robustness_box.svg", FigureSet::kSummary, [&] { return AxomBoxFigure({&d}); });
  std::vector<std::string> files = {"points.csv", "robustness_box.svg"};
  if (d.heatmaps.grid > 0) AddHeatFigures(out, d.heatmaps, 0, d.feature_names, "the test points", files);
  Json body = AxomSummaries(d);
  const AxomRun& first = d.runs.front();
  body["data"] = first.data;
  body["n_train"] = first.n_train;
  body["n_test"] = first.n_test;
  body["n_classes"] = first.n_classes;
  body["trees"] = first.trees;
  body["eps"] = settings.eps;
  body["neighbours"] = settings.neighbours;
  body["g"] = settings.full_matrix ? "classes x features" : "predicted class";
  body["tune"] = settings.tune;
  Json grid;
  for (const AxomSetting& s : AxomTreeGrid()) grid["dt"].push_back(s.Describe());
  for (const AxomSetting& s : AxomForestGrid()) grid["rf"].push_back(s.Describe());
  body["grid"] = grid;
  Json per_seed = Json::array();
  for (std::size_t s = 0; s < d.runs.size(); ++s) per_seed.push_back(AxomRunJson(d.runs[s], d.seeds[s]));
  body["per_seed"] = per_seed;
  if (d.heatmaps.grid > 0)
    body["heatmaps"] = {{"features", {d.feature_names[static_cast<std::size_t>(d.heatmaps.feature_a)],
                                      d.feature_names[static_cast<std::size_t>(d.heatmaps.feature_b)]}},
                        {"grid", d.heatmaps.grid},
                        {"center_row", first.test_rows.front()}};
  body["files"] = FilesDrawn(out, files);
  body["figures"] = out.figures();
  out.Result({"axom", d.feature_names, d.seeds.front(), settings.threads, settings.elapsed_seconds}, body);
}
}}}  // namespace perfshap::detail

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

/** Row r's values of its predicted class (features), from rows x classes x features. */
const double* PredictedClassValues(const AxomExplanation& e, const std::vector<double>& values, std::size_t r) {
  return values.data() + (r * e.n_classes + static_cast<std::size_t>(e.label[r])) * e.n_features;
}

/** Mean |value| per feature of each row's predicted class. */
Json MeanAbs(const AxomModelReport& d, const std::vector<double>& values) {
  const AxomExplanation& e = d.explanation;
  std::vector<double> sum(e.n_features, 0.0);
  for (std::size_t r = 0; r < e.n_rows; ++r) {
    const double* v = PredictedClassValues(e, values, r);
    for (std::size_t j = 0; j < e.n_features; ++j) sum[j] += std::fabs(v[j]);
  }
  Json j = Json::object();
  for (std::size_t f = 0; f < e.n_features; ++f)
    j[d.feature_names[f]] = e.n_rows > 0 ? sum[f] / static_cast<double>(e.n_rows) : 0.0;
  return j;
}

Json ModelRobustnessJson(const ExplanationRobustness& e) {
  const MeanStdOf l = Summary(e.l_bar);
  return {{"L_mean", NumberOrNull(l.mean)},
          {"L_std", NumberOrNull(l.std)},
          {"L_hat_mean", NumberOrNull(Summary(e.l_hat).mean)},
          {"kept_neighbours_mean", KeptMean(e)}};
}

CsvTable ValuesCsv(const AxomModelReport& d, const std::vector<double>& values) {
  std::vector<std::string> header = {"row", "label"};
  header.insert(header.end(), d.feature_names.begin(), d.feature_names.end());
  CsvTable t(header, CsvTable::NonFinite::kEmpty);
  const AxomExplanation& e = d.explanation;
  for (std::size_t r = 0; r < e.n_rows; ++r) {
    t.Row().Count(r).Text(d.class_names[static_cast<std::size_t>(e.label[r])]);
    const double* v = PredictedClassValues(e, values, r);
    for (std::size_t j = 0; j < e.n_features; ++j) t.Number(v[j]);
  }
  return t;
}

}  // namespace

std::string AxomModelConsoleText(const AxomModelReport& d, const AxomReportSettings& settings) {
  const AxomExplanation& e = d.explanation;
  std::ostringstream o;
  o << "perfshap axom: " << d.model << " on " << d.name << "\n"
    << "  " << e.n_rows << " rows, " << e.n_features << " features, " << e.n_classes << " classes, " << e.n_trees
    << " trees\n"
    << "  robustness: " << settings.neighbours << " neighbours per row in the box of half-width "
    << Fmt("%g", settings.eps) << " x each feature's range over the rows, g = "
    << (settings.full_matrix ? "every class's SHAP values" : "the SHAP values of the predicted class") << "\n"
    << "  model            L_bar mean   L_bar std   L_hat mean   kept neighbours\n";
  for (int m = 1; m < 3; ++m) {
    const ExplanationRobustness& r = m == 1 ? d.robustness.forest : d.robustness.axom;
    const MeanStdOf l = Summary(r.l_bar);
    o << "  " << PadRight(kAxomModelNames[m], 17) << PadRight(AxomNum(l.mean, 4), 13) << PadRight(AxomNum(l.std, 4), 12)
      << PadRight(AxomNum(Summary(r.l_hat).mean, 2), 13) << Fmt("%.0f", KeptMean(r)) << "\n";
  }
  o << "  weak mislabelling (trees voting against the forest): " << AxomPct(Summary(d.robustness.mislabelling).mean)
    << "\n"
    << "  p-values RF vs. AXOM (paired t / Wilcoxon signed-rank): " << AxomNum(d.forest_vs_axom.paired_t.p_value, 4)
    << " / " << AxomNum(d.forest_vs_axom.wilcoxon.p_value, 4) << "\n"
    << "  seconds: explanations " << Fmt("%.2f", d.seconds_explain) << ", robustness "
    << Fmt("%.2f", d.seconds_robustness) << "\n";
  return o.str();
}

void BuildAxomModelReport(ReportContent& out, const AxomModelReport& d, const AxomReportSettings& settings) {
  const AxomExplanation& e = d.explanation;
  CsvTable points({"row", "label", "kept_trees", "L_bar_rf", "L_hat_rf", "kept_rf", "L_bar_axom", "L_hat_axom",
                   "kept_axom", "mislabelling"},
                  CsvTable::NonFinite::kEmpty);
  for (std::size_t r = 0; r < e.n_rows; ++r) {
    points.Row().Count(r).Text(d.class_names[static_cast<std::size_t>(e.label[r])]).Count(e.kept_trees[r]);
    for (const ExplanationRobustness* m : {&d.robustness.forest, &d.robustness.axom})
      points.Number(m->l_bar[r]).Number(m->l_hat[r]).Count(m->kept[r]);
    points.Number(d.robustness.mislabelling[r]);
  }
  out.Table("points.csv", std::move(points));
  out.Table("axom_values.csv", [&] { return ValuesCsv(d, e.axom); });
  out.Table("forest_values.csv", [&] { return ValuesCsv(d, e.forest); });
  out.Figure("robustness_box.svg", FigureSet::kSummary, [&] {
    BoxChart chart;
    chart.frame.title = "L_bar of the explanations per row (lower is more robust)";
    chart.frame.y_label = "L_bar";
    chart.series_names = {kAxomModelNames[1], kAxomModelNames[2]};
    BoxGroup group;
    group.label = d.name;
    for (const ExplanationRobustness* m : {&d.robustness.forest, &d.robustness.axom}) {
      std::vector<double> values;
      for (double v : m->l_bar)
        if (std::isfinite(v)) values.push_back(v);
      group.values.push_back(std::move(values));
    }
    chart.groups.push_back(std::move(group));
    return chart;
  });
  std::vector<std::string> files = {"points.csv", "axom_values.csv", "forest_values.csv", "robustness_box.svg"};
  if (d.heatmaps.grid > 0) AddHeatFigures(out, d.heatmaps, 1, d.feature_names, "the rows", files);
  Json body;
  body["data"] = d.name;
  body["model"] = d.model;
  body["model_source"] = d.model_source;
  body["n_rows"] = e.n_rows;
  body["n_classes"] = e.n_classes;
  body["classes"] = d.class_names;
  body["trees"] = e.n_trees;
  body["eps"] = settings.eps;
  body["neighbours"] = settings.neighbours;
  body["g"] = settings.full_matrix ? "classes x features" : "predicted class";
  Json scale = Json::object();
  for (std::size_t j = 0; j < d.scale.size(); ++j) scale[d.feature_names[j]] = d.scale[j];
  body["scale"] = scale;
  body["rf"] = ModelRobustnessJson(d.robustness.forest);
  body["axom"] = ModelRobustnessJson(d.robustness.axom);
  const AxomComparison& c = d.forest_vs_axom;
  body["p_values"] = {{"rf_vs_axom",
                       {{"paired_t", TestJson(c.paired_t)},
                        {"wilcoxon", TestJson(c.wilcoxon)},
                        {"student_t", TestJson(c.student_t)},
                        {"mann_whitney", TestJson(c.mann_whitney)},
                        {"points", c.n}}}};
  body["mislabelling"] = NumberOrNull(Summary(d.robustness.mislabelling).mean);
  body["axom_more_robust_than_rf"] =
      Summary(d.robustness.axom.l_bar).mean < Summary(d.robustness.forest.l_bar).mean;
  body["mean_abs"] = {{"rf", MeanAbs(d, e.forest)}, {"axom", MeanAbs(d, e.axom)}};
  body["seconds"] = {{"explanations", d.seconds_explain}, {"robustness", d.seconds_robustness}};
  if (d.heatmaps.grid > 0)
    body["heatmaps"] = {{"features", {d.feature_names[static_cast<std::size_t>(d.heatmaps.feature_a)],
                                      d.feature_names[static_cast<std::size_t>(d.heatmaps.feature_b)]}},
                        {"grid", d.heatmaps.grid},
                        {"center_row", 0}};
  body["files"] = FilesDrawn(out, files);
  body["figures"] = out.figures();
  out.Result({"axom", d.feature_names, d.seed, settings.threads, settings.elapsed_seconds}, body);
}
}}}  // namespace perfshap::detail
