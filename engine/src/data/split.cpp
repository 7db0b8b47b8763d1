// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Train/test splits given by the user: a JSON file of explicit splits, splits handed over in
// memory (both checked against the rows), and a row permutation file. The drawn plans
// (holdout, mc:R, kfold:K) are in split_draw.cpp.
#include "perfshap/blocks/split.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <span>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "data/json_text.hpp"
#include "data/text_lines.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

/// A JSON value on one line, cut to 40 characters; never more of it than the message shows.
std::string Describe(const nlohmann::json& value) { return detail::JsonSnippet(value, 40); }

/// Checks one index list (`where` is e.g. "splits[2].test") against n_rows and sorts it: the
/// first index out of range is named by its position, then the first one listed twice.
void CheckIndexList(const std::string& prefix, const std::string& where, std::vector<std::size_t>& list,
                    std::size_t n_rows) {
  if (list.empty()) {
    throw DataError(prefix + where +
                    " is empty; each split needs at least one row in "
                    "'train' and one in 'test'");
  }
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (list[k] >= n_rows) {
      throw DataError(prefix + where + "[" + std::to_string(k) + "]: row " + std::to_string(list[k]) +
                      " is out of range: the data have " + std::to_string(n_rows) + " rows (valid indices 0.." +
                      std::to_string(n_rows - 1) + "); indices are 0-based data rows");
    }
  }
  std::sort(list.begin(), list.end());
  const auto dup = std::adjacent_find(list.begin(), list.end());
  if (dup != list.end()) {
    throw DataError(prefix + where + ": row " + std::to_string(*dup) +
                    " is listed twice; list each row once");
  }
}

/// Checks that no row of a split is in both its parts (each sorted).
void CheckDisjoint(const std::string& prefix, const std::string& where, const Split& split) {
  std::vector<std::size_t> both;
  std::set_intersection(split.train.begin(), split.train.end(), split.test.begin(), split.test.end(),
                        std::back_inserter(both));
  if (!both.empty()) {
    throw DataError(
        prefix + (where.empty() ? std::string() : where + ": ") + "row " + std::to_string(both.front()) +
        " is in both train and test" +
        (both.size() > 1 ? " (as are " + std::to_string(both.size() - 1) + " more)" : std::string()) +
        "; a row may be in one part only");
  }
}

/// Reads one index list (`where` is e.g. "splits[2].test") into a sorted vector.
std::vector<std::size_t> ReadIndexList(const std::string& prefix, const std::string& where,
                                       const nlohmann::json& list, std::size_t n_rows) {
  if (!list.is_array()) {
    throw DataError(prefix + where + " is " + Describe(list) +
                    ", not an array; write it as a list of 0-based row indices, e.g. [0, 5, 7]");
  }
  if (list.empty()) {
    throw DataError(prefix + where +
                    " is empty; each split needs at least one row in "
                    "'train' and one in 'test'");
  }
  std::vector<std::size_t> out;
  out.reserve(list.size());
  for (std::size_t k = 0; k < list.size(); ++k) {
    const nlohmann::json& item = list[k];
    const std::string at = prefix + where + "[" + std::to_string(k) + "]: ";
    std::size_t index = 0;
    if (item.is_number_unsigned()) {
      const auto v = item.get<std::uint64_t>();
      if (v >= n_rows) {
        throw DataError(at + "row " + std::to_string(v) + " is out of range: the data have " +
                        std::to_string(n_rows) + " rows (valid indices 0.." + std::to_string(n_rows - 1) +
                        "); indices are 0-based data rows");
      }
      index = static_cast<std::size_t>(v);
    } else if (item.is_number_integer()) {
      throw DataError(at + Describe(item) + " is negative; indices are 0-based data rows (0.." +
                      std::to_string(n_rows - 1) + ")");
    } else if (item.is_number_float() && std::isfinite(item.get<double>()) &&
               item.get<double>() == std::floor(item.get<double>())) {
      // 3.0 as written by tools that store everything as floats: accept integral values.
      const double v = item.get<double>();
      if (v < 0.0) {
        throw DataError(at + Describe(item) + " is negative; indices are 0-based data rows");
      }
      if (v >= static_cast<double>(n_rows)) {
        throw DataError(at + "row " + Describe(item) + " is out of range: the data have " +
                        std::to_string(n_rows) + " rows (valid indices 0.." + std::to_string(n_rows - 1) +
                        ")");
      }
      index = static_cast<std::size_t>(v);
    } else {
      throw DataError(at + Describe(item) +
                      " is not a whole number; indices are 0-based data rows, e.g. 0, 5, 7");
    }
    out.push_back(index);
  }
  CheckIndexList(prefix, where, out, n_rows);
  return out;
}

Split ReadOneSplit(const std::string& prefix, const std::string& where, const nlohmann::json& object,
                   std::size_t n_rows) {
  const std::string dot = where.empty() ? std::string() : where + ".";
  if (!object.is_object()) {
    throw DataError(prefix + (where.empty() ? std::string("the top level") : where) + " is " +
                    Describe(object) + ", not an object; write {\"train\": [...], \"test\": [...]}");
  }
  for (const auto& item : object.items()) {
    if (item.key() != "train" && item.key() != "test") {
      throw DataError(prefix + (where.empty() ? std::string("the top level") : where) +
                      " has an unknown key " + Describe(nlohmann::json(item.key())) +
                      "; a split holds only \"train\" and \"test\"");
    }
  }
  for (const char* key : {"train", "test"}) {
    if (!object.contains(key)) {
      throw DataError(prefix + (where.empty() ? std::string("the top level") : where) + " has no \"" + key +
                      "\" list; write {\"train\": [...], \"test\": [...]}");
    }
  }
  Split split;
  split.train = ReadIndexList(prefix, dot + "train", object.at("train"), n_rows);
  split.test = ReadIndexList(prefix, dot + "test", object.at("test"), n_rows);
  CheckDisjoint(prefix, where, split);
  return split;
}

}  // namespace

SplitPlan CheckSplits(SplitPlan plan, std::size_t n_rows, const std::string& name, bool listed) {
  const std::string prefix = name.empty() ? std::string() : name + ": ";
  if (plan.empty()) throw DataError(prefix + "no splits; give at least one {\"train\": [...], \"test\": [...]}");
  for (std::size_t s = 0; s < plan.size(); ++s) {
    const std::string where = listed ? "splits[" + std::to_string(s) + "]" : std::string();
    const std::string dot = where.empty() ? std::string() : where + ".";
    CheckIndexList(prefix, dot + "train", plan[s].train, n_rows);
    CheckIndexList(prefix, dot + "test", plan[s].test, n_rows);
    CheckDisjoint(prefix, where, plan[s]);
  }
  return plan;
}

SplitPlan ReadSplits(const std::string& path, std::size_t n_rows) {
  PERFSHAP_CHECK(n_rows >= 2,
                 "ReadSplits: the data have " + std::to_string(n_rows) + " rows; a split needs at least 2");
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) throw DataError(path + ": no such file; check the path of the split file");
  if (fs::is_directory(st)) {
    throw DataError(path + ": is a directory, not a JSON split file; pass the file's path");
  }
  const std::string prefix = path + ": ";
  constexpr const char* kSplitShape = "write {\"train\": [...], \"test\": [...]} or {\"splits\": [...]}";
  const std::string text = detail::ReadJsonFileText(path, prefix);
  // Nesting first: a deeply nested value would overflow the stack when a message formats it.
  detail::CheckJsonNesting(text, prefix, kSplitShape);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 5: ...".
    std::string what = e.what();
    const auto at = what.find("parse error");
    if (at != std::string::npos) what = what.substr(at);
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw DataError(prefix + "not valid JSON (" + detail::ShortParserMessage(what) + "); " + kSplitShape);
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond a double's range (1e999): the parser's only other error.
    throw DataError(prefix + "the number " + detail::OverflowingNumber(e) +
                    " is beyond the range of a double; row indices are whole numbers from 0");
  }
  SplitPlan plan;
  if (doc.is_object() && doc.contains("splits")) {
    if (doc.size() != 1) {
      for (const auto& item : doc.items()) {
        if (item.key() != "splits") {
          throw DataError(prefix + "unknown top-level key " + Describe(nlohmann::json(item.key())) +
                          " next to \"splits\"; the file holds only {\"splits\": [...]}");
        }
      }
    }
    const nlohmann::json& list = doc.at("splits");
    if (!list.is_array() || list.empty()) {
      throw DataError(prefix +
                      "\"splits\" must be a non-empty array of "
                      "{\"train\": [...], \"test\": [...]} objects");
    }
    for (std::size_t s = 0; s < list.size(); ++s) {
      plan.push_back(ReadOneSplit(prefix, "splits[" + std::to_string(s) + "]", list[s], n_rows));
    }
  } else {
    plan.push_back(ReadOneSplit(prefix, "", doc, n_rows));
  }
  return plan;
}

std::vector<std::size_t> ReadRowPermutation(const std::string& path, std::size_t n_rows) {
  const std::string file = "permutation file " + path;
  auto lines = detail::ReadTextLines(path, file, {"permutation"});
  while (!lines.empty() && detail::TrimCell(lines.back()).empty()) lines.pop_back();
  const std::string range = "0.." + std::to_string(n_rows - 1);
  std::vector<std::size_t> pi;
  std::vector<std::size_t> line_of(n_rows, 0);
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const std::string where = file + " line " + std::to_string(l + 1);
    const std::string text = detail::TrimCell(lines[l]);
    std::size_t v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
      throw DataError(where + ": " + detail::Quoted(text) + " is not a 0-based row index; the file holds one index per line" +
                          " (line k+1 = pi(k)), e.g. the perm_k column of a k,perm_k CSV without its header",
                      {"permutation"});
    if (v >= n_rows)
      throw DataError(where + ": index " + text + " is outside " + range + " (the sample has " +
                          std::to_string(n_rows) + " rows)",
                      {"permutation"});
    if (line_of[v] != 0)
      throw DataError(where + ": index " + text + " repeats line " + std::to_string(line_of[v]) +
                          "; a permutation lists each of " + range + " once",
                      {"permutation"});
    line_of[v] = l + 1;
    pi.push_back(v);
  }
  if (pi.size() != n_rows)
    throw DataError(file + ": " + std::to_string(pi.size()) + " lines for a sample of " + std::to_string(n_rows) +
                        " rows; line k+1 must hold pi(k) for k = " + range,
                    {"permutation"});
  return pi;
}

}}  // namespace perfshap
