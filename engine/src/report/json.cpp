// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/json.hpp"

#include <cmath>

#include "perfshap/version.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

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
  return ResultJsonDocument(run, body).dump(2) + "\n";
}

Json ResultJsonDocument(const RunRecord& run, const Json& body) {
  Json head;
  head["method"] = run.method;
  head["version"] = std::string(Version());
  head["features"] = run.features;
  head["seed"] = run.seed;
  head["threads"] = run.threads;
  head["elapsed_seconds"] = run.elapsed_seconds;
  for (auto it = body.begin(); it != body.end(); ++it)
    if (!head.contains(it.key())) head[it.key()] = it.value();
  return head;
}

Json PlayersJson(std::span<const Player> players, const std::vector<std::string>& column_names) {
  Json out = Json::array();
  for (const Player& player : players) {
    std::vector<std::string> encoded;
    for (std::size_t c : player.columns) encoded.push_back(c < column_names.size() ? column_names[c] : std::to_string(c));
    const std::vector<std::string> source = player.source_columns.empty() ? encoded : player.source_columns;
    out.push_back(Json{{"name", player.name}, {"columns", source}, {"encoded_columns", encoded}});
  }
  return out;
}

Json InputJson(const std::string& missing, std::size_t dropped_rows, const std::string& groups_file) {
  return Json{{"missing", missing},
              {"dropped_rows", dropped_rows},
              {"groups", groups_file.empty() ? Json(nullptr) : Json(groups_file)}};
}

}}}  // namespace perfshap::detail
