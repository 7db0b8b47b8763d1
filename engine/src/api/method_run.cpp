// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/method_run.hpp"

#include <memory>
#include <utility>

#include "report/axom_report.hpp"
#include "report/chains_report.hpp"
#include "report/demo_report.hpp"
#include "report/montecarlo_report.hpp"
#include "report/robustness_report.hpp"
#include "report/shap_report.hpp"
#include "report/xper_report.hpp"

namespace perfshap::inline v0::api {

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

MethodRun XperMethodRun(XperResponse response, const std::string& out_dir) {
  auto r = std::make_shared<const XperResponse>(std::move(response));
  const XperResult& x = r->result;
  const std::size_t P = x.phi.size();
  MethodRun run;
  run.method = "xper";
  run.console = detail::XperConsoleText(r->Report(), out_dir);
  run.arrays = {{"value", {}, {x.value}}, {"base", {}, {x.base}}, {"phi", {P}, x.phi}};
  if (!x.interactions.empty()) run.arrays.push_back({"interactions", {P, P}, x.interactions});
  if (!x.interactions_se.empty()) run.arrays.push_back({"interactions_se", {P, P}, x.interactions_se});
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
  // Lent by the response the run holds: an explanation of 10^7 rows is not copied.
  run.arrays = {{"values", {e.n_rows, e.n_outputs, e.n_players}, {}, false, e.phi, r},
                {"base_values", {e.n_rows, e.n_outputs}, {}, false, e.base, r}};
  run.names = {{"players", e.players}, {"outputs", e.outputs}};
  if (r->interactions) {
    // rows x outputs x matrix rows x (features + 1), as pred_interactions; the matrix rows' features.
    const TreeShapInteractionValues& v = *r->interactions;
    run.arrays.push_back({"interactions",
                          {v.n_rows, v.n_outputs, v.matrix_rows.size(), v.n_features + 1},
                          {},
                          false,
                          v.values,
                          r});
    std::vector<std::string> rows;
    for (const std::size_t f : v.matrix_rows) rows.push_back(f < v.n_features ? e.players[f] : "bias");
    run.names.push_back({"interaction_features", rows});
  }
  run.reporter = [r](detail::OutputDir& out) { detail::WriteShapReport(out, r->Report()); };
  return run;
}

MethodRun RobustnessMethodRun(RobustnessResponse response, const std::string& out_dir) {
  auto r = std::make_shared<const RobustnessResponse>(std::move(response));
  const RobustnessResult& x = r->result;
  auto vector = [](const char* name, const std::vector<double>& v) {
    return ResultArray{name, {v.size()}, v};
  };
  MethodRun run;
  run.method = "robustness";
  run.console = detail::RobustnessConsoleText(x, r->run, out_dir);
  run.arrays = {{"value", {}, {x.auc_mean}},
                {"value_std", {}, {x.auc_std}},
                {"base", {}, {x.base}},
                vector("phi", x.phi_auc_mean),
                vector("phi_std", x.phi_auc_std),
                vector("phi_se", x.phi_auc_se),
                {"auprc", {}, {x.auprc_mean}},
                {"auprc_std", {}, {x.auprc_std}},
                vector("phi_auprc", x.phi_auprc_mean),
                vector("phi_auprc_std", x.phi_auprc_std),
                vector("phi_auprc_se", x.phi_auprc_se),
                vector("auc_by_split", x.auc_by_split),
                {"n_splits", {}, {static_cast<double>(x.n_splits)}, true},
                {"n_trainings", {}, {static_cast<double>(x.n_trainings)}, true}};
  if (!x.interaction_auc_mean.empty()) {
    const std::size_t p = x.features.size();
    run.arrays.push_back({"interactions", {p, p}, x.interaction_auc_mean});
    run.arrays.push_back({"interactions_std", {p, p}, x.interaction_auc_std});
  }
  run.names = {{"feature_names", x.features}};
  run.reporter = [r](detail::OutputDir& out) { detail::WriteRobustnessReport(out, r->result, r->run); };
  return run;
}

MethodRun AxomMethodRun(AxomResponse response) {
  auto r = std::make_shared<const AxomResponse>(std::move(response));
  MethodRun run;
  run.method = "axom";
  if (r->given) {
    const detail::AxomModelReport& g = *r->given;
    const AxomExplanation& e = g.explanation;
    const std::size_t n = e.n_rows, F = e.n_features;
    ResultArray values{"values", {n, F}, std::vector<double>(n * F)};
    ResultArray forest{"forest_values", {n, F}, std::vector<double>(n * F)};
    ResultArray labels{"labels", {n}, std::vector<double>(n), true};
    ResultArray kept{"kept_trees", {n}, std::vector<double>(n), true};
    for (std::size_t row = 0; row < n; ++row) {
      const std::size_t at = (row * e.n_classes + static_cast<std::size_t>(e.label[row])) * F;
      std::copy_n(e.axom.data() + at, F, values.owned.data() + row * F);
      std::copy_n(e.forest.data() + at, F, forest.owned.data() + row * F);
      labels.owned[row] = e.label[row];
      kept.owned[row] = static_cast<double>(e.kept_trees[row]);
    }
    auto vector = [](const char* name, const std::vector<double>& v) {
      return ResultArray{name, {v.size()}, v};
    };
    run.console = detail::AxomModelConsoleText(g, r->settings);
    run.arrays = {std::move(values),
                  std::move(forest),
                  std::move(labels),
                  std::move(kept),
                  vector("l_bar_rf", g.robustness.forest.l_bar),
                  vector("l_hat_rf", g.robustness.forest.l_hat),
                  vector("l_bar_axom", g.robustness.axom.l_bar),
                  vector("l_hat_axom", g.robustness.axom.l_hat),
                  vector("mislabelling_per_row", g.robustness.mislabelling)};
    run.names = {{"feature_names", g.feature_names}, {"class_names", g.class_names}};
    run.reporter = [r](detail::OutputDir& out) { detail::WriteAxomModelReport(out, *r->given, r->settings); };
  } else if (!r->paper) {
    run.console = detail::AxomConsoleText(r->reports.front(), r->settings);
    run.reporter = [r](detail::OutputDir& out) {
      detail::WriteAxomReport(out, r->reports.front(), r->settings);
    };
  } else {
    for (const auto& report : r->reports) run.console += detail::AxomConsoleText(report, r->settings);
    run.console += "\n" + detail::AxomPaperText(r->reports, r->settings);
    run.reporter = [r](detail::OutputDir& out) {
      detail::WriteAxomPaperReport(out, r->reports, r->settings);
    };
  }
  return run;
}

MethodRun ChainsMethodRun(detail::ChainsReport report) {
  auto r = std::make_shared<const detail::ChainsReport>(std::move(report));
  MethodRun run;
  run.method = "chains";
  run.console = detail::ChainsConsoleText(*r);
  run.reporter = [r](detail::OutputDir& out) { detail::WriteChainsReport(out, *r); };
  return run;
}

MethodRun DemoMethodRun(DemoResponse response, const std::string& out_dir) {
  auto r = std::make_shared<const DemoResponse>(std::move(response));
  MethodRun run;
  run.method = "demo";
  run.console = detail::DemoConsoleText(r->Report(), out_dir);
  run.reporter = [r](detail::OutputDir& out) { detail::WriteDemoReport(out, r->Report()); };
  return run;
}

MethodRun XperMonteCarloMethodRun(XperMonteCarloResult result, const XperMonteCarloOptions& options,
                                  const std::string& out_dir) {
  auto r = std::make_shared<const XperMonteCarloResult>(std::move(result));
  const detail::MonteCarloColumns columns = detail::MonteCarloDistributions(*r);
  MethodRun run;
  run.method = "xper-montecarlo";
  run.console = detail::MonteCarloConsoleText(*r, columns, out_dir);
  run.reporter = [r, options, columns](detail::OutputDir& out) {
    detail::WriteMonteCarloReport(out, *r, options, columns);
  };
  return run;
}

}  // namespace perfshap::inline v0::api
