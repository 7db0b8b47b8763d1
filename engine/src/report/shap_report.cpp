// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/shap_report.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>

#include "report/csv.hpp"
#include "report/figure_bounds.hpp"
#include "report/format.hpp"
#include "report/json.hpp"
#include "report/learner_json.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

const char* ScaleName(ShapOutputScale s) { return s == ShapOutputScale::kMargin ? "margin" : "prediction"; }

/** Players by decreasing mean |phi| of output o. */
std::vector<std::size_t> ByImportance(const std::vector<double>& mean_abs, std::size_t P, std::size_t o) {
  std::vector<std::size_t> order(P);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return mean_abs[o * P + a] > mean_abs[o * P + b]; });
  return order;
}

bool Sampled(const ShapExplanation& e) { return !e.phi_se.empty(); }

Chart BarFigure(const ShapExplanation& e, std::size_t o) {
  const std::size_t P = e.n_players;
  const std::vector<double> mean_abs = e.MeanAbs();
  BarChart chart;
  chart.frame.title =
      "Global importance: mean |SHAP| over " + std::to_string(e.n_rows) + " rows (" + e.outputs[o] + ")";
  chart.frame.x_label = "mean |phi|";
  for (std::size_t j : ByImportance(mean_abs, P, o)) {
    chart.labels.push_back(e.players[j]);
    chart.values.push_back(mean_abs[o * P + j]);
  }
  return chart;
}

/** The waterfall of explained row `r` (an index into run.rows), its top features by |phi|. */
Chart WaterfallFigure(const ShapReport& report, std::size_t r, std::size_t o) {
  const ShapExplanation& e = report.result;
  const std::size_t P = e.n_players;
  std::vector<std::size_t> order(P);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::fabs(e(r, o, a)) > std::fabs(e(r, o, b));
  });
  WaterfallChart chart;
  chart.frame.title =
      "Row " + std::to_string(report.run.rows[r]) + ": " + e.outputs[o] + " from the base value";
  chart.frame.x_label = e.outputs[o];
  chart.start_label = "base E[f]";
  chart.start_value = e.base[r * e.n_outputs + o];
  for (std::size_t j : order) {
    chart.labels.push_back(e.players[j]);
    chart.contributions.push_back(e(r, o, j));
    if (Sampled(e)) chart.stds.push_back(e.phi_se[(r * e.n_outputs + o) * P + j]);
  }
  chart.end_label = "f(x)";
  chart.end_value = e.prediction[r * e.n_outputs + o];
  BoundWaterfall(chart);
  return chart;
}

Json PerOutput(const ShapExplanation& e, const std::vector<double>& values) {
  Json j = Json::object();
  for (std::size_t o = 0; o < e.n_outputs; ++o)
    j[e.outputs[o]] =
        NamedValues(e.players, std::span<const double>(values.data() + o * e.n_players, e.n_players));
  return j;
}

std::string WaterfallName(const ShapReport& report, std::size_t r) {
  return "shap_waterfall_row" + std::to_string(report.run.rows[r]) + ".svg";
}

/** The feature rows of the interaction matrix (the base value's row left out). */
std::vector<std::size_t> FeatureRows(const TreeShapInteractionValues& v) {
  std::vector<std::size_t> rows;
  for (std::size_t a = 0; a < v.matrix_rows.size(); ++a)
    if (v.matrix_rows[a] < v.n_features) rows.push_back(a);
  return rows;
}

Json InteractionsJson(const ShapReport& report) {
  const TreeShapInteractionValues& v = *report.interactions;
  const ShapExplanation& e = report.result;
  const std::size_t F = v.n_features;
  const std::size_t R = v.matrix_rows.size();
  const std::vector<double> mean = MeanAbsInteractions(v);
  std::vector<std::string> names;
  for (const std::size_t a : FeatureRows(v)) names.push_back(e.players[v.matrix_rows[a]]);
  Json per_output = Json::object();
  for (std::size_t o = 0; o < v.n_outputs; ++o) {
    Json m = Json::array();
    for (const std::size_t a : FeatureRows(v)) {
      Json line = Json::array();
      for (std::size_t j = 0; j < F; ++j) line.push_back(NumberOrNull(mean[(o * R + a) * F + j]));
      m.push_back(line);
    }
    per_output[e.outputs[o]] = m;
  }
  // Entry (i, j), i != j: half the Shapley interaction index of the pair; (i, i): phi_i minus the
  // rest of row i (each row adds up to phi_i), as shap_interaction_values and pred_interactions.
  return {{"index", "shapley"},
          {"features", names},
          {"columns", e.players},
          {"mean_abs", per_output},
          {"file", "interactions.csv"}};
}

// The conditional explanation beside the marginal one (report.marginal): each player's mean |phi|
// over the explained rows, of the first output (as the figures).
ValueFunctionComparison ShapComparison(const ShapExplanation& e, const ShapExplanation& marginal) {
  const std::size_t P = e.n_players;
  const std::vector<double> c = e.MeanAbs(), m = marginal.MeanAbs();
  return {ShapConditionalName(e.conditional),
          "mean |SHAP value| over the explained rows" +
              (e.n_outputs > 1 ? " (" + e.outputs[0] + ")" : std::string()),
          e.players,
          std::vector<double>(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(P)),
          {},
          std::vector<double>(m.begin(), m.begin() + static_cast<std::ptrdiff_t>(P))};
}

Json ResultBody(const ShapReport& report, const ReportContent& out) {
  const ShapExplanation& e = report.result;
  const ShapRun& run = report.run;
  const std::size_t P = e.n_players;
  const std::size_t K = e.n_outputs;
  Json body;
  body["approach"] = e.approach;
  if (e.conditional != ShapConditional::kMarginal) {
    body["conditional"] = ShapConditionalName(e.conditional);
    body["conditional_samples"] = e.conditional_samples;
    body["conditional_exact"] = e.conditional_exact;
    if (!e.regression_model.empty()) body["regression_model"] = e.regression_model;
  }
  if (report.marginal != nullptr)
    body["marginal_comparison"] = ComparisonJson(ShapComparison(e, *report.marginal));
  if (report.dependence != nullptr) body["dependence"] = DependenceJson(*report.dependence);
  body["output"] = ScaleName(e.output);
  body["model"] = {{"description", run.model}, {"source", run.model_source}};
  if (!run.learner.empty()) body["model_params"] = LearnerParamsJson(run.learner, run.learner_params);
  // The rounds of an XGBoost model file explained, as XGBoost's iteration_range [begin, end).
  if (run.rounds.total > 0) {
    body["iteration_range"] = {run.rounds.begin, run.rounds.end};
    if (run.rounds.best_iteration >= 0) body["best_iteration"] = run.rounds.best_iteration;
  }
  body["data"] = run.data;
  std::vector<std::size_t> rows(run.rows.size());
  std::iota(rows.begin(), rows.end(), run.rows.first);
  body["rows"] = rows;
  body["players"] = e.players;
  body["outputs"] = e.outputs;
  Json solver = {{"name", e.solve.solver},
                 {"converged", e.solve.converged},
                 {"stopped_by", StopReasonName(e.solve.stopped_by)},
                 {"evaluations", e.solve.n_evaluations}};
  body["solver"] = solver;
  if (e.approach == "interventional" || e.approach == "tree-interventional")
    body["background"] = {
        {"rows", run.background_rows}, {"source", run.background_source}, {"given", run.background_given}};
  // Base value per output (the same for every row).
  Json base = Json::object();
  for (std::size_t o = 0; o < K; ++o) base[e.outputs[o]] = NumberOrNull(e.base[o]);
  body["base"] = base;
  body["global"] = {{"mean_abs", PerOutput(e, e.MeanAbs())}, {"mean", PerOutput(e, e.Mean())}};
  if (Sampled(e)) {
    // The largest standard error of each player's values, per output, and every row's.
    std::vector<double> max_se(K * P, 0.0);
    for (std::size_t r = 0; r < e.n_rows; ++r)
      for (std::size_t o = 0; o < K; ++o)
        for (std::size_t j = 0; j < P; ++j)
          max_se[o * P + j] = std::max(max_se[o * P + j], e.phi_se[(r * K + o) * P + j]);
    body["phi_se_max"] = PerOutput(e, max_se);
    Json se = Json::array();
    for (std::size_t r = 0; r < e.n_rows; ++r) {
      Json row = Json::array();
      for (std::size_t o = 0; o < K; ++o) {
        Json values = Json::array();
        for (std::size_t j = 0; j < P; ++j) values.push_back(NumberOrNull(e.phi_se[(r * K + o) * P + j]));
        row.push_back(values);
      }
      se.push_back(row);
    }
    body["phi_se"] = se;
  }
  const std::size_t r = run.explain_row;
  Json er = {{"row", run.rows[r]}};
  Json pred = Json::object();
  Json phi = Json::object();
  for (std::size_t o = 0; o < K; ++o) {
    pred[e.outputs[o]] = NumberOrNull(e.prediction[r * K + o]);
    phi[e.outputs[o]] = NamedValues(e.players, std::span<const double>(e.phi.data() + (r * K + o) * P, P));
  }
  er["prediction"] = pred;
  er["phi"] = phi;
  body["explained_row"] = er;
  if (report.interactions != nullptr) body["interactions"] = InteractionsJson(report);
  std::vector<std::string> files = {"contributions.csv", "shap_bar.svg", "shap_beeswarm.svg",
                                    WaterfallName(report, r)};
  if (report.interactions != nullptr) files.push_back("interactions.csv");
  for (const std::string& figure : out.figures())
    if (std::find(files.begin(), files.end(), figure) == files.end()) files.push_back(figure);
  body["files"] = FilesDrawn(out, files);
  body["figures"] = out.figures();
  return body;
}

}  // namespace

std::vector<double> MeanAbsInteractions(const TreeShapInteractionValues& v) {
  const std::size_t F = v.n_features;
  const std::size_t R = v.matrix_rows.size();
  std::vector<double> mean(v.n_outputs * R * F, 0.0);
  for (std::size_t r = 0; r < v.n_rows; ++r)
    for (std::size_t o = 0; o < v.n_outputs; ++o)
      for (std::size_t a = 0; a < R; ++a)
        for (std::size_t j = 0; j < F; ++j) mean[(o * R + a) * F + j] += std::fabs(v(r, o, a, j));
  if (v.n_rows > 0)
    for (double& m : mean) m /= static_cast<double>(v.n_rows);
  return mean;
}

Chart ShapBeeswarmFigure(const ShapReport& report, std::size_t o) {
  const ShapExplanation& e = report.result;
  const std::size_t P = e.n_players;
  // Bounded (report/figure_bounds.hpp): evenly spaced rows, the top features by mean |phi|.
  const std::vector<std::size_t> rows = RowsShown(e.n_rows);
  StripChart chart;
  chart.frame.title = "SHAP values of " + std::to_string(e.n_rows) + " rows (" + e.outputs[o] + ")" +
                      RowsShownNote(rows.size(), e.n_rows, "rows");
  chart.frame.x_label = "phi (" + std::string(ScaleName(e.output)) + " scale)";
  const std::vector<double>& values = report.run.player_values;
  std::function<double(std::size_t, std::size_t)> colour;
  if (values.size() == rows.size() * P)
    colour = [&](std::size_t r, std::size_t j) {
      const auto k = static_cast<std::size_t>(std::lower_bound(rows.begin(), rows.end(), r) - rows.begin());
      return values[k * P + j];
    };
  chart.rows = BoundedStripRows(
      ByImportance(e.MeanAbs(), P, o), rows, e.players,
      [&](std::size_t r, std::size_t j) { return e(r, o, j); }, colour);
  return chart;
}

CsvTable ShapContributionsCsv(const ShapReport& report) {
  const ShapExplanation& e = report.result;
  const bool classes = e.n_outputs > 1;
  std::vector<std::string> header = {"row"};
  if (classes) header.push_back("class");
  header.insert(header.end(), e.players.begin(), e.players.end());
  header.push_back("bias");
  if (Sampled(e))
    for (const auto& p : e.players) header.push_back("se_" + p);
  CsvTable table(header);
  for (std::size_t r = 0; r < e.n_rows; ++r)
    for (std::size_t o = 0; o < e.n_outputs; ++o) {
      table.Row().Count(report.run.rows[r]);
      if (classes) table.Quoted(e.outputs[o]);
      for (std::size_t j = 0; j < e.n_players; ++j) table.Number(e(r, o, j));
      table.Number(e.base[r * e.n_outputs + o]);
      if (Sampled(e))
        for (std::size_t j = 0; j < e.n_players; ++j)
          table.Number(e.phi_se[(r * e.n_outputs + o) * e.n_players + j]);
    }
  return table;
}

CsvTable ShapInteractionsCsv(const ShapReport& report) {
  const TreeShapInteractionValues& v = *report.interactions;
  const ShapExplanation& e = report.result;
  const bool classes = v.n_outputs > 1;
  std::vector<std::string> header = {"row"};
  if (classes) header.push_back("class");
  header.insert(header.end(), {"feature", "other", "interaction"});
  const bool sampled = !v.se.empty();
  if (sampled) header.push_back("se");
  CsvTable table(header);
  const std::vector<std::size_t> rows = FeatureRows(v);
  for (std::size_t r = 0; r < v.n_rows; ++r)
    for (std::size_t o = 0; o < v.n_outputs; ++o)
      for (const std::size_t a : rows)
        for (std::size_t j = 0; j < v.n_features; ++j) {
          table.Row().Count(report.run.rows[r]);
          if (classes) table.Quoted(e.outputs[o]);
          table.Text(e.players[v.matrix_rows[a]]).Text(e.players[j]).Number(v(r, o, a, j));
          if (sampled)
            table.Number(v.se[((r * v.n_outputs + o) * v.matrix_rows.size() + a) * (v.n_features + 1) + j]);
        }
  return table;
}

Chart ShapInteractionsFigure(const ShapReport& report, std::size_t o) {
  const TreeShapInteractionValues& v = *report.interactions;
  const ShapExplanation& e = report.result;
  const std::size_t F = v.n_features;
  const std::size_t R = v.matrix_rows.size();
  const std::vector<double> mean = MeanAbsInteractions(v);
  // Columns: the features by importance, at most kMaxFeaturesShown; rows: the matrix rows kept
  // among them (or all of them when features were named), the most important at the top.
  std::vector<std::size_t> columns = ByImportance(e.MeanAbs(), e.n_players, o);
  if (columns.size() > kMaxFeaturesShown) columns.resize(kMaxFeaturesShown);
  std::vector<std::size_t> lines;
  for (const std::size_t a : FeatureRows(v)) {
    const std::size_t f = v.matrix_rows[a];
    if (R == F + 1 && std::find(columns.begin(), columns.end(), f) == columns.end()) continue;
    lines.push_back(a);
  }
  if (R != F + 1) {  // named features: in the order of importance too
    std::vector<std::size_t> rank(F);
    for (std::size_t k = 0; k < columns.size(); ++k) rank[columns[k]] = k + 1;
    std::stable_sort(lines.begin(), lines.end(), [&](std::size_t x, std::size_t y) {
      const std::size_t rx = rank[v.matrix_rows[x]] == 0 ? F + 1 : rank[v.matrix_rows[x]];
      const std::size_t ry = rank[v.matrix_rows[y]] == 0 ? F + 1 : rank[v.matrix_rows[y]];
      return rx < ry;
    });
  }
  HeatmapChart chart;
  // The diagonal (main effects) is left grey, "no value": it would drown the pairs' colours.
  chart.frame.title = "Mean |SHAP interaction| over " + std::to_string(v.n_rows) + " rows (" + e.outputs[o] +
                      ")" +
                      (columns.size() < F ? ", the top " + std::to_string(columns.size()) + " features" : "");
  chart.rows = lines.size();
  chart.cols = columns.size();
  chart.x_max = static_cast<double>(std::max<std::size_t>(chart.cols, 1));
  chart.y_max = static_cast<double>(std::max<std::size_t>(chart.rows, 1));
  for (const std::size_t j : columns) chart.x_labels.push_back(e.players[j]);
  // Row 0 at the bottom: the most important row last.
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    const std::size_t f = v.matrix_rows[*it];
    chart.y_labels.push_back(e.players[f]);
    for (const std::size_t j : columns)
      chart.values.push_back(j == f ? std::numeric_limits<double>::quiet_NaN() : mean[(o * R + *it) * F + j]);
  }
  chart.color_label = "mean |interaction|";
  return chart;
}

std::string ShapConsoleText(const ShapReport& report, const std::string& out) {
  const ShapExplanation& e = report.result;
  const ShapRun& run = report.run;
  const std::size_t P = e.n_players;
  std::size_t width = 16;
  for (const auto& name : e.players) width = std::max(width, name.size() + 2);
  std::ostringstream s;
  s << "perfshap shap: " << run.data << "\n"
    << "  model " << run.model << " (" << run.model_source << ")\n"
    << "  " << e.n_rows << " rows explained, " << P << " players; approach " << e.approach << ", "
    << ScaleName(e.output) << " scale";
  if (e.approach == "interventional" || e.approach == "tree-interventional")
    s << ", background " << run.background_rows << " rows (" << run.background_source << ")";
  if (e.conditional_exact)
    s << "\n  value function " << ShapConditionalName(e.conditional)
      << ", exact: the model is linear, so each coalition's value is the model at the conditional mean of "
         "the "
         "features off it (mean and covariance from the background)";
  else if (e.conditional == ShapConditional::kRegression)
    s << "\n  value function regression (a " << e.regression_model
      << " regression of the model's output on a coalition's features, fitted to the background; no draws)";
  else if (e.conditional != ShapConditional::kMarginal)
    s << "\n  value function " << ShapConditionalName(e.conditional)
      << " (the features off a coalition drawn " << e.conditional_samples
      << " times a row given those on it, from the background's distribution)";
  if ((e.approach == "interventional" || e.approach == "tree-interventional") && !run.background_given)
    s << "\n  no background was given: " << run.background_rows << " rows were " << run.background_source
      << "; give a background (rows of the training data, or a number of rows) to choose it";
  s << "\n  solver " << e.solve.solver;
  if (e.solve.solver != "treeshap") s << ", " << e.solve.n_evaluations << " coalitions";
  if (!e.solve.converged)
    s << "; did not converge: stopped by the " << StopReasonName(e.solve.stopped_by)
      << "; raise the budget or the tolerance";
  s << ", " << Fmt("%.3f", e.elapsed_seconds) << " s\n";
  const std::vector<double> mean_abs = e.MeanAbs();
  const std::vector<double> mean = e.Mean();
  for (std::size_t o = 0; o < e.n_outputs; ++o) {
    s << "  " << e.outputs[o] << ": base " << Fmt("%.6f", e.base[o]) << "\n"
      << "    " << PadRight("feature", width, 1) << "mean |phi|    mean phi\n";
    for (std::size_t j : ByImportance(mean_abs, P, o))
      s << "    " << PadRight(e.players[j], width, 1) << Fmt("%10.6f", mean_abs[o * P + j]) << "  "
        << Fmt("%+10.6f", mean[o * P + j]) << "\n";
  }
  const std::size_t r = run.explain_row;
  s << "  row " << run.rows[r] << ":";
  for (std::size_t o = 0; o < e.n_outputs; ++o)
    s << " " << e.outputs[o] << " " << Fmt("%.6f", e.prediction[r * e.n_outputs + o]) << " = base "
      << Fmt("%.6f", e.base[r * e.n_outputs + o]) << " + sum of phi" << (o + 1 < e.n_outputs ? ";" : "");
  s << "\n";
  if (report.marginal != nullptr) s << ComparisonText(ShapComparison(e, *report.marginal));
  if (report.interactions != nullptr) {
    // The strongest pairs of the first output by mean |interaction|.
    const TreeShapInteractionValues& v = *report.interactions;
    const std::size_t F = v.n_features;
    const std::size_t R = v.matrix_rows.size();
    const std::vector<double> pair_mean = MeanAbsInteractions(v);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (const std::size_t a : FeatureRows(v))
      for (std::size_t j = 0; j < F; ++j)
        if (j != v.matrix_rows[a] && (R != F + 1 || j > v.matrix_rows[a])) pairs.emplace_back(a, j);
    std::stable_sort(pairs.begin(), pairs.end(), [&](const auto& x, const auto& y) {
      return pair_mean[x.first * F + x.second] > pair_mean[y.first * F + y.second];
    });
    s << "  interactions (" << e.outputs[0] << "), the strongest pairs by mean |interaction|:\n";
    for (std::size_t k = 0; k < std::min<std::size_t>(pairs.size(), 5); ++k)
      s << "    " << e.players[v.matrix_rows[pairs[k].first]] << " x " << e.players[pairs[k].second] << "  "
        << Fmt("%.6f", pair_mean[pairs[k].first * F + pairs[k].second]) << "\n";
  }
  if (!out.empty())
    s << "  wrote " << out << "/result.json, contributions.csv"
      << (report.interactions ? ", interactions.csv" : "") << " and the SVGs\n";
  return s.str();
}

void BuildShapReport(ReportContent& out, const ShapReport& report) {
  const ShapExplanation& e = report.result;
  out.Table("contributions.csv", [&] { return ShapContributionsCsv(report); });
  // The figures show the first output (P(y=1), the margin) or, for several classes, the first class.
  out.Figure("shap_bar.svg", FigureSet::kSummary, [&] { return BarFigure(e, 0); });
  out.Figure("shap_beeswarm.svg", FigureSet::kSummary, [&] { return ShapBeeswarmFigure(report, 0); });
  const std::size_t explained = report.run.explain_row;
  out.Figure(WaterfallName(report, explained), FigureSet::kSummary,
             [&] { return WaterfallFigure(report, explained, 0); });
  // --figures all: the waterfall of each of the first kMaxRowFigures explained rows.
  for (std::size_t r = 0; r < std::min(e.n_rows, kMaxRowFigures); ++r)
    if (r != explained)
      out.Figure(WaterfallName(report, r), FigureSet::kAll, [&] { return WaterfallFigure(report, r, 0); });
  if (report.interactions != nullptr) {
    out.Table("interactions.csv", [&] { return ShapInteractionsCsv(report); });
    out.Figure("shap_interactions.svg", FigureSet::kSummary,
               [&] { return ShapInteractionsFigure(report, 0); });
  }
  if (report.marginal != nullptr) AddComparisonFiles(out, ShapComparison(e, *report.marginal));
  if (report.dependence != nullptr) AddDependenceFiles(out, *report.dependence);
  out.Result({"shap", e.players, report.run.seed, report.run.threads, e.elapsed_seconds},
             ResultBody(report, out));
}
}}}  // namespace perfshap::detail
