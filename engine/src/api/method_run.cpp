// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/method_run.hpp"

#include <limits>
#include <memory>
#include <utility>

#include "api/reproductions.hpp"
#include "report/axom_report.hpp"
#include "report/chains_report.hpp"
#include "report/demo_report.hpp"
#include "report/robustness_report.hpp"
#include "report/shap_report.hpp"
#include "report/xper_report.hpp"

namespace perfshap { inline namespace v0 { namespace api {

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
  run.reporter =
      detail::ReporterOf([r](detail::ReportContent& out) { detail::BuildXperReport(out, r->Report()); });
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
  run.reporter =
      detail::ReporterOf([r](detail::ReportContent& out) { detail::BuildShapReport(out, r->Report()); });
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
  run.reporter = detail::ReporterOf(
      [r](detail::ReportContent& out) { detail::BuildRobustnessReport(out, r->result, r->run); });
  return run;
}

namespace {

/** A data set's protocol runs as arrays, each name after `prefix`: per seed the test accuracies
 *  (tree, forest), the mean mislabelling, and each test point's L_bar of the tree's, the
 *  forest's and AXOM's explanations (seeds x test points). */
void AddProtocolArrays(const detail::AxomDataReport& d, const std::string& prefix, MethodRun& run) {
  const std::size_t S = d.runs.size(), n = S == 0 ? 0 : d.runs.front().robustness.forest.l_bar.size();
  ResultArray accuracy{prefix + "accuracy", {S, 2}, {}}, mislabelling{prefix + "mislabelling", {S}, {}};
  ResultArray l_bar[3] = {{prefix + "l_bar_dt", {S, n}, {}}, {prefix + "l_bar_rf", {S, n}, {}},
                          {prefix + "l_bar_axom", {S, n}, {}}};
  for (const AxomRun& r : d.runs) {
    accuracy.owned.insert(accuracy.owned.end(), {r.tree_accuracy, r.forest_accuracy});
    mislabelling.owned.push_back(r.mislabelling);
    const ExplanationRobustness* models[3] = {&r.robustness.tree, &r.robustness.forest, &r.robustness.axom};
    for (int m = 0; m < 3; ++m) {
      std::vector<double> v = models[m]->l_bar;
      v.resize(n, std::numeric_limits<double>::quiet_NaN());  // every seed's split has the same size
      l_bar[m].owned.insert(l_bar[m].owned.end(), v.begin(), v.end());
    }
  }
  run.arrays.push_back(std::move(accuracy));
  run.arrays.push_back(std::move(mislabelling));
  for (ResultArray& a : l_bar) run.arrays.push_back(std::move(a));
  std::vector<double> seeds(d.seeds.begin(), d.seeds.end());
  run.arrays.push_back({prefix + "seeds", {seeds.size()}, seeds, true});
}

}  // namespace

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
    run.reporter = detail::ReporterOf(
        [r](detail::ReportContent& out) { detail::BuildAxomModelReport(out, *r->given, r->settings); });
  } else if (!r->paper) {
    run.console = detail::AxomConsoleText(r->reports.front(), r->settings);
    AddProtocolArrays(r->reports.front(), "", run);
    run.names = {{"feature_names", r->reports.front().feature_names}};
    run.reporter = detail::ReporterOf(
        [r](detail::ReportContent& out) { detail::BuildAxomReport(out, r->reports.front(), r->settings); });
  } else {
    std::vector<std::string> data_sets;
    for (const auto& report : r->reports) {
      run.console += detail::AxomConsoleText(report, r->settings);
      AddProtocolArrays(report, report.name + ".", run);
      data_sets.push_back(report.name);
    }
    run.names = {{"data_sets", data_sets}};
    run.console += "\n" + detail::AxomPaperText(r->reports, r->settings);
    run.reporter = detail::ReporterOf(
        [r](detail::ReportContent& out) { detail::BuildAxomPaperReport(out, r->reports, r->settings); });
  }
  return run;
}

MethodRun ChainsMethodRun(detail::ChainsReport report) {
  auto r = std::make_shared<const detail::ChainsReport>(std::move(report));
  MethodRun run;
  run.method = "chains";
  run.console = detail::ChainsConsoleText(*r);
  // The values averaged over the orders (result.json's direct, indirect, total), the independent
  // classifiers' and each order's: outputs x features, orders x outputs x features.
  const detail::ChainsAverages averages = detail::AverageOverOrders(*r);
  const std::size_t n_out = r->output_names.size(), F = r->features.size(), n_orders = r->orders.size();
  ResultArray independent{"independent", {n_out, F}, {}};
  for (const std::vector<double>& v : r->independent) independent.owned.insert(independent.owned.end(), v.begin(), v.end());
  ResultArray order_direct{"order_direct", {n_orders, n_out, F}, {}};
  ResultArray order_indirect{"order_indirect", {n_orders, n_out, F}, {}};
  ResultArray hamming{"order_hamming_loss", {n_orders}, {}};
  for (const ChainOrderExplanation& e : r->orders) {
    for (std::size_t o = 0; o < n_out; ++o) {
      const std::size_t j = detail::ChainPosition(e, o);
      order_direct.owned.insert(order_direct.owned.end(), e.global_direct[j].begin(),
                                e.global_direct[j].begin() + static_cast<std::ptrdiff_t>(F));
      order_indirect.owned.insert(order_indirect.owned.end(), e.global_indirect[j].begin(), e.global_indirect[j].end());
    }
    hamming.owned.push_back(e.hamming_loss);
  }
  run.arrays = {{"direct", {n_out, F}, averages.direct},
                {"indirect", {n_out, F}, averages.indirect},
                {"total", {n_out, F}, averages.total},
                std::move(independent),
                std::move(order_direct),
                std::move(order_indirect),
                std::move(hamming),
                {"hamming_loss", {}, {averages.hamming_loss}}};
  std::vector<std::string> orders;
  for (const ChainOrderExplanation& e : r->orders) orders.push_back(detail::ChainOrderName(e));
  run.names = {{"feature_names", r->features}, {"outputs", r->output_names}, {"orders", orders}};
  run.reporter = detail::ReporterOf([r](detail::ReportContent& out) { detail::BuildChainsReport(out, *r); });
  return run;
}

MethodRun DemoMethodRun(DemoResponse response, const std::string& out_dir) {
  auto r = std::make_shared<const DemoResponse>(std::move(response));
  MethodRun run;
  run.method = "demo";
  run.console = detail::DemoConsoleText(r->Report(), out_dir);
  // Each section's values: (AUC - 0.5, accuracy) per feature, XPER's and ShapAUC's, the sampled
  // ShapAUC of the 40-feature design with its standard errors; a section skipped has none.
  const ShapleyValues& v = r->values;
  run.arrays = {{"values", {static_cast<std::size_t>(v.n_players), v.n_outputs}, v.phi}};
  run.names = {{"feature_names", v.players}};
  if (r->xper) run.arrays.push_back({"xper_phi", {r->xper->phi.size()}, r->xper->phi});
  if (r->robustness) {
    run.arrays.push_back({"robustness_phi", {r->robustness->phi_auc_mean.size()}, r->robustness->phi_auc_mean});
    run.arrays.push_back({"robustness_phi_std", {r->robustness->phi_auc_std.size()}, r->robustness->phi_auc_std});
  }
  run.arrays.push_back({"sampled_phi", {r->sampled.phi_auc_mean.size()}, r->sampled.phi_auc_mean});
  run.arrays.push_back({"sampled_phi_se", {r->sampled.phi_auc_se.size()}, r->sampled.phi_auc_se});
  run.names.push_back({"sampled_feature_names", r->sampled.features});
  run.reporter =
      detail::ReporterOf([r](detail::ReportContent& out) { detail::BuildDemoReport(out, r->Report()); });
  return run;
}

}}}  // namespace perfshap::api
