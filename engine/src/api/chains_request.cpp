// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/chains_request.hpp"

#include "api/run_inputs.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "api/reproductions.hpp"
#include "data/message_text.hpp"
#include "perfshap/chains.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/cost_estimates.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/split.hpp"

namespace perfshap { inline namespace v0 { namespace api {

namespace {

MultiOutputData FromData(const ChainsRequest& request) {
  const DataInput& in = request.data;
  const std::vector<std::string>& names = request.outputs;
  if (names.empty())
    throw InvalidArgument(
        "the data " + in.name() + " need their outputs: the binary output columns of the chain", {"outputs"});
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (names[i] == names[k])
        throw InvalidArgument("the outputs list '" + names[i] + "' twice", {"outputs"});
  CsvOptions csv;
  csv.allow_no_label = true;
  csv.missing = in.missing;
  const Dataset raw = ReadRows(in, csv);
  MultiOutputData m;
  std::vector<std::string> feature_names;
  std::vector<std::vector<double>> columns;
  for (const std::string& name : names) {
    const auto& all = raw.feature_names();
    const auto it = std::find(all.begin(), all.end(), name);
    if (it == all.end())
      throw DataError(
          in.name() + " has no column '" + name + "' (an output); its columns: " + detail::CommaList(all),
          {"outputs"});
    const auto col = raw.column(static_cast<std::size_t>(it - all.begin()));
    m.output_names.push_back(name);
    m.outputs.emplace_back(col.begin(), col.end());
  }
  for (std::size_t j = 0; j < raw.n_features(); ++j) {
    const std::string& name = raw.feature_names()[j];
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    if (raw.encoding(j))
      throw DataError(
          in.name() + ": column '" + name +
              "' holds text; chains takes numeric features (encode it, or use the prepared Adult data)",
          {"data"});
    feature_names.push_back(name);
    columns.emplace_back(raw.column(j).begin(), raw.column(j).end());
  }
  if (feature_names.empty())
    throw DataError(in.name() + " has no feature column besides the outputs", {"data"});
  m.features = Dataset(feature_names, std::move(columns), {}, "");
  m.features.set_source(in.name());
  return m;
}

std::vector<std::size_t> OrderOf(const std::vector<std::string>& names, const MultiOutputData& m) {
  std::vector<std::size_t> order;
  for (const std::string& name : names) {
    const auto it = std::find(m.output_names.begin(), m.output_names.end(), name);
    if (it == m.output_names.end())
      throw InvalidArgument("the order names '" + name + "', which is not an output (" +
                                detail::CommaList(m.output_names) + ")",
                            {"order"});
    const auto k = static_cast<std::size_t>(it - m.output_names.begin());
    if (std::find(order.begin(), order.end(), k) != order.end())
      throw InvalidArgument("the order lists '" + name + "' twice", {"order"});
    order.push_back(k);
  }
  if (order.size() != m.output_names.size())
    throw InvalidArgument("the order must list every output once (" + detail::CommaList(m.output_names) + ")",
                          {"order"});
  return order;
}

}  // namespace

detail::ChainsReport RunChains(const ChainsRequest& request) {
  if (request.order && request.all_orders)
    throw InvalidArgument("give either one order or every order, not both", {"order", "orders"});
  if (!request.data.generated() && !request.adult.empty())
    throw InvalidArgument("give either the data with its outputs or the Adult data, not both",
                          {"data", "adult"});
  if (request.data.generated() && !request.outputs.empty())
    throw InvalidArgument("the outputs name columns of the data: give the data too", {"outputs", "data"});
  if (request.background == 0) throw InvalidArgument("the background must be at least 1 row", {"background"});
  const auto t0 = std::chrono::steady_clock::now();
  MultiOutputData m;
  if (!request.adult.empty()) {
    m = PrepareAdultChains(request.adult);
  } else if (!request.data.generated()) {
    m = FromData(request);
  } else {
    const LogicChainData d = GenerateLogicChainData(request.xor_rows, request.seed);
    m.features = d.data;
    m.output_names = d.output_names;
    m.outputs = d.outputs;
  }
  std::vector<std::vector<std::size_t>> orders;
  if (request.all_orders) {
    orders = AllChainOrders(m.output_names.size(), request.max_outputs);
  } else if (request.order) {
    orders.push_back(OrderOf(*request.order, m));
  } else {
    std::vector<std::size_t> natural(m.output_names.size());
    std::iota(natural.begin(), natural.end(), std::size_t{0});
    orders.push_back(natural);
  }
  const Split split = HoldoutSplit(m.features.n_rows(), request.test_size, request.seed);
  std::vector<std::size_t> explain = split.test;
  if (request.rows > 0 && request.rows < explain.size()) explain.resize(request.rows);
  const auto learner = MakeLearnerOf(request.learner);
  ChainOptions co;
  co.background = request.background;
  co.seed = request.seed;
  co.signed_weights = request.signed_weights;
  co.shap = request.shap;
  {
    // Every order and the independent classifiers, before the first chain is fitted.
    const std::size_t nb = std::min(request.background, split.train.size());
    const std::size_t F = m.features.n_features();
    const std::size_t M = m.output_names.size();
    CheckCost(CostEstimate::Sequence("chains",
                                     {EstimateFitCost("chains", *learner, split.train.size(), F + M),
                                      EstimateChainsCost(explain.size(), nb, F, M, orders.size(), co.shap),
                                      EstimateChainsCost(explain.size(), nb, F, 1, M, co.shap)}),
              co.shap.solver_options.execution, kChainsRemedy, {"rows", "background", "solver", "budget"});
    co.shap.solver_options.execution.on_estimate = nullptr;  // said once
  }
  // Over the processes of an MPI run: every one read the same, or the job ends here.
  RunInputs(co.shap.solver_options.execution).Data(m.features).Learner(*learner).Agree();
  detail::ChainsReport report;
  report.data = m.features.source();
  report.output_names = m.output_names;
  report.features = m.features.feature_names();
  report.rows = explain;
  report.background = std::min(request.background, split.train.size());
  report.signed_weights = request.signed_weights;
  report.learner = learner->name();
  report.learner_params = learner->params();
  report.seed = request.seed;
  report.threads = ResolvedThreads(co.shap.solver_options.execution);
  for (const auto& order : orders)
    report.orders.push_back(ExplainChain(*learner, m, order, split.train, explain, co));
  // Independent classifiers: each output alone over the features, a chain of one.
  for (std::size_t out = 0; out < m.output_names.size(); ++out) {
    MultiOutputData single;
    single.features = m.features;
    single.output_names = {m.output_names[out]};
    single.outputs = {m.outputs[out]};
    const ChainOrderExplanation e = ExplainChain(*learner, single, {0}, split.train, explain, co);
    report.independent.push_back(e.global_direct[0]);
  }
  report.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}}}  // namespace perfshap::api
