// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Shapley Chains (perfshap/chains.hpp): the chain, its direct contributions by interventional
// SHAP of each link, and the indirect ones by eqs. 4-6.
#include "perfshap/chains.hpp"
#include "perfshap/cost_estimates.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>

#include "explain/finite_result.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/random.hpp"

namespace perfshap { inline namespace v0 {
namespace {

void CheckData(const MultiOutputData& d) {
  PERFSHAP_CHECK(d.outputs.size() == d.output_names.size() && !d.outputs.empty(),
                 "a chain needs outputs, one name each");
  for (std::size_t o = 0; o < d.outputs.size(); ++o) {
    PERFSHAP_CHECK(d.outputs[o].size() == d.features.n_rows(),
                   "output '" + d.output_names[o] + "' does not have one value per row");
    for (double v : d.outputs[o])
      if (v != 0.0 && v != 1.0)
        throw DataError("output '" + d.output_names[o] + "' is not binary (a value " + std::to_string(v) +
                            "); a classifier chain takes 0/1 outputs",
                        {"outputs"});
  }
}

void CheckOrder(const std::vector<std::size_t>& order, std::size_t m) {
  std::vector<std::size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  bool ok = sorted.size() == m;
  for (std::size_t i = 0; ok && i < m; ++i) ok = sorted[i] == i;
  PERFSHAP_CHECK(ok, "a chain order lists every output exactly once", {"order"});
}

}  // namespace

ClassifierChain ClassifierChain::Fit(const Learner& learner, const MultiOutputData& data,
                                     const std::vector<std::size_t>& order, const std::vector<std::size_t>& rows) {
  CheckData(data);
  CheckOrder(order, data.outputs.size());
  PERFSHAP_CHECK(learner.is_classifier(), "a classifier chain needs a binary classifier as its links' learner",
                 {"learner"});
  const std::size_t F = data.features.n_features();
  // One data set: the features, then every output as a column; each link its own label.
  std::vector<std::string> names = data.features.feature_names();
  std::vector<std::vector<double>> columns;
  for (std::size_t j = 0; j < F; ++j) columns.emplace_back(data.features.column(j).begin(), data.features.column(j).end());
  for (std::size_t o = 0; o < data.outputs.size(); ++o) {
    PERFSHAP_CHECK(std::find(names.begin(), names.end(), data.output_names[o]) == names.end(),
                   "output '" + data.output_names[o] + "' is also a feature; drop it from the features",
                   {"outputs"});
    names.push_back(data.output_names[o]);
    columns.push_back(data.outputs[o]);
  }
  ClassifierChain chain;
  chain.n_features_ = F;
  chain.order_ = order;
  for (std::size_t j = 0; j < order.size(); ++j) {
    Dataset link(names, columns, data.outputs[order[j]], data.output_names[order[j]]);
    link.set_source(data.features.source());
    std::vector<std::size_t> cols(F);
    std::iota(cols.begin(), cols.end(), std::size_t{0});
    for (std::size_t p = 0; p < j; ++p) cols.push_back(F + order[p]);
    chain.links_.push_back(std::shared_ptr<const Model>(learner.Train(link, rows, cols)));
  }
  return chain;
}

void ClassifierChain::Predict(ColumnMatrix x, std::vector<std::vector<double>>& probability,
                              std::vector<std::vector<double>>& label,
                              std::vector<std::vector<double>>* inputs) const {
  const std::size_t n = x.n_rows;
  PERFSHAP_CHECK(x.values.size() == n_features_ * n, "the chain's rows do not hold its features");
  probability.assign(links_.size(), std::vector<double>(n));
  label.assign(links_.size(), std::vector<double>(n));
  if (inputs != nullptr) inputs->assign(links_.size(), {});
  std::vector<double> in(x.values.begin(), x.values.end());
  for (std::size_t j = 0; j < links_.size(); ++j) {
    links_[j]->Predict(in, n, probability[j]);
    for (std::size_t r = 0; r < n; ++r) label[j][r] = probability[j][r] > 0.5 ? 1.0 : 0.0;
    if (inputs != nullptr) (*inputs)[j] = in;
    in.insert(in.end(), label[j].begin(), label[j].end());  // the next link's extra column
  }
}

std::vector<std::vector<double>> IndirectContributions(const std::vector<std::vector<double>>& direct,
                                                       std::size_t F, bool signed_weights) {
  const std::size_t m = direct.size();
  std::vector<std::vector<double>> w(m);
  for (std::size_t k = 0; k < m; ++k) {
    PERFSHAP_CHECK(direct[k].size() == F + k, "link " + std::to_string(k) + " has " + std::to_string(direct[k].size()) +
                                                  " direct contributions, not " + std::to_string(F + k));
    double total = 0.0;
    for (double v : direct[k]) total += std::fabs(v);
    w[k].resize(F + k, 0.0);
    if (total > 0.0)
      for (std::size_t i = 0; i < F + k; ++i) w[k][i] = (signed_weights ? direct[k][i] : std::fabs(direct[k][i])) / total;
  }
  // Z_k(x_i) = sum_{l<k} W(y_k, y_l) Z_l(x_i) + W(y_k, x_i); Z_1 = W(y_1, .).
  std::vector<std::vector<double>> z(m, std::vector<double>(F, 0.0));
  for (std::size_t k = 0; k < m; ++k)
    for (std::size_t i = 0; i < F; ++i) {
      double v = w[k][i];
      for (std::size_t l = 0; l < k; ++l) v += w[k][F + l] * z[l][i];
      z[k][i] = v;
    }
  std::vector<std::vector<double>> indirect(m, std::vector<double>(F, 0.0));
  for (std::size_t j = 1; j < m; ++j)
    for (std::size_t i = 0; i < F; ++i) {
      double v = 0.0;
      for (std::size_t k = 0; k < j; ++k) v += direct[j][F + k] * z[k][i];
      indirect[j][i] = v;
    }
  return indirect;
}

std::vector<std::vector<std::size_t>> AllChainOrders(std::size_t m, std::size_t max_outputs) {
  PERFSHAP_CHECK(m >= 1 && m <= max_outputs,
                 "every order of " + std::to_string(m) + " outputs is " + std::to_string(m) +
                     "! chains; at most " + std::to_string(max_outputs) + " outputs are taken: give one order",
                 {"orders", "max_outputs"});
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<std::vector<std::size_t>> all;
  do {
    all.push_back(order);
  } while (std::next_permutation(order.begin(), order.end()));
  return all;
}

ChainOrderExplanation ExplainChain(const Learner& learner, const MultiOutputData& data,
                                   const std::vector<std::size_t>& order, const std::vector<std::size_t>& train_rows,
                                   const std::vector<std::size_t>& explain_rows, const ChainOptions& options) {
  {
    const std::size_t nb = std::min(options.background, train_rows.size());
    const ExecutionOptions& execution = options.shap.solver_options.execution;
    CheckCost(EstimateFitCost("chains", learner, train_rows.size(), data.features.n_features() + order.size()),
              execution, kFitRemedy, {"features"});
    CheckCost(EstimateChainsCost(explain_rows.size(), nb, data.features.n_features(), order.size(), 1, options.shap),
              execution, kChainsRemedy, {"rows", "background", "solver", "budget"});
  }
  ChainOptions link_options = options;
  link_options.shap.solver_options.execution.on_estimate = nullptr;  // estimated above
  const ClassifierChain chain = ClassifierChain::Fit(learner, data, order, train_rows);
  const std::size_t F = data.features.n_features();
  const std::size_t m = order.size();
  auto gather = [&](const std::vector<std::size_t>& rows) {
    std::vector<double> x(F * rows.size());
    for (std::size_t j = 0; j < F; ++j)
      for (std::size_t r = 0; r < rows.size(); ++r) x[j * rows.size() + r] = data.features.column(j)[rows[r]];
    return x;
  };
  // Background: rows drawn from the training rows (stream (seed, 13)), through the chain.
  std::vector<std::size_t> pool = train_rows;
  RandomStream rng(options.seed, 13);
  const std::size_t nb = std::min(options.background, pool.size());
  PERFSHAP_CHECK(nb >= 1, "the chain's explanations need at least one background row", {"background"});
  for (std::size_t b = 0; b < nb; ++b) std::swap(pool[b], pool[b + rng.Below(pool.size() - b)]);
  pool.resize(nb);
  std::sort(pool.begin(), pool.end());
  const std::vector<double> xb = gather(pool);
  const std::vector<double> xe = gather(explain_rows);
  std::vector<std::vector<double>> pb, lb, inb, pe, le, ine;
  chain.Predict({xb, nb}, pb, lb, &inb);
  chain.Predict({xe, explain_rows.size()}, pe, le, &ine);

  ChainOrderExplanation out;
  out.order = order;
  for (std::size_t j = 0; j < m; ++j) out.outputs.push_back(data.output_names[order[j]]);
  out.features = data.features.feature_names();
  out.n_rows = explain_rows.size();
  std::vector<std::string> names = data.features.feature_names();
  for (std::size_t j = 0; j < m; ++j) {
    const ShapExplanation e = ExplainInterventional(chain.link(j), {ine[j], explain_rows.size()}, {inb[j], nb}, {},
                                                    names, link_options.shap);
    out.direct.push_back(e.phi);  // rows x 1 x (F + j)
    out.base.push_back(e.base.empty() ? 0.0 : e.base[0]);
    names.push_back(out.outputs[j]);
  }
  // Indirect contributions, instance by instance.
  out.indirect.assign(m, std::vector<double>(out.n_rows * F, 0.0));
  for (std::size_t r = 0; r < out.n_rows; ++r) {
    std::vector<std::vector<double>> d(m);
    for (std::size_t j = 0; j < m; ++j)
      d[j].assign(out.direct[j].begin() + static_cast<std::ptrdiff_t>(r * (F + j)),
                  out.direct[j].begin() + static_cast<std::ptrdiff_t>((r + 1) * (F + j)));
    const auto ind = IndirectContributions(d, F, options.signed_weights);
    for (std::size_t j = 0; j < m; ++j) std::copy(ind[j].begin(), ind[j].end(), out.indirect[j].begin() + static_cast<std::ptrdiff_t>(r * F));
  }
  // Global: eqs. 4-6 on the mean |direct| (signed: the signed mean).
  out.global_direct.assign(m, {});
  for (std::size_t j = 0; j < m; ++j) {
    out.global_direct[j].assign(F + j, 0.0);
    for (std::size_t r = 0; r < out.n_rows; ++r)
      for (std::size_t i = 0; i < F + j; ++i) {
        const double v = out.direct[j][r * (F + j) + i];
        out.global_direct[j][i] += options.signed_weights ? v : std::fabs(v);
      }
    for (double& v : out.global_direct[j]) v /= static_cast<double>(std::max<std::size_t>(out.n_rows, 1));
  }
  out.global_indirect = IndirectContributions(out.global_direct, F, options.signed_weights);
  // The chain's metrics on the explained rows.
  double wrong = 0.0;
  for (std::size_t j = 0; j < m; ++j) {
    std::size_t right = 0;
    for (std::size_t r = 0; r < out.n_rows; ++r) right += le[j][r] == data.outputs[order[j]][explain_rows[r]] ? 1 : 0;
    out.accuracy.push_back(static_cast<double>(right) / static_cast<double>(std::max<std::size_t>(out.n_rows, 1)));
    wrong += static_cast<double>(out.n_rows - right);
  }
  out.hamming_loss = wrong / static_cast<double>(std::max<std::size_t>(out.n_rows * m, 1));
  // The last guard of the result path (explain/finite_result.hpp).
  for (std::size_t j = 0; j < m; ++j) {
    const std::string link = "output '" + out.outputs[j] + "'";
    const auto direct = [&](std::size_t t) {
      return "row " + std::to_string(t / (F + j)) + ", input '" + names[t % (F + j)] + "'";
    };
    const auto indirect = [&](std::size_t t) {
      return "row " + std::to_string(t / F) + ", feature '" + names[t % F] + "'";
    };
    detail::RequireFinite("Shapley chains", "a direct contribution to " + link, out.direct[j], direct);
    detail::RequireFinite("Shapley chains", "the base value of " + link, out.base[j]);
    detail::RequireFinite("Shapley chains", "an indirect contribution to " + link, out.indirect[j], indirect);
    detail::RequireFinite("Shapley chains", "a global direct contribution to " + link, out.global_direct[j],
                          [&](std::size_t i) { return "input '" + names[i] + "'"; });
    detail::RequireFinite("Shapley chains", "a global indirect contribution to " + link,
                          out.global_indirect[j],
                          [&](std::size_t i) { return "feature '" + names[i] + "'"; });
  }
  return out;
}

}}  // namespace perfshap
