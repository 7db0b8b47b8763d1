// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The reporter of ExplainXper (and of the heterogeneity analysis, ClusterXper and
// RefitPerCluster): the console summary, result.json, individual.csv and the cluster tables,
// and the SVG figures.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/trees.hpp"
#include "perfshap/cluster.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/xper.hpp"
#include "report/json.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/value_function_comparison.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief The explained model as result.json's "model" block describes it. */
struct XperModelInfo {
  /** "probit", "logistic", "linear" (coefficients) or the learner's name (trained). */
  std::string kind;
  /** True for a model given by its coefficients, false for one trained on a sample. */
  bool from_coefficients = true;
  /** Coefficients: the file read, "" for built-in ones (null in result.json). */
  std::string coefficients_file;
  /** Coefficients: the feature names and the coefficients, the intercept first. */
  std::vector<std::string> names;
  std::vector<double> coefficients;
  /** Trained: the training file, its rows and the fitted model's description. */
  std::string train;
  std::size_t n_train = 0;
  std::string description;
  /** Trained by a learner: its options in effect (result.json "model_params"). */
  LearnerParams learner_params;
  /** An XGBoost model file: the boosting rounds used (total 0 for any other model). */
  BoostingRounds rounds;
};

/** @brief What the XPER report says about the run besides its results. */
struct XperRun {
  std::string data;    ///< the sample's source
  std::string metric;  ///< the metric as asked for
  XperModelInfo model;
  double threshold = 0.5, cfp = 1.0, cfn = 1.0;
  /** Where the comparison permutation comes from, when there is one: its file, or how it was
   *  drawn; and the same for the training sample's decomposition. */
  std::string permutation, train_permutation;
  /** How result.json names a number of clusters fixed by the caller. */
  std::string fixed_clusters;
  /** The row whose decomposition is printed and recorded, if any. */
  std::optional<std::size_t> explain_row;
  bool overfit = false;     ///< show the training sample's decomposition next to the test's
  bool have_train = false;  ///< the model was trained on a training sample (clusters are of it)
  std::uint64_t seed = 0;
  /** How missing cells were handled, rows dropped for them, the groups file (empty: none). */
  std::string missing = "error";
  std::size_t dropped_rows = 0;
  std::string groups;
  /** Where a conditional value function's background rows come from. */
  std::string background;
};

/** @brief The results one XPER run reports: the sample's decomposition and the optional parts. */
struct XperReport {
  const XperResult& result;                 ///< the sample's decomposition
  const Dataset& sample;                    ///< the sample explained (its columns in the model's order)
  const XperResult* train = nullptr;        ///< the training sample's, when computed
  const XperClusters* clusters = nullptr;   ///< the heterogeneity clusters, when asked for
  const XperClusterRefit* refit = nullptr;  ///< one model per cluster, with a training sample
  /** With a conditional value function: the marginal decomposition of the same sample, when
   *  computed (XperResponse::marginal). */
  const XperResult* marginal = nullptr;
  /** With a conditional value function: its background's correlations. */
  const FeatureDependence* dependence = nullptr;
  XperRun run;
};

/** @brief The console summary: value = phi_0 + sum of phi, the table of phi and shares, then
 *  the explained row, the overfitting view, the clusters and the refit as present, the timing;
 *  with `out` non-empty, the line naming it. */
std::string XperConsoleText(const XperReport& report, const std::string& out);

/** @brief The method's keys of result.json. */
Json XperResultJson(const XperReport& report);

/** @brief individual.csv: i, phi_i0, phi_<feature>... for every individual. */
CsvTable XperIndividualCsv(const XperResult& r);

/** @brief The figures and tables of the report, added to `out`. */
void AddXperFiles(ReportContent& out, const XperReport& report);

/**
 * @brief The report's content: the figures, the tables and, last, result.json.
 */
void BuildXperReport(ReportContent& out, const XperReport& report);

/** @brief "AUC", "-Brier", "accuracy", ...: the metric as the decomposition counts it. */
std::string XperMetricLabel(const std::string& metric);

/** @brief value, base, phi, phi_normalised and n_rows of a decomposition. */
Json XperSummaryJson(const XperResult& r);

/** @brief Bar chart of the normalised values phi_j / (value - phi_0), in percent (raw phi_j
 *  when value == phi_0). */
Chart XperBarFigure(const XperResult& r, const std::string& sample_name);

/** @brief Beeswarm strip of the individual values phi_ij, one row per feature, coloured by the
 *  feature's value. */
Chart XperStripFigure(const XperResult& r, const Dataset& sample);

/** @brief Waterfall of individual i: phi_i0, then phi_ij by decreasing |phi_ij|, to G_i. */
Chart XperWaterfallFigure(const XperResult& r, const Dataset& sample, std::size_t i);

/** @brief phi_j on the training and the test samples side by side (overfitting view). */
Chart XperOverfitFigure(const XperResult& train, const XperResult& test);

/** @brief Mean silhouette for each k tried, the chosen k marked. */
Chart SilhouetteFigure(const XperClusters& clusters, const std::string& sample_name);

/** @brief Per-cluster mean individual values phi_ij, one bar per feature and cluster (the
 *  paper's group figure, in raw units). */
Chart ClusterPhiFigure(const XperClusters& clusters, const std::vector<std::string>& features,
                       const std::string& label_name);

/** @brief One line per cluster: cluster, medoid_row, size, share, <label>_mean, silhouette,
 *  mean_<feature>..., mean_phi_<feature>..., mean_phi_i0, mean_G_i. */
CsvTable ClusterProfilesCsv(const XperClusters& clusters, const std::vector<std::string>& columns,
                            const std::vector<std::string>& features, const std::string& label_name);

/** @brief The clusters block of result.json; `fixed` says how a fixed number of clusters is named. */
Json ClustersJson(const XperClusters& clusters, const std::vector<std::string>& columns,
                  const std::vector<std::string>& features,
                  const std::string& label_name, const std::string& sample_name, const std::string& fixed);

/** @brief metric, sample, one_model, per_cluster (the paper's comparison table). */
CsvTable ClusterMetricsCsv(const XperClusterRefit& refit);

/** @brief The refit block of result.json. */
Json RefitJson(const XperClusterRefit& refit);

}}}  // namespace perfshap::detail
