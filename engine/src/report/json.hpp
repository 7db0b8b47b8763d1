// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The result.json of every reporter: the keys every run carries, and the shapes the methods
// share (a value per feature, a mean and a std). nlohmann's ordered_json keeps the keys in the
// order they are written; it is a private dependency of the library, never in its public headers.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/players.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

using Json = nlohmann::ordered_json;

/** @brief A finite number, or null for NaN and infinities. */
Json NumberOrNull(double v);

/** @brief {"name_0": v_0, ...}: one value per name, in order (names.size() == values.size()). */
Json NamedValues(const std::vector<std::string>& names, std::span<const double> values);

/** @brief NamedValues with null for the values that are not finite. */
Json NamedValuesOrNull(const std::vector<std::string>& names, std::span<const double> values);

/** @brief {"mean": mean, "std": std}. */
Json MeanStd(double mean, double std);

/** @brief {"mean": [...], "std": [...]}. */
Json MeanStd(const std::vector<double>& mean, const std::vector<double>& std);

/**
 * @brief The players of a run: [{"name": ..., "columns": [source columns], "encoded_columns":
 * [the design's columns: a one-hot text column's indicators]}, ...], in player order.
 * @param column_names the names of the design's columns (Player::columns index them).
 */
Json PlayersJson(std::span<const Player> players, const std::vector<std::string>& column_names);

/** @brief The input handling of a run: {"missing": policy, "dropped_rows": n, "groups": file or
 *  null}. */
Json InputJson(const std::string& missing, std::size_t dropped_rows, const std::string& groups_file);

/** @brief What every result.json records about its run, before the method's own keys. */
struct RunRecord {
  std::string method;
  std::vector<std::string> features;
  std::uint64_t seed = 0;
  int threads = 0;
  double elapsed_seconds = 0;
};

/**
 * @brief The text of result.json: method, version, features, seed, threads, elapsed_seconds,
 * then the keys of `body` that are not among those, two-space indented, ending in a newline.
 */
std::string ResultJsonText(const RunRecord& run, const Json& body);

/** @brief result.json as a document: what ResultJsonText writes (a front end hands it over as
 *  its own objects, never parsing the text). */
Json ResultJsonDocument(const RunRecord& run, const Json& body);

}}}  // namespace perfshap::detail
