// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Figures, tables and JSON blocks of `perfshap xper` and `perfshap xper-montecarlo`.

#include <cstddef>
#include <string>
#include <vector>

#include "common.hpp"
#include "perfshap/cluster.hpp"
#include "perfshap/xper.hpp"
#include "perfshap/xper_montecarlo.hpp"

namespace perfshap::cli {

/** @brief "AUC", "-Brier", "accuracy", ...: the metric as the decomposition counts it. */
std::string XperMetricLabel(const std::string& metric);

/** @brief A number for a CSV cell: %.17g (round-trips a double), "" for NaN. */
std::string CsvNumber(double v);

/** @brief value, base, phi, phi_normalised and n_rows of a decomposition. */
Json XperSummaryJson(const XperResult& r);

/** @brief Bar chart of the normalised values phi_j / (value - phi_0), in percent (raw phi_j
 *  when value == phi_0). */
std::string XperBarSvg(const XperResult& r, const std::string& sample_name);

/** @brief Beeswarm strip of the individual values phi_ij, one row per feature, coloured by the
 *  feature's value. */
std::string XperStripSvg(const XperResult& r, const Dataset& sample);

/** @brief Waterfall of individual i: phi_i0, then phi_ij by decreasing |phi_ij|, to G_i. */
std::string XperWaterfallSvg(const XperResult& r, const Dataset& sample, std::size_t i);

/** @brief phi_j on the training and the test samples side by side (overfitting view). */
std::string XperOverfitSvg(const XperResult& train, const XperResult& test);

/** @brief Mean silhouette for each k tried, the chosen k marked. */
std::string SilhouetteSvg(const XperClusters& clusters, const std::string& sample_name);

/** @brief Per-cluster mean individual values phi_ij, one bar per feature and cluster (the
 *  paper's group figure, in raw units). */
std::string ClusterPhiSvg(const XperClusters& clusters, const std::vector<std::string>& features,
                          const std::string& label_name);

/** @brief One line per cluster: cluster, medoid_row, size, share, <label>_mean, silhouette,
 *  mean_<feature>..., mean_phi_<feature>..., mean_phi_i0, mean_G_i. */
std::string ClusterProfilesCsv(const XperClusters& clusters, const std::vector<std::string>& features,
                               const std::string& label_name);

/** @brief The clusters block of result.json. */
Json ClustersJson(const XperClusters& clusters, const std::vector<std::string>& features,
                  const std::string& label_name, const std::string& sample_name);

/** @brief metric, sample, one_model, per_cluster (the paper's comparison table). */
std::string ClusterMetricsCsv(const XperClusterRefit& refit);

/** @brief The refit block of result.json. */
Json RefitJson(const XperClusterRefit& refit);

/** @brief Summary statistics block (mean, std, min, max, q05..q95). */
Json SummaryJson(const DistributionSummary& s);

/** @brief The Monte Carlo histograms: AUC, phi_0, each phi_j, and the normalised shares. */
std::string MonteCarloHistogramSvg(const XperMonteCarloResult& r);

}  // namespace perfshap::cli
