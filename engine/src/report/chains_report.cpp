// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/chains_report.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "report/csv.hpp"
#include "report/format.hpp"
#include "report/json.hpp"
#include "report/learner_json.hpp"
#include "report/output.hpp"
#include "report/report_content.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {


/** The global feature values of data output o in order e: direct, indirect, total (F each). */
void FeatureValues(const ChainOrderExplanation& e, std::size_t o, std::vector<double>& direct, std::vector<double>& indirect,
                   std::vector<double>& total) {
  const std::size_t F = e.features.size();
  const std::size_t j = ChainPosition(e, o);
  direct.assign(e.global_direct[j].begin(), e.global_direct[j].begin() + static_cast<std::ptrdiff_t>(F));
  indirect = e.global_indirect[j];
  total.resize(F);
  for (std::size_t i = 0; i < F; ++i) total[i] = direct[i] + indirect[i];
}

Json OrderJson(const ChainOrderExplanation& e) {
  Json j;
  j["order"] = e.outputs;
  Json direct, indirect, total, accuracy;
  std::vector<std::string> inputs = e.features;
  for (std::size_t k = 0; k < e.outputs.size(); ++k) {
    direct[e.outputs[k]] = NamedValues(inputs, e.global_direct[k]);
    indirect[e.outputs[k]] = NamedValues(e.features, e.global_indirect[k]);
    std::vector<double> t(e.features.size());
    for (std::size_t i = 0; i < t.size(); ++i) t[i] = e.global_direct[k][i] + e.global_indirect[k][i];
    total[e.outputs[k]] = NamedValues(e.features, t);
    accuracy[e.outputs[k]] = e.accuracy[k];
    inputs.push_back(e.outputs[k]);
  }
  // The signed means over the instances too (the global values above follow --signed).
  Json direct_mean, indirect_mean;
  std::vector<std::string> in = e.features;
  for (std::size_t k = 0; k < e.outputs.size(); ++k) {
    const std::size_t F = e.features.size();
    std::vector<double> dm(F + k, 0.0), im(F, 0.0);
    for (std::size_t row = 0; row < e.n_rows; ++row) {
      for (std::size_t i = 0; i < F + k; ++i) dm[i] += e.direct[k][row * (F + k) + i] / static_cast<double>(e.n_rows);
      for (std::size_t i = 0; i < F; ++i) im[i] += e.indirect[k][row * F + i] / static_cast<double>(e.n_rows);
    }
    direct_mean[e.outputs[k]] = NamedValues(in, dm);
    indirect_mean[e.outputs[k]] = NamedValues(e.features, im);
    in.push_back(e.outputs[k]);
  }
  j["direct"] = direct;
  j["direct_signed_mean"] = direct_mean;
  j["indirect"] = indirect;
  j["indirect_signed_mean"] = indirect_mean;
  j["total"] = total;
  j["base"] = NamedValues(e.outputs, e.base);
  j["hamming_loss"] = e.hamming_loss;
  j["accuracy"] = accuracy;
  return j;
}

/** Stacked bars of normalised |direct| and |indirect| per feature and output, beside the
 *  independent classifiers' normalised |SHAP|. */
Chart OrderFigure(const ChainsReport& r, const ChainOrderExplanation& e) {
  StackedBarChart chart;
  chart.frame.title = "Shapley Chains, order " + ChainOrderName(e) + ": normalised direct and indirect contributions";
  chart.frame.x_label = "share of contributions";
  chart.layer_names = {"direct", "indirect"};
  const std::size_t F = e.features.size();
  for (std::size_t k = 0; k < e.outputs.size(); ++k) {
    const std::size_t o = e.order[k];
    std::vector<double> d, ind, t;
    FeatureValues(e, o, d, ind, t);
    double sum = 0.0;
    for (std::size_t i = 0; i < F; ++i) sum += std::fabs(d[i]) + std::fabs(ind[i]);
    StackedBarPanel panel;
    panel.title = e.outputs[k] + " (chain)";
    for (std::size_t i = 0; i < F; ++i)
      panel.bars.push_back({e.features[i], {sum > 0 ? std::fabs(d[i]) / sum : 0.0, sum > 0 ? std::fabs(ind[i]) / sum : 0.0}});
    chart.panels.push_back(std::move(panel));
  }
  for (std::size_t k = 0; k < e.outputs.size(); ++k) {
    const std::size_t o = e.order[k];
    double sum = 0.0;
    for (double v : r.independent[o]) sum += std::fabs(v);
    StackedBarPanel panel;
    panel.title = e.outputs[k] + " (independent)";
    for (std::size_t i = 0; i < F; ++i)
      panel.bars.push_back({e.features[i], {sum > 0 ? std::fabs(r.independent[o][i]) / sum : 0.0, 0.0}});
    chart.panels.push_back(std::move(panel));
  }
  // Room for each panel's feature labels and totals.
  std::size_t label = 8;
  for (const auto& f : e.features) label = std::max(label, f.size());
  chart.frame.width = static_cast<int>(chart.panels.size() * (150 + 7 * label));
  return chart;
}

}  // namespace

std::size_t ChainPosition(const ChainOrderExplanation& e, std::size_t o) {
  return static_cast<std::size_t>(std::find(e.order.begin(), e.order.end(), o) - e.order.begin());
}

std::string ChainOrderName(const ChainOrderExplanation& e) {
  std::string s;
  for (const std::string& o : e.outputs) s += (s.empty() ? "" : ">") + o;
  return s;
}

ChainsAverages AverageOverOrders(const ChainsReport& r) {
  const std::size_t F = r.features.size(), n_orders = r.orders.size();
  ChainsAverages a;
  for (std::size_t o = 0; o < r.output_names.size(); ++o) {
    std::vector<double> sd(F, 0.0), si(F, 0.0), st(F, 0.0);
    for (const ChainOrderExplanation& e : r.orders) {
      std::vector<double> d, ind, t;
      FeatureValues(e, o, d, ind, t);
      for (std::size_t i = 0; i < F; ++i) {
        sd[i] += d[i] / static_cast<double>(n_orders);
        si[i] += ind[i] / static_cast<double>(n_orders);
        st[i] += t[i] / static_cast<double>(n_orders);
      }
    }
    a.direct.insert(a.direct.end(), sd.begin(), sd.end());
    a.indirect.insert(a.indirect.end(), si.begin(), si.end());
    a.total.insert(a.total.end(), st.begin(), st.end());
  }
  for (const ChainOrderExplanation& e : r.orders) a.hamming_loss += e.hamming_loss / static_cast<double>(n_orders);
  return a;
}

std::string ChainsConsoleText(const ChainsReport& r) {
  std::ostringstream s;
  const std::size_t F = r.features.size();
  std::size_t width = 16;
  for (const auto& f : r.features) width = std::max(width, f.size() + 2);
  s << "perfshap chains: " << r.data << "\n"
    << "  " << r.rows.size() << " rows explained, " << F << " features, outputs " ;
  for (std::size_t o = 0; o < r.output_names.size(); ++o) s << (o ? ", " : "") << r.output_names[o];
  s << "; " << r.orders.size() << " order(s); links " << r.learner << ", background " << r.background << " rows"
    << (r.signed_weights ? ", signed weights" : "") << "\n";
  for (const ChainOrderExplanation& e : r.orders) {
    s << "  order " << ChainOrderName(e) << ": hamming loss " << Fmt("%.4f", e.hamming_loss) << ", accuracy";
    for (std::size_t k = 0; k < e.outputs.size(); ++k) s << " " << e.outputs[k] << " " << Fmt("%.3f", e.accuracy[k]);
    s << "\n";
  }
  const ChainOrderExplanation& e = r.orders.front();
  s << "  order " << ChainOrderName(e) << ", mean |phi| per feature: direct + indirect = total (independent classifier)\n";
  for (std::size_t k = 0; k < e.outputs.size(); ++k) {
    std::vector<double> d, ind, t;
    FeatureValues(e, e.order[k], d, ind, t);
    s << "    " << e.outputs[k] << "\n";
    for (std::size_t i = 0; i < F; ++i)
      s << "      " << PadRight(r.features[i], width, 1) << Fmt("%.4f", d[i]) << " + " << Fmt("%.4f", ind[i]) << " = "
        << Fmt("%.4f", t[i]) << "   (" << Fmt("%.4f", r.independent[e.order[k]][i]) << ")\n";
  }
  s << "  computed in " << Fmt("%.3f", r.elapsed_seconds) << " s\n";
  return s.str();
}

void BuildChainsReport(ReportContent& out, const ChainsReport& r) {
  const std::size_t F = r.features.size();
  const bool one = r.orders.size() == 1;
  std::vector<std::string> header = {"instance", "output", "input", "value"};
  if (!one) header.insert(header.begin(), "order");
  CsvTable direct(header);
  CsvTable indirect(header);
  for (const ChainOrderExplanation& e : r.orders) {
    const std::string name = ChainOrderName(e);
    std::vector<std::string> inputs = e.features;
    for (std::size_t k = 0; k < e.outputs.size(); ++k) {
      for (std::size_t row = 0; row < e.n_rows; ++row) {
        for (std::size_t i = 0; i < F + k; ++i) {
          direct.Row();
          if (!one) direct.Text(name);
          direct.Count(r.rows[row]).Text(e.outputs[k]).Text(inputs[i]).Number(e.direct[k][row * (F + k) + i]);
        }
        if (k == 0) continue;
        for (std::size_t i = 0; i < F; ++i) {
          indirect.Row();
          if (!one) indirect.Text(name);
          indirect.Count(r.rows[row]).Text(e.outputs[k]).Text(e.features[i]).Number(e.indirect[k][row * F + i]);
        }
      }
      inputs.push_back(e.outputs[k]);
    }
  }
  out.Table("direct.csv", std::move(direct));
  out.Table("indirect.csv", std::move(indirect));
  Json files = {"direct.csv", "indirect.csv"};
  for (const ChainOrderExplanation& e : r.orders) {
    std::string name = "chains_" + ChainOrderName(e) + ".svg";
    std::replace(name.begin(), name.end(), '>', '-');
    if (out.Figure(name, FigureSet::kSummary, [&] { return OrderFigure(r, e); })) files.push_back(name);
  }
  Json body;
  body["data"] = r.data;
  body["outputs"] = r.output_names;
  body["rows"] = r.rows.size();
  body["background"] = r.background;
  body["learner"] = r.learner;
  body["model_params"] = LearnerParamsJson(r.learner, r.learner_params);
  body["signed"] = r.signed_weights;
  Json orders = Json::array();
  for (const ChainOrderExplanation& e : r.orders) orders.push_back(OrderJson(e));
  body["orders"] = orders;
  // Averaged over the orders (eq. 3), the features' values.
  const ChainsAverages averages = AverageOverOrders(r);
  Json avg_direct, avg_indirect, avg_total, independent;
  for (std::size_t o = 0; o < r.output_names.size(); ++o) {
    const auto row = [&](const std::vector<double>& v) {
      return std::vector<double>(v.begin() + static_cast<std::ptrdiff_t>(o * F),
                                 v.begin() + static_cast<std::ptrdiff_t>((o + 1) * F));
    };
    avg_direct[r.output_names[o]] = NamedValues(r.features, row(averages.direct));
    avg_indirect[r.output_names[o]] = NamedValues(r.features, row(averages.indirect));
    avg_total[r.output_names[o]] = NamedValues(r.features, row(averages.total));
    independent[r.output_names[o]] = NamedValues(r.features, r.independent[o]);
  }
  body["averaged"] = {{"direct", avg_direct}, {"indirect", avg_indirect}, {"total", avg_total}};
  body["direct"] = avg_direct;
  body["indirect"] = avg_indirect;
  body["total"] = avg_total;
  body["independent"] = independent;
  body["hamming_loss"] = averages.hamming_loss;
  body["files"] = files;
  body["figures"] = out.figures();
  out.Result({"chains", r.features, r.seed, r.threads, r.elapsed_seconds}, std::move(body));
}
}}}  // namespace perfshap::detail
