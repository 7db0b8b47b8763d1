// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Train/test splits. Every split is a pure function of (n, parameters, seed, labels): the
// permutations use our own Fisher-Yates over RandomStream::Below, never std::shuffle or
// std::uniform_int_distribution, whose outputs differ between standard libraries.
#include "perfshap/blocks/split.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <nlohmann/json.hpp>

#include "common/allocation.hpp"
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "data/json_text.hpp"
#include "data/text_lines.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/random.hpp"
#include "schedule/schedule.hpp"

namespace perfshap::inline v0 {
namespace {

/// Fisher-Yates: after the call, items is a uniformly random permutation of its input.
void Shuffle(std::vector<std::size_t>& items, RandomStream& rng) {
  for (std::size_t i = items.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.Below(i));
    std::swap(items[i - 1], items[j]);
  }
}

/// Row indices grouped by class, classes in increasing label order (deterministic).
/// Without labels: one group holding 0..n-1.
std::vector<std::vector<std::size_t>> GroupByClass(std::size_t n, std::span<const double> labels) {
  if (labels.empty()) {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    return {std::move(all)};
  }
  PERFSHAP_CHECK(labels.size() == n, "stratification labels: " + std::to_string(labels.size()) +
                                         " values for " + std::to_string(n) +
                                         " rows; give one label per row (or none)");
  std::map<double, std::vector<std::size_t>> by_class;
  for (std::size_t i = 0; i < n; ++i) {
    PERFSHAP_CHECK(!std::isnan(labels[i]), "stratification labels: row " + std::to_string(i) +
                                               " is NaN; every row needs a label to stratify");
    by_class[labels[i]].push_back(i);
  }
  std::vector<std::vector<std::size_t>> groups;
  groups.reserve(by_class.size());
  for (auto& entry : by_class) groups.push_back(std::move(entry.second));
  return groups;
}

/// Splits total among groups in proportion to their sizes, by largest remainder (Hamilton):
/// floor(total * size / n) each, then one more to the largest remainders (ties: first
/// group). Exact integer arithmetic, so the result does not depend on rounding.
std::vector<std::size_t> Allocate(std::size_t total, std::size_t n,
                                  const std::vector<std::vector<std::size_t>>& groups) {
  std::vector<std::size_t> quota(groups.size());
  std::vector<std::pair<std::size_t, std::size_t>> remainders;  // (remainder, group)
  std::size_t assigned = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    // total <= n and size <= n, so total * size fits unless n > 2^32: fine for row counts.
    const std::size_t product = total * groups[g].size();
    quota[g] = product / n;
    assigned += quota[g];
    remainders.emplace_back(product % n, g);
  }
  std::stable_sort(remainders.begin(), remainders.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; assigned < total; ++k, ++assigned) ++quota[remainders[k].second];
  return quota;
}

Split FromTestMask(const std::vector<char>& is_test) {
  Split split;
  const auto n_test = static_cast<std::size_t>(std::count(is_test.begin(), is_test.end(), char{1}));
  split.test.reserve(n_test);
  split.train.reserve(is_test.size() - n_test);
  for (std::size_t i = 0; i < is_test.size(); ++i) {
    (is_test[i] != 0 ? split.test : split.train).push_back(i);
  }
  return split;
}

/// The test rows of a holdout split: the fraction of n, rounded, at least 1 and at most n - 1.
std::size_t TestCount(std::size_t n, double test_fraction) {
  const double wanted = std::round(test_fraction * static_cast<double>(n));
  return std::clamp(static_cast<std::size_t>(std::max(wanted, 1.0)), std::size_t{1}, n - 1);
}

/// One stratified split: each class shuffled with `rng` (in class order), its first quota[g]
/// rows to the test set. `groups` is the split's own copy (shuffled in place).
Split DrawSplit(std::size_t n, std::vector<std::vector<std::size_t>> groups, const std::vector<std::size_t>& quota,
                RandomStream rng) {
  std::vector<char> is_test(n, 0);
  for (std::size_t g = 0; g < groups.size(); ++g) {
    Shuffle(groups[g], rng);
    for (std::size_t k = 0; k < quota[g]; ++k) is_test[groups[g][k]] = 1;
  }
  return FromTestMask(is_test);
}

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

Split HoldoutSplit(std::size_t n, double test_fraction, std::uint64_t seed,
                   std::span<const double> stratify_labels, std::uint64_t stream_id) {
  PERFSHAP_CHECK(n >= 2, "a holdout split needs at least 2 rows, got " + std::to_string(n));
  PERFSHAP_CHECK(test_fraction > 0.0 && test_fraction < 1.0,
                 "test fraction " + std::to_string(test_fraction) +
                     " is outside (0, 1); pass e.g. 0.25 for a quarter of the rows");
  const std::size_t n_test = TestCount(n, test_fraction);
  auto groups = GroupByClass(n, stratify_labels);
  const std::vector<std::size_t> quota = Allocate(n_test, n, groups);
  return DrawSplit(n, std::move(groups), quota, RandomStream(seed, stream_id));
}

SplitPlan KFoldSplits(std::size_t n, std::size_t k, std::uint64_t seed,
                      std::span<const double> stratify_labels) {
  PERFSHAP_CHECK(k >= 2, "k-fold needs k >= 2 folds, got " + std::to_string(k));
  PERFSHAP_CHECK(k <= n, "k-fold with k = " + std::to_string(k) + " needs at least k rows, got " +
                             std::to_string(n) + "; use fewer folds");
  auto groups = GroupByClass(n, stratify_labels);
  // Shuffle each class, lay the classes end to end and deal the rows to folds in turn:
  // fold sizes differ by at most one, and so do each class's counts in the folds.
  RandomStream rng(seed, 0);
  std::vector<std::size_t> fold_of(n, 0);
  std::size_t position = 0;
  for (auto& group : groups) {
    Shuffle(group, rng);
    for (std::size_t row : group) fold_of[row] = position++ % k;
  }
  SplitPlan plan(k);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t f = 0; f < k; ++f) {
      (fold_of[i] == f ? plan[f].test : plan[f].train).push_back(i);
    }
  }
  return plan;
}

SplitPlan MonteCarloSplits(std::size_t n, std::size_t repetitions, double test_fraction, std::uint64_t seed,
                           std::span<const double> stratify_labels, const ExecutionOptions& execution) {
  PERFSHAP_CHECK(repetitions >= 1, "Monte Carlo cross-validation needs at least 1 repetition");
  SplitPlan plan;
  try {
    plan.resize(repetitions);
    plan[0] = HoldoutSplit(n, test_fraction, seed, stratify_labels, 0);  // the checks, once
    // The classes and their quotas, once (HoldoutSplit's, for every repetition).
    const auto groups = GroupByClass(n, stratify_labels);
    const std::vector<std::size_t> quota = Allocate(TestCount(n, test_fraction), n, groups);
    // Every repetition has its own stream, so the splits are drawn in parallel: the same plan
    // at any thread count. Threads and cancellation as the caller's; no progress of its own.
    ExecutionOptions threads;
    threads.threads = execution.threads;
    threads.cancel = execution.cancel;
    detail::Schedule schedule(threads);
    constexpr std::size_t kSplitsPerBlock = 8;
    schedule.ForEachBlock((repetitions - 1 + kSplitsPerBlock - 1) / kSplitsPerBlock, 0, [&](std::size_t b) {
      const std::size_t end = std::min(repetitions, 1 + (b + 1) * kSplitsPerBlock);
      for (std::size_t r = 1 + b * kSplitsPerBlock; r < end; ++r)
        plan[r] = DrawSplit(n, groups, quota, RandomStream(seed, r));
    });
  } catch (const std::bad_alloc&) {
    detail::ThrowAllocationFailed("the split plan (" + std::to_string(repetitions) + " splits of " +
                                      std::to_string(n) + " row indices)",
                                  static_cast<double>(repetitions) * static_cast<double>(n) * sizeof(std::size_t));
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
  constexpr const char* kShape = "write {\"train\": [...], \"test\": [...]} or {\"splits\": [...]}";
  const std::string text = detail::ReadJsonFileText(path, prefix);
  // Nesting first: a deeply nested value would overflow the stack when a message formats it.
  detail::CheckJsonNesting(text, prefix, kShape);
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 5: ...".
    std::string what = e.what();
    const auto at = what.find("parse error");
    if (at != std::string::npos) what = what.substr(at);
    std::replace(what.begin(), what.end(), '\n', ' ');
    throw DataError(prefix + "not valid JSON (" + detail::ShortParserMessage(what) + "); " + kShape);
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

namespace {

// The count of "mc:R" / "kfold:K": an integer >= lo.
std::size_t PlanCount(std::string_view spec, std::string_view text, std::size_t lo) {
  std::size_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size() || v < lo)
    throw InvalidArgument("split plan " + detail::EscapeControls(spec.substr(0, 60)) + ": " + detail::Quoted(text) +
                              " is not an integer >= " + std::to_string(lo) +
                              "; use holdout, mc:R (R Monte-Carlo splits) or kfold:K",
                          {"plan"});
  return v;
}

}  // namespace

std::size_t SplitPlanSize(std::string_view spec) {
  if (spec == "holdout") return 1;
  if (spec.substr(0, 3) == "mc:") return PlanCount(spec, spec.substr(3), 1);
  if (spec.substr(0, 6) == "kfold:") return PlanCount(spec, spec.substr(6), 2);
  throw InvalidArgument("split plan '" + std::string(spec).substr(0, 60) +
                            "' is not understood; use holdout, mc:R (e.g. mc:100) or kfold:K (e.g. kfold:5)",
                        {"plan"});
}

SplitPlan MakeSplitPlan(std::string_view spec, std::size_t n_rows, double test_fraction, std::uint64_t seed,
                        std::span<const double> stratify_labels, const ExecutionOptions& execution) {
  if (spec == "holdout") return {HoldoutSplit(n_rows, test_fraction, seed, stratify_labels)};
  if (spec.substr(0, 3) == "mc:")
    return MonteCarloSplits(n_rows, PlanCount(spec, spec.substr(3), 1), test_fraction, seed, stratify_labels,
                            execution);
  if (spec.substr(0, 6) == "kfold:")
    return KFoldSplits(n_rows, PlanCount(spec, spec.substr(6), 2), seed, stratify_labels);
  throw InvalidArgument("split plan " + detail::Quoted(spec) +
                            " is not understood; use holdout, mc:R (e.g. mc:100) or kfold:K (e.g. kfold:5)",
                        {"plan"});
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

}  // namespace perfshap
