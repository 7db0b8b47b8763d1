// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Heterogeneity of a model's performance (XPER paper, section "heterogeneity" and the
// empirical application): K-medoids (PAM) on the individual XPER values, the silhouette
// criterion for the number of clusters, cluster profiles, and one model refitted per cluster
// compared with the one-fits-all model.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/xper.hpp"

namespace perfshap { inline namespace v0 {

/**
 * @brief Euclidean distances between n points of R^d, stored as a full symmetric n x n
 * matrix (8 n^2 bytes; computed once, then shared by PAM for every k and by the silhouette).
 */
class PERFSHAP_EXPORT DistanceMatrix {
 public:
  /** @brief Largest number of points (the matrix then takes 2 GiB). */
  static constexpr std::size_t kMaxPoints = 16384;

  DistanceMatrix() = default;
  /**
   * @brief d(i, j) = sqrt(sum_c (x_ic - x_jc)^2), summed over c in order (exactly symmetric,
   * d(i, i) = 0). Rows are computed in parallel blocks; the values do not depend on threads.
   * @param points n x d row-major (row i = point i), e.g. XperResult::individual_phi.
   * @param n number of points, 1 <= n <= kMaxPoints.
   * @param d coordinates per point, >= 1.
   * @throws InvalidArgument for a size mismatch, n out of range or a non-finite coordinate
   *   (naming the point and coordinate).
   */
  DistanceMatrix(std::span<const double> points, std::size_t n, std::size_t d,
                 const ExecutionOptions& execution = {});

  /** @brief Number of points n. */
  std::size_t size() const noexcept { return n_; }
  /** @brief d(i, j), i and j in [0, n) (unchecked). */
  double operator()(std::size_t i, std::size_t j) const noexcept { return d_[i * n_ + j]; }
  /** @brief Row i: the n distances from point i. */
  std::span<const double> row(std::size_t i) const noexcept { return {d_.data() + i * n_, n_}; }

 private:
  std::size_t n_ = 0;
  std::vector<double> d_;
};

/** @brief A partition of n points around k medoids. */
struct KMedoidsResult {
  /** Point indices of the medoids, ascending: cluster c is the cluster of medoids[c]. */
  std::vector<std::size_t> medoids;
  /** Cluster of every point (n values in [0, k)): its nearest medoid, ties to the lowest
   *  cluster; a medoid is always in its own cluster. */
  std::vector<std::size_t> labels;
  /** Total deviation: sum over points of the distance to their medoid (PAM's objective). */
  double cost = 0.0;
  /** Swaps made by the SWAP phase after BUILD. */
  int swaps = 0;
};

/**
 * @brief K-medoids by PAM (Kaufman and Rousseeuw): BUILD (greedy: first the point with the
 * least total distance, then repeatedly the point whose addition lowers the cost most) then
 * SWAP (repeatedly the medoid / non-medoid exchange that lowers the cost most, until none
 * lowers it by more than 1e-12 relative). Deterministic: ties go to the lowest point index
 * (then the lowest medoid slot). Each SWAP iteration evaluates every exchange in O(n^2)
 * (all medoids of one candidate at once), candidates in parallel blocks, reduced in index
 * order, so results do not depend on threads. PAM finds a swap-local optimum; on small sets
 * it is usually the global one.
 * @param distances pairwise distances of the n points.
 * @param k number of clusters, 1 <= k <= n.
 * @param max_swaps SWAP iteration limit (the partition reached is returned).
 * @throws InvalidArgument for k out of range.
 */
PERFSHAP_EXPORT KMedoidsResult KMedoids(const DistanceMatrix& distances, std::size_t k,
                                        const ExecutionOptions& execution = {}, int max_swaps = 1000);

/**
 * @brief Silhouette of every point (Rousseeuw 1987), as sklearn.metrics.silhouette_samples:
 * a(i) = mean distance to the other members of its cluster, b(i) = the least mean distance to
 * another cluster's members, s(i) = (b - a) / max(a, b); s(i) = 0 for a point alone in its
 * cluster (and when a = b = 0).
 * @param labels n cluster ids in [0, k).
 * @param k number of clusters; 2 <= (number of non-empty clusters) <= n - 1.
 * @throws InvalidArgument for a size mismatch, a label >= k, or too few / too many clusters.
 */
PERFSHAP_EXPORT std::vector<double> SilhouetteSamples(const DistanceMatrix& distances,
                                                      std::span<const std::size_t> labels, std::size_t k,
                                                      const ExecutionOptions& execution = {});

/** @brief Mean of SilhouetteSamples (sklearn.metrics.silhouette_score). */
PERFSHAP_EXPORT double SilhouetteScore(const DistanceMatrix& distances, std::span<const std::size_t> labels,
                                       std::size_t k, const ExecutionOptions& execution = {});

/**
 * @brief The K-medoids clustering rule: each of m new points goes to its nearest medoid
 * (Euclidean), ties to the lowest cluster.
 * @param points m x d row-major.
 * @param medoid_points k x d row-major, cluster c in row c.
 * @return m cluster ids.
 * @throws InvalidArgument for size mismatches or k = 0.
 */
PERFSHAP_EXPORT std::vector<std::size_t> AssignToMedoids(std::span<const double> points, std::size_t m,
                                                         std::size_t d, std::span<const double> medoid_points,
                                                         std::size_t k);

/** @brief Options of ClusterXper. */
struct XperClusterOptions {
  /** Number of clusters; 0 = automatic: the k of k_min..k_max with the largest mean
   *  silhouette (ties to the smaller k), as the paper's footnote (k = 2..10). */
  std::size_t clusters = 0;
  std::size_t k_min = 2;
  std::size_t k_max = 10;
  ExecutionOptions execution;
};

/** @brief One cluster of individuals: who they are and how the features serve them. */
struct XperClusterProfile {
  /** Row of the medoid in the clustered sample. */
  std::size_t medoid = 0;
  std::size_t size = 0;
  /** Mean label of the members: the default rate for a 0/1 label. */
  double label_mean = 0.0;
  /** Mean of each feature over the members (p values, the model's order). */
  /** Per column of the sample clustered (the players' columns: one per feature, or more when
   *  players are groups), its mean over the cluster. */
  std::vector<double> feature_means;
  /** Mean individual XPER value phi_ij over the members (p values). */
  std::vector<double> phi_means;
  /** Mean individual benchmark phi_i0 and mean individual contribution G_i of the members. */
  double base_mean = 0.0;
  double value_mean = 0.0;
  /** Mean silhouette of the members. */
  double silhouette = 0.0;
};

/** @brief K-medoids clusters of the individual XPER values of one sample. */
struct XperClusters {
  /** The k tried (k_min..k_max, plus `clusters` when fixed outside that range) and the mean
   *  silhouette and PAM cost of each. */
  std::vector<std::size_t> ks;
  std::vector<double> silhouette;
  std::vector<double> cost;
  /** The number of clusters used, and whether it was chosen by the silhouette. */
  std::size_t k = 0;
  bool automatic = true;
  /** The partition for k (medoids are rows of the clustered sample). */
  KMedoidsResult partition;
  /** k x p row-major: the medoids' individual XPER values (the rule AssignToMedoids uses). */
  std::vector<double> medoid_phi;
  std::vector<XperClusterProfile> profiles;
};

/**
 * @brief Clusters the individuals of `sample` on their individual XPER values (rows of
 * xper.individual_phi, Euclidean) with PAM, choosing k by the silhouette unless fixed, and
 * profiles the clusters.
 * @param xper the decomposition of `sample` (same rows, same features).
 * @param sample the rows explained by `xper`: features and label.
 * @throws InvalidArgument for a mismatch between xper and sample, fewer than 3 rows, more
 *   than DistanceMatrix::kMaxPoints rows, or a k outside 2..n-1.
 */
PERFSHAP_EXPORT XperClusters ClusterXper(const XperResult& xper, const Dataset& sample,
                                         const XperClusterOptions& options);

/**
 * @brief The paper's group-specific models against the one-fits-all model.
 *
 * Rows of `train` are clustered on their XPER values (`train_clusters`, from ClusterXper on
 * the training sample, the model applied to the whole training sample: paper, three-step
 * approach); one model of `kind` is refitted on each cluster's training rows. Each test row
 * is assigned to a cluster by the clustering rule built on the training sample: its nearest
 * training medoid in the space of individual XPER values (`test_xper`, the one-fits-all
 * model's decomposition on the test sample). Note that individual XPER values depend on the
 * row's label, so this assignment uses the test labels, as the paper's does.
 */
struct XperClusterRefit {
  /** One model per cluster (index = cluster); a cluster whose refit fails (one class, too
   *  few rows, separation...) keeps the one-fits-all model, see `notes`. */
  std::vector<std::shared_ptr<const Model>> models;
  /** Empty when the cluster's model was refitted, else why the global model is used. */
  std::vector<std::string> notes;
  /** Cluster of each training row and of each test row. */
  std::vector<std::size_t> train_labels;
  std::vector<std::size_t> test_labels;
  /** Rows per cluster in the train and test samples. */
  std::vector<std::size_t> train_sizes;
  std::vector<std::size_t> test_sizes;
  /** The compared metrics (classifiers: auc, brier, accuracy, balanced_accuracy,
   *  sensitivity, specificity; regressors: mse, mae, r2), each on the pooled predictions
   *  of all rows (per cluster: every row scored by its cluster's model). Brier, MSE and MAE
   *  are losses (smaller is better) and reported as such. */
  std::vector<std::string> metric_names;
  std::vector<double> train_one_model;
  std::vector<double> train_per_cluster;
  std::vector<double> test_one_model;
  std::vector<double> test_per_cluster;
};

/**
 * @brief Refits `learner` on each training cluster and compares the pooled predictions with the
 * one-fits-all `global_model` on the train and test samples (see XperClusterRefit).
 * @param train training sample restricted to the model's features, in the model's order.
 * @param train_clusters ClusterXper of the training sample's XPER values.
 * @param test test sample with the same columns.
 * @param test_xper the decomposition of `test` (its individual values place the rows).
 * @param threshold class rule of the 0/1 metrics: prediction > threshold.
 * @throws InvalidArgument for mismatched shapes.
 * @throws DataError when a metric is undefined on a sample (e.g. AUC with one class).
 */
PERFSHAP_EXPORT XperClusterRefit RefitPerCluster(const Learner& learner, const Dataset& train, const XperClusters& train_clusters,
                                                 const Model& global_model, const Dataset& test,
                                                 const XperResult& test_xper, double threshold = 0.5);

}}  // namespace perfshap
