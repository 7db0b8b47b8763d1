// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// What the XGBoost model reader's files share (xgboost_model.cpp reads the model, xgboost_tree.cpp
// one tree of it): the messages' context and the reading of counts and numbers as XGBoost writes
// them.

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "data/json_text.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 { namespace detail::xgboost {

using Json = nlohmann::json;

inline constexpr const char* kSaveAgain = "save the model again with Booster.save_model(\"model.json\")";

/** @brief v rounded to float32 as XGBoost holds it; beyond float's range, an infinity (a plain
 *  cast of such a value is undefined). */
inline double AsFloat(double v) noexcept {
  if (std::isfinite(v) && std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()))
    return std::copysign(std::numeric_limits<double>::infinity(), v);
  return static_cast<double>(static_cast<float>(v));
}

/** @brief s as a number, all of it ("5E-1", "NaN", "-Infinity": what std::from_chars reads). */
inline bool ParseNumberText(std::string_view s, double& out) {
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && ptr == last && first != last;
}

/** @brief The model's context in messages: "XGBoost model m.json: ". */
class Reader {
 public:
  explicit Reader(const std::string& source) : prefix_("XGBoost model " + detail::EscapeControls(source) + ": ") {}

  [[noreturn]] void Fail(const std::string& what) const { throw DataError(prefix_ + what); }

  /** @brief The member `key` of object `parent` (named `where` in messages), which must exist. */
  const Json& Member(const Json& parent, const char* key, const std::string& where) const {
    if (!parent.is_object()) Fail(where + " is not a JSON object; " + kSaveAgain);
    const auto it = parent.find(key);
    if (it == parent.end()) Fail(where + "." + key + " is missing; " + kSaveAgain);
    return *it;
  }

  /** @brief A count XGBoost writes as a decimal string ("3") or, in other versions, a number. */
  std::int64_t Count(const Json& v, const std::string& where) const {
    std::int64_t out = -1;
    if (v.is_number_integer()) {
      out = v.get<std::int64_t>();
    } else if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() &&
               std::fabs(v.get<double>()) < 1e15) {
      out = static_cast<std::int64_t>(v.get<double>());
    } else if (v.is_string()) {
      const auto& s = v.get_ref<const std::string&>();
      const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
      if (ec != std::errc() || ptr != s.data() + s.size() || s.empty()) out = -1;
    }
    if (out < 0) Fail(where + " is " + Shown(v) + ", not a count; " + kSaveAgain);
    return out;
  }

  /** @brief A number written as a JSON number or a string ("5E-1", or "[5E-1]" in XGBoost 3). */
  double Number(const Json& v, const std::string& where) const {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      std::string_view s = v.get_ref<const std::string&>();
      if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
      double out = 0.0;
      if (ParseNumberText(s, out)) return out;
    }
    Fail(where + " is " + Shown(v) + ", not a number; " + kSaveAgain);
  }

  /** @brief An array of `n` numbers (booleans read as 0 and 1, "NaN" and "Infinity" as such). */
  std::vector<double> Numbers(const Json& tree, const char* key, std::size_t n, const std::string& where) const {
    const Json& a = Member(tree, key, where);
    if (!a.is_array()) Fail(where + "." + key + " is not an array; " + kSaveAgain);
    if (a.size() != n)
      Fail(where + "." + key + " has " + std::to_string(a.size()) + " values for " + std::to_string(n) +
           " nodes (tree_param.num_nodes): the arrays are inconsistent; " + kSaveAgain);
    std::vector<double> out(n);
    for (std::size_t i = 0; i < n; ++i) {
      const Json& v = a[i];
      if (v.is_boolean()) {
        out[i] = v.get<bool>() ? 1.0 : 0.0;
      } else if (v.is_number()) {
        out[i] = v.get<double>();
      } else if (!v.is_string() || !ParseNumberText(v.get_ref<const std::string&>(), out[i])) {
        Fail(where + "." + key + "[" + std::to_string(i) + "] is " + Shown(v) + ", not a number; " + kSaveAgain);
      }
    }
    return out;
  }

  /** @brief An index read as a double, as the file wrote it: "7", "-2", "1.5". */
  static std::string Index(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<std::int64_t>(v));
    return Shown(Json(v));
  }

  /** @brief A JSON value on one line, cut short, for a message (never more of it formatted
   *  than shown, however large or deep). */
  static std::string Shown(const Json& v) { return detail::JsonSnippet(v, detail::kMaxQuotedChars, true); }

  const std::string& prefix() const noexcept { return prefix_; }

 private:
  std::string prefix_;
};

/**
 * @brief Tree `t` of the model: the nodes the root reaches, in the file's order (so that node
 * ids are XGBoost's when the tree has no deleted node); `depth` set to its depth.
 */
Tree ReadTree(const Reader& r, const Json& json, std::size_t t, int output, int& depth);

}}}  // namespace perfshap::detail::xgboost
