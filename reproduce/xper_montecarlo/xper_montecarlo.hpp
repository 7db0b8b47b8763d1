// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The XPER paper's Monte Carlo experiment (section "Monte Carlo simulations"): K pseudo-samples
// of the probit design, a probit fitted on the first T rows of each, exact XPER of the AUC on
// the remaining n rows; the distributions of the AUC, phi_0 and every phi_j.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "perfshap/execution.hpp"
#include "perfshap/export.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learners.hpp"
#include "perfshap/xper.hpp"

namespace perfshap { inline namespace v0 {

/** @brief Options of RunXperMonteCarlo. Defaults are the paper's: K = 5,000 samples of 1,000
 *  rows, T = 700 train rows, the design x ~ N(0, diag(1.2, 1, 1)), beta = (0.05, 0.5, 0.5, 0). */
struct XperMonteCarloOptions {
  std::size_t samples = 5000;
  std::size_t rows = 1000;
  std::size_t train_rows = 700;
  /** Variances and beta of the design (its n_rows and seed are set per sample). */
  ProbitDesign design;
  /** AUC comparison sample of every XPER run (kPermuted draws pi from the sample's seed). */
  XperComparator comparator = XperComparator::kFull;
  /** Master seed: sample k is drawn with XperMonteCarloSampleSeed(seed, k). */
  std::uint64_t seed = 2024;
  /** The probit learner's settings (statsmodels-like maximum likelihood by default). */
  ProbitOptions probit;
  /** Threads over samples (each sample runs on one thread) and progress in samples. Results
   *  do not depend on threads. */
  ExecutionOptions execution;
};

/** @brief Random stream id family of the per-sample seeds. */
inline constexpr std::uint64_t kXperMonteCarloStream = 0x584D43ULL << 32;  // "XMC"

/** @brief The seed of pseudo-sample k: the first draw of RandomStream(seed,
 *  kXperMonteCarloStream + k), so samples are independent streams whatever K is. */
PERFSHAP_EXPORT std::uint64_t XperMonteCarloSampleSeed(std::uint64_t seed, std::size_t k);

/** @brief Every pseudo-sample's fitted model and decomposition. Matrices are row-major with
 *  one row per sample. */
struct XperMonteCarloResult {
  /** Feature names x1..xq. */
  std::vector<std::string> features;
  std::size_t samples = 0;
  std::size_t rows = 0;
  std::size_t train_rows = 0;
  XperComparator comparator = XperComparator::kFull;
  /** K seeds passed to GenerateProbitDesign. */
  std::vector<std::uint64_t> sample_seeds;
  /** K x (q + 1): fitted probit coefficients, constant first. */
  std::vector<double> coefficients;
  /** K values: the test AUC (= phi_0 + sum_j phi_j). */
  std::vector<double> auc;
  /** K values: the benchmark phi_0. */
  std::vector<double> base;
  /** K x q: phi_j. */
  std::vector<double> phi;
  int threads = 1;
  double elapsed_seconds = 0.0;
};

/**
 * @brief Runs the experiment: for k = 0..K-1, draws `rows` rows of the design with the seed
 * of sample k, fits a probit (Train(kProbit)) on rows 0..train_rows-1, and computes the exact
 * XPER decomposition of the AUC on the other rows (ExplainXper, one thread per sample).
 * Samples run in parallel through the schedule; each writes its own row of the result.
 * @throws InvalidArgument for samples = 0, train_rows < 2 or train_rows > rows - 2, or a bad
 *   design.
 * @throws DataError naming the sample when a probit fit fails (separation, one class) or the
 *   test part has one class.
 * @throws Cancelled when the cancellation flag is raised.
 */
PERFSHAP_EXPORT XperMonteCarloResult RunXperMonteCarlo(const XperMonteCarloOptions& options);

/** @brief Location and spread of one quantity over the samples. */
struct DistributionSummary {
  double mean = 0.0;
  /** Standard deviation with ddof 1 (numpy std(ddof=1)); 0 for a single value. */
  double std = 0.0;
  double min = 0.0;
  double max = 0.0;
  /** Quantiles 5, 25, 50, 75, 95 % by linear interpolation between order statistics
   *  (numpy.quantile's default, Hyndman-Fan type 7). */
  double q05 = 0.0;
  double q25 = 0.0;
  double q50 = 0.0;
  double q75 = 0.0;
  double q95 = 0.0;
};

/** @brief Summary of `values` (at least one, all finite). @throws InvalidArgument otherwise. */
PERFSHAP_EXPORT DistributionSummary Summarize(std::span<const double> values);

}}  // namespace perfshap
