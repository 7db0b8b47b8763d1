// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The metric registry: the families of metrics (one line each below, defined in their files).
#include <vector>

#include "metrics/metric_families.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/metric_registry.hpp"

namespace perfshap { inline namespace v0 {

namespace {

const std::vector<MetricDefinition>& All() {
  static const std::vector<MetricDefinition> all = [] {
    std::vector<MetricDefinition> v;
    for (auto family : {detail::RankingMetrics, detail::ProbabilityMetrics, detail::ClassMetrics,
                        detail::RegressionMetrics}) {
      for (MetricDefinition& m : family()) v.push_back(std::move(m));
    }
    return v;
  }();
  return all;
}

bool Accepts(const MetricDefinition& m, const std::string& method) {
  if (method == "xper") return m.xper();
  if (method == "robustness") return m.retrain != nullptr;
  // SAGE: the metric of one set of predictions (the AUC by games/sage_game.cpp's own path).
  if (method == "sage") return m.retrain != nullptr || m.name == "auc";
  return true;
}

}  // namespace

std::vector<const MetricDefinition*> RegisteredMetrics() {
  std::vector<const MetricDefinition*> out;
  for (const MetricDefinition& m : All()) out.push_back(&m);
  return out;
}

std::vector<std::string> MetricNames(const std::string& method) {
  std::vector<std::string> out;
  for (const MetricDefinition& m : All())
    if (Accepts(m, method)) out.push_back(m.name);
  return out;
}

const MetricDefinition& FindMetric(const std::string& name, const std::string& method) {
  for (const MetricDefinition& m : All())
    if (m.name == name && Accepts(m, method)) return m;
  std::string list;
  for (const std::string& n : MetricNames(method)) list += (list.empty() ? "" : ", ") + n;
  const std::string what = method == "xper" ? "XPER metric" : method.empty() ? "metric" : method + " metric";
  throw InvalidArgument("unknown " + what + " '" + name + "'; use one of " + list, {"metric"});
}

}}  // namespace perfshap
