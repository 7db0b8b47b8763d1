// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "xper_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "report/svg.hpp"
#include "report/svg_panels.hpp"

namespace perfshap::cli {

namespace {

Json Number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

// Feature order by decreasing global phi (the paper's figures sort the bars).
std::vector<std::size_t> ByDecreasingPhi(const XperResult& r) {
  std::vector<std::size_t> order(r.n_features());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return r.phi[a] > r.phi[b]; });
  return order;
}

}  // namespace

std::string XperMetricLabel(const std::string& metric) {
  const MetricDefinition& m = FindMetric(metric, "xper");
  return (m.loss ? "-" : "") + m.label;
}

std::string CsvNumber(double v) { return std::isfinite(v) ? Fmt("%.17g", v) : std::string(); }

Json XperSummaryJson(const XperResult& r) {
  Json j;
  j["value"] = r.value;
  j["base"] = r.base;
  Json phi, norm;
  for (std::size_t f = 0; f < r.n_features(); ++f) {
    phi[r.features[f]] = r.phi[f];
    norm[r.features[f]] = Number(r.phi_normalised[f]);
  }
  j["phi"] = phi;
  j["phi_normalised"] = norm;
  j["n_rows"] = r.n_rows;
  return j;
}

std::string XperBarSvg(const XperResult& r, const std::string& sample_name) {
  const std::string m = XperMetricLabel(r.metric);
  const bool normalised = r.value != r.base;
  detail::BarChart c;
  for (std::size_t f : ByDecreasingPhi(r)) {
    c.labels.push_back(r.features[f]);
    c.values.push_back(normalised ? 100.0 * r.phi_normalised[f] : r.phi[f]);
  }
  c.decimals = normalised ? 1 : 4;
  c.frame.title = "XPER of the " + m + " on " + sample_name + ": " + m + " " + Fmt("%.4f", r.value) +
                  " = \u03c6\u2080 " + Fmt("%.4f", r.base) + " + \u03a3 \u03c6\u2c7c";
  c.frame.x_label = normalised ? "\u03c6\u2c7c / (" + m + " \u2212 \u03c6\u2080), %"
                               : "\u03c6\u2c7c (" + m + " equals its benchmark: not normalised)";
  c.frame.width = 820;
  return detail::RenderSvg(c);
}

std::string XperStripSvg(const XperResult& r, const Dataset& sample) {
  detail::StripChart c;
  for (std::size_t f : ByDecreasingPhi(r)) {
    detail::StripRow row;
    row.label = r.features[f];
    row.values.resize(r.n_rows);
    for (std::size_t i = 0; i < r.n_rows; ++i) row.values[i] = r.individual(i, f);
    const auto col = sample.column(f);
    row.color_values.assign(col.begin(), col.end());
    c.rows.push_back(std::move(row));
  }
  c.frame.title = "Individual XPER values of the " + XperMetricLabel(r.metric) + " (" +
                  std::to_string(r.n_rows) + " individuals)";
  c.frame.x_label = "\u03c6\u1d62\u2c7c: contribution of feature j to individual i's " + XperMetricLabel(r.metric) +
                    " term";
  c.frame.width = 860;
  const std::size_t rows = std::max<std::size_t>(c.rows.size(), 1);
  c.frame.height = static_cast<int>(110 + 96 * rows);
  c.point_radius = r.n_rows > 1000 ? 1.6 : 2.4;
  c.color_label = "feature value";
  return detail::RenderSvg(c);
}

std::string XperWaterfallSvg(const XperResult& r, const Dataset& sample, std::size_t i) {
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
    c.labels.push_back(r.features[f] + " = " + Fmt("%.4g", sample.column(f)[i]));
    c.contributions.push_back(r.individual(i, f));
  }
  c.end_label = "G\u1d62 (row's " + m + " term)";
  c.end_value = r.individual_value[i];
  c.frame.title = "XPER of row " + std::to_string(i) + " (y = " + Fmt("%g", sample.label()[i]) + ")";
  c.frame.x_label = "individual " + m + " term";
  c.frame.width = 820;
  return detail::RenderSvg(c);
}

std::string XperOverfitSvg(const XperResult& train, const XperResult& test) {
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
  c.frame.x_label = "\u03c6\u2c7c, contribution to the " + m + " (a feature that gives more on train than on test "
                    "explains the gap)";
  c.frame.width = 900;
  return detail::RenderSvg(c);
}

std::string SilhouetteSvg(const XperClusters& clusters, const std::string& sample_name) {
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
  return detail::RenderSvg(c);
}

std::string ClusterPhiSvg(const XperClusters& clusters, const std::vector<std::string>& features,
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
  c.frame.title = "Mean individual XPER values in each of the " + std::to_string(clusters.profiles.size()) +
                  " clusters";
  c.frame.x_label = "mean \u03c6\u1d62\u2c7c of the members (cluster sizes " + sizes + "; mean " + label_name +
                    " " + means + ")";
  c.frame.width = 900;
  return detail::RenderSvg(c);
}

std::string ClusterProfilesCsv(const XperClusters& clusters, const std::vector<std::string>& features,
                               const std::string& label_name) {
  std::string csv = "cluster,medoid_row,size,share," + label_name + "_mean,silhouette";
  for (const auto& f : features) csv += ",mean_" + f;
  for (const auto& f : features) csv += ",mean_phi_" + f;
  csv += ",mean_phi_i0,mean_G_i\n";
  std::size_t n = 0;
  for (const auto& prof : clusters.profiles) n += prof.size;
  for (std::size_t k = 0; k < clusters.profiles.size(); ++k) {
    const auto& prof = clusters.profiles[k];
    csv += std::to_string(k) + "," + std::to_string(prof.medoid) + "," + std::to_string(prof.size) + "," +
           CsvNumber(static_cast<double>(prof.size) / static_cast<double>(n)) + "," + CsvNumber(prof.label_mean) +
           "," + CsvNumber(prof.silhouette);
    for (double v : prof.feature_means) csv.append(",").append(CsvNumber(v));
    for (double v : prof.phi_means) csv.append(",").append(CsvNumber(v));
    csv += "," + CsvNumber(prof.base_mean) + "," + CsvNumber(prof.value_mean) + "\n";
  }
  return csv;
}

Json ClustersJson(const XperClusters& clusters, const std::vector<std::string>& features,
                  const std::string& label_name, const std::string& sample_name) {
  Json j;
  j["sample"] = sample_name;
  j["method"] = "k-medoids (PAM, BUILD + SWAP) on the rows of individual XPER values, Euclidean";
  j["k"] = clusters.k;
  j["selection"] = clusters.automatic ? "largest mean silhouette" : "fixed by --clusters";
  Json sil = Json::object();
  for (std::size_t t = 0; t < clusters.ks.size(); ++t) sil[std::to_string(clusters.ks[t])] = clusters.silhouette[t];
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
    for (std::size_t f = 0; f < features.size(); ++f) {
      means[features[f]] = prof.feature_means[f];
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

std::string ClusterMetricsCsv(const XperClusterRefit& refit) {
  std::string csv = "metric,sample,one_model,per_cluster\n";
  for (std::size_t t = 0; t < refit.metric_names.size(); ++t) {
    csv += refit.metric_names[t] + ",train," + CsvNumber(refit.train_one_model[t]) + "," +
           CsvNumber(refit.train_per_cluster[t]) + "\n";
    csv += refit.metric_names[t] + ",test," + CsvNumber(refit.test_one_model[t]) + "," +
           CsvNumber(refit.test_per_cluster[t]) + "\n";
  }
  return csv;
}

Json RefitJson(const XperClusterRefit& refit) {
  Json j;
  j["rule"] =
      "one model refitted on each cluster's training rows; each test row goes to the nearest training medoid in "
      "the space of individual XPER values (its values from the one-fits-all model on the test sample, which "
      "use its label, as in the paper)";
  j["train_sizes"] = refit.train_sizes;
  j["test_sizes"] = refit.test_sizes;
  Json notes = Json::array();
  for (const auto& n : refit.notes) notes.push_back(n.empty() ? Json("refitted") : Json(n));
  j["models"] = notes;
  Json table = Json::object();
  for (std::size_t t = 0; t < refit.metric_names.size(); ++t) {
    Json row;
    row["train"] = {{"one_model", Number(refit.train_one_model[t])}, {"per_cluster", Number(refit.train_per_cluster[t])}};
    row["test"] = {{"one_model", Number(refit.test_one_model[t])}, {"per_cluster", Number(refit.test_per_cluster[t])}};
    table[refit.metric_names[t]] = row;
  }
  j["metrics"] = table;
  return j;
}

Json SummaryJson(const DistributionSummary& s) {
  return {{"mean", s.mean}, {"std", s.std}, {"min", s.min}, {"q05", s.q05}, {"q25", s.q25},
          {"q50", s.q50},   {"q75", s.q75}, {"q95", s.q95}, {"max", s.max}};
}

std::string MonteCarloHistogramSvg(const XperMonteCarloResult& r) {
  const std::size_t n_samples = r.samples;
  const std::size_t q = r.features.size();
  std::vector<std::string> panels;
  const auto panel = [&](const std::string& title, std::vector<detail::HistogramSeries> series, bool marker) {
    detail::HistogramChart h;
    h.frame.title = title;
    h.frame.width = 460;
    h.frame.height = 330;
    h.frame.x_label = "value over the " + std::to_string(n_samples) + " samples";
    if (marker) {
      const DistributionSummary s = Summarize(series.front().values);
      h.markers.push_back({"mean " + Fmt("%.4g", s.mean), s.mean});
    }
    h.series = std::move(series);
    panels.push_back(detail::RenderSvg(h));
  };
  panel("AUC", {{"AUC", r.auc}}, true);
  // With the full comparator the benchmark is exactly 1/2 in every sample (a random
  // predictor's AUC); the permuted comparator adds the permutation's noise.
  const bool constant_base = std::all_of(r.base.begin(), r.base.end(), [&](double v) { return v == r.base[0]; });
  panel(constant_base ? "benchmark \u03c6\u2080 (the same in every sample)" : "benchmark \u03c6\u2080",
        {{"phi_0", r.base}}, true);
  std::vector<detail::HistogramSeries> shares;
  for (std::size_t j = 0; j < q; ++j) {
    std::vector<double> v(n_samples), s(n_samples);
    for (std::size_t k = 0; k < n_samples; ++k) {
      v[k] = r.phi[k * q + j];
      const double spread = r.auc[k] - r.base[k];
      s[k] = spread != 0.0 ? 100.0 * v[k] / spread : 0.0;
    }
    panel("\u03c6 of " + r.features[j], {{"phi_" + r.features[j], v}}, true);
    shares.push_back({r.features[j], std::move(s)});
  }
  {
    detail::HistogramChart h;
    h.frame.title = "shares \u03c6\u2c7c / (AUC \u2212 \u03c6\u2080)";
    h.frame.width = 460;
    h.frame.height = 330;
    h.frame.x_label = "% of the AUC above the benchmark";
    h.bins = 60;
    h.series = std::move(shares);
    panels.push_back(detail::RenderSvg(h));
  }
  return detail::ComposeSvgPanels(
      panels, 3,
      "XPER of the AUC over " + std::to_string(n_samples) + " pseudo-samples of the probit design (" +
          std::to_string(r.train_rows) + " train / " + std::to_string(r.rows - r.train_rows) + " test rows, " +
          XperComparatorName(r.comparator) + " comparator)");
}

}  // namespace perfshap::cli
