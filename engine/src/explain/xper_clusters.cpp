// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// XPER heterogeneity (paper, section on heterogeneity and the empirical application's
// group-specific models): cluster the individuals on their XPER values, profile the clusters,
// refit one model per cluster and compare it with the one-fits-all model.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "perfshap/cluster.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/metric.hpp"

namespace perfshap { inline namespace v0 {

namespace {

// Column-major block of the given rows of `data` (all feature columns), for Model::Predict.
std::vector<double> GatherRows(const Dataset& data, const std::vector<std::size_t>& rows) {
  const std::size_t m = rows.size();
  std::vector<double> x(m * data.n_features());
  for (std::size_t j = 0; j < data.n_features(); ++j) {
    const auto col = data.column(j);
    for (std::size_t r = 0; r < m; ++r) x[j * m + r] = col[rows[r]];
  }
  return x;
}

std::vector<double> PredictRows(const Model& model, const Dataset& data, const std::vector<std::size_t>& rows) {
  std::vector<double> out(rows.size());
  if (rows.empty()) return out;
  model.Predict(GatherRows(data, rows), rows.size(), out);
  return out;
}

std::vector<double> PredictAll(const Model& model, const Dataset& data) {
  std::vector<std::size_t> rows(data.n_rows());
  for (std::size_t r = 0; r < rows.size(); ++r) rows[r] = r;
  return PredictRows(model, data, rows);
}

// Every row scored by its cluster's model.
std::vector<double> PredictPerCluster(const std::vector<std::shared_ptr<const Model>>& models,
                                      const Dataset& data, const std::vector<std::size_t>& labels) {
  std::vector<double> out(data.n_rows());
  for (std::size_t c = 0; c < models.size(); ++c) {
    std::vector<std::size_t> rows;
    for (std::size_t r = 0; r < labels.size(); ++r)
      if (labels[r] == c) rows.push_back(r);
    const std::vector<double> p = PredictRows(*models[c], data, rows);
    for (std::size_t t = 0; t < rows.size(); ++t) out[rows[t]] = p[t];
  }
  return out;
}

std::vector<std::string> RefitMetricNames(bool classifier) {
  if (classifier) return {"auc", "brier", "accuracy", "balanced_accuracy", "sensitivity", "specificity"};
  return {"mse", "mae", "r2"};
}

// The compared metrics of one set of predictions; AUC is NaN on a one-class sample.
std::vector<double> Metrics(bool classifier, std::span<const double> y, std::span<const double> pred,
                            double threshold) {
  if (!classifier) return {Mse(y, pred), Mae(y, pred), R2(y, pred)};
  std::vector<double> yhat(pred.size());
  for (std::size_t i = 0; i < pred.size(); ++i) yhat[i] = pred[i] > threshold ? 1.0 : 0.0;
  const auto positives = static_cast<std::size_t>(std::count(y.begin(), y.end(), 1.0));
  const double auc = positives > 0 && positives < y.size() ? RocAuc(y, pred)
                                                            : std::numeric_limits<double>::quiet_NaN();
  return {auc,
          Brier(y, pred),
          Accuracy(y, yhat),
          BalancedAccuracy(y, yhat),
          Sensitivity(y, yhat),
          Specificity(y, yhat)};
}

}  // namespace

XperClusters ClusterXper(const XperResult& xper, const Dataset& sample, const XperClusterOptions& options) {
  const std::size_t n = xper.n_rows;
  const std::size_t p = xper.n_features();
  if (sample.n_rows() != n || xper.individual_phi.size() != n * p)
    throw InvalidArgument("XPER clusters: the decomposition has " + std::to_string(n) + " rows x " +
                          std::to_string(p) + " features but the sample " + std::to_string(sample.n_rows()) +
                          " x " + std::to_string(sample.n_features()) + "; pass the sample that was explained");
  if (n < 3) throw InvalidArgument("XPER clusters need at least 3 individuals, the sample has " + std::to_string(n));
  if (options.clusters == 1 || (options.clusters != 0 && options.clusters > n - 1))
    throw InvalidArgument(std::to_string(options.clusters) + " clusters: use 2.." + std::to_string(n - 1) +
                              " clusters for " + std::to_string(n) + " individuals, or let the silhouette choose",
                          {"clusters"});
  if (options.k_min < 2 || options.k_max < options.k_min)
    throw InvalidArgument("XPER clusters: the silhouette range k_min..k_max must have 2 <= k_min <= k_max");

  XperClusters out;
  out.automatic = options.clusters == 0;
  for (std::size_t k = options.k_min; k <= std::min(options.k_max, n - 1); ++k) out.ks.push_back(k);
  if (!out.automatic && std::find(out.ks.begin(), out.ks.end(), options.clusters) == out.ks.end()) {
    out.ks.push_back(options.clusters);
    std::sort(out.ks.begin(), out.ks.end());
  }

  const DistanceMatrix dist(xper.individual_phi, n, p, options.execution);
  std::vector<KMedoidsResult> partitions;
  for (std::size_t k : out.ks) {
    partitions.push_back(KMedoids(dist, k, options.execution));
    out.silhouette.push_back(SilhouetteScore(dist, partitions.back().labels, k, options.execution));
    out.cost.push_back(partitions.back().cost);
  }
  std::size_t chosen = 0;
  if (out.automatic) {
    // Paper, footnote on the number of clusters: the largest silhouette score.
    for (std::size_t t = 1; t < out.ks.size(); ++t)
      if (out.silhouette[t] > out.silhouette[chosen]) chosen = t;
  } else {
    chosen = static_cast<std::size_t>(std::find(out.ks.begin(), out.ks.end(), options.clusters) - out.ks.begin());
  }
  out.k = out.ks[chosen];
  out.partition = std::move(partitions[chosen]);
  const std::size_t k = out.k;
  const std::vector<double> sil = SilhouetteSamples(dist, out.partition.labels, k, options.execution);

  out.medoid_phi.resize(k * p);
  out.profiles.resize(k);
  for (std::size_t c = 0; c < k; ++c) {
    auto& prof = out.profiles[c];
    prof.medoid = out.partition.medoids[c];
    const auto row = xper.individual_row(prof.medoid);
    std::copy(row.begin(), row.end(), out.medoid_phi.begin() + static_cast<std::ptrdiff_t>(c * p));
    prof.feature_means.assign(sample.n_features(), 0.0);
    prof.phi_means.assign(p, 0.0);
  }
  for (std::size_t i = 0; i < n; ++i) {
    auto& prof = out.profiles[out.partition.labels[i]];
    ++prof.size;
    prof.label_mean += sample.label()[i];
    prof.base_mean += xper.individual_base[i];
    prof.value_mean += xper.individual_value[i];
    prof.silhouette += sil[i];
    for (std::size_t j = 0; j < sample.n_features(); ++j) prof.feature_means[j] += sample.column(j)[i];
    for (std::size_t j = 0; j < p; ++j) prof.phi_means[j] += xper.individual(i, j);
  }
  for (auto& prof : out.profiles) {
    const double m = static_cast<double>(prof.size);  // >= 1: the medoid is a member
    prof.label_mean /= m;
    prof.base_mean /= m;
    prof.value_mean /= m;
    prof.silhouette /= m;
    for (double& v : prof.feature_means) v /= m;
    for (double& v : prof.phi_means) v /= m;
  }
  return out;
}

XperClusterRefit RefitPerCluster(const Learner& learner, const Dataset& train,
                                 const XperClusters& train_clusters, const Model& global_model,
                                 const Dataset& test, const XperResult& test_xper, double threshold) {
  const std::size_t p = train.n_features();       // the model's columns
  const std::size_t q = test_xper.n_features();   // the players (groups of columns, or one each)
  const std::size_t k = train_clusters.k;
  if (train_clusters.partition.labels.size() != train.n_rows())
    throw InvalidArgument("per-cluster refit: the clusters cover " +
                          std::to_string(train_clusters.partition.labels.size()) + " rows, the training sample has " +
                          std::to_string(train.n_rows()));
  if (test.n_features() != p || global_model.n_features() != p || test_xper.n_rows != test.n_rows())
    throw InvalidArgument("per-cluster refit: train, test and model must share the " + std::to_string(p) +
                          " features, and the test decomposition the test rows");
  // The refits train the players as the decomposition saw them, on the columns in order.
  std::vector<Player> players = test_xper.players;
  if (players.empty()) players = SingleColumnPlayers(train, [&] {
      std::vector<std::size_t> all(p);
      for (std::size_t j = 0; j < p; ++j) all[j] = j;
      return all;
    }());
  std::size_t next = 0;
  for (const Player& player : players)
    for (std::size_t c : player.columns)
      PERFSHAP_CHECK(c == next++, "per-cluster refit: the players' columns must be the model's columns in order");
  PERFSHAP_CHECK(players.size() == q && next == p, "per-cluster refit: the players do not cover the model's columns");
  if (train_clusters.medoid_phi.size() != k * q)
    throw InvalidArgument("per-cluster refit: the clusters' medoids are not in the model's feature space");

  XperClusterRefit out;
  out.train_labels = train_clusters.partition.labels;
  // The clustering rule built on the training sample: nearest training medoid in the space of
  // individual XPER values.
  out.test_labels = AssignToMedoids(test_xper.individual_phi, test.n_rows(), q, train_clusters.medoid_phi, k);
  out.train_sizes.assign(k, 0);
  out.test_sizes.assign(k, 0);
  for (std::size_t c : out.train_labels) ++out.train_sizes[c];
  for (std::size_t c : out.test_labels) ++out.test_sizes[c];

  // The global model, shared without ownership (the caller keeps it alive).
  const std::shared_ptr<const Model> global(std::shared_ptr<const Model>(), &global_model);
  for (std::size_t c = 0; c < k; ++c) {
    std::vector<std::size_t> rows;
    for (std::size_t r = 0; r < out.train_labels.size(); ++r)
      if (out.train_labels[r] == c) rows.push_back(r);
    try {
      if (rows.size() < 2) throw DataError("only " + std::to_string(rows.size()) + " training row");
      out.models.push_back(std::shared_ptr<const Model>(learner.Train(train, rows, std::span<const Player>(players))));
      out.notes.emplace_back();
    } catch (const DataError& e) {
      out.models.push_back(global);
      out.notes.push_back(std::string("refit failed (") + e.what() + "); the one-fits-all model is used");
    }
  }

  const bool classifier = global_model.is_classifier();
  out.metric_names = RefitMetricNames(classifier);
  out.train_one_model = Metrics(classifier, train.label(), PredictAll(global_model, train), threshold);
  out.train_per_cluster =
      Metrics(classifier, train.label(), PredictPerCluster(out.models, train, out.train_labels), threshold);
  out.test_one_model = Metrics(classifier, test.label(), PredictAll(global_model, test), threshold);
  out.test_per_cluster =
      Metrics(classifier, test.label(), PredictPerCluster(out.models, test, out.test_labels), threshold);
  return out;
}

}}  // namespace perfshap
