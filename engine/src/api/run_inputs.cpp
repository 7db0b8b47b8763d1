// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/run_inputs.hpp"

#include <algorithm>
#include <vector>

namespace perfshap { inline namespace v0 { namespace api {

namespace {
// A given model's predictions for this many rows: two models that differ almost always differ there.
constexpr std::size_t kProbeRows = 16;
}  // namespace

RunInputs::RunInputs(const ExecutionOptions& execution) : execution_(execution), digests_(execution) {}

RunInputs& RunInputs::Data(const Dataset& data) {
  if (!digests_.active()) return *this;
  detail::ByteWriter& w = digests_.Part("data");
  w.Put<std::uint64_t>(data.n_rows());
  w.PutStrings(data.feature_names());
  for (std::size_t c = 0; c < data.n_features(); ++c) w.PutSpan(data.column(c));
  w.PutString(data.label_name());
  w.PutSpan(data.label());
  return *this;
}

RunInputs& RunInputs::Learner(const perfshap::Learner& learner) {
  if (!digests_.active()) return *this;
  detail::ByteWriter& w = digests_.Part("model");
  w.PutString(learner.name());
  for (const auto& [key, value] : learner.params()) {
    w.PutString(key);
    w.PutString(value);
  }
  return *this;
}

RunInputs& RunInputs::GivenModel(const Model& model, const Dataset& data, std::span<const std::size_t> columns,
                                 bool host) {
  if (!digests_.active()) return *this;
  detail::ByteWriter& w = digests_.Part("model");
  w.PutString(model.Describe());
  const std::size_t rows = std::min(kProbeRows, data.n_rows());
  const std::size_t p = model.n_features();
  if (host || rows == 0 || (columns.empty() ? data.n_features() < p : columns.size() != p)) return *this;
  std::vector<double> x(p * rows);
  for (std::size_t c = 0; c < p; ++c)
    std::copy_n(data.column(columns.empty() ? c : columns[c]).begin(), rows, x.begin() + static_cast<std::ptrdiff_t>(c * rows));
  std::vector<double> out(model.n_outputs() * rows);
  model.Predict(x, rows, out);
  w.PutVector(out);
  return *this;
}

RunInputs& RunInputs::Text(const std::string& part, const std::string& text) {
  if (digests_.active()) digests_.Part(part).PutString(text);
  return *this;
}

void RunInputs::Agree() {
  Text("options", execution_.invocation);
  detail::AgreeOnInputs(execution_, digests_);
}

}}}  // namespace perfshap::api
