// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/data_input.hpp"

#include <utility>

#include "common/enum_names.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/generators.hpp"

namespace perfshap { inline namespace v0 { namespace api {

std::string DataInput::name() const {
  if (!path.empty()) return path;
  if (table != nullptr) return table->source;
  return "the built-in probit design";
}

namespace {

/** The policies a request names (kKeep, NaN kept for the learner, is the library's alone). */
constexpr detail::EnumName<MissingValues> kMissingNames[] = {
    {MissingValues::kError, "error"}, {MissingValues::kCategory, "category"}, {MissingValues::kDrop, "drop"}};

}  // namespace

MissingValues ParseMissingValues(const std::string& name) {
  if (const auto policy = detail::ValueOf(kMissingNames, name)) return *policy;
  throw InvalidArgument("missing cells are handled as error, category or drop, not '" + name + "'", {"missing"});
}

const char* MissingValuesName(MissingValues policy) noexcept {
  return policy == MissingValues::kKeep ? "keep" : detail::NameOf(kMissingNames, policy, "error");
}

Dataset ReadData(const DataInput& input, std::uint64_t seed, bool regression) {
  if (input.generated()) {
    ProbitDesign design;
    design.n_rows = input.generated_rows;
    design.seed = seed;
    return GenerateProbitDesign(design);
  }
  if (input.label.empty())
    throw InvalidArgument("the data " + input.name() + " needs the name of its label column", {"label"});
  CsvOptions csv;
  csv.label = input.label;
  csv.positive = input.positive;
  csv.regression = regression;
  csv.missing = input.missing;
  return ReadRows(input, csv);
}

Dataset ReadRows(const DataInput& input, const CsvOptions& csv) {
  return input.table != nullptr ? ReadTableInPlace(input.table, csv) : ReadCsv(input.path, csv);
}

Design ReadDesign(const DataInput& input, std::uint64_t seed, TextColumns policy) {
  const Dataset source = ReadData(input, seed);
  std::vector<std::size_t> columns;
  columns.reserve(input.features.size());
  for (const auto& name : input.features) columns.push_back(source.FeatureIndex(name));
  const DesignEncoder encoder(source, columns, input.groups, policy);
  return encoder.Apply(source);  // the numeric columns shared, not copied: large tables are held once
}

}}}  // namespace perfshap::api
