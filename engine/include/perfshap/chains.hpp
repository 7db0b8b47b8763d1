// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Shapley Chains (shared/seeds/shapley-chains.txt, Ayad et al.): in a classifier chain each link
// also sees the earlier outputs, so what a feature contributes to a later output runs partly
// through them. Direct contributions are the Shapley values of each link's predicted probability
// over its inputs (the features and the earlier outputs, eq. 2; interventional SHAP against a
// background sample); indirect ones follow the chain by eqs. 4-6:
//   W(y_k, .) = |Phi y_k(.)| / (sum_q |Phi y_k(x_q)| + sum_{p<k} |Phi y_k(y_p)|)          (6)
//   Z_1(x_i) = W(y_1, x_i),  Z_k(x_i) = sum_{l<k} W(y_k, y_l) Z_l(x_i) + W(y_k, x_i)       (5)
//   Phi_indirect y_j(x_i) = sum_{k<j} Phi y_j(y_k) Z_k(x_i)                                 (4)
// (the signed form keeps Phi's sign in W's numerator). Averaging over chain orders is eq. 3.
//
// Chain semantics are scikit-learn's ClassifierChain: link j is trained on the features and the
// true labels of the earlier outputs, and predicts from the features and the chain's own earlier
// predicted labels (estimator.predict, a 0/1 label at probability > 0.5); its predict_proba is the
// link's P(y_j = 1) given those.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/export.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/shap.hpp"

namespace perfshap { inline namespace v0 {

/** @brief Features and several binary outputs of the same rows. */
struct PERFSHAP_EXPORT MultiOutputData {
  Dataset features;
  std::vector<std::string> output_names;
  /** outputs[o][r] in {0, 1}. */
  std::vector<std::vector<double>> outputs;
};

/** @brief A fitted classifier chain: one link per output, in chain order. */
class PERFSHAP_EXPORT ClassifierChain {
 public:
  /**
   * @brief Fits link j on the features and the true earlier outputs of `rows`.
   * @param order output indices, each once.
   * @throws InvalidArgument for an order that repeats or misses an output; the learner's errors.
   */
  static ClassifierChain Fit(const Learner& learner, const MultiOutputData& data, const std::vector<std::size_t>& order,
                             const std::vector<std::size_t>& rows);
  std::size_t n_features() const noexcept { return n_features_; }
  std::size_t n_links() const noexcept { return links_.size(); }
  const std::vector<std::size_t>& order() const noexcept { return order_; }
  /** @brief Link j's model (inputs: the features, then the earlier outputs in chain order). */
  const Model& link(std::size_t j) const { return *links_.at(j); }
  /**
   * @brief The chain's predictions of n rows (column-major features): probabilities and labels,
   * n_links() x n each (chain order), and each link's inputs (column-major, (F + j) x n).
   */
  void Predict(ColumnMatrix x, std::vector<std::vector<double>>& probability, std::vector<std::vector<double>>& label,
               std::vector<std::vector<double>>* inputs = nullptr) const;

 private:
  std::size_t n_features_ = 0;
  std::vector<std::size_t> order_;
  std::vector<std::shared_ptr<const Model>> links_;
};

/** @brief Options of ExplainChain. */
struct ChainOptions {
  /** Background rows for the links' interventional SHAP, drawn from the training rows with the
   *  seed (all of them when fewer). */
  std::size_t background = 100;
  std::uint64_t seed = 0;
  /** W keeps Phi's sign (eq. 6 without the absolute value in its numerator). */
  bool signed_weights = false;
  ShapOptions shap;
};

/** @brief One chain order's contributions. Per link j (chain position): inputs F + j. */
struct PERFSHAP_EXPORT ChainOrderExplanation {
  std::vector<std::size_t> order;
  /** Output names in chain order; input names of the last link (features, then earlier outputs). */
  std::vector<std::string> outputs;
  std::vector<std::string> features;
  std::size_t n_rows = 0;
  /** direct[j]: rows x (F + j), row-major; base[j]: the link's mean prediction over the background. */
  std::vector<std::vector<double>> direct;
  std::vector<double> base;
  /** indirect[j]: rows x F (zero for the first link). */
  std::vector<std::vector<double>> indirect;
  /** The chain's test metrics: hamming loss over all outputs, accuracy per output (chain order). */
  double hamming_loss = 0.0;
  std::vector<double> accuracy;
  /** Global values (eqs. 4-6 applied to the mean |direct| over the rows; the signed form to the
   *  signed mean): per link, F + j direct values and F indirect ones. */
  std::vector<std::vector<double>> global_direct;
  std::vector<std::vector<double>> global_indirect;
};

/**
 * @brief Fits the chain of `order` on `train_rows`, explains `explain_rows` (direct by
 * interventional SHAP of each link's probability against background rows that go through the
 * chain too, indirect by eqs. 4-6) and scores the chain on them.
 */
PERFSHAP_EXPORT ChainOrderExplanation ExplainChain(const Learner& learner, const MultiOutputData& data,
                                                   const std::vector<std::size_t>& order,
                                                   const std::vector<std::size_t>& train_rows,
                                                   const std::vector<std::size_t>& explain_rows,
                                                   const ChainOptions& options = {});

/**
 * @brief Eqs. 4-6 for one instance: direct[j] (F + j values, features then earlier outputs) of
 * every link -> indirect[j] (F values). signed_weights: W keeps the sign of Phi.
 */
PERFSHAP_EXPORT std::vector<std::vector<double>> IndirectContributions(const std::vector<std::vector<double>>& direct,
                                                                      std::size_t n_features, bool signed_weights);

/** @brief Every order of m outputs, lexicographic. @throws InvalidArgument above max_outputs. */
PERFSHAP_EXPORT std::vector<std::vector<std::size_t>> AllChainOrders(std::size_t m, std::size_t max_outputs = 6);

}}  // namespace perfshap
