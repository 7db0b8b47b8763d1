// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/shared_options.hpp"

#include <charconv>
#include <cmath>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/sampling_input.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/error.hpp"
#include "data/text_lines.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/players.hpp"
#include "report/figure_bounds.hpp"
#include "report/output.hpp"

namespace perfshap { inline namespace v0 { namespace api {

namespace {

template <class S, class V>
std::function<V&(S&)> Field(V S::*field) {
  return [field](S& s) -> V& { return s.*field; };
}

RequestOptions<DataInput> MakeDataOptions() {
  using Ctx = RequestOptions<DataInput>::ParseContext;
  RequestOptions<DataInput> t("data");
  t.Add("data", Field(&DataInput::path))
      .Value("FILE")
      .Help("CSV file with a header row (default: built-in generated data)");
  t.Add("label", Field(&DataInput::label)).Value("COLUMN").Help("name of the label column of data");
  t.Add("positive", Field(&DataInput::positive))
      .Value("VALUE")
      .Help("label value of the positive class (default: the label is 0/1)");
  t.AddParsed("missing", OptionType::kText, "error", [](const Ctx& c, DataInput& d) {
     d.missing = ParseMissingValues(perfshap::detail::ParseTextOption(c.method, c.option.info, c.text));
   })
      .Choices({"error", "category", "drop"})
      .Help("missing cells (?, empty, NA): error, category (a level of a text column) or drop (the rows)");
  t.Add("features", Field(&DataInput::features))
      .Value("A,B,...")
      .Help("comma-separated feature columns (default: all but the label)");
  t.AddParsed("groups", OptionType::kText, "", [](const Ctx& c, DataInput& d) {
     // A file's path, or (from JSON and Python) the object itself: {"name": ["column", ...]}.
     const bool object = c.text.find_first_not_of(" \t\r\n") != std::string::npos &&
                         c.text[c.text.find_first_not_of(" \t\r\n")] == '{';
     d.groups = object ? ParseFeatureGroups(c.text, "groups") : ReadFeatureGroups(c.text);
     d.groups_source = object ? std::string("groups") : c.text;
   })
      .Value("FILE")
      .Help("JSON {\"group\": [\"col\", ...], ...}: each group is one player (other columns stay single)");
  return t;
}

RequestOptions<ExecutionOptions> MakeExecutionOptions() {
  using Ctx = RequestOptions<ExecutionOptions>::ParseContext;
  RequestOptions<ExecutionOptions> t("execution");
  t.Add("threads", Field(&ExecutionOptions::threads))
      .AtLeast(0)
      .PerProcess()
      .Help("worker threads (0 = all cores, at most the cores); results do not depend on it");
  t.AddParsed("max_memory", OptionType::kText, "", [](const Ctx& c, ExecutionOptions& e) {
     try {
       e.limits.max_memory_bytes = ParseMemorySize(c.text);
     } catch (const InvalidArgument&) {
       c.Refuse("a memory size: bytes, or a number with K, M, G or T (powers of 1024), e.g. 8G");
     }
   })
      .Value("SIZE")
      .Sets("max_memory_bytes")
      .PerProcess()
      .Help("refuse a run whose estimated memory exceeds this (bytes, or with K/M/G/T; default: 3/4 of the "
            "machine's memory)");
  t.AddParsed("max_evaluations", OptionType::kNumber, "", [](const Ctx& c, ExecutionOptions& e) {
     e.limits.max_model_evaluations = perfshap::detail::ParseNumberOption(c.method, c.option.info, c.text);
   })
      .AtLeast(0)
      .Sets("max_model_evaluations")
      .Help("refuse a run whose estimated model evaluations exceed this (0 = the default, 1e14: days of work)");
  return t;
}

RequestOptions<detail::ReportTarget> MakeOutputOptions() {
  using Ctx = RequestOptions<detail::ReportTarget>::ParseContext;
  RequestOptions<detail::ReportTarget> t("output");
  t.Add("out", Field(&detail::ReportTarget::dir))
      .Value("DIR")
      .Help("output directory for result.json and the other files");
  t.Add("force", Field(&detail::ReportTarget::force))
      .Switch()
      .Help("replace a non-empty out directory, an earlier run's results, as a whole (no earlier file stays)");
  t.AddParsed("figures", OptionType::kText, "summary", [](const Ctx& c, detail::ReportTarget& r) {
     r.options.figures = detail::ParseFigureSet(perfshap::detail::ParseTextOption(c.method, c.option.info, c.text));
   })
      .Choices(detail::FigureSetNames())
      .Help("SVG figures in out: none; summary (each figure bounded: at most " +
            std::to_string(detail::kMaxPointsPerFeature) + " rows per feature, the top " +
            std::to_string(detail::kMaxFeaturesShown) +
            " features and one row for the others); all (also one figure per explained row where the method has "
            "them, shap / treeshap waterfalls and xper's, for the first " +
            std::to_string(detail::kMaxRowFigures) + " rows)");
  t.AddParsed("report", OptionType::kText, "", [](const Ctx& c, detail::ReportTarget& r) {
     r.html = perfshap::detail::ParseTextOption(c.method, c.option.info, c.text) == "html";
   })
      .Choices({"html"})
      .Help("html: also write report.html into out, one self-contained page (settings, tables, figures, "
            "result.json)");
  return t;
}

/** model_param's items: "K=V,K=V" (the command line's repeated flag, a JSON or Python list), or
 *  a JSON object's text ({"K": value}, from C and Python). */
std::vector<std::pair<std::string, std::string>> ModelParamItems(const RequestOptions<LearnerInput>::ParseContext& c) {
  std::vector<std::pair<std::string, std::string>> out;
  const std::size_t first = c.text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && c.text[first] == '{') {
    nlohmann::json doc;
    try {
      doc = nlohmann::json::parse(c.text);
    } catch (const nlohmann::json::exception&) {
      c.Refuse("{\"KEY\": value} or KEY=VALUE items (e.g. C=0.5)");
    }
    if (!doc.is_object()) c.Refuse("{\"KEY\": value} or KEY=VALUE items (e.g. C=0.5)");
    for (const auto& item : doc.items())
      out.emplace_back(item.key(), item.value().is_string() ? item.value().get<std::string>() : item.value().dump());
    return out;
  }
  for (const std::string& item : perfshap::detail::ParseListOption(c.method, c.option.info, c.text)) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) c.Refuse("KEY=VALUE items, an option of the learner each (e.g. C=0.5)");
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
  }
  return out;
}

RequestOptions<LearnerInput> MakeLearnerOptions() {
  using Ctx = RequestOptions<LearnerInput>::ParseContext;
  RequestOptions<LearnerInput> t("learner");
  std::string learners, params;
  for (const LearnerEntry& entry : RegisteredLearners()) {
    learners += (learners.empty() ? "" : "|") + entry.name;
    if (entry.options.empty()) continue;
    params += "; " + entry.name + ":";
    for (const OptionInfo& info : entry.options) params += " " + info.name + "=" + info.default_text;
  }
  t.Add("model", Field(&LearnerInput::name)).Value("LEARNER").Sets("learner").Help(learners + ": the learner fitted on the data");
  t.AddParsed("model_param", OptionType::kList, "", [](const Ctx& c, LearnerInput& l) {
     for (auto& [key, value] : ModelParamItems(c)) {
       if (l.params.count(key) != 0)
         throw InvalidArgument(c.method + ": option model_param gives " + key + " twice; give each learner option once",
                               {"model_param"});
       l.params[key] = value;
     }
   })
      .Value("KEY=VALUE")
      .Sets("model_params")
      .Repeatable()
      .Help("an option of the learner (repeatable), e.g. C=0.5. The learners' options, with their defaults" + params);
  return t;
}

RequestOptions<GivenModelInput> MakeModelFileOptions() {
  using Ctx = RequestOptions<GivenModelInput>::ParseContext;
  RequestOptions<GivenModelInput> t("model");
  t.AddParsed("model_file", OptionType::kText, "", [](const Ctx& c, GivenModelInput& m) {
     m.name = m.tree_file = c.text;
   })
      .Value("FILE")
      .Help("an XGBoost model saved as JSON (Booster.save_model(\"m.json\"))");
  t.AddParsed("iteration_range", OptionType::kText, "", [](const Ctx& c, GivenModelInput& m) {
     // BEGIN:END, or BEGIN,END (a pair from JSON and Python): whole numbers >= 0.
     const std::size_t at = c.text.find_first_of(":,");
     std::int64_t v[2] = {0, 0};
     const char* parts[3] = {c.text.data(), at == std::string::npos ? nullptr : c.text.data() + at,
                             c.text.data() + c.text.size()};
     bool ok = parts[1] != nullptr;
     for (int k = 0; ok && k < 2; ++k) {
       const char* first = k == 0 ? parts[0] : parts[1] + 1;
       const char* last = k == 0 ? parts[1] : parts[2];
       const auto [p, ec] = std::from_chars(first, last, v[k]);
       ok = first != last && ec == std::errc() && p == last && v[k] >= 0;
     }
     if (!ok) c.Refuse("BEGIN:END, the boosting rounds [BEGIN, END) to use (0-based, END 0 = to the last round)");
     m.iteration_range = IterationRange{v[0], v[1]};
   })
      .Value("BEGIN:END")
      .TakesList()
      .Help("the boosting rounds [BEGIN, END) of model_file to use (END 0 = to the last; 0:0 = all). Default: up "
            "to the model's best_iteration after early stopping, as XGBoost's scikit-learn predict and shap, else "
            "all");
  return t;
}

RequestOptions<SplitInput> MakeSplitOptions() {
  using Ctx = RequestOptions<SplitInput>::ParseContext;
  RequestOptions<SplitInput> t("splits");
  t.Add("cv", Field(&SplitInput::plan))
      .Value("PLAN")
      .Sets("plan")
      .Help("splits: holdout, mc:R (Monte-Carlo) or kfold:K; the learner is fitted on each training part");
  t.Add("test_size", Field(&SplitInput::test_size))
      .AtLeast(0.01)
      .AtMost(0.99)
      .Help("test fraction of holdout and mc splits");
  t.Add("stratify", Field(&SplitInput::stratify)).Switch().Help("split each class in the same proportion");
  t.AddParsed("split", OptionType::kText, "", [](const Ctx& c, SplitInput& s) { s.file = c.text; })
      .Value("FILE")
      .Help("JSON with explicit splits: {\"train\":[..],\"test\":[..]} or {\"splits\":[..]}");
  return t;
}

RequestOptions<SolverChoice> MakeSolverOptions() {
  using Ctx = RequestOptions<SolverChoice>::ParseContext;
  RequestOptions<SolverChoice> t("solver");
  t.AddParsed("solver", OptionType::kText, "exact", [](const Ctx& c, SolverChoice& s) {
     s.solver = perfshap::detail::ParseTextOption(c.method, c.option.info, c.text);
   })
      .Choices(SolverNames())
      .Help("Shapley solver: exact (every coalition), permutation or kernel (sampled, with standard errors), "
            "auto (exact while 2^n fits the budget, else kernel)");
  t.Add<std::uint64_t>("budget", [](SolverChoice& s) -> std::uint64_t& { return s.sampling.budget; })
      .Help("sampled solvers: coalition evaluations at most (0 = " + std::to_string(kDefaultSampleBudget) + ")");
  t.Add<double>("tolerance", [](SolverChoice& s) -> double& { return s.sampling.tolerance; })
      .Above(0)
      .Below(1)
      .Help("sampled solvers: stop once max se / (max phi - min phi) < tolerance");
  t.Add<double>("time_limit", [](SolverChoice& s) -> double& { return s.sampling.time_limit_seconds; })
      .Sets("time_limit_seconds")
      .AtLeast(0)
      .Help("sampled solvers: stop after this many seconds (0 = none)");
  t.Add<bool>("keep_samples", [](SolverChoice& s) -> bool& { return s.sampling.keep_samples; })
      .Switch()
      .Help("sampled solvers: write every sampled coalition and its value to samples.csv in out");
  t.Finish([](SolverChoice& s) { CheckSampling(s.solver, s.sampling); });
  return t;
}

}  // namespace

const RequestOptions<DataInput>& DataOptionGroup() { return OptionsOnce<MakeDataOptions>(); }

const RequestOptions<ExecutionOptions>& ExecutionOptionGroup() { return OptionsOnce<MakeExecutionOptions>(); }

const RequestOptions<detail::ReportTarget>& OutputOptionGroup() { return OptionsOnce<MakeOutputOptions>(); }

const RequestOptions<LearnerInput>& LearnerOptionGroup() { return OptionsOnce<MakeLearnerOptions>(); }

const RequestOptions<GivenModelInput>& ModelFileOptionGroup() { return OptionsOnce<MakeModelFileOptions>(); }

const RequestOptions<SplitInput>& SplitOptionGroup() { return OptionsOnce<MakeSplitOptions>(); }

const RequestOptions<SolverChoice>& SolverOptionGroup() { return OptionsOnce<MakeSolverOptions>(); }

}}}  // namespace perfshap::api
