// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/demo_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <tuple>
#include <vector>

#include "report/format.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/shap_report.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

std::string XperText(const DemoReport& d) {
  if (d.xper == nullptr) return "\nXPER: skipped: " + d.xper_skipped + "\n";
  const XperResult& xr = *d.xper;
  std::ostringstream x;
  x << "\nXPER: the probit's test AUC decomposed (" << XperComparatorName(xr.comparator) << " comparator, "
    << xr.solve.n_evaluations << " coalitions, " << d.n_test << " x " << d.n_test << " hybrid points each)\n"
    << "  benchmark phi_0    " << Fmt("%.6f", xr.base) << "\n";
  for (std::size_t j = 0; j < xr.features.size(); ++j) {
    x << "  " << PadRight(xr.features[j], 19, 1) << Fmt("%+.6f", xr.phi[j]) << "   ("
      << (std::isfinite(xr.phi_normalised[j]) ? Fmt("%.1f", 100.0 * xr.phi_normalised[j]) + "%" : "n/a")
      << " of AUC - phi_0)\n";
  }
  x << "  AUC = phi_0 + sum phi = " << Fmt("%.6f", xr.value) << "\n";
  return x.str();
}

std::string RobustnessText(const DemoReport& d) {
  if (d.robustness == nullptr) return "\nRobustness: skipped: " + d.robustness_skipped + "\n";
  const RobustnessResult& rr = *d.robustness;
  std::ostringstream r;
  r << "\nRobustness (ShapAUC): naive Bayes retrained on every coalition of " << rr.n_splits
    << " Monte-Carlo CV splits (" << rr.n_trainings << " trainings)\n"
    << "  AUC                " << MeanStdCell(rr.auc_mean, rr.auc_std, 6, false) << "\n";
  for (std::size_t j = 0; j < rr.n_features(); ++j)
    r << "  " << PadRight(rr.features[j], 19, 1)
      << MeanStdCell(rr.phi_auc_mean[j], rr.phi_auc_std[j], 6, true) << "\n";
  r << "  AUC = 0.5 + sum phi in every split; bands are standard deviations over the splits\n";
  return r.str();
}

std::string SampledText(const DemoReport& d) {
  if (d.sampled == nullptr) return "";
  const RobustnessResult& rr = *d.sampled;
  std::ostringstream r;
  const SolveReport& solve = rr.solve;
  r << "\nSampled solver (kernel): ShapAUC of a generated 40-feature probit design (x1..x4 matter),\n"
    << "  naive Bayes on " << rr.n_splits << " Monte-Carlo CV splits: " << rr.n_trainings
    << " trainings instead of 3 x 2^40\n"
    << "  " << (solve.converged ? "converged" : "did not converge")
    << ": max se / (max phi - min phi) = " << Fmt("%.4f", solve.convergence_ratio) << " (tolerance "
    << Fmt("%g", solve.sampling.tolerance) << ", stopped by " << StopReasonName(solve.stopped_by) << ")\n"
    << "  feature            phi(AUC) +- std over splits   se (sampling)\n";
  std::vector<std::size_t> order(rr.n_features());
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rr.phi_auc_mean[a] > rr.phi_auc_mean[b]; });
  for (std::size_t t = 0; t < std::min<std::size_t>(6, order.size()); ++t) {
    const std::size_t j = order[t];
    r << "  " << PadRight(rr.features[j], 19, 1)
      << MeanStdCell(rr.phi_auc_mean[j], rr.phi_auc_std[j], 6, true) << "   " << Fmt("%.6f", rr.phi_auc_se[j])
      << "\n";
  }
  r << "  ... (the other 34 below); efficiency exact in every split: AUC = 0.5 + sum phi\n";
  return r.str();
}

/** The pair (i < j) of output 0 with the largest mean |interaction| over the rows, and that mean
 *  (the whole matrix: row i is matrix row i). */
std::tuple<std::size_t, std::size_t, double> StrongestPair(const TreeShapInteractionValues& v) {
  const std::size_t F = v.n_features;
  const std::vector<double> mean = MeanAbsInteractions(v);
  std::tuple<std::size_t, std::size_t, double> best{0, 1, -1.0};
  for (std::size_t i = 0; i < F; ++i)
    for (std::size_t j = i + 1; j < F; ++j)
      if (mean[i * F + j] > std::get<2>(best)) best = {i, j, mean[i * F + j]};
  return best;
}

std::string PredictionsText(const DemoReport& d) {
  if (d.treeshap == nullptr || d.interventional == nullptr)
    return d.predictions_skipped.empty() ? "" : "\nPredictions: skipped (" + d.predictions_skipped + ")\n";
  const ShapExplanation& t = *d.treeshap;
  const ShapExplanation& e = *d.interventional;
  const std::vector<double> tree_abs = t.MeanAbs();
  const std::vector<double> probit_abs = e.MeanAbs();
  std::ostringstream r;
  r << "\nPredictions (SHAP): a random forest (100 trees) and the probit above, explained row by row\n"
    << "  TreeSHAP of the forest's P(y=1) on " << t.n_rows << " test rows (" << Fmt("%.4f", t.elapsed_seconds)
    << " s), base E[f] " << Fmt("%.4f", t.base[0]) << "\n"
    << "  interventional SHAP of the probit's P(y=1) on " << e.n_rows
    << " test rows, exact, 100 background rows\n"
    << "  feature            mean |phi| forest   mean |phi| probit\n";
  for (std::size_t j = 0; j < t.n_players; ++j)
    r << "  " << PadRight(t.players[j], 19, 1) << Fmt("%17.6f", tree_abs[j]) << "   "
      << Fmt("%17.6f", probit_abs[j]) << "\n";
  if (d.tree_interactions != nullptr) {
    const auto [a, b, v] = StrongestPair(*d.tree_interactions);
    r << "  SHAP interaction values of the forest (every pair): the strongest, " << t.players[a] << " x "
      << t.players[b] << ", mean |interaction| " << Fmt("%.6f", v)
      << " per row (each matrix row adds up to phi)\n";
  }
  double sum = e.base[0];
  for (std::size_t j = 0; j < e.n_players; ++j) sum += e(0, 0, j);
  r << "  each row adds up: test row 0, P(y=1) " << Fmt("%.6f", e.prediction[0]) << " = base "
    << Fmt("%.6f", e.base[0]) << " + sum of phi (" << Fmt("%.6f", sum) << ")\n";
  return r.str();
}

std::string SageText(const DemoReport& d) {
  if (d.sage == nullptr || d.sage_gaussian == nullptr) return "";
  const SageValues& m = *d.sage;
  const SageValues& g = *d.sage_gaussian;
  std::ostringstream r;
  r << "\nSAGE: the probit's " << m.metric_label << " on the " << m.n_rows
    << " test rows decomposed over the features (exact; positive = the feature lowers it)\n"
    << "  " << m.metric_label << " with every feature " << Fmt("%.6f", m.metric_full) << ", with none "
    << Fmt("%.6f", m.metric_empty) << " (marginal) / " << Fmt("%.6f", g.metric_empty) << " (gaussian)\n"
    << "  feature            phi marginal   phi gaussian (se, 100 draws)\n";
  for (std::size_t j = 0; j < m.phi.size(); ++j)
    r << "  " << PadRight(m.players[j], 19, 1) << Fmt("%+12.6f", m.phi[j]) << "   "
      << Fmt("%+12.6f", g.phi[j]) << " (" << Fmt("%.6f", g.phi_se.empty() ? 0.0 : g.phi_se[j]) << ")\n";
  r << "  marginal: the features off a coalition from 100 background rows; gaussian: drawn given the "
       "others\n";
  return r.str();
}

double FiniteMean(const std::vector<double>& v) {
  double sum = 0.0;
  std::size_t n = 0;
  for (double x : v)
    if (std::isfinite(x)) {
      sum += x;
      ++n;
    }
  return n > 0 ? sum / static_cast<double>(n) : std::numeric_limits<double>::quiet_NaN();
}

std::string AxomText(const DemoReport& d) {
  if (d.axom == nullptr) return d.axom_skipped.empty() ? "" : "\nAXOM: skipped (" + d.axom_skipped + ")\n";
  const AxomRun& a = *d.axom;
  std::ostringstream r;
  r << "\nAXOM: robustness of explanations, " << a.trees << "-tree forest, " << a.n_test
    << " test points x 2000 neighbours (features min-max normalised, eps 0.01)\n"
    << "  L_bar (mean ||g(x) - g(x')|| / ||x - x'||, lower is more robust): tree "
    << Fmt("%.4f", FiniteMean(a.robustness.tree.l_bar)) << ", forest "
    << Fmt("%.4f", FiniteMean(a.robustness.forest.l_bar)) << ", AXOM "
    << Fmt("%.4f", FiniteMean(a.robustness.axom.l_bar)) << "\n"
    << "  trees voting against the forest: " << Fmt("%.1f%%", 100.0 * a.mislabelling) << " ("
    << Fmt("%.2f", a.seconds_robustness) << " s)\n";
  return r.str();
}

std::string ChainText(const DemoReport& d) {
  if (d.chain == nullptr) return "";
  const ChainOrderExplanation& e = *d.chain;
  std::ostringstream r;
  r << "\nShapley Chains: the xor data, a chain and -> or -> xor of logistic links, " << e.n_rows
    << " test rows (hamming loss " << Fmt("%.3f", e.hamming_loss) << ")\n"
    << "  contributions to xor (mean |phi|): direct x1 " << Fmt("%.4f", e.global_direct[2][0]) << ", x2 "
    << Fmt("%.4f", e.global_direct[2][1]) << "; indirect (through and, or) x1 "
    << Fmt("%.4f", e.global_indirect[2][0]) << ", x2 " << Fmt("%.4f", e.global_indirect[2][1]) << "\n";
  return r.str();
}

}  // namespace

std::string DemoConsoleText(const DemoReport& d, const std::string& out) {
  const ShapleyValues& values = *d.values;
  std::ostringstream s;
  s << "perfshap demo: " << d.data << "\n"
    << "  " << d.n_rows << " rows, " << d.n_features << " features, " << d.n_positive << " positive; split "
    << d.n_train << " train / " << d.n_test << " test (stratified, seed " << d.seed << ")\n"
    << "  model: linear probability model (least squares), class = score > 0.5\n\n"
    << "Test metrics\n";
  for (const auto& [name, value] : d.metrics)
    s << "  " << PadRight(name, 20, 1) << Fmt("%.6f", value) << "\n";
  double sum_auc = 0, sum_acc = 0;
  s << "\nExact Shapley decomposition (" << values.n_evaluations << " coalitions)\n"
    << "  feature            phi(AUC)    phi(accuracy)\n";
  for (int i = 0; i < values.n_players; ++i) {
    sum_auc += values(i, 0);
    sum_acc += values(i, 1);
    s << "  " << PadRight(values.players[static_cast<std::size_t>(i)], 19, 1) << Fmt("%+.6f", values(i, 0))
      << "   " << Fmt("%+.6f", values(i, 1)) << "\n";
  }
  s << "  sum                " << Fmt("%+.6f", sum_auc) << "   " << Fmt("%+.6f", sum_acc) << "\n"
    << "  AUC = 0.5 + sum phi(AUC) = " << Fmt("%.6f", 0.5 + sum_auc)
    << "; accuracy = " << Fmt("%.6f", values.base[1])
    << " (no feature) + sum = " << Fmt("%.6f", values.base[1] + sum_acc) << "\n"
    << XperText(d) << RobustnessText(d) << SampledText(d) << PredictionsText(d) << SageText(d) << AxomText(d)
    << ChainText(d) << "\ncomputed in " << Fmt("%.4f", d.elapsed_seconds) << " s on " << d.threads
    << " thread(s)\n";
  if (!out.empty()) s << "  wrote " << out << "/result.json\n";
  return s.str();
}

Json DemoResultJson(const DemoReport& d) {
  const ShapleyValues& values = *d.values;
  Json metrics;
  for (const auto& [name, value] : d.metrics) metrics[name] = value;
  Json result;
  result["data"] = d.data;
  result["n_rows"] = d.n_rows;
  result["n_train"] = d.n_train;
  result["n_test"] = d.n_test;
  result["model"] = "linear_probability";
  result["coefficients"] = d.coefficients;
  result["players"] = PlayersJson(d.players, d.column_names);
  result["input"] = InputJson(d.missing, d.dropped_rows, d.groups);
  result["metrics"] = metrics;
  result["value"] = 0.5 + values.full[0];
  result["base"] = 0.5;
  Json phi, phi_acc;
  double sum_auc = 0;
  for (int i = 0; i < values.n_players; ++i) {
    phi[values.players[static_cast<std::size_t>(i)]] = values(i, 0);
    phi_acc[values.players[static_cast<std::size_t>(i)]] = values(i, 1);
    sum_auc += values(i, 0);
  }
  result["phi"] = phi;
  result["accuracy_base"] = values.base[1];
  result["phi_accuracy"] = phi_acc;
  result["efficiency_gap"] = sum_auc - values.full[0];
  result["n_coalitions"] = values.n_evaluations;
  Json xper;
  if (d.xper != nullptr) {
    xper["comparator"] = XperComparatorName(d.xper->comparator);
    xper["value"] = d.xper->value;
    xper["base"] = d.xper->base;
    xper["phi"] = NamedValues(d.xper->features, d.xper->phi);
  } else {
    xper["skipped"] = d.xper_skipped;
  }
  result["xper"] = xper;
  Json robust;
  if (d.robustness != nullptr) {
    const RobustnessResult& rr = *d.robustness;
    robust["value"] = rr.auc_mean;
    robust["value_std"] = rr.auc_std;
    robust["phi"] = NamedValues(rr.features, rr.phi_auc_mean);
    robust["phi_std"] = NamedValues(rr.features, rr.phi_auc_std);
    robust["n_trainings"] = rr.n_trainings;
  } else {
    robust["skipped"] = d.robustness_skipped;
  }
  result["robustness"] = robust;
  if (d.sampled != nullptr) {
    const RobustnessResult& rr = *d.sampled;
    Json sampled;
    sampled["solver"] = rr.solve.solver;
    sampled["n_features"] = rr.n_features();
    sampled["value"] = rr.auc_mean;
    sampled["phi"] = NamedValues(rr.features, rr.phi_auc_mean);
    sampled["phi_std"] = NamedValues(rr.features, rr.phi_auc_std);
    sampled["phi_se"] = NamedValues(rr.features, rr.phi_auc_se);
    sampled["n_coalitions_evaluated"] = rr.solve.n_evaluations;
    sampled["converged"] = rr.solve.converged;
    sampled["stopped_by"] = StopReasonName(rr.solve.stopped_by);
    sampled["convergence_ratio"] = rr.solve.convergence_ratio;
    result["sampled"] = sampled;
  }
  if (d.treeshap != nullptr && d.interventional != nullptr) {
    auto one = [](const ShapExplanation& e) {
      Json j;
      j["approach"] = e.approach;
      j["solver"] = e.solve.solver;
      j["rows"] = e.n_rows;
      j["base"] = e.base[0];
      j["mean_abs"] = NamedValues(e.players, e.MeanAbs());
      j["mean"] = NamedValues(e.players, e.Mean());
      return j;
    };
    result["predictions"] = {{"forest_treeshap", one(*d.treeshap)},
                             {"probit_interventional", one(*d.interventional)}};
    if (d.tree_interactions != nullptr) {
      const auto [a, b, v] = StrongestPair(*d.tree_interactions);
      result["predictions"]["forest_interactions"] = {
          {"strongest_pair", {d.treeshap->players[a], d.treeshap->players[b]}}, {"mean_abs", v}};
    }
  } else if (!d.predictions_skipped.empty()) {
    result["predictions"] = {{"skipped", d.predictions_skipped}};
  }
  if (d.sage != nullptr && d.sage_gaussian != nullptr)
    result["sage"] = {{"metric", d.sage->metric},
                      {"rows", d.sage->n_rows},
                      {"metric_full", d.sage->metric_full},
                      {"metric_empty", d.sage->metric_empty},
                      {"marginal", NamedValues(d.sage->players, d.sage->phi)},
                      {"gaussian", NamedValues(d.sage_gaussian->players, d.sage_gaussian->phi)},
                      {"gaussian_se", NamedValues(d.sage_gaussian->players, d.sage_gaussian->phi_se)}};
  if (d.axom != nullptr) {
    const AxomRun& a = *d.axom;
    result["axom"] = {
        {"trees", a.trees},
        {"test_points", a.n_test},
        {"dt",
         {{"L_mean", NumberOrNull(FiniteMean(a.robustness.tree.l_bar))}, {"accuracy", a.tree_accuracy}}},
        {"rf",
         {{"L_mean", NumberOrNull(FiniteMean(a.robustness.forest.l_bar))}, {"accuracy", a.forest_accuracy}}},
        {"axom", {{"L_mean", NumberOrNull(FiniteMean(a.robustness.axom.l_bar))}}},
        {"mislabelling", a.mislabelling}};
  } else if (!d.axom_skipped.empty()) {
    result["axom"] = {{"skipped", d.axom_skipped}};
  }
  if (d.chain != nullptr) {
    const ChainOrderExplanation& e = *d.chain;
    result["chains"] = {
        {"order", e.outputs},
        {"hamming_loss", e.hamming_loss},
        {"xor_direct", NamedValues(e.features, std::span<const double>(e.global_direct[2].data(), 2))},
        {"xor_indirect", NamedValues(e.features, e.global_indirect[2])}};
  }
  return result;
}

void BuildDemoReport(ReportContent& out, const DemoReport& d) {
  Json body = DemoResultJson(d);
  body["figures"] = out.figures();  // none: the demo's results are numbers
  out.Result({"demo", d.features, d.seed, d.threads, d.elapsed_seconds}, body);
}
}}}  // namespace perfshap::detail
