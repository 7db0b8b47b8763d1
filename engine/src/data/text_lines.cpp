// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "data/text_lines.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

/// Line ends in text[0, end): "\n", "\r\n" and a lone "\r" count one each, as the CSV reader
/// counts physical lines.
std::size_t LineEnds(std::string_view text) {
  std::size_t ends = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && !(i + 1 < text.size() && text[i + 1] == '\n'))) ++ends;
  return ends;
}

/// Where the last line of `text` starts: just after its last line end.
std::size_t LineStart(std::string_view text) {
  const std::size_t last = text.find_last_of("\r\n");
  return last == std::string_view::npos ? 0 : last + 1;
}

}  // namespace

std::size_t Utf8Check::Feed(std::string_view block) {
  for (std::size_t i = 0; i < block.size(); ++i) {
    const auto b = static_cast<unsigned char>(block[i]);
    if (need_ > 0) {
      if (b < lo_ || b > hi_) return i;
      --need_;
      started_ = need_ > 0 ? started_ + 1 : 0;
      lo_ = 0x80;
      hi_ = 0xBF;
      continue;
    }
    if (b < 0x80) continue;
    started_ = 1;
    if (b >= 0xC2 && b <= 0xDF) {
      need_ = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      need_ = 2;
      if (b == 0xE0) lo_ = 0xA0;  // no overlong form
      if (b == 0xED) hi_ = 0x9F;  // no surrogate
    } else if (b >= 0xF0 && b <= 0xF4) {
      need_ = 3;
      if (b == 0xF0) lo_ = 0x90;
      if (b == 0xF4) hi_ = 0x8F;  // nothing past U+10FFFF
    } else {
      started_ = 0;
      return i;  // a continuation byte without its lead, C0, C1 or F5..FF
    }
  }
  return std::string_view::npos;
}

std::string TextPlace(std::string_view text, std::size_t offset,
                      const std::function<std::string(std::size_t line)>& where) {
  const std::string_view before = text.substr(0, offset);
  std::size_t column = 1;  // characters, not bytes: continuation bytes do not count
  for (std::size_t i = LineStart(before); i < offset; ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++column;
  return where(1 + LineEnds(before)) + "column " + std::to_string(column);
}

std::string NotUtf8Message(std::string_view text, std::size_t offset,
                           const std::function<std::string(std::size_t line)>& where) {
  char byte[8] = "end";
  if (offset < text.size())
    std::snprintf(byte, sizeof byte, "0x%02X", static_cast<unsigned>(static_cast<unsigned char>(text[offset])));
  return TextPlace(text, offset, where) + ": the text is not UTF-8 (byte " + byte +
         "; a Latin-1 or Windows-1252 file?); re-save the file as UTF-8, e.g. iconv -f latin1 -t utf-8 FILE > "
         "FILE.utf8";
}

void ReadCheckedText(std::istream& in, std::string& text,
                     const std::function<std::string(std::size_t line)>& where,
                     const std::vector<std::string>& options, std::size_t expected_size) {
  std::size_t run = 0;  // bytes since the last line end
  Utf8Check utf8;
  // One block's checks: what `text` already holds (the input's first bytes, read by the
  // caller), then each block read.
  const auto check = [&](std::string_view block) {
    if (const void* nul = std::memchr(block.data(), '\0', block.size())) {
      const auto at = static_cast<std::size_t>(static_cast<const char*>(nul) - block.data());
      const std::size_t before = text.size() - block.size() + at;  // bytes before the NUL
      throw DataError(
          where(1 + LineEnds(std::string_view(text).substr(0, before))) +
              "the file holds a NUL byte, so it is not a text file (binary, UTF-16 or a sparse file?); "
              "pass a UTF-8 or ASCII text file",
          options);
    }
    if (const std::size_t bad = utf8.Feed(block); bad != std::string_view::npos)
      throw DataError(NotUtf8Message(text, text.size() - block.size() + bad - utf8.started(), where), options);
    const std::size_t last_end = block.find_last_of("\r\n");
    run = last_end == std::string_view::npos ? run + block.size() : block.size() - last_end - 1;
    if (run > kMaxLineBytes)
      throw DataError(
          where(1 + LineEnds(std::string_view(text).substr(0, text.size() - run))) +
              "the line is longer than " + std::to_string(kMaxLineBytes >> 20) +
              " MiB, so this is not a CSV or text file of the expected form (binary data, or no line "
              "ends?); pass a text file with one record per line",
          options);
  };
  check(text);
  std::vector<char> buffer(kTextBlockBytes);
  bool first = true;
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
    const auto got = static_cast<std::size_t>(in.gcount());
    text.append(buffer.data(), got);
    check(std::string_view(text).substr(text.size() - got));
    if (first && expected_size > text.size()) {
      // Room for the rest at once once the first block is known to be text, when the machine has
      // it; else the text grows as it is read.
      try {
        text.reserve(expected_size);
      } catch (const std::exception&) {
      }
    }
    first = false;
  }
  if (in.bad())
    throw DataError(where(1 + LineEnds(text)) + "reading the file failed; check the disk and retry", options);
  if (utf8.Unfinished()) throw DataError(NotUtf8Message(text, text.size() - utf8.started(), where), options);
}

std::vector<std::string> ReadTextLines(const std::string& path, const std::string& what,
                                       const std::vector<std::string>& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(what + ": cannot open the file (check the path)", options);
  std::string text;
  ReadCheckedText(
      in, text, [&](std::size_t line) { return what + " line " + std::to_string(line) + ": "; }, options);
  std::vector<std::string> lines;
  std::size_t begin = 0;
  // Lines as std::getline gives them (a last line without its "\n" is a line; nothing after a
  // final "\n" is not), CR line ends removed.
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lines.empty() && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    lines.push_back(std::move(line));
    begin = end + 1;
  }
  return lines;
}

std::string TrimCell(std::string s) {
  const auto not_space = [](unsigned char c) { return c != ' ' && c != '\t' && c != '\r' && c != '\n'; };
  s.erase(s.begin(), std::find_if(s.begin(), s.end(), not_space));
  s.erase(std::find_if(s.rbegin(), s.rend(), not_space).base(), s.end());
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

std::vector<std::string> SplitCells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(TrimCell(cell));
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

}}}  // namespace perfshap::detail
