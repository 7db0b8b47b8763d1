// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The report's summary. Every method's result.json names its values in one of a few shapes: a
// {feature: phi} object with bands in phi_std (over splits) or phi_se (sampling); a phi array
// beside players (SAGE); per-output mean |phi| under global (SHAP); per-output totals under
// averaged (chains); and methods whose answer is a comparison (AXOM's L-bar of three explainers,
// the XPER Monte Carlo's distributions). The summary takes what is there and says what it is.
#include "report/run_summary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <string_view>
#include <utility>

#include "report/report_content.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

using namespace std::string_literals;

constexpr double kNoBand = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kStrongest = 3;

// The question each method answers, as the summary's first line.
const std::map<std::string, std::string>& Questions() {
  static const std::map<std::string, std::string> q = {
      {"robustness",
       "Which features make the model's AUC (and its ROC and PR curves), retrained on every "
       "coalition of features, and how much does that vary across resampled splits?"},
      {"xper", "How much of the fitted model's performance metric does each feature earn?"},
      {"sage", "How much does each feature add to the model's performance (its expected loss)?"},
      {"shap", "What does each feature contribute to the model's predictions?"},
      {"axom", "How robust are the explanations of a tree, a forest and AXOM to small changes of the input?"},
      {"chains",
       "What does each feature contribute to each output of the classifier chain, directly and "
       "through the earlier outputs?"},
      {"demo", "Every method of perfshap, briefly, on one data set."},
      {"xper-montecarlo",
       "How are XPER's decomposition of the AUC and its shares distributed over repeated "
       "samples of the paper's design?"},
  };
  return q;
}

const Json* Find(const Json& j, const char* key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? nullptr : &*it;
}

std::string Text(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return ShortNumber(v.get<double>());
  return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

double Number(const Json* v) { return v != nullptr && v->is_number() ? v->get<double>() : kNoBand; }

// {name: number} as features, with their bands from a parallel {name: number} (or none).
std::vector<SummaryFeature> FromObject(const Json& values, const Json* bands) {
  std::vector<SummaryFeature> out;
  for (auto it = values.begin(); it != values.end(); ++it)
    if (it->is_number())
      out.push_back(
          {it.key(), it->get<double>(), bands != nullptr ? Number(Find(*bands, it.key().c_str())) : kNoBand});
  return out;
}

// The strongest features by |value|; ties keep the file's order.
std::vector<SummaryFeature> Strongest(std::vector<SummaryFeature> all) {
  std::stable_sort(all.begin(), all.end(), [](const SummaryFeature& a, const SummaryFeature& b) {
    return std::fabs(a.value) > std::fabs(b.value);
  });
  if (all.size() > kStrongest) all.resize(kStrongest);
  return all;
}

// The first output's object of a {output: {name: number}} object, and that output's name.
std::pair<const Json*, std::string> FirstOutput(const Json* per_output) {
  if (per_output == nullptr || !per_output->is_object() || per_output->empty()) return {nullptr, ""};
  const auto it = per_output->begin();
  return {it->is_object() ? &*it : nullptr, it.key()};
}

// The largest number anywhere in `j` (a number, or arrays and objects of them); NaN for none.
double Largest(const Json& j) {
  if (j.is_number()) return j.get<double>();
  double out = kNoBand;
  if (j.is_array() || j.is_object())
    for (const Json& e : j) {
      const double v = Largest(e);
      if (!std::isnan(v) && (std::isnan(out) || v > out)) out = v;
    }
  return out;
}

// Whether the result's values are means over several splits (a band of one split is zero).
bool SeveralSplits(const Json& result) {
  const Json* n = Find(result, "n_splits");
  return n == nullptr || !n->is_number() || n->get<double>() > 1;
}

void ReadValues(const Json& result, ReportSummary& s) {
  const Json* phi = Find(result, "phi");
  const Json* players = Find(result, "players");
  if (phi != nullptr && phi->is_object()) {
    // A band is what varies: the std over the splits with several splits, the standard error of
    // a sampled solver (an exact solver's are zero).
    const Json* std_dev = SeveralSplits(result) ? Find(result, "phi_std") : nullptr;
    const Json* se = Find(result, "phi_se");
    if (se != nullptr && !(Largest(*se) > 0)) se = nullptr;
    s.strongest = Strongest(FromObject(*phi, std_dev != nullptr ? std_dev : se));
    s.band_label = std_dev != nullptr ? "standard deviation over the splits"
                   : se != nullptr    ? "standard error"
                                      : "";
    s.values_label = "phi";
  } else if (phi != nullptr && phi->is_array() && players != nullptr && players->size() == phi->size()) {
    const Json* se = Find(result, "phi_se");
    if (se != nullptr && !(Largest(*se) > 0)) se = nullptr;
    std::vector<SummaryFeature> all;
    for (std::size_t i = 0; i < phi->size(); ++i)
      if ((*phi)[i].is_number())
        all.push_back({Text((*players)[i]), (*phi)[i].get<double>(),
                       se != nullptr && se->is_array() && i < se->size() ? Number(&(*se)[i]) : kNoBand});
    s.strongest = Strongest(std::move(all));
    s.values_label = "phi";
    s.band_label = se != nullptr ? "standard error" : "";
  } else if (const Json* global = Find(result, "global")) {
    const auto [values, output] = FirstOutput(Find(*global, "mean_abs"));
    if (values != nullptr) s.strongest = Strongest(FromObject(*values, nullptr));
    s.values_label = "mean |phi| over the rows (" + output + ")";
  } else if (const Json* averaged = Find(result, "averaged")) {
    const auto [values, output] = FirstOutput(Find(*averaged, "total"));
    if (values != nullptr) s.strongest = Strongest(FromObject(*values, nullptr));
    s.values_label = "total contribution to " + output + " (direct + indirect)";
  }
}

void AddFact(ReportSummary& s, std::string name, std::string value) {
  if (!value.empty()) s.facts.emplace_back(std::move(name), std::move(value));
}

std::string ModelText(const Json& result) {
  if (const Json* model = Find(result, "model")) {
    if (model->is_string()) return model->get<std::string>();
    if (const Json* d = Find(*model, "description")) return Text(*d);
    if (const Json* k = Find(*model, "kind")) return Text(*k);
  }
  if (const Json* learner = Find(result, "learner")) return Text(*learner);
  return "";
}

std::string RowsText(const Json& result) {
  for (const char* key : {"n_rows", "rows"})
    if (const Json* v = Find(result, key); v != nullptr && v->is_number_integer()) return Text(*v) + " rows";
  return "";
}

std::string ValueText(const Json& result) {
  const Json* metric = Find(result, "metric");
  const std::string name = metric != nullptr && metric->is_string() ? metric->get<std::string>() : "value";
  if (const Json* full = Find(result, "metric_full"); full != nullptr && full->is_number())
    return name + " " + ShortNumber(full->get<double>()) + " with every feature, " +
           ShortNumber(Number(Find(result, "metric_empty"))) + " with none";
  const Json* value = Find(result, "value");
  if (value == nullptr || !value->is_number()) return "";
  std::string out = (metric != nullptr ? name : "AUC"s) + " " + ShortNumber(value->get<double>());
  if (const Json* sd = Find(result, "value_std"); sd != nullptr && sd->is_number() && SeveralSplits(result))
    out += " ± " + ShortNumber(sd->get<double>()) + " (std over the splits)";
  if (const Json* base = Find(result, "base"); base != nullptr && base->is_number())
    out += " = " + ShortNumber(base->get<double>()) + " + the sum of the phi";
  return out;
}

std::string SolverText(const Json& result) {
  const Json* solver = Find(result, "solver");
  if (solver == nullptr) return "";
  const Json& where = solver->is_object() ? *solver : result;
  const Json* name = solver->is_object() ? Find(*solver, "name") : solver;
  std::string out = name != nullptr ? Text(*name) : "solver";
  if (const Json* by = Find(where, "stopped_by");
      by != nullptr && by->is_string() && by->get<std::string>() != "exact")
    out += ", stopped by its " + by->get<std::string>();
  if (const Json* c = Find(where, "converged"); c != nullptr && c->is_boolean() && !c->get<bool>())
    out += " (not converged)";
  const Json* se = Find(result, "phi_se");
  const double largest = se != nullptr ? Largest(*se) : kNoBand;
  if (!std::isnan(largest) && largest > 0)
    out += "; largest standard error of a value " + ShortNumber(largest);
  return out;
}

void ReadComparisons(const Json& result, ReportSummary& s) {
  // AXOM: the mean local Lipschitz estimate of each explainer (lower: more robust).
  for (const char* who : {"dt", "rf", "axom"})
    if (const Json* e = Find(result, who); e != nullptr && Find(*e, "L_mean") != nullptr)
      AddFact(s, "L-bar "s + who, ShortNumber(Number(Find(*e, "L_mean"))) + " (lower is more robust)");
  // The XPER Monte Carlo: the AUC and each share over the samples.
  if (const Json* d = Find(result, "distribution"))
    for (auto it = d->begin(); it != d->end(); ++it)
      if (it.key() == "auc" || it.key().rfind("share_", 0) == 0)
        AddFact(s, it.key(),
                ShortNumber(Number(Find(*it, "mean"))) + " ± " + ShortNumber(Number(Find(*it, "std"))));
}

// `text` in lines of at most `width` bytes (broken at spaces), the first after `first`, the
// others after `indent`.
std::string Wrapped(const std::string& text, std::size_t width, const std::string& first,
                    const std::string& indent) {
  std::string out, line = first;
  bool empty = true;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    const std::string_view word(text.data() + at, end - at);
    if (!empty && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = indent;
      empty = true;
    }
    if (!empty) line += ' ';
    line += word;
    empty = false;
    at = end + 1;
  }
  return out + line + "\n";
}

}  // namespace

std::string ShortNumber(double v) {
  if (std::isnan(v)) return "nan";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

ReportSummary SummarizeResult(const Json& result) {
  ReportSummary s;
  if (const Json* method = Find(result, "method"); method != nullptr && method->is_string()) {
    const auto it = Questions().find(method->get<std::string>());
    if (it != Questions().end()) s.question = it->second;
  }
  if (const Json* data = Find(result, "data"))
    AddFact(s, "data", Text(*data) + (RowsText(result).empty() ? "" : ", " + RowsText(result)));
  // The demo's sections each summarize their method: its summary names the data only.
  if (const Json* method = Find(result, "method"); method != nullptr && *method == "demo") return s;
  AddFact(s, "model", ModelText(result));
  AddFact(s, "result", ValueText(result));
  ReadComparisons(result, s);
  AddFact(s, "solver", SolverText(result));
  ReadValues(result, s);
  return s;
}

ReportSummary SummarizeRun(const Reporter& reporter) {
  ReportOptions options;
  options.figures = FigureSet::kNone;
  options.tables = false;
  const ReportContent content = reporter(options);
  if (!content.has_result()) return {};
  return SummarizeResult(ResultJsonDocument(content.run(), content.body()));
}

std::string SummaryHtml(const ReportSummary& s) {
  std::string html = "<section id=\"summary\"><h2>Summary</h2>\n";
  if (!s.question.empty()) html += "<p class=\"question\">" + EscapeXml(s.question) + "</p>\n";
  if (!s.strongest.empty()) {
    html += "<p class=\"note\">The strongest features (" + EscapeXml(s.values_label) +
            (s.band_label.empty() ? "" : " ± " + EscapeXml(s.band_label)) +
            "):</p>\n<ol class=\"strongest card\">\n";
    for (const SummaryFeature& f : s.strongest)
      html += "<li><b>" + EscapeXml(f.name) + "</b> " + ShortNumber(f.value) +
              (std::isnan(f.band) ? "" : " ± " + ShortNumber(f.band)) + "</li>\n";
    html += "</ol>\n";
  }
  html += "<dl class=\"facts card\">\n";
  for (const auto& [name, value] : s.facts)
    html += "<div><dt>" + EscapeXml(name) + "</dt><dd>" + EscapeXml(value) + "</dd></div>\n";
  return html + "</dl>\n</section>\n";
}

std::string SummaryText(const ReportSummary& s) {
  if (s.facts.empty() && s.strongest.empty()) return {};
  constexpr std::size_t kWidth = 96;
  std::string text =
      Wrapped(s.question.empty() ? "(the run's result)" : s.question, kWidth, "Summary: ", "  ");
  if (!s.strongest.empty()) {
    text += "  the strongest features (" + s.values_label +
            (s.band_label.empty() ? "" : " ± " + s.band_label) + "):\n";
    std::size_t name_width = 0;
    for (const SummaryFeature& f : s.strongest) name_width = std::max(name_width, f.name.size());
    for (const SummaryFeature& f : s.strongest)
      text += "    " + f.name + std::string(name_width - f.name.size() + 2, ' ') + ShortNumber(f.value) +
              (std::isnan(f.band) ? "" : " ± " + ShortNumber(f.band)) + "\n";
  }
  std::size_t fact_width = 0;
  for (const auto& fact : s.facts) fact_width = std::max(fact_width, fact.first.size());
  for (const auto& [name, value] : s.facts)
    text += Wrapped(value, kWidth, "  " + name + std::string(fact_width - name.size() + 2, ' '),
                    std::string(fact_width + 4, ' '));
  return text + "\n";
}

}}}  // namespace perfshap::detail
