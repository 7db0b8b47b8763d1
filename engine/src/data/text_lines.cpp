// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "data/text_lines.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

#include "perfshap/error.hpp"

namespace perfshap::inline v0::detail {

namespace {

/// Line ends in text[0, end): "\n", "\r\n" and a lone "\r" count one each, as the CSV reader
/// counts physical lines.
std::size_t LineEnds(std::string_view text) {
  std::size_t ends = 0;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' || (text[i] == '\r' && !(i + 1 < text.size() && text[i + 1] == '\n'))) ++ends;
  return ends;
}

}  // namespace

void ReadCheckedText(std::istream& in, std::string& text,
                     const std::function<std::string(std::size_t line)>& where,
                     const std::vector<std::string>& options, std::size_t expected_size) {
  std::size_t run = 0;  // bytes since the last line end
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

}  // namespace perfshap::detail
