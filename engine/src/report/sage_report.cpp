// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/sage_report.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "report/csv.hpp"
#include "report/format.hpp"
#include "report/json.hpp"
#include "report/learner_json.hpp"
#include "report/svg.hpp"
#include "report/value_function_comparison.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

/** Players by decreasing value (the most helpful first). */
std::vector<std::size_t> ByValue(const SageValues& v) { return ValueFunctionComparison::Order(v.phi); }

double Se(const SageValues& v, std::size_t j) { return v.phi_se.empty() ? 0.0 : v.phi_se[j]; }

std::string ValueFunctionText(const SageValues& v, const ShapRun& run) {
  if (v.conditional == ShapConditional::kMarginal)
    return "marginal (the features off a coalition from " + std::to_string(run.background_rows) +
           " background rows, " + run.background_source + ")";
  if (v.conditional == ShapConditional::kRegression)
    return "regression (a " + v.regression_model +
           " regression of the model's prediction on a coalition's features, fitted to " +
           std::to_string(run.background_rows) + " background rows; no draws)";
  if (v.conditional_exact)
    return std::string(ShapConditionalName(v.conditional)) +
           ", exact (a linear model: the model at the conditional mean of the features off a coalition)";
  return std::string(ShapConditionalName(v.conditional)) + " (the features off a coalition drawn " +
         std::to_string(v.conditional_samples) + " times a row given those on it; distribution fitted to " +
         std::to_string(run.background_rows) + " background rows)";
}

// The conditional values beside the marginal ones (report.marginal).
ValueFunctionComparison SageComparison(const SageValues& v, const SageValues& marginal) {
  return {ShapConditionalName(v.conditional),
          v.loss ? "reduction of the " + v.metric_label : v.metric_label + " gained",
          v.players,
          v.phi,
          v.phi_se,
          marginal.phi};
}

Chart BarFigure(const SageReport& report) {
  const SageValues& v = report.result;
  std::string bands = v.phi_se.empty() ? "" : " (95% bands)";
  if (report.cv()) bands = " (mean +- std over " + std::to_string(report.splits->size()) + " splits)";
  BarChart chart;
  chart.frame.title =
      "SAGE: each feature's share of the " + v.metric_label + (v.loss ? " reduction" : " gain") + bands;
  chart.frame.x_label = v.loss ? "reduction of the " + v.metric_label : v.metric_label + " gained";
  for (const std::size_t j : ByValue(v)) {
    chart.labels.push_back(v.players[j]);
    chart.values.push_back(v.phi[j]);
    if (report.cv())
      chart.stds.push_back(report.phi_std[j]);
    else if (!v.phi_se.empty())
      chart.stds.push_back(1.96 * v.phi_se[j]);
  }
  return chart;
}

Json ResultBody(const SageReport& report) {
  const SageValues& v = report.result;
  const ShapRun& run = report.run;
  Json body;
  body["metric"] = v.metric;
  body["loss"] = v.loss;
  body["metric_full"] = NumberOrNull(v.metric_full);
  body["metric_empty"] = NumberOrNull(v.metric_empty);
  body["total"] = NumberOrNull(v.Total());
  body["conditional"] = ShapConditionalName(v.conditional);
  if (report.marginal != nullptr)
    body["marginal_comparison"] = ComparisonJson(SageComparison(v, *report.marginal));
  if (report.dependence != nullptr) body["dependence"] = DependenceJson(*report.dependence);
  if (v.conditional != ShapConditional::kMarginal) {
    body["conditional_samples"] = v.conditional_samples;
    body["conditional_exact"] = v.conditional_exact;
    if (!v.regression_model.empty()) body["regression_model"] = v.regression_model;
  }
  body["model"] = {{"description", run.model}, {"source", run.model_source}};
  if (!run.learner.empty()) body["model_params"] = LearnerParamsJson(run.learner, run.learner_params);
  body["data"] = run.data;
  body["rows"] = v.n_rows;
  body["background"] = {
      {"rows", run.background_rows}, {"source", run.background_source}, {"given", run.background_given}};
  body["players"] = v.players;
  Json phi = Json::array(), se = Json::array();
  for (std::size_t j = 0; j < v.phi.size(); ++j) {
    phi.push_back(NumberOrNull(v.phi[j]));
    se.push_back(NumberOrNull(Se(v, j)));
  }
  body["phi"] = phi;
  body["phi_se"] = se;
  if (report.cv()) {
    Json by_split = Json::array(), full = Json::array(), empty = Json::array(), rows = Json::array();
    for (const SageValues& split : *report.splits) {
      Json phi_s = Json::array();
      for (const double x : split.phi) phi_s.push_back(NumberOrNull(x));
      by_split.push_back(phi_s);
      full.push_back(NumberOrNull(split.metric_full));
      empty.push_back(NumberOrNull(split.metric_empty));
      rows.push_back(split.n_rows);
    }
    Json std_json = Json::array();
    for (const double x : report.phi_std) std_json.push_back(NumberOrNull(x));
    body["cv"] = {{"plan", report.plan},          {"splits", report.splits->size()},
                  {"phi_std", std_json},          {"phi_by_split", by_split},
                  {"metric_full_by_split", full}, {"metric_empty_by_split", empty},
                  {"test_rows_by_split", rows}};
  }
  if (report.retrain != nullptr) body["retrain_comparison"] = RetrainComparisonJson(*report.retrain);
  body["solver"] = {{"name", v.solve.solver},
                    {"converged", v.solve.converged},
                    {"stopped_by", StopReasonName(v.solve.stopped_by)},
                    {"evaluations", v.solve.n_evaluations}};
  return body;
}

}  // namespace

std::string SageConsoleText(const SageReport& report, const std::string& out) {
  const SageValues& v = report.result;
  const ShapRun& run = report.run;
  std::size_t width = 16;
  for (const auto& name : v.players) width = std::max(width, name.size() + 2);
  std::ostringstream s;
  s << "perfshap sage: " << run.data << "\n";
  if (report.cv())
    s << "  model " << run.learner << ", fitted on the training part of each of the " << report.splits->size()
      << " splits of " << report.plan
      << "; SAGE on its test part, phi the mean over the splits, std its spread "
      << "(the model's variability)\n";
  else
    s << "  model " << run.model << " (" << run.model_source << ")\n";
  s << "  " << v.n_rows << (report.cv() ? " test rows over the splits, " : " rows, ") << v.players.size()
    << " players; value function " << ValueFunctionText(v, run) << "\n"
    << "  " << v.metric_label << " with every feature " << Fmt("%.6f", v.metric_full) << ", with none "
    << Fmt("%.6f", v.metric_empty) << ": the features " << (v.loss ? "reduce" : "raise") << " it by "
    << Fmt("%.6f", std::fabs(v.metric_full - v.metric_empty)) << " = the sum of phi"
    << (v.loss ? " (a loss: positive phi lowers it)" : "") << "\n"
    << "  solver " << v.solve.solver << ", " << v.solve.n_evaluations << " coalitions";
  if (!v.solve.converged)
    s << "; did not converge: stopped by the " << StopReasonName(v.solve.stopped_by)
      << "; raise the budget or the tolerance";
  s << ", " << Fmt("%.3f", v.elapsed_seconds) << " s\n"
    << "    " << PadRight("feature", width, 1) << "       phi" << (report.cv() ? "       std" : "")
    << (v.phi_se.empty() ? "" : "        se") << "\n";
  for (const std::size_t j : ByValue(v)) {
    s << "    " << PadRight(v.players[j], width, 1) << Fmt("%+10.6f", v.phi[j]);
    if (report.cv()) s << Fmt("%10.6f", report.phi_std[j]);
    if (!v.phi_se.empty()) s << Fmt("%10.6f", v.phi_se[j]);
    s << "\n";
  }
  if (report.marginal != nullptr) s << ComparisonText(SageComparison(v, *report.marginal));
  if (report.retrain != nullptr) s << RetrainComparisonText(*report.retrain);
  if (!out.empty()) s << "  wrote " << out << "/result.json, sage.csv and the SVG\n";
  return s.str();
}

void BuildSageReport(ReportContent& out, const SageReport& report) {
  const SageValues& v = report.result;
  CsvTable csv(report.cv() ? std::vector<std::string>{"feature", "phi", "phi_se", "phi_std"}
                           : std::vector<std::string>{"feature", "phi", "phi_se"});
  for (const std::size_t j : ByValue(v)) {
    csv.Row().Text(v.players[j]).Number(v.phi[j]).Number(Se(v, j));
    if (report.cv()) csv.Number(report.phi_std[j]);
  }
  out.Table("sage.csv", std::move(csv));
  out.Figure("sage_bar.svg", FigureSet::kSummary, [&] { return BarFigure(report); });
  if (report.marginal != nullptr) AddComparisonFiles(out, SageComparison(v, *report.marginal));
  if (report.dependence != nullptr) AddDependenceFiles(out, *report.dependence);
  if (report.retrain != nullptr) AddRetrainComparisonFiles(out, *report.retrain);
  out.Result({"sage", v.players, report.run.seed, report.run.threads, v.elapsed_seconds}, ResultBody(report));
}

}}}  // namespace perfshap::detail
