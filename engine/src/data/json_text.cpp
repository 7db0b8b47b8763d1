// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "data/json_text.hpp"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "data/text_lines.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

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

std::size_t MaxJsonFileBytes() {
  constexpr std::size_t kDefault = std::size_t{1} << 30;
  const char* text = std::getenv("PERFSHAP_MAX_JSON_BYTES");
  if (text == nullptr || *text == '\0') return kDefault;
  std::size_t bytes = 0;
  const char* end = text + std::strlen(text);
  const auto [p, ec] = std::from_chars(text, end, bytes);
  if (ec != std::errc() || p != end || bytes == 0)
    throw InvalidArgument("PERFSHAP_MAX_JSON_BYTES is " + Quoted(text) +
                          "; set it to a positive number of bytes (e.g. 8000000000), or unset it for 1 GiB");
  return bytes;
}

std::string ReadJsonFileText(const std::string& path, const std::string& prefix,
                             const std::vector<std::string>& options,
                             const std::function<void(std::string_view)>& first_bytes) {
  const std::size_t limit = MaxJsonFileBytes();
  const auto too_large = [&] {
    return DataError(prefix + "the file is larger than " + std::to_string(limit) +
                         " bytes, the limit for a JSON input, so it is not a file of the expected kind; for a real "
                         "model that large set PERFSHAP_MAX_JSON_BYTES to its size in bytes",
                     options);
  };
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);  // none for a device or a pipe
  if (!ec && size > limit) throw too_large();
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    const int err = errno;
    throw DataError(prefix + "cannot open the file (" + std::strerror(err) + "); check that it is readable", options);
  }
  const auto where = [&](std::size_t line) { return prefix + "line " + std::to_string(line) + ", "; };
  std::string text;
  if (!ec && size > 0) text.reserve(static_cast<std::size_t>(size));
  Utf8Check utf8;
  std::vector<char> buffer(kTextBlockBytes);
  bool first = true;
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    const auto got = static_cast<std::size_t>(in.gcount());
    const std::string_view block(buffer.data(), got);
    if (first && first_bytes) first_bytes(block);
    first = false;
    if (text.size() + got > limit) throw too_large();
    if (const void* nul = std::memchr(block.data(), '\0', got)) {
      const std::size_t at = text.size() + static_cast<std::size_t>(static_cast<const char*>(nul) - block.data());
      text.append(block);
      throw DataError(TextPlace(text, at, where) +
                          ": a NUL byte, so the file is not JSON text (binary, UTF-16 or a device such as "
                          "/dev/zero?); pass a UTF-8 JSON file",
                      options);
    }
    const std::size_t bad = utf8.Feed(block);
    text.append(block);
    if (bad != std::string_view::npos)
      throw DataError(NotUtf8Message(text, text.size() - got + bad - utf8.started(), where), options);
  }
  if (in.bad()) throw DataError(prefix + "reading the file failed; check the disk and retry", options);
  if (utf8.Unfinished()) throw DataError(NotUtf8Message(text, text.size() - utf8.started(), where), options);
  return text;
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

}}}  // namespace perfshap::detail
