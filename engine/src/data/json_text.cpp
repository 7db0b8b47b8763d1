// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "data/json_text.hpp"

#include <string>

#include "perfshap/error.hpp"

namespace perfshap::inline v0::detail {

void CheckJsonNesting(std::string_view text, const std::string& prefix, const std::string& fix) {
  std::size_t depth = 0;
  std::size_t line = 1;
  std::size_t line_start = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    }
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonNesting)
        throw DataError(prefix + "arrays and objects nest more than " + std::to_string(kMaxJsonNesting) +
                        " levels deep (line " + std::to_string(line) + ", column " +
                        std::to_string(i - line_start + 1) + "); " + fix);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
}

std::string ShortParserMessage(std::string text) {
  if (text.size() <= kMaxParserMessageChars) return text;
  std::size_t end = kMaxParserMessageChars - 3;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text + "...";
}

std::string OverflowingNumber(const nlohmann::json::exception& e) {
  // "[json.exception.out_of_range.406] number overflow parsing '1e999'"
  const std::string what = e.what();
  const auto open = what.find('\'');
  const auto close = what.rfind('\'');
  if (open != std::string::npos && close > open) return Quoted(std::string_view(what).substr(open + 1, close - open - 1));
  const auto tag = what.find("] ");
  return EscapeControls(tag == std::string::npos ? what : what.substr(tag + 2));
}

}  // namespace perfshap::detail
