// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "data/text_lines.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "perfshap/error.hpp"

namespace perfshap::detail {

std::vector<std::string> ReadTextLines(const std::string& path, const std::string& what,
                                       const std::vector<std::string>& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError(what + ": cannot open the file (check the path)", options);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (lines.empty() && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);
    lines.push_back(line);
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
