// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/method_run.hpp"

#include <memory>
#include <utility>

#include "report/shap_report.hpp"
#include "report/xper_report.hpp"

namespace perfshap::api {

const ResultArray* MethodRun::Array(const std::string& name) const {
  for (const ResultArray& a : arrays)
    if (a.name == name) return &a;
  return nullptr;
}

const ResultNames* MethodRun::Names(const std::string& name) const {
  for (const ResultNames& n : names)
    if (n.name == name) return &n;
  return nullptr;
}

MethodRun XperMethodRun(XperResponse response, const std::string& permutation_file, const std::string& out_dir) {
  // The document the command line writes for the same run, word for word.
  response.run.permutation = permutation_file.empty() ? "drawn from --seed" : permutation_file;
  response.run.train_permutation = "drawn from --seed";
  response.run.fixed_clusters = "fixed by --clusters";
  auto r = std::make_shared<const XperResponse>(std::move(response));
  const XperResult& x = r->result;
  const std::size_t P = x.phi.size();
  MethodRun run;
  run.method = "xper";
  run.console = detail::XperConsoleText(r->Report(), out_dir);
  run.arrays = {{"value", {}, {x.value}}, {"base", {}, {x.base}}, {"phi", {P}, x.phi}};
  run.names = {{"feature_names", x.features}};
  run.reporter = [r](detail::OutputDir& out) { detail::WriteXperReport(out, r->Report()); };
  return run;
}

MethodRun ShapMethodRun(ShapResponse response, const std::string& out_dir, const std::string& method) {
  auto r = std::make_shared<const ShapResponse>(std::move(response));
  const ShapExplanation& e = r->explanation;
  MethodRun run;
  run.method = method;
  run.console = detail::ShapConsoleText(r->Report(), out_dir);
  run.arrays = {{"values", {e.n_rows, e.n_outputs, e.n_players}, e.phi},
                {"base_values", {e.n_rows, e.n_outputs}, e.base}};
  run.names = {{"players", e.players}, {"outputs", e.outputs}};
  run.reporter = [r](detail::OutputDir& out) { detail::WriteShapReport(out, r->Report()); };
  return run;
}

}  // namespace perfshap::api
