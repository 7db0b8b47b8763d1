// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/xper_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>

#include "perfshap/blocks/metric_registry.hpp"
#include "report/csv.hpp"
#include "report/figure_bounds.hpp"
#include "report/format.hpp"
#include "report/learner_json.hpp"
#include "report/sampling_report.hpp"
#include "report/svg.hpp"
#include "report/value_function_comparison.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

// Feature order by decreasing global phi (the paper's figures sort the bars).
std::vector<std::size_t> ByDecreasingPhi(const XperResult& r) {
  std::vector<std::size_t> order(r.n_features());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return r.phi[a] > r.phi[b]; });
  return order;
}

bool XperSampled(const XperResult& r) { return !r.phi_se.empty(); }

/** The strip chart's feature order: by decreasing phi (the paper's order); when not every
 *  feature is shown (FeaturesShown), those with the largest mean |phi_ij| come first, still by
 *  decreasing phi among themselves, then the rest (summed into one row). */
std::vector<std::size_t> StripOrder(const XperResult& r) {
  std::vector<std::size_t> order = ByDecreasingPhi(r);
  const std::size_t shown = FeaturesShown(order.size());
  if (shown == order.size()) return order;
  std::vector<double> mean_abs(r.n_features(), 0.0);
  for (std::size_t i = 0; i < r.n_rows; ++i)
    for (std::size_t f = 0; f < r.n_features(); ++f) mean_abs[f] += std::fabs(r.individual(i, f));
  std::vector<std::size_t> by_size(order.size());
  std::iota(by_size.begin(), by_size.end(), std::size_t{0});
  std::stable_sort(by_size.begin(), by_size.end(),
                   [&](std::size_t a, std::size_t b) { return mean_abs[a] > mean_abs[b]; });
  std::vector<bool> top(order.size(), false);
  for (std::size_t k = 0; k < shown; ++k) top[by_size[k]] = true;
  std::stable_partition(order.begin(), order.end(), [&](std::size_t f) { return top[f]; });
  return order;
}

/** A player that is no single column (a group): its points have no colour. */
constexpr std::size_t kNoColumn = static_cast<std::size_t>(-1);

SolverSummary XperSolverSummary(const XperResult& r) {
  SolverSummary s;
  s.solve = r.solve;
  s.unit = "coalitions";
  return s;
}

}  // namespace

std::string XperMetricLabel(const std::string& metric) {
  const MetricDefinition& m = FindMetric(metric, "xper");
  return (m.loss ? "-" : "") + m.label;
}

Json XperSummaryJson(const XperResult& r) {
  Json j;
  j["value"] = r.value;
  j["base"] = r.base;
  j["phi"] = NamedValues(r.features, r.phi);
  if (XperSampled(r)) j["phi_se"] = NamedValues(r.features, r.phi_se);
  j["phi_normalised"] = NamedValuesOrNull(r.features, r.phi_normalised);
  j["n_rows"] = r.n_rows;
  return j;
}

// The conditional decomposition beside the marginal one (report.marginal).
ValueFunctionComparison XperComparison(const XperResult& r, const XperResult& marginal) {
  return {ShapConditionalName(r.conditional),
          "\u03c6\u2c7c, contribution to the " + XperMetricLabel(r.metric),
          r.features,
          r.phi,
          r.phi_se,
          marginal.phi};
}

Chart XperBarFigure(const XperResult& r, const std::string& sample_name) {
  const std::string m = XperMetricLabel(r.metric);
  const bool normalised = r.value != r.base;
  detail::BarChart c;
  const double scale = normalised ? 100.0 / (r.value - r.base) : 1.0;
  for (std::size_t f : ByDecreasingPhi(r)) {
    c.labels.push_back(r.features[f]);
    c.values.push_back(normalised ? 100.0 * r.phi_normalised[f] : r.phi[f]);
    if (XperSampled(r)) c.stds.push_back(1.96 * std::abs(scale) * r.phi_se[f]);
  }
  c.decimals = normalised ? 1 : 4;
  c.frame.title = "XPER of the " + m + " on " + sample_name + ": " + m + " " + Fmt("%.4f", r.value) +
                  " = \u03c6\u2080 " + Fmt("%.4f", r.base) + " + \u03a3 \u03c6\u2c7c" +
                  (XperSampled(r) ? " (sampled: bars \u00b1 1.96 se)" : "");
  c.frame.x_label = normalised ? "\u03c6\u2c7c / (" + m + " \u2212 \u03c6\u2080), %"
                               : "\u03c6\u2c7c (" + m + " equals its benchmark: not normalised)";
  c.frame.width = 820;
  return c;
}

Chart XperStripFigure(const XperResult& r, const Dataset& sample) {
  detail::StripChart c;
  // Bounded (report/figure_bounds.hpp): evenly spaced individuals, the top features (StripOrder).
  const std::vector<std::size_t> rows = RowsShown(r.n_rows);
  std::vector<std::size_t> column(r.n_features(), kNoColumn);
  for (std::size_t f = 0; f < r.n_features(); ++f)
    // Coloured by the feature's value; a group of columns has none (one colour).
    if (r.players.empty() || r.players[f].columns.size() == 1)
      column[f] = r.players.empty() ? f : r.players[f].columns[0];
  c.rows = BoundedStripRows(
      StripOrder(r), rows, r.features, [&](std::size_t i, std::size_t f) { return r.individual(i, f); },
      [&](std::size_t i, std::size_t f) {
        return column[f] == kNoColumn ? std::numeric_limits<double>::quiet_NaN()
                                      : sample.column(column[f])[i];
      });
  c.frame.title = "Individual XPER values of the " + XperMetricLabel(r.metric) + " (" +
                  std::to_string(r.n_rows) + " individuals)" +
                  RowsShownNote(rows.size(), r.n_rows, "individuals");
  c.frame.x_label = "\u03c6\u1d62\u2c7c: contribution of feature j to individual i's " +
                    XperMetricLabel(r.metric) + " term";
  c.frame.width = 860;
  const std::size_t n_rows = std::max<std::size_t>(c.rows.size(), 1);
  c.frame.height = static_cast<int>(110 + 96 * n_rows);
  c.point_radius = r.n_rows > 1000 ? 1.6 : 2.4;
  c.color_label = "feature value";
  return c;
}

Chart XperWaterfallFigure(const XperResult& r, const Dataset& sample, std::size_t i) {
  const std::string m = XperMetricLabel(r.metric);
  detail::WaterfallChart c;
  std::vector<std::size_t> order(r.n_features());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::fabs(r.individual(i, a)) > std::fabs(r.individual(i, b));
  });
  c.start_label = "\u03c6\u1d62\u2080 benchmark";
  c.start_value = r.individual_base[i];
  for (std::size_t f : order) {
    // A player of one column shows the row's value; a group only its name.
    const bool single = r.players.empty() || r.players[f].columns.size() == 1;
    const std::size_t column = r.players.empty() ? f : r.players[f].columns[0];
    c.labels.push_back(single ? r.features[f] + " = " + Fmt("%.4g", sample.column(column)[i])
                              : r.features[f]);
    c.contributions.push_back(r.individual(i, f));
  }
  c.end_label = "G\u1d62 (row's " + m + " term)";
  c.end_value = r.individual_value[i];
  c.frame.title = "XPER of row " + std::to_string(i) + " (y = " + Fmt("%g", sample.label()[i]) + ")";
  c.frame.x_label = "individual " + m + " term";
  c.frame.width = 820;
  BoundWaterfall(c);
  return c;
}

Chart XperOverfitFigure(const XperResult& train, const XperResult& test) {
  const std::string m = XperMetricLabel(test.metric);
  detail::BarChart c;
  for (std::size_t f : ByDecreasingPhi(train)) {
    c.labels.push_back(train.features[f] + " \u00b7 train");
    c.values.push_back(train.phi[f]);
    c.labels.push_back(test.features[f] + " \u00b7 test");
    c.values.push_back(test.phi[f]);
  }
  c.decimals = 4;
  c.frame.title = "Overfitting view: " + m + " train " + Fmt("%.4f", train.value) + " (\u03c6\u2080 " +
                  Fmt("%.4f", train.base) + ") vs test " + Fmt("%.4f", test.value) + " (\u03c6\u2080 " +
                  Fmt("%.4f", test.base) + ")";
  c.frame.x_label = "\u03c6\u2c7c, contribution to the " + m +
                    " (a feature that gives more on train than on test explains the gap)";
  c.frame.width = 900;
  return c;
}

Chart SilhouetteFigure(const XperClusters& clusters, const std::string& sample_name) {
  detail::LineChart c;
  detail::LineSeries s;
  s.name = "";  // one curve: no legend
  for (std::size_t t = 0; t < clusters.ks.size(); ++t) {
    s.x.push_back(static_cast<double>(clusters.ks[t]));
    s.y.push_back(clusters.silhouette[t]);
  }
  c.series.push_back(std::move(s));
  c.x_markers.push_back(static_cast<double>(clusters.k));
  c.frame.title = "Silhouette of k-medoids on the XPER values: k = " + std::to_string(clusters.k) +
                  (clusters.automatic ? " (largest)" : " (fixed)");
  c.frame.x_label = "number of clusters k (individuals of " + sample_name + ")";
  c.frame.y_label = "mean silhouette";
  c.frame.width = 760;
  return c;
}

Chart ClusterPhiFigure(const XperClusters& clusters, const std::vector<std::string>& features,
                       const std::string& label_name) {
  // Raw means, not shares: a cluster's mean G_i can sit close to its mean phi_i0, and the
  // share phi / (G - phi_0) then explodes.
  detail::BarChart c;
  for (std::size_t f = 0; f < features.size(); ++f) {
    for (std::size_t k = 0; k < clusters.profiles.size(); ++k) {
      c.labels.push_back(features[f] + " \u00b7 cluster " + std::to_string(k));
      c.values.push_back(clusters.profiles[k].phi_means[f]);
    }
  }
  std::string sizes, means;
  for (std::size_t k = 0; k < clusters.profiles.size(); ++k) {
    const auto& prof = clusters.profiles[k];
    sizes += (k > 0 ? ", " : "") + std::to_string(prof.size);
    means += (k > 0 ? ", " : "") + Fmt("%.2f", prof.label_mean);
  }
  c.decimals = 4;
  c.frame.title =
      "Mean individual XPER values in each of the " + std::to_string(clusters.profiles.size()) + " clusters";
  c.frame.x_label = "mean \u03c6\u1d62\u2c7c of the members (cluster sizes " + sizes + "; mean " +
                    label_name + " " + means + ")";
  c.frame.width = 900;
  return c;
}

CsvTable ClusterProfilesCsv(const XperClusters& clusters, const std::vector<std::string>& columns,
                            const std::vector<std::string>& features, const std::string& label_name) {
  std::vector<std::string> header{"cluster", "medoid_row",         "size",
                                  "share",   label_name + "_mean", "silhouette"};
  for (const auto& f : columns) header.push_back("mean_" + f);
  for (const auto& f : features) header.push_back("mean_phi_" + f);
  header.emplace_back("mean_phi_i0");
  header.emplace_back("mean_G_i");
  CsvTable csv(header, CsvTable::NonFinite::kEmpty);
  std::size_t n = 0;
  for (const auto& prof : clusters.profiles) n += prof.size;
  for (std::size_t k = 0; k < clusters.profiles.size(); ++k) {
    const auto& prof = clusters.profiles[k];
    csv.Row().Count(k).Count(prof.medoid).Count(prof.size);
    csv.Number(static_cast<double>(prof.size) / static_cast<double>(n))
        .Number(prof.label_mean)
        .Number(prof.silhouette);
    for (double v : prof.feature_means) csv.Number(v);
    for (double v : prof.phi_means) csv.Number(v);
    csv.Number(prof.base_mean).Number(prof.value_mean);
  }
  return csv;
}

Json ClustersJson(const XperClusters& clusters, const std::vector<std::string>& columns,
                  const std::vector<std::string>& features, const std::string& label_name,
                  const std::string& sample_name, const std::string& fixed) {
  Json j;
  j["sample"] = sample_name;
  j["method"] = "k-medoids (PAM, BUILD + SWAP) on the rows of individual XPER values, Euclidean";
  j["k"] = clusters.k;
  j["selection"] = clusters.automatic ? std::string("largest mean silhouette") : fixed;
  Json sil = Json::object();
  for (std::size_t t = 0; t < clusters.ks.size(); ++t)
    sil[std::to_string(clusters.ks[t])] = clusters.silhouette[t];
  j["silhouette"] = sil;
  j["pam_cost"] = clusters.partition.cost;
  j["pam_swaps"] = clusters.partition.swaps;
  Json profiles = Json::array();
  for (std::size_t k = 0; k < clusters.profiles.size(); ++k) {
    const auto& prof = clusters.profiles[k];
    Json p;
    p["cluster"] = k;
    p["medoid_row"] = prof.medoid;
    p["size"] = prof.size;
    p[label_name + "_mean"] = prof.label_mean;
    p["silhouette"] = prof.silhouette;
    Json means, phis, medoid;
    for (std::size_t f = 0; f < columns.size(); ++f) means[columns[f]] = prof.feature_means[f];
    for (std::size_t f = 0; f < features.size(); ++f) {
      phis[features[f]] = prof.phi_means[f];
      medoid[features[f]] = clusters.medoid_phi[k * features.size() + f];
    }
    p["feature_means"] = means;
    p["phi_means"] = phis;
    p["medoid_phi"] = medoid;
    p["mean_phi_i0"] = prof.base_mean;
    p["mean_G_i"] = prof.value_mean;
    profiles.push_back(p);
  }
  j["profiles"] = profiles;
  return j;
}

CsvTable ClusterMetricsCsv(const XperClusterRefit& refit) {
  CsvTable csv({"metric", "sample", "one_model", "per_cluster"}, CsvTable::NonFinite::kEmpty);
  for (std::size_t t = 0; t < refit.metric_names.size(); ++t) {
    csv.Row()
        .Text(refit.metric_names[t])
        .Text("train")
        .Number(refit.train_one_model[t])
        .Number(refit.train_per_cluster[t]);
    csv.Row()
        .Text(refit.metric_names[t])
        .Text("test")
        .Number(refit.test_one_model[t])
        .Number(refit.test_per_cluster[t]);
  }
  return csv;
}

Json RefitJson(const XperClusterRefit& refit) {
  Json j;
  j["rule"] =
      "one model refitted on each cluster's training rows; each test row goes to the nearest training medoid "
      "in the space of individual XPER values (its values from the one-fits-all model on the test sample, "
      "which use its label, as in the paper)";
  j["train_sizes"] = refit.train_sizes;
  j["test_sizes"] = refit.test_sizes;
  Json notes = Json::array();
  for (const auto& n : refit.notes) notes.push_back(n.empty() ? Json("refitted") : Json(n));
  j["models"] = notes;
  Json table = Json::object();
  for (std::size_t t = 0; t < refit.metric_names.size(); ++t) {
    Json row;
    row["train"] = {{"one_model", NumberOrNull(refit.train_one_model[t])},
                    {"per_cluster", NumberOrNull(refit.train_per_cluster[t])}};
    row["test"] = {{"one_model", NumberOrNull(refit.test_one_model[t])},
                   {"per_cluster", NumberOrNull(refit.test_per_cluster[t])}};
    table[refit.metric_names[t]] = row;
  }
  j["metrics"] = table;
  return j;
}

std::string XperConsoleText(const XperReport& report, const std::string& out) {
  const XperResult& r = report.result;
  const Dataset& sample = report.sample;
  const XperRun& run = report.run;
  const std::size_t p = r.features.size();
  std::size_t width = 16;
  for (const auto& name : r.features) width = std::max(width, name.size() + 2);
  std::ostringstream s;
  s << "perfshap xper: " << run.data << "\n"
    << "  " << sample.n_rows() << " rows, " << p << " features; model " << run.model.kind
    << (r.additive_fast_path ? " (additive scores: no model calls)" : "") << "\n";
  // An XGBoost model used over some of its rounds (early stopping, or an iteration range), or
  // over all of them when it stopped early (best_iteration short of the last round).
  const BoostingRounds& rounds = run.model.rounds;
  if (rounds.total > 0 && (rounds.begin != 0 || rounds.end != rounds.total ||
                           (rounds.best_iteration >= 0 && rounds.best_iteration + 1 < rounds.total))) {
    s << "  boosting rounds [" << rounds.begin << ", " << rounds.end << ") of " << rounds.total;
    if (rounds.best_iteration >= 0) s << " (best_iteration " << rounds.best_iteration << ")";
    s << "\n";
  }
  s << "  metric " << run.metric << " as decomposed (losses negated), comparator "
    << XperComparatorName(r.comparator) << "\n";
  if (r.conditional != ShapConditional::kMarginal)
    s << "  value function " << ShapConditionalName(r.conditional) << ": " << r.conditional_samples
      << " draws a coalition and individual, given its values on the coalition (" << r.background_rows
      << " background rows: " << run.background << ")\n";
  s << SolverConsoleText(XperSolverSummary(r)) << "\n"
    << "  value " << Fmt("%.6f", r.value) << " = benchmark phi_0 " << Fmt("%.6f", r.base) << " + sum of phi\n"
    << "  " << PadRight("feature", width, 1) << "      phi   share of (value - phi_0)"
    << (XperSampled(r) ? "   se(phi)" : "") << "\n";
  for (std::size_t j = 0; j < p; ++j) {
    s << "  " << PadRight(r.features[j], width, 1) << Fmt("%+.6f", r.phi[j]) << "   "
      << (std::isfinite(r.phi_normalised[j]) ? Fmt("%6.1f%%", 100.0 * r.phi_normalised[j])
                                             : std::string("   n/a"));
    if (XperSampled(r)) s << "                 " << Fmt("%.2e", r.phi_se[j]);
    s << "\n";
  }
  if (r.conditional != ShapConditional::kMarginal)
    s << "  se: the standard error of phi, the conditional draws' Monte Carlo error"
      << (r.solve.solver == "exact" ? "" : " and the sampled solver's") << " (phi +- 1.96 se covers 95%)\n";
  else if (XperSampled(r))
    s << "  se: the sampled solver's standard error of phi (phi +- 1.96 se covers 95%)\n";
  if (report.marginal != nullptr) s << ComparisonText(XperComparison(r, *report.marginal));
  if (run.explain_row) {
    const std::size_t i = *run.explain_row;
    s << "\n  row " << i << " (y = " << Fmt("%g", sample.label()[i])
      << "): G_i = " << Fmt("%.6f", r.individual_value[i]) << " = phi_i0 "
      << Fmt("%.6f", r.individual_base[i]);
    for (std::size_t j = 0; j < p; ++j)
      s << " " << Fmt("%+.6f", r.individual(i, j)) << " (" << r.features[j] << ")";
    s << "\n";
  }
  if (run.overfit && report.train != nullptr) {
    const XperResult& t = *report.train;
    s << "\n  overfitting view        train        test\n"
      << "  value           " << Fmt("%+.6f", t.value) << "   " << Fmt("%+.6f", r.value) << "\n"
      << "  phi_0           " << Fmt("%+.6f", t.base) << "   " << Fmt("%+.6f", r.base) << "\n";
    for (std::size_t j = 0; j < p; ++j)
      s << "  " << PadRight(r.features[j], width, 1) << Fmt("%+.6f", t.phi[j]) << "   "
        << Fmt("%+.6f", r.phi[j]) << "\n";
  }
  if (report.clusters != nullptr) {
    const XperClusters& cl = *report.clusters;
    s << "\n  clusters of " << (run.have_train ? "the training sample" : "the sample")
      << " (k-medoids on individual XPER values): k = " << cl.k
      << (cl.automatic ? " by the largest mean silhouette" : " (fixed)") << "\n  silhouette";
    for (std::size_t t = 0; t < cl.ks.size(); ++t)
      s << "  k=" << cl.ks[t] << " " << Fmt("%.3f", cl.silhouette[t]);
    s << "\n  cluster   size   mean " << sample.label_name() << "   mean phi per feature\n";
    for (std::size_t k = 0; k < cl.profiles.size(); ++k) {
      const auto& prof = cl.profiles[k];
      s << "  " << Fmt("%7.0f", static_cast<double>(k)) << Fmt("%7.0f", static_cast<double>(prof.size))
        << "   " << Fmt("%8.4f", prof.label_mean) << "  ";
      for (std::size_t j = 0; j < p; ++j) s << " " << Fmt("%+.4f", prof.phi_means[j]);
      s << "\n";
    }
  }
  if (report.refit != nullptr) {
    const XperClusterRefit& refit = *report.refit;
    s << "\n  one model vs one model per cluster (test rows by the nearest training medoid)\n"
      << "  metric               train: one   per-cluster    test: one   per-cluster\n";
    for (std::size_t t = 0; t < refit.metric_names.size(); ++t) {
      s << "  " << PadRight(refit.metric_names[t], 20, 1) << Fmt("%10.4f", refit.train_one_model[t])
        << Fmt("%14.4f", refit.train_per_cluster[t]) << Fmt("%13.4f", refit.test_one_model[t])
        << Fmt("%14.4f", refit.test_per_cluster[t]) << "\n";
    }
    for (std::size_t k = 0; k < refit.notes.size(); ++k)
      if (!refit.notes[k].empty()) s << "  cluster " << k << ": " << refit.notes[k] << "\n";
  }
  s << "\n  " << r.solve.n_evaluations << " coalitions in " << Fmt("%.3f", r.elapsed_seconds) << " s on "
    << r.threads << " thread(s)\n";
  if (!out.empty()) s << "  wrote " << out << "/ (result.json, individual.csv, SVG figures)\n";
  return s.str();
}

Json XperResultJson(const XperReport& report) {
  const XperResult& r = report.result;
  const XperRun& run = report.run;
  const XperModelInfo& m = run.model;
  Json model;
  if (m.from_coefficients) {
    model["coefficients_file"] = m.coefficients_file.empty() ? Json(nullptr) : Json(m.coefficients_file);
    model["kind"] = m.kind;
    Json named;
    named["const"] = m.coefficients[0];
    for (std::size_t j = 0; j < m.names.size(); ++j) named[m.names[j]] = m.coefficients[j + 1];
    model["coefficients"] = named;
  } else {
    model["kind"] = m.kind;
    model["train"] = m.train;
    model["n_train"] = m.n_train;
    model["description"] = m.description;
  }
  Json result;
  result["metric"] = run.metric;
  result["value"] = r.value;
  result["base"] = r.base;
  result["phi"] = NamedValues(r.features, r.phi);
  if (XperSampled(r)) result["phi_se"] = NamedValues(r.features, r.phi_se);
  result["phi_normalised"] = NamedValuesOrNull(r.features, r.phi_normalised);
  AddSolverJson(result, XperSolverSummary(r));
  result["n_rows"] = r.n_rows;
  result["comparator"] = XperComparatorName(r.comparator);
  result["permutation"] = r.permutation.empty() ? Json(nullptr) : Json(run.permutation);
  result["players"] = PlayersJson(r.players, report.sample.feature_names());
  result["input"] = InputJson(run.missing, run.dropped_rows, run.groups);
  result["data"] = run.data;
  result["label"] = report.sample.label_name();
  result["model"] = model;
  if (!m.from_coefficients && m.kind != "xgboost" && m.kind != "tree_model" && m.kind != "function")
    result["model_params"] = LearnerParamsJson(m.kind, m.learner_params);
  // The rounds of an XGBoost model file explained, as XGBoost's iteration_range [begin, end).
  if (m.rounds.total > 0) {
    result["iteration_range"] = {m.rounds.begin, m.rounds.end};
    if (m.rounds.best_iteration >= 0) result["best_iteration"] = m.rounds.best_iteration;
  }
  result["threshold"] = run.threshold;
  if (r.metric == "cost") {
    result["cfp"] = run.cfp;
    result["cfn"] = run.cfn;
  }
  result["additive_fast_path"] = r.additive_fast_path;
  if (report.marginal != nullptr)
    result["marginal_comparison"] = ComparisonJson(XperComparison(r, *report.marginal));
  if (report.dependence != nullptr) result["dependence"] = DependenceJson(*report.dependence);
  if (r.conditional != ShapConditional::kMarginal) {
    result["conditional"] = ShapConditionalName(r.conditional);
    result["conditional_samples"] = r.conditional_samples;
    result["background_rows"] = r.background_rows;
    result["background"] = run.background;
  }
  result["n_coalitions"] = r.solve.n_evaluations;
  if (!r.interactions.empty()) {
    // The players' interaction matrix of the metric (half the pair's SII off the diagonal; each
    // row adds up to phi_j), with its standard errors when sampled.
    const std::size_t p = r.features.size();
    Json matrix = Json::array();
    Json se = Json::array();
    for (std::size_t i = 0; i < p; ++i) {
      matrix.push_back(
          std::vector<double>(r.interactions.begin() + static_cast<std::ptrdiff_t>(i * p),
                              r.interactions.begin() + static_cast<std::ptrdiff_t>((i + 1) * p)));
      if (!r.interactions_se.empty())
        se.push_back(
            std::vector<double>(r.interactions_se.begin() + static_cast<std::ptrdiff_t>(i * p),
                                r.interactions_se.begin() + static_cast<std::ptrdiff_t>((i + 1) * p)));
    }
    result["interactions"] = {{"index", "shapley"},
                              {"metric", run.metric},
                              {"matrix", matrix},
                              {"se", r.interactions_se.empty() ? Json(nullptr) : se},
                              {"file", "interactions.csv"}};
  }
  if (run.explain_row) {
    const std::size_t i = *run.explain_row;
    Json explained;
    explained["i"] = i;
    explained["y"] = report.sample.label()[i];
    explained["value"] = r.individual_value[i];
    explained["base"] = r.individual_base[i];
    explained["phi"] = NamedValues(r.features, r.individual_row(i));
    if (!r.individual_phi_se.empty())
      explained["phi_se"] = NamedValues(
          r.features,
          std::span<const double>(r.individual_phi_se.data() + i * r.features.size(), r.features.size()));
    result["explained_row"] = explained;
  }
  if (run.overfit && report.train != nullptr) {
    const XperResult& t = *report.train;
    Json overfit;
    overfit["train"] = XperSummaryJson(t);
    overfit["test"] = XperSummaryJson(r);
    if (t.comparator == XperComparator::kPermuted && !t.permutation.empty())
      overfit["train_permutation"] = run.train_permutation;
    result["overfit"] = overfit;
  }
  if (report.clusters != nullptr) {
    Json clusters =
        ClustersJson(*report.clusters, report.sample.feature_names(), r.features, report.sample.label_name(),
                     run.have_train ? "train" : "test", run.fixed_clusters);
    if (report.refit != nullptr) clusters["refit"] = RefitJson(*report.refit);
    result["clusters"] = clusters;
  }
  return result;
}

CsvTable XperIndividualCsv(const XperResult& r) {
  std::vector<std::string> header{"i", "phi_i0"};
  for (const auto& name : r.features) header.push_back("phi_" + name);
  const bool sampled = !r.individual_phi_se.empty();
  if (sampled)
    for (const auto& name : r.features) header.push_back("se_" + name);
  const std::size_t p = r.features.size();
  CsvTable csv(header);
  for (std::size_t i = 0; i < r.n_rows; ++i) {
    csv.Row().Count(i).Number(r.individual_base[i]);
    for (double v : r.individual_row(i)) csv.Number(v);
    if (sampled)
      for (std::size_t j = 0; j < p; ++j) csv.Number(r.individual_phi_se[i * p + j]);
  }
  return csv;
}

void AddXperFiles(ReportContent& out, const XperReport& report) {
  const XperResult& r = report.result;
  const XperRun& run = report.run;
  if (run.overfit && report.train != nullptr)
    out.Figure("xper_overfit.svg", FigureSet::kSummary, [&] { return XperOverfitFigure(*report.train, r); });
  if (report.clusters != nullptr) {
    const XperClusters& clusters = *report.clusters;
    const std::string label = report.sample.label_name();
    const std::string which = run.have_train ? "train" : "test";
    CsvTable assignment({"sample", "i", "cluster"});
    for (std::size_t i = 0; i < clusters.partition.labels.size(); ++i)
      assignment.Row().Text(which).Count(i).Count(clusters.partition.labels[i]);
    if (report.refit != nullptr) {
      for (std::size_t i = 0; i < report.refit->test_labels.size(); ++i)
        assignment.Row().Text("test").Count(i).Count(report.refit->test_labels[i]);
      out.Table("cluster_metrics.csv", ClusterMetricsCsv(*report.refit));
    }
    out.Table("clusters.csv", ClusterProfilesCsv(clusters, report.sample.feature_names(), r.features, label));
    out.Table("cluster_assignment.csv", std::move(assignment));
    out.Figure("silhouette.svg", FigureSet::kSummary, [&] {
      return SilhouetteFigure(clusters, run.have_train ? "the training sample" : "the sample");
    });
    out.Figure("xper_clusters.svg", FigureSet::kSummary,
               [&] { return ClusterPhiFigure(clusters, r.features, label); });
  }
  out.Figure("xper_bar.svg", FigureSet::kSummary,
             [&] { return XperBarFigure(r, run.have_train ? "the test sample" : "the sample"); });
  out.Figure("xper_individual.svg", FigureSet::kSummary, [&] { return XperStripFigure(r, report.sample); });
  const auto waterfall = [&](std::size_t i) { return "xper_waterfall_row" + std::to_string(i) + ".svg"; };
  if (run.explain_row)
    out.Figure(waterfall(*run.explain_row), FigureSet::kSummary,
               [&] { return XperWaterfallFigure(r, report.sample, *run.explain_row); });
  // --figures all: the waterfall of each of the first kMaxRowFigures individuals.
  for (std::size_t i = 0; i < std::min(r.n_rows, kMaxRowFigures); ++i)
    if (!run.explain_row || i != *run.explain_row)
      out.Figure(waterfall(i), FigureSet::kAll, [&] { return XperWaterfallFigure(r, report.sample, i); });
  out.Table("individual.csv", [&] { return XperIndividualCsv(r); });
  if (report.marginal != nullptr) AddComparisonFiles(out, XperComparison(r, *report.marginal));
  if (report.dependence != nullptr) AddDependenceFiles(out, *report.dependence);
  if (!r.interactions.empty()) {
    const std::size_t p = r.features.size();
    const bool sampled = !r.interactions_se.empty();
    std::vector<std::string> header{"feature_a", "feature_b", "sii"};
    if (sampled) header.push_back("sii_se");
    CsvTable pairs(header);
    for (std::size_t i = 0; i < p; ++i)
      for (std::size_t j = i + 1; j < p; ++j) {
        pairs.Row().Text(r.features[i]).Text(r.features[j]).Number(2.0 * r.interactions[i * p + j]);
        if (sampled) pairs.Number(2.0 * r.interactions_se[i * p + j]);
      }
    out.Table("interactions.csv", std::move(pairs));
    if (p <= kMaxFeaturesShown)
      out.Figure("xper_interactions.svg", FigureSet::kSummary, [&] {
        HeatmapChart chart;
        chart.frame.title = "XPER interactions: Shapley interaction index of each pair on the " + run.metric +
                            (sampled ? " (± se)" : "");
        chart.rows = p;
        chart.cols = p;
        chart.x_max = static_cast<double>(p);
        chart.y_max = static_cast<double>(p);
        chart.x_labels = r.features;
        chart.y_labels.assign(r.features.rbegin(), r.features.rend());
        chart.color_label = "SII on the " + run.metric;
        for (std::size_t a = 0; a < p; ++a) {
          const std::size_t i = p - 1 - a;
          for (std::size_t j = 0; j < p; ++j) {
            const bool diagonal = i == j;
            const double v = 2.0 * r.interactions[i * p + j];
            chart.values.push_back(diagonal ? std::numeric_limits<double>::quiet_NaN() : v);
            if (p <= 10)
              chart.cell_text.push_back(
                  diagonal ? ""
                           : Fmt("%+.3f", v) +
                                 (sampled ? "±" + Fmt("%.3f", 2.0 * r.interactions_se[i * p + j]) : ""));
          }
        }
        return chart;
      });
  }
  if (!r.sample_value.empty())
    out.Table("samples.csv", [&] {
      return SamplesCsv(r.sample_coalitions, {}, static_cast<int>(r.features.size()), r.sample_value, "",
                        "value");
    });
}

void BuildXperReport(ReportContent& out, const XperReport& report) {
  AddXperFiles(out, report);
  const XperResult& r = report.result;
  Json body = XperResultJson(report);
  body["figures"] = out.figures();
  out.Result({"xper", r.features, report.run.seed, r.threads, r.elapsed_seconds}, body);
}
}}}  // namespace perfshap::detail
