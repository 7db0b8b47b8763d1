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

namespace perfshap::detail {

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

}  // namespace perfshap::detail
