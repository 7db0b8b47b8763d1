// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Pieces of one-line error messages about names: quoting (control characters escaped, long
// names cut), lists of names, and the names close to a misspelt one.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perfshap { inline namespace v0 { namespace detail {

inline constexpr std::size_t kMaxQuotedChars = 40;  // longest name quoted in a message
inline constexpr std::size_t kMaxListedItems = 20;  // names listed in a message

/// s with control characters escaped (\n, \t, \x01), so that a message stays on one line.
inline std::string EscapeControls(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(u));
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

/// 'name' for a message: escaped, cut at kMaxQuotedChars bytes (on a UTF-8 boundary).
inline std::string Quoted(std::string_view s) {
  std::size_t end = s.size();
  bool cut = false;
  if (end > kMaxQuotedChars) {
    end = kMaxQuotedChars;
    while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
    cut = true;
  }
  std::string out = "'";  // appended, not "'" + ...: GCC 12 warns falsely (-Wrestrict) on that
  out += EscapeControls(s.substr(0, end));
  out += cut ? "...'" : "'";
  return out;
}

inline constexpr std::size_t kMaxWordBytes = 256;  // longest run without a space a message keeps

/// `message` with every run of more than kMaxWordBytes bytes without a space (a value echoed
/// whole: a 50 MB option, a file's content) cut to its first and last bytes and its length, so
/// that an error stays a line a person reads. Each front end says the library's errors and its
/// own through it.
inline std::string ShortenLongWords(std::string_view message) {
  constexpr std::size_t kHead = 100, kTail = 40;
  const auto boundary = [&](std::size_t at) {  // back to the start of a UTF-8 character
    while (at > 0 && (static_cast<unsigned char>(message[at]) & 0xC0) == 0x80) --at;
    return at;
  };
  std::string out;
  std::size_t at = 0;
  while (at < message.size()) {
    const std::size_t space = message.find(' ', at);
    const std::size_t end = space == std::string_view::npos ? message.size() : space;
    if (end - at <= kMaxWordBytes) {
      out.append(message.substr(at, end - at));
    } else {
      out.append(message.substr(at, boundary(at + kHead) - at));
      out += "...";
      out.append(message.substr(boundary(end - kTail), end - boundary(end - kTail)));
      out += " (" + std::to_string(end - at) + " bytes)";
    }
    if (end < message.size()) out += ' ';
    at = end + 1;
  }
  return out;
}

/// 'a', 'b', 'c' (at most kMaxListedItems, then "... (N more)"); "(none)" when empty.
inline std::string QuotedList(const std::vector<std::string>& names) {
  if (names.empty()) return "(none)";
  std::string out;
  for (std::size_t k = 0; k < names.size() && k < kMaxListedItems; ++k) {
    if (k > 0) out += ", ";
    out += Quoted(names[k]);
  }
  if (names.size() > kMaxListedItems) {
    out += ", ... (" + std::to_string(names.size() - kMaxListedItems) + " more)";
  }
  return out;
}

/// a, b, c: every name as it is, comma-separated (a list a message names in full).
inline std::string CommaList(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t k = 0; k < names.size(); ++k) out += (k > 0 ? ", " : "") + names[k];
  return out;
}

/// Levenshtein distance between a and b, ignoring ASCII case.
inline std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t k = 0; k <= b.size(); ++k) row[k] = k;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t k = 1; k <= b.size(); ++k) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[k - 1]));
      const std::size_t next = std::min({row[k] + 1, row[k - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = row[k];
      row[k] = next;
    }
  }
  return row[b.size()];
}

/// Up to three candidates close to name (edit distance at most a third of its length, at
/// least 1, ignoring case), closest first; ties in candidate order.
inline std::vector<std::string> CloseNames(std::string_view name,
                                           const std::vector<std::string>& candidates) {
  const std::size_t limit = std::max<std::size_t>(1, name.size() / 3);
  std::vector<std::pair<std::size_t, std::size_t>> close;  // (distance, candidate)
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    const std::size_t d = EditDistance(name, candidates[k]);
    if (d <= limit) close.emplace_back(d, k);
  }
  std::stable_sort(close.begin(), close.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (std::size_t k = 0; k < close.size() && k < 3; ++k) out.push_back(candidates[close[k].second]);
  return out;
}

}}}  // namespace perfshap::detail
