// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The report of `perfshap chains`: result.json ("method": "chains"; per order and averaged over
// the orders, "direct", "indirect" and "total" as {output: {input: value}}, the chain's hamming
// loss and accuracy per output; the same outputs explained by independent classifiers),
// direct.csv and indirect.csv (long form: order, instance, output, input, value) and one SVG of
// stacked, normalised direct and indirect contributions per order beside the independent ones.

#include <filesystem>
#include <string>
#include <vector>

#include "perfshap/chains.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

struct ChainsReport {
  std::string data;
  std::vector<std::string> output_names;  ///< the data's outputs, in data order
  std::vector<std::string> features;
  std::vector<ChainOrderExplanation> orders;
  /** Independent classifiers: per output (data order), the global direct values over the features. */
  std::vector<std::vector<double>> independent;
  /** The data rows explained (0-based). */
  std::vector<std::size_t> rows;
  std::size_t background = 0;
  bool signed_weights = false;
  std::string learner;
  /** The learner's options in effect (result.json "model_params"). */
  LearnerParams learner_params;
  std::uint64_t seed = 0;
  int threads = 0;
  double elapsed_seconds = 0.0;
};

/** @brief The features' values of every output averaged over the orders (eq. 3): outputs x
 *  features, row-major, in data order; and the mean Hamming loss. */
struct ChainsAverages {
  std::vector<double> direct, indirect, total;
  double hamming_loss = 0.0;
};

ChainsAverages AverageOverOrders(const ChainsReport& report);

/** @brief The chain position of data output `o` in order `e`. */
std::size_t ChainPosition(const ChainOrderExplanation& e, std::size_t o);

/** @brief An order's name: its outputs joined by ">". */
std::string ChainOrderName(const ChainOrderExplanation& e);

std::string ChainsConsoleText(const ChainsReport& report);

/** @brief The report's content: the two tables, the figures and result.json. */
void BuildChainsReport(ReportContent& out, const ChainsReport& report);
}}}  // namespace perfshap::detail
