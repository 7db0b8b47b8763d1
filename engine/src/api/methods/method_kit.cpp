// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/methods/method_kit.hpp"

#include <algorithm>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace api {

namespace {

[[noreturn]] void Both(const std::string& method, const char* what, const char* file_option) {
  throw InvalidArgument(method + ": give " + what + " in memory or as a file (" + file_option + "), not both",
                        {file_option});
}

}  // namespace

void TakeTable(const std::shared_ptr<const Table>& table, DataInput& input, const std::string& method,
               const char* what, const char* file_option) {
  if (table == nullptr) return;
  if (!input.path.empty()) Both(method, what, file_option);
  input.table = table;
}

void TakeTable(const std::shared_ptr<const Table>& table, std::optional<DataInput>& input, const std::string& method,
               const char* what, const char* file_option) {
  if (table == nullptr) return;
  if (input) Both(method, what, file_option);
  input.emplace().table = table;
}

void TakeModel(const std::optional<GivenModelInput>& given, GivenModelInput& model, const std::string& method) {
  if (!given) return;
  if (!model.tree_file.empty()) Both(method, "the model", "model_file");
  const std::optional<IterationRange> range = model.iteration_range;  // an option, not the model's
  model = *given;
  model.iteration_range = range;
}

bool Named(const GivenOptions& given, const char* name) {
  return std::any_of(given.begin(), given.end(), [&](const GivenOption& g) {
    return perfshap::detail::CanonicalOptionName(g.first) == name;
  });
}

void TakeSplits(const MethodInputs& in, const GivenOptions& given, const std::string& method,
                SplitInput& splits) {
  if (Named(given, "cv") && (Named(given, "split") || in.splits))
    throw InvalidArgument(method + ": give cv (a drawn plan) or split (explicit splits), not both",
                          {"cv", "split"});
  if (!in.splits) return;
  if (!splits.file.empty()) Both(method, "the splits", "split");
  splits.splits = in.splits->plan;
  splits.listed = in.splits->listed;
  splits.name = "split";
}
}}}  // namespace perfshap::api
