// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// `chains --adult`: the Adult data as the Shapley Chains paper's section 4.2 prepares it
// (PrepareAdultChains, declared in api/reproductions.hpp); run by tests/cli/test_cli_chains.cpp
// against the fixture's first rows.
#include <algorithm>
#include <string>
#include <vector>

#include "api/reproductions.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {

MultiOutputData PrepareAdultChains(const std::string& path) {
  CsvOptions csv;
  csv.label = "label";
  csv.missing = MissingValues::kDrop;
  const Dataset raw = ReadCsv(path, csv);
  auto column = [&](const std::string& name) {
    const auto& names = raw.feature_names();
    const auto it = std::find(names.begin(), names.end(), name);
    if (it == names.end())
      throw DataError(path + " has no column '" + name + "'; the Adult preparation needs the UCI Adult columns");
    return static_cast<std::size_t>(it - names.begin());
  };
  // The text value of row r of a text column.
  auto text = [&](std::size_t c, std::size_t r) -> const std::string& {
    const auto& enc = raw.encoding(c);
    if (!enc) throw DataError(path + ": column '" + raw.feature_names()[c] + "' should hold text");
    return enc->levels.at(static_cast<std::size_t>(raw.column(c)[r]));
  };
  const std::size_t n = raw.n_rows();
  MultiOutputData out;
  out.output_names = {"sex", "income", "occupation_white_collar"};
  out.outputs.assign(3, std::vector<double>(n));
  const std::size_t sex = column("sex");
  const std::size_t occupation = column("occupation");
  const std::vector<std::string> white = {"Exec-managerial", "Prof-specialty", "Adm-clerical", "Sales", "Tech-support"};
  for (std::size_t r = 0; r < n; ++r) {
    out.outputs[0][r] = text(sex, r) == "Male" ? 1.0 : 0.0;
    out.outputs[1][r] = raw.label()[r];
    out.outputs[2][r] = std::find(white.begin(), white.end(), text(occupation, r)) != white.end() ? 1.0 : 0.0;
  }
  const std::vector<std::string> keep = {"age",          "workclass",    "fnlwgt",       "education_num", "marital_status",
                                         "relationship", "capital_gain", "capital_loss", "hours_per_week"};
  std::vector<std::vector<double>> columns;
  for (const std::string& name : keep) {
    const std::size_t c = column(name);
    std::vector<double> v(raw.column(c).begin(), raw.column(c).end());
    if (raw.encoding(c)) {
      // The codes of the sorted levels (ReadCsv numbers them in order of appearance).
      const auto& levels = raw.encoding(c)->levels;
      std::vector<std::string> sorted = levels;
      std::sort(sorted.begin(), sorted.end());
      for (double& x : v)
        x = static_cast<double>(std::lower_bound(sorted.begin(), sorted.end(), levels[static_cast<std::size_t>(x)]) -
                                sorted.begin());
    }
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    const double range = *hi - *lo;
    const double low = *lo;
    for (double& x : v) x = range > 0.0 ? (x - low) / range : 0.0;
    columns.push_back(std::move(v));
  }
  out.features = Dataset(keep, std::move(columns), {}, "");
  out.features.set_source(path + " (prepared as the Shapley Chains paper's section 4.2)");
  return out;
}

}}  // namespace perfshap
