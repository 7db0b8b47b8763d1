// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/json.hpp"

#include <cmath>

#include "perfshap/version.hpp"

namespace perfshap::detail {

Json NumberOrNull(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json NamedValues(const std::vector<std::string>& names, std::span<const double> values) {
  Json j = Json::object();
  for (std::size_t i = 0; i < names.size(); ++i) j[names[i]] = values[i];
  return j;
}

Json NamedValuesOrNull(const std::vector<std::string>& names, std::span<const double> values) {
  Json j = Json::object();
  for (std::size_t i = 0; i < names.size(); ++i) j[names[i]] = NumberOrNull(values[i]);
  return j;
}

Json MeanStd(double mean, double std) { return Json{{"mean", mean}, {"std", std}}; }

Json MeanStd(const std::vector<double>& mean, const std::vector<double>& std) {
  return Json{{"mean", mean}, {"std", std}};
}

std::string ResultJsonText(const RunRecord& run, const Json& body) {
  Json head;
  head["method"] = run.method;
  head["version"] = std::string(Version());
  head["features"] = run.features;
  head["seed"] = run.seed;
  head["threads"] = run.threads;
  head["elapsed_seconds"] = run.elapsed_seconds;
  for (auto it = body.begin(); it != body.end(); ++it)
    if (!head.contains(it.key())) head[it.key()] = it.value();
  return head.dump(2) + "\n";
}

}  // namespace perfshap::detail
