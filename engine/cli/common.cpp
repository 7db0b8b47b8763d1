// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "common.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string_view>

#include <unistd.h>

#include "data/message_text.hpp"
#include "data/text_lines.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "schedule/agreement.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "embed.hpp"
#include "api/sampling_input.hpp"
#include "perfshap/table.hpp"
#include "report/run_reporter.hpp"
#include "report/figure_bounds.hpp"
#include "report/format.hpp"
#include "report/output.hpp"

namespace perfshap::inline v0::cli {

namespace {
// Model evaluations from which the estimate is printed even without a progress bar: about a
// minute of work at 1e8 a second.
constexpr double kSayEstimateAbove = 1e10;
}  // namespace

void AddCommonOptions(CLI::App& app, CommonOptions& opts, std::uint64_t default_seed) {
  app.add_option("--data", opts.data, "CSV file with a header row (default: built-in generated data)");
  app.add_option("--label", opts.label, "name of the label column of --data");
  app.add_option("--positive", opts.positive, "label value of the positive class (default: the label is 0/1)");
  app.add_option("--groups", opts.groups,
                 "JSON {\"group\": [\"col\", ...], ...}: each group is one player (other columns stay single)");
  app.add_option("--missing", opts.missing,
                 "missing cells (?, empty, NA): error, category (a level of a text column) or drop (the rows)")
      ->check(CLI::IsMember({"error", "category", "drop"}))
      ->capture_default_str();
  AddRunOptions(app, opts, default_seed, "random seed (splits, generated data)",
                "output directory for result.json and the other files");
}

void AddRunOptions(CLI::App& app, CommonOptions& opts, std::uint64_t default_seed, const std::string& seed_help,
                   const std::string& out_help) {
  opts.seed = default_seed;
  app.add_option("--threads", opts.threads, "worker threads (0 = all cores); results do not depend on it")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--seed", opts.seed, seed_help)->capture_default_str();
  app.add_option("--out", opts.out, out_help);
  app.add_flag("--quiet", opts.quiet, "print nothing but errors");
  app.add_flag("--force", opts.force,
               "replace a non-empty --out directory, an earlier run's results, as a whole (no earlier file stays)");
  app.add_option("--progress", opts.progress, "progress on stderr: auto (bar on a terminal), bar, plain, none")
      ->check(CLI::IsMember({"auto", "bar", "plain", "none"}))
      ->capture_default_str();
  app.add_option("--max-memory", opts.max_memory,
                 "refuse a run whose estimated memory exceeds this (bytes, or with K/M/G/T; default: 3/4 of the "
                 "machine's memory)");
  app.add_option("--max-evaluations", opts.max_evaluations,
                 "refuse a run whose estimated model evaluations exceed this (default 1e14: days of work)");
  app.add_option("--report", opts.report,
                 "html: also write report.html into --out, one self-contained page (settings, tables, figures, "
                 "result.json)")
      ->check(CLI::IsMember({"html"}));
  app.add_option("--figures", opts.figures,
                 "SVG figures in --out: none; summary (each figure bounded: at most " +
                     std::to_string(detail::kMaxPointsPerFeature) + " rows per feature, the top " +
                     std::to_string(detail::kMaxFeaturesShown) +
                     " features and one row for the others); all (also one figure per explained row where the "
                     "method has them, shap / treeshap waterfalls and xper's, for the first " +
                     std::to_string(detail::kMaxRowFigures) + " rows)")
      ->check(CLI::IsMember(detail::FigureSetNames()))
      ->capture_default_str();
}

void AddSolverOptions(CLI::App& app, SolverCliOptions& opts, const std::string& unit) {
  app.add_option("--solver", opts.solver,
                 "Shapley solver: exact (every coalition), permutation or kernel (sampled, with standard errors), "
                 "auto (exact while 2^n fits the budget, else kernel)")
      ->check(CLI::IsMember(SolverNames()))
      ->capture_default_str();
  app.add_option("--budget", opts.budget,
                 "sampled solvers: coalition evaluations at most (" + unit + "; 0 = " +
                     std::to_string(kDefaultSampleBudget) + ")")
      ->capture_default_str();
  app.add_option("--tolerance", opts.tolerance,
                 "sampled solvers: stop once max se / (max phi - min phi) < tolerance, in (0, 1)")
      ->capture_default_str();
  app.add_option("--time-limit", opts.time_limit, "sampled solvers: stop after this many seconds (0 = none)")
      ->capture_default_str();
  app.add_flag("--keep-samples", opts.keep_samples,
               "sampled solvers: write every sampled coalition and its value to samples.csv in --out");
}

void ApplySolverOptions(const SolverCliOptions& opts, std::uint64_t seed, SolverSpec& solver,
                        SamplingOptions& sampling) {
  solver = opts.solver;
  sampling.budget = opts.budget;
  sampling.tolerance = opts.tolerance;
  sampling.time_limit_seconds = opts.time_limit;
  sampling.seed = seed;
  sampling.keep_samples = opts.keep_samples;
  api::CheckSampling(solver, sampling);
}

namespace {
std::string FormatSeconds(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.1fs", s);
  else std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  return buf;
}
}  // namespace

int ProcessRank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && *value != '\0') return std::atoi(value);
  }
  return 0;
}

namespace {
std::string& Invocation() {
  static std::string text;
  return text;
}
}  // namespace

void SetInvocation(int argc, const char* const* argv) {
  std::string& text = Invocation();
  text.clear();
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    bool skip = false;
    for (const std::string_view flag : {"--threads", "--progress", "--max-memory"}) {
      if (arg == flag) {
        ++i;  // and its value
        skip = true;
      } else if (arg.substr(0, flag.size() + 1) == std::string(flag) + "=") {
        skip = true;
      }
    }
    if (skip || arg == "--quiet" || arg == "-q") continue;
    text.append(arg).push_back('\0');
  }
}

ErrorFate FateOfError(std::exception_ptr error) {
  if (CurrentEmbedding() != nullptr || !Processes::Launched()) return ErrorFate::kSay;
  std::shared_ptr<const Processes> world;
  try {
    world = Processes::World();
  } catch (...) {
    return ErrorFate::kSay;
  }
  if (world->size() <= 1) return ErrorFate::kSay;
  // Before the agreement the others learn it there, and rank 0 says it (the one that failed
  // when rank 0 did not: "rank R of N: ..."); after it, a collective's error is every process's.
  if (detail::TellPeersOfFailure(std::move(error), world.get()) || detail::ErrorIsShared())
    return world->rank() == 0 ? ErrorFate::kSay : ErrorFate::kSilent;
  return ErrorFate::kSayAndAbort;
}

void AbortEveryProcess(int code) { detail::AbortProcesses(*Processes::World(), code); }

ExecutionOptions MakeExecution(const CommonOptions& opts, const std::string& what) {
  ExecutionOptions exec;
  exec.threads = opts.threads;
  exec.invocation = Invocation();
  if (!opts.max_memory.empty()) exec.limits.max_memory_bytes = ParseMemorySize(opts.max_memory);
  if (!(opts.max_evaluations >= 0.0 && std::isfinite(opts.max_evaluations)))
    throw InvalidArgument("--max-evaluations " + Fmt("%g", opts.max_evaluations) + " is not a count >= 0 (0: the default)");
  exec.limits.max_model_evaluations = opts.max_evaluations;
  WireExecution(exec, opts.quiet, opts.progress, what);
  return exec;
}

void WireExecution(ExecutionOptions& exec, bool quiet, const std::string& progress, const std::string& what) {
  // Under mpirun: the processes of the job share the work; only rank 0 speaks.
  if (CurrentEmbedding() == nullptr && Processes::Launched()) {
    exec.processes = Processes::World();
    if (exec.processes->rank() != 0) return;
  }
  if (const Embedding* embedding = CurrentEmbedding()) {
    exec.progress = embedding->progress;
    exec.cancel = embedding->cancel;
    return;
  }
  std::string mode = progress;
  if (quiet) mode = "none";
  if (mode == "auto") mode = ::isatty(STDERR_FILENO) != 0 ? "bar" : "none";
  // The estimate goes with the progress; a long run's estimate is said even without a bar, so a
  // run that will take minutes never starts in silence.
  exec.on_estimate = [mode, quiet](const CostEstimate& e) {
    if (quiet || (mode == "none" && e.model_evaluations < kSayEstimateAbove)) return;
    std::fputs(("perfshap: estimate: " + e.Text() + "\n").c_str(), stderr);
    std::fflush(stderr);
  };
  if (mode == "none") return;
  const bool bar = mode == "bar";
  exec.progress = [bar, what](const Progress& p) {
    const double frac = p.total > 0 ? static_cast<double>(p.done) / static_cast<double>(p.total) : 0.0;
    char line[256];
    if (bar) {
      constexpr int kWidth = 30;
      const int filled = static_cast<int>(std::lround(frac * kWidth));
      std::string cells(static_cast<std::size_t>(filled), '#');
      cells.append(static_cast<std::size_t>(kWidth - filled), '.');
      std::snprintf(line, sizeof line, "\r%s [%s] %5.1f%% %llu/%llu  %.3g/s  ETA %s ", what.c_str(), cells.c_str(),
                    100.0 * frac, static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.total),
                    p.rate, FormatSeconds(p.eta_seconds).c_str());
      std::fputs(line, stderr);
      if (p.finished) std::fputs("\n", stderr);
    } else {
      std::snprintf(line, sizeof line, "progress %s %llu/%llu %.1f%% rate %.3g/s eta %s%s\n", what.c_str(),
                    static_cast<unsigned long long>(p.done), static_cast<unsigned long long>(p.total), 100.0 * frac,
                    p.rate, FormatSeconds(p.eta_seconds).c_str(), p.finished ? " done" : "");
      std::fputs(line, stderr);
    }
    std::fflush(stderr);
  };
}

api::DataInput TableInput(const std::string& path) {
  api::DataInput input;
  input.path = path;
  return input;
}

namespace {
/** --data without --label, in the command line's words (before the request layer says it). */
void RequireLabel(const CommonOptions& opts) {
  if (opts.label.empty())
    throw InvalidArgument("--data " + opts.data + " needs --label COLUMN (the name of the label column)");
}

/** The rows of --data (the CSV file) or of the generated
 *  design, without the players. */
api::DataInput RowsInput(const CommonOptions& opts, std::size_t rows) {
  api::DataInput input = TableInput(opts.data);
  input.label = opts.label;
  input.positive = opts.positive;
  input.missing = MissingPolicy(opts);
  input.generated_rows = rows;
  return input;
}
}  // namespace

Dataset LoadData(const CommonOptions& opts, bool regression) {
  RequireLabel(opts);
  return api::ReadData(RowsInput(opts, 0), opts.seed, regression);
}

api::DataInput CommandData(const CommonOptions& opts, std::size_t rows, const std::string& features) {
  api::DataInput input = RowsInput(opts, rows);
  input.features = SplitList(features);
  input.groups = LoadGroups(opts);
  input.groups_source = opts.groups;
  return input;
}

MissingValues MissingPolicy(const CommonOptions& opts) {
  if (opts.missing == "category") return MissingValues::kCategory;
  if (opts.missing == "drop") return MissingValues::kDrop;
  return MissingValues::kError;
}

std::vector<FeatureGroup> LoadGroups(const CommonOptions& opts) {
  return opts.groups.empty() ? std::vector<FeatureGroup>{} : ReadFeatureGroups(opts.groups);
}

Design LoadDesign(const CommonOptions& opts, std::size_t rows, const std::string& features, TextColumns policy) {
  if (!opts.data.empty()) RequireLabel(opts);
  return api::ReadDesign(CommandData(opts, rows, features), opts.seed, policy);
}

Dataset LoadDataOrProbitDesign(const CommonOptions& opts, std::size_t rows) {
  if (!opts.data.empty()) return LoadData(opts);
  return api::ReadData(RowsInput(opts, rows), opts.seed);
}

void PrepareOut(const CommonOptions& opts) {
  if (!opts.report.empty() && opts.out.empty() && CurrentEmbedding() == nullptr)
    throw InvalidArgument("--report " + opts.report + " writes report.html into the output directory: give --out DIR");
  if (!opts.out.empty() && ProcessRank() == 0) detail::PrepareOutputDir(opts.out, opts.force);
}

void Say(const CommonOptions& opts, const std::string& text) { Say(opts.quiet, text); }

void Say(bool quiet, const std::string& text) {
  if (Embedding* embedding = CurrentEmbedding()) {
    embedding->console += text;
    return;
  }
  if (!quiet && ProcessRank() == 0) std::cout << text << std::flush;
}

api::LearnerInput CommandLearner(const std::string& name, const LearnerParams& params) {
  api::LearnerInput input;
  input.name = name;
  input.params = params;
  return input;
}

std::shared_ptr<const Learner> MakeCommandLearner(const std::string& name, const LearnerParams& params) {
  return api::MakeLearnerOf(CommandLearner(name, params));
}

XgboostReadOptions ModelReadOptions(const std::string& iteration_range, const std::string& model_file) {
  XgboostReadOptions options;
  if (iteration_range.empty()) return options;
  const std::string flag = "--iteration-range " + detail::Quoted(iteration_range);
  if (model_file.empty())
    throw InvalidArgument(flag + " selects boosting rounds of an XGBoost model: it needs --model-file m.json");
  const auto sep = iteration_range.find_first_of(":,");
  const auto number = [](std::string_view s, std::int64_t& v) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size() && v >= 0;
  };
  IterationRange range;
  if (sep == std::string::npos || !number(std::string_view(iteration_range).substr(0, sep), range.begin) ||
      !number(std::string_view(iteration_range).substr(sep + 1), range.end))
    throw InvalidArgument(flag + ": give BEGIN:END, the boosting rounds [BEGIN, END) to use (0-based, END 0 = to the "
                                 "last round; e.g. 0:0 for all rounds, 0:50 for the first 50)");
  options.iteration_range = range;
  return options;
}

void AddIterationRangeOption(CLI::App& app, std::string& iteration_range) {
  app.add_option("--iteration-range", iteration_range,
                 "BEGIN:END: the boosting rounds [BEGIN, END) of --model-file to use (END 0 = to the last; "
                 "0:0 = all). Default: up to the model's best_iteration after early stopping, as XGBoost's "
                 "scikit-learn predict and shap, else all");
}

void Report(const CommonOptions& opts, Reporter reporter) {
  Report(detail::ReportTarget{{detail::ParseFigureSet(opts.figures)}, opts.out, opts.force, opts.report == "html"},
         std::move(reporter));
}

void Report(const detail::ReportTarget& target, Reporter reporter) {
  Embedding* embedding = CurrentEmbedding();
  if (target.dir.empty() && embedding == nullptr) return;
  if (embedding == nullptr && ProcessRank() != 0) return;
  if (embedding != nullptr && embedding->defer_files && target.dir.empty() && !target.html) {
    embedding->deferred = [reporter = std::move(reporter), options = target.options](detail::OutputDir& out) {
      out.set_options(options);
      reporter(out);
    };
    return;
  }
  std::vector<detail::ReportFile> files = detail::RunReporter(reporter, target);
  if (embedding != nullptr) embedding->files = std::move(files);
}

std::string OneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

std::string ParseErrorText(const std::string& what) {
  const std::string text = OneLine(what);
  // CLI11's "--cv: At Most 1 required but received 2".
  const std::string given = ": At Most 1 required but received ";
  if (const std::size_t at = text.find(given); at != std::string::npos && at < text.find(' '))
    return text.substr(0, at) + " was given " + text.substr(at + given.size()) + " times; give it once";
  // CLI11's NonNegativeNumber: "--threads: Value V not in range 0.000000 to 1797...(309 digits)".
  const std::string value = ": Value ", range = " not in range ", largest = " to 179769313486231570";
  const std::size_t at = text.find(value), to = text.rfind(largest);
  if (at != std::string::npos && at < text.find(' ') && to != std::string::npos) {
    const std::size_t in = text.rfind(range, to);
    if (in != std::string::npos && in > at) {
      const std::string lo = text.substr(in + range.size(), to - in - range.size());
      return text.substr(0, at) + ": " + detail::Quoted(text.substr(at + value.size(), in - at - value.size())) +
             " is not a number >= " + detail::Fmt("%g", std::strtod(lo.c_str(), nullptr));
    }
  }
  return detail::ShortenLongWords(text);
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> out;
  for (auto& item : detail::SplitCells(text))
    if (!item.empty()) out.push_back(std::move(item));
  return out;
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string s;
  for (std::size_t i = 0; i < items.size(); ++i) s += (i > 0 ? separator : std::string()) + items[i];
  return s;
}

std::vector<std::string> LearnerNames() {
  std::vector<std::string> names;
  for (const auto& entry : RegisteredLearners()) names.push_back(entry.name);
  return names;
}

}  // namespace perfshap::cli
