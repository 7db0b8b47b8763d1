// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// What every reader of a user's JSON file needs besides the parser: a limit on how deeply its
// arrays and objects nest (checked before parsing, since formatting or comparing a deeply nested
// value recurses and would overflow the stack), a bounded one-line rendering of a value for
// messages, and the text of a number too large for a double (nlohmann's out_of_range 406,
// which is not a parse_error).
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "data/message_text.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** Deepest nesting of arrays and objects a user's JSON file may have. The files perfshap reads
 *  nest at most 3 levels (groups: 2; splits: 3) and XGBoost models about 7: 64 is far above any
 *  real file and far below what a thread's stack takes. */
inline constexpr std::size_t kMaxJsonNesting = 64;

/**
 * @brief Throws DataError(prefix + "arrays and objects nest more than 64 levels deep (line L,
 * column C); " + fix) when `text` nests arrays and objects (outside strings) deeper than
 * kMaxJsonNesting. A pass over the bytes, no recursion; text that is not JSON passes through
 * (the parser then says what is wrong with it).
 */
void CheckJsonNesting(std::string_view text, const std::string& prefix, const std::string& fix);

/**
 * @brief The number an out-of-range error of nlohmann's parser names ("number overflow parsing
 * '1e999'"), quoted and cut as Quoted() does; the exception's text without its
 * "[json.exception...]" tag when it names none.
 */
std::string OverflowingNumber(const nlohmann::json::exception& e);

/** @brief The largest JSON file the readers take: 1 GiB, or the bytes the environment variable
 *  PERFSHAP_MAX_JSON_BYTES gives (a model of many GB). */
std::size_t MaxJsonFileBytes();

/**
 * @brief The text of a user's JSON file (a model, groups, splits, a manifest), read in blocks of
 * 64 KiB with a text file's checks before any parse, so that no input makes the reader hold more
 * than the limit or wait for an end that never comes: a NUL byte (binary input, UTF-16,
 * /dev/zero), bytes that are not UTF-8 (/dev/urandom, a Latin-1 file) and more than
 * MaxJsonFileBytes() bytes are refused as soon as they are read.
 * @param prefix how messages start, naming the file ("model.json: ").
 * @param options the options that name the file (Error::options()).
 * @param first_bytes called with the file's first block before it is checked: a reader that
 *   knows a binary format by its first bytes names it (XGBoost's UBJSON).
 * @throws DataError naming the file, line and column and what to do.
 */
std::string ReadJsonFileText(const std::string& path, const std::string& prefix,
                             const std::vector<std::string>& options = {},
                             const std::function<void(std::string_view)>& first_bytes = {});

/** Longest parser message quoted in an error: nlohmann's "last read: '...'" holds the token it
 *  was reading, which for an unterminated string is the rest of the file. */
inline constexpr std::size_t kMaxParserMessageChars = 160;

/** @brief text cut to kMaxParserMessageChars characters (on a UTF-8 boundary, "..." at the end). */
std::string ShortParserMessage(std::string text);

/**
 * @brief A JSON value on one line as dump() writes it (compact; non-ASCII escaped when
 * ensure_ascii), cut to at most max_chars characters ("..." at the end when cut). Writes no more
 * than it shows and walks nested values with an explicit stack: a huge or deep value costs
 * O(max_chars), not its size.
 */
template <class BasicJson>
std::string JsonSnippet(const BasicJson& value, std::size_t max_chars = kMaxQuotedChars, bool ensure_ascii = false) {
  std::string out;
  constexpr auto kReplace = BasicJson::error_handler_t::replace;
  // A string (a value or a key): only its head, enough to fill the snippet, cut on a UTF-8
  // boundary, and no closing quote when it goes on.
  const auto string = [&](const typename BasicJson::string_t& s) {
    std::size_t end = s.size();
    if (end > max_chars + 1) {
      end = max_chars + 1;
      while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
    }
    out += BasicJson(s.substr(0, end)).dump(-1, ' ', ensure_ascii, kReplace);
    if (end < s.size()) out.pop_back();
  };
  const auto scalar = [&](const BasicJson& v) {
    if (v.is_string()) {
      string(v.template get_ref<const typename BasicJson::string_t&>());
    } else {
      out += v.dump(-1, ' ', ensure_ascii, kReplace);
    }
  };
  struct Frame {
    const BasicJson* container;
    typename BasicJson::const_iterator next;
    bool first;
  };
  std::vector<Frame> stack;
  const auto open = [&](const BasicJson& v) {
    if (v.is_array() || v.is_object()) {
      out += v.is_array() ? '[' : '{';
      stack.push_back(Frame{&v, v.cbegin(), true});
    } else {
      scalar(v);
    }
  };
  open(value);
  while (!stack.empty() && out.size() <= max_chars) {
    Frame& f = stack.back();
    if (f.next == f.container->cend()) {
      out += f.container->is_array() ? ']' : '}';
      stack.pop_back();
      continue;
    }
    if (!f.first) out += ',';
    f.first = false;
    const BasicJson& child = *f.next;
    if (f.container->is_object()) {
      string(f.next.key());
      out += ':';
    }
    ++f.next;
    open(child);  // may grow the stack: f is not used after this
  }
  if (out.size() > max_chars) {
    std::size_t end = max_chars >= 3 ? max_chars - 3 : 0;
    while (end > 0 && (static_cast<unsigned char>(out[end]) & 0xC0) == 0x80) --end;
    out.resize(end);
    out += "...";
  }
  return out;
}

}}}  // namespace perfshap::detail
