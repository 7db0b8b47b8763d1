// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// A fitted GLM's coefficients from a CSV file (name,coef with the intercept `const` first).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>

#include "data/text_lines.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/model.hpp"

namespace perfshap { inline namespace v0 {

namespace {

bool ParseFinite(const std::string& text, double& out) {
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  const auto [ptr, ec] = std::from_chars(first, last, out);
  return ec == std::errc() && ptr == last && first != last && std::isfinite(out);
}

}  // namespace

GlmCoefficients ReadGlmCoefficients(const std::string& path) {
  const std::string file = "coefficients file " + path;
  const std::vector<std::string> options{"coefficients"};
  const auto lines = detail::ReadTextLines(path, file, options);
  std::size_t first = 0;
  while (first < lines.size() && detail::TrimCell(lines[first]).empty()) ++first;
  if (first == lines.size())
    throw DataError(file + ": the file is empty; it needs a header name,coef", options);
  const auto header = detail::SplitCells(lines[first]);
  const auto name_col = std::find(header.begin(), header.end(), "name");
  const auto coef_col = std::find(header.begin(), header.end(), "coef");
  if (name_col == header.end() || coef_col == header.end())
    throw DataError(file + " line " + std::to_string(first + 1) +
                        ": the header needs the columns name and coef (found " + detail::Quoted(lines[first]) + ")",
                    options);
  const auto ni = static_cast<std::size_t>(name_col - header.begin());
  const auto ci = static_cast<std::size_t>(coef_col - header.begin());
  GlmCoefficients c;
  std::map<std::string, std::size_t> seen;
  for (std::size_t l = first + 1; l < lines.size(); ++l) {
    if (detail::TrimCell(lines[l]).empty()) continue;
    const std::string where = file + " line " + std::to_string(l + 1);
    const auto cells = detail::SplitCells(lines[l]);
    if (cells.size() != header.size())
      throw DataError(where + ": " + std::to_string(cells.size()) + " cells, the header has " +
                          std::to_string(header.size()),
                      options);
    const std::string& name = cells[ni];
    double v = 0;
    if (name.empty()) throw DataError(where + ": empty name", options);
    if (!ParseFinite(cells[ci], v))
      throw DataError(
          where + ": the coefficient of " + detail::Quoted(name) + " is " + detail::Quoted(cells[ci]) + ", not a finite number", options);
    if (c.values.empty()) {
      if (name != "const")
        throw DataError(
            where + ": the first coefficient must be 'const' (the intercept), found " + detail::Quoted(name), options);
      c.values.push_back(v);
      continue;
    }
    if (name == "const") throw DataError(where + ": 'const' appears twice", options);
    if (const auto it = seen.find(name); it != seen.end())
      throw DataError(
          where + ": " + detail::Quoted(name) + " appears twice (first on line " + std::to_string(it->second) + ")",
          options);
    seen[name] = l + 1;
    c.names.push_back(name);
    c.values.push_back(v);
    c.lines.push_back(l + 1);
  }
  if (c.names.empty()) throw DataError(file + ": no feature coefficient after 'const'", options);
  return c;
}

}}  // namespace perfshap
