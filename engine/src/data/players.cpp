// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Groups files: {"group name": ["col", ...], ...}, parsed with nlohmann::ordered_json so the
// groups keep the file's order. Every error is one line naming the file and the group.
#include "perfshap/blocks/players.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <system_error>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "data/json_text.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using detail::EscapeControls;
using detail::Quoted;

constexpr const char* kShape = "write {\"group name\": [\"column\", ...], ...}";

/// A JSON value as the file spells it, on one line (dump escapes control characters), cut;
/// never more of it than the message shows.
std::string Describe(const nlohmann::ordered_json& value) { return detail::JsonSnippet(value); }

/// "the 1st", "the 2nd", ... for a group without a usable name.
std::string Ordinal(std::size_t k) {
  const std::size_t n = k + 1;
  const char* suffix = "th";
  if (n % 100 < 11 || n % 100 > 13) {
    if (n % 10 == 1) suffix = "st";
    if (n % 10 == 2) suffix = "nd";
    if (n % 10 == 3) suffix = "rd";
  }
  return "the " + std::to_string(n) + suffix;
}

}  // namespace

std::vector<FeatureGroup> ParseFeatureGroups(const std::string& json_text, const std::string& source_name) {
  const std::string prefix = EscapeControls(source_name) + ": ";
  // The parser keeps the last of two equal keys; the callback sees every top-level key
  // (depth 1), so a group defined twice is reported instead of silently replaced.
  std::unordered_set<std::string> keys;
  std::string twice;  // the first group name seen twice (an empty name is reported below)
  bool has_twice = false;
  const nlohmann::ordered_json::parser_callback_t note_keys =
      [&](int depth, nlohmann::ordered_json::parse_event_t event, nlohmann::ordered_json& parsed) {
        if (depth == 1 && event == nlohmann::ordered_json::parse_event_t::key && parsed.is_string()) {
          const std::string& key = parsed.get_ref<const std::string&>();
          if (!keys.insert(key).second && !has_twice && !key.empty()) {
            twice = key;
            has_twice = true;
          }
        }
        return true;
      };
  // Nesting first: a deeply nested value would overflow the stack when a message formats it.
  detail::CheckJsonNesting(json_text, prefix, kShape);
  nlohmann::ordered_json doc;
  try {
    doc = nlohmann::ordered_json::parse(json_text, note_keys);
  } catch (const nlohmann::ordered_json::parse_error& e) {
    // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 5: ...".
    std::string what = e.what();
    const auto at = what.find("parse error");
    if (at != std::string::npos) what = what.substr(at);
    throw DataError(prefix + "not valid JSON (" + EscapeControls(detail::ShortParserMessage(what)) + "); " + kShape);
  } catch (const nlohmann::ordered_json::out_of_range& e) {
    // A number beyond a double's range (1e999): the parser's only other error.
    throw DataError(prefix + "the number " + detail::OverflowingNumber(e) +
                    " is beyond the range of a double; " + kShape);
  }
  if (!doc.is_object()) {
    throw DataError(prefix + "the top level is " + Describe(doc) + ", not an object; " + kShape);
  }
  if (has_twice) {
    throw DataError(prefix + "group " + Quoted(twice) +
                    " is defined twice; give each group one entry (merge the two lists or rename one)");
  }
  std::vector<FeatureGroup> groups;
  groups.reserve(doc.size());
  std::unordered_map<std::string, std::string> group_of;  // column -> the group that has it
  std::size_t k = 0;
  for (const auto& [name, value] : doc.items()) {
    if (name.empty()) {
      throw DataError(prefix + Ordinal(k) +
                      " group has an empty name; give every group a name (the player takes it)");
    }
    const std::string group = "group " + Quoted(name);
    if (!value.is_array()) {
      throw DataError(prefix + group + " is " + Describe(value) + ", not an array of column names; write \"" +
                      EscapeControls(name) + "\": [\"column\", ...]");
    }
    if (value.empty()) {
      throw DataError(prefix + group +
                      " is empty; list its columns, or remove the group (columns in no group stay "
                      "players of their own)");
    }
    FeatureGroup out;
    out.name = name;
    out.source = source_name;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const nlohmann::ordered_json& item = value[i];
      const std::string where = prefix + group + ", item " + std::to_string(i + 1) + " ";
      if (!item.is_string()) {
        throw DataError(where + "is " + Describe(item) +
                        ", not a column name; write the columns as strings, e.g. [\"age\", \"education\"]");
      }
      const std::string& column = item.get_ref<const std::string&>();
      if (column.empty()) {
        throw DataError(where + "is an empty column name; write the names of the data's columns");
      }
      if (std::find(out.columns.begin(), out.columns.end(), column) != out.columns.end()) {
        throw DataError(prefix + group + " lists column " + Quoted(column) + " twice; list each column once");
      }
      const auto [it, inserted] = group_of.emplace(column, name);
      if (!inserted) {
        throw DataError(prefix + "column " + Quoted(column) + " is in group " + Quoted(it->second) +
                        " and in group " + Quoted(name) +
                        "; a column may be in one group only: remove it from one of them");
      }
      out.columns.push_back(column);
    }
    groups.push_back(std::move(out));
    ++k;
  }
  return groups;
}

std::vector<FeatureGroup> ReadFeatureGroups(const std::string& path) {
  namespace fs = std::filesystem;
  const std::string shown = EscapeControls(path);
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory) {
    throw DataError(shown + ": cannot access the groups file (" + ec.message() +
                    "); check the path and its permissions");
  }
  if (!fs::exists(st)) throw DataError(shown + ": no such file; check the path of the groups file");
  if (fs::is_directory(st)) {
    throw DataError(shown + ": is a directory, not a JSON groups file; pass the file's path");
  }
  return ParseFeatureGroups(detail::ReadJsonFileText(path, shown + ": "), path);
}

}}  // namespace perfshap
