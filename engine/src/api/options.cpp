// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <utility>

#include "api/sampling_input.hpp"
#include "data/message_text.hpp"
#include "data/text_lines.hpp"
#include "perfshap/blocks/cost.hpp"
#include "perfshap/blocks/curves.hpp"
#include "perfshap/error.hpp"
#include "perfshap/processes.hpp"
#include "schedule/agreement.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/xper.hpp"
#include "report/run_reporter.hpp"

namespace perfshap::inline v0::api {

namespace {

const nlohmann::json kNull;

std::string KindOf(const nlohmann::json& v) {
  if (v.is_string()) return "the text " + v.dump();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return "the number " + v.dump();
  if (v.is_array()) return "a list";
  if (v.is_object()) return "an object";
  return "null";
}

[[noreturn]] void WrongKind(const char* key, const nlohmann::json& v, const char* wanted) {
  throw InvalidArgument(std::string(key) + ": expected " + wanted + ", got " + KindOf(v), {key});
}

/** A whole number in [lo, hi]: a JSON integer, or a float with no fraction (3.0). */
std::int64_t WholeNumber(const char* key, const nlohmann::json& v, double lo, double hi, const char* wanted) {
  if (v.is_number_integer() || v.is_number_unsigned() || v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && d >= lo && d <= hi) {
      if (v.is_number_unsigned()) return static_cast<std::int64_t>(v.get<std::uint64_t>());
      if (v.is_number_integer()) return v.get<std::int64_t>();
      return static_cast<std::int64_t>(d);
    }
  }
  WrongKind(key, v, wanted);
}

/** A list of names: a JSON list of text, or the text "a,b,c" (empty cells dropped). */
std::vector<std::string> Names(const char* key, const nlohmann::json& v) {
  std::vector<std::string> out;
  if (v.is_string()) {
    for (std::string& cell : detail::SplitCells(v.get<std::string>()))
      if (!cell.empty()) out.push_back(std::move(cell));
    return out;
  }
  if (!v.is_array()) WrongKind(key, v, "a list of names or \"a,b\"");
  for (const auto& item : v) {
    if (!item.is_string()) WrongKind(key, item, "a list of names");
    out.push_back(item.get<std::string>());
  }
  return out;
}

/** A pair of whole numbers: [a, b], or the text "a<sep>b". */
std::pair<std::int64_t, std::int64_t> Pair(const char* key, const nlohmann::json& v, const std::string& sep,
                                           const char* wanted) {
  if (v.is_array() && v.size() == 2) {
    const double max = static_cast<double>(std::numeric_limits<std::int64_t>::max());
    return {WholeNumber(key, v[0], 0, max, wanted), WholeNumber(key, v[1], 0, max, wanted)};
  }
  if (v.is_string()) {
    const std::string text = v.get<std::string>();
    const auto at = text.find(sep);
    std::int64_t a = 0, b = 0;
    if (at != std::string::npos) {
      const auto ra = std::from_chars(text.data(), text.data() + at, a);
      const auto rb = std::from_chars(text.data() + at + sep.size(), text.data() + text.size(), b);
      if (ra.ec == std::errc() && ra.ptr == text.data() + at && rb.ec == std::errc() &&
          rb.ptr == text.data() + text.size() && a >= 0 && b >= 0)
        return {a, b};
    }
  }
  WrongKind(key, v, wanted);
}

}  // namespace

OptionReader::OptionReader(nlohmann::json options) : options_(std::move(options)) {
  if (options_.is_null()) options_ = nlohmann::json::object();
  if (!options_.is_object())
    throw InvalidArgument("the options must be a JSON object of option names and values, e.g. {\"threads\": 2}; "
                          "got " + KindOf(options_),
                          {"options"});
}

bool OptionReader::Has(const char* key) {
  read_.insert(key);
  const auto it = options_.find(key);
  return it != options_.end() && !it->is_null();
}

const nlohmann::json& OptionReader::Raw(const char* key) { return Has(key) ? options_.at(key) : kNull; }

std::string OptionReader::Invocation() const {
  nlohmann::json given = options_;
  for (const char* key : {"mpi_comm", "threads", "progress", "max_memory"}) given.erase(key);
  return given.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void OptionReader::Take(const char* key, std::string& field) {
  if (!Has(key)) return;
  const nlohmann::json& v = options_.at(key);
  if (!v.is_string()) WrongKind(key, v, "text");
  field = v.get<std::string>();
}

void OptionReader::Take(const char* key, bool& field) {
  if (!Has(key)) return;
  const nlohmann::json& v = options_.at(key);
  if (!v.is_boolean()) WrongKind(key, v, "true or false");
  field = v.get<bool>();
}

void OptionReader::Take(const char* key, double& field) {
  if (!Has(key)) return;
  const nlohmann::json& v = options_.at(key);
  if (!v.is_number()) WrongKind(key, v, "a number");
  field = v.get<double>();
}

void OptionReader::Take(const char* key, int& field) {
  if (!Has(key)) return;
  field = static_cast<int>(WholeNumber(key, options_.at(key), std::numeric_limits<int>::min(),
                                       std::numeric_limits<int>::max(), "a whole number"));
}

void OptionReader::Take(const char* key, std::int64_t& field) {
  if (!Has(key)) return;
  field = WholeNumber(key, options_.at(key), -9.2e18, 9.2e18, "a whole number");
}

void OptionReader::Take(const char* key, std::uint64_t& field) {
  if (!Has(key)) return;
  const nlohmann::json& v = options_.at(key);
  if (v.is_number_unsigned()) {
    field = v.get<std::uint64_t>();
    return;
  }
  field = static_cast<std::uint64_t>(WholeNumber(key, v, 0, 9.2e18, "a whole number >= 0"));
}


void OptionReader::RefuseUnread(const std::string& method) const {
  for (const auto& item : options_.items()) {
    if (read_.count(item.key()) > 0) continue;
    std::vector<std::string> known(read_.begin(), read_.end());
    throw InvalidArgument("unknown option '" + item.key() + "' for " + method + "; its options: " +
                              detail::CommaList(known),
                          {item.key()});
  }
}

void ReadDataOptions(OptionReader& o, DataInput& data) {
  if (data.table == nullptr) o.Take("data", data.path);
  o.Take("label", data.label);
  o.Take("positive", data.positive);
  std::string missing = "error";
  o.Take("missing", missing);
  data.missing = ParseMissingValues(missing);
  if (o.Has("features")) data.features = Names("features", o.Raw("features"));
  const nlohmann::json& groups = o.Raw("groups");
  if (groups.is_string()) {
    data.groups_source = groups.get<std::string>();
    data.groups = ReadFeatureGroups(data.groups_source);
  } else if (groups.is_object()) {
    for (const auto& item : groups.items()) {
      FeatureGroup g;
      g.name = item.key();
      g.columns = Names("groups", item.value());
      g.source = "groups";
      data.groups.push_back(std::move(g));
    }
    data.groups_source = "groups";
  } else if (!groups.is_null()) {
    WrongKind("groups", groups, "a groups file's path or {\"name\": [\"column\", ...]}");
  }
}

std::string OptionKeyOf(const std::string& option) {
  static const std::map<std::string, std::string> kKeys = {
      {"time_limit_seconds", "time_limit"}, {"max_model_evaluations", "max_evaluations"},
      {"max_memory_bytes", "max_memory"},   {"model_params", "model_param"},
      {"signed_weights", "signed"}};
  const auto it = kKeys.find(option);
  return it == kKeys.end() ? option : it->second;
}

void ReadExecutionOptions(OptionReader& o, ExecutionOptions& execution) {
  o.Take("threads", execution.threads);
  if (execution.threads < 0)
    throw InvalidArgument("threads " + std::to_string(execution.threads) +
                              " is negative: give 0 (every core) or a number of threads",
                          {"threads"});
  const nlohmann::json& memory = o.Raw("max_memory");
  if (memory.is_string())
    execution.limits.max_memory_bytes = ParseMemorySize(memory.get<std::string>());
  else if (memory.is_number() && memory.get<double>() >= 0)
    execution.limits.max_memory_bytes = memory.get<double>();
  else if (!memory.is_null())
    WrongKind("max_memory", memory, "a size (\"2G\", \"512M\") or a number of bytes");
  o.Take("max_evaluations", execution.limits.max_model_evaluations);
  // The processes to share the run with: the address of the caller's MPI_Comm (mpi4py:
  // MPI._addressof(comm); the C API: (uintptr_t)&comm).
  const nlohmann::json& comm = o.Raw("mpi_comm");
  if (comm.is_number_integer() && comm.get<std::int64_t>() > 0)
    execution.processes =
        Processes::FromMpiComm(reinterpret_cast<const void*>(static_cast<std::uintptr_t>(comm.get<std::int64_t>())));
  else if (!comm.is_null())
    WrongKind("mpi_comm", comm, "the address of an MPI communicator (mpi4py: MPI._addressof(comm))");
  detail::NoteRunProcesses(execution.processes);
  execution.invocation = o.Invocation();
}

void ReadSolverOptions(OptionReader& o, std::uint64_t seed, SolverSpec& solver, SamplingOptions& sampling,
                       const std::string& default_solver) {
  std::string name = default_solver;
  o.Take("solver", name);
  solver = name;
  o.Take("budget", sampling.budget);
  o.Take("tolerance", sampling.tolerance);
  o.Take("time_limit", sampling.time_limit_seconds);
  o.Take("keep_samples", sampling.keep_samples);
  sampling.seed = seed;
  CheckSampling(solver, sampling);
}

void ReadModelParams(OptionReader& o, std::map<std::string, std::string>& params) {
  const nlohmann::json& v = o.Raw("model_param");
  if (v.is_null()) return;
  if (v.is_object()) {
    for (const auto& item : v.items())
      params[item.key()] = item.value().is_string() ? item.value().get<std::string>() : item.value().dump();
    return;
  }
  const nlohmann::json list = v.is_string() ? nlohmann::json::array({v}) : v;
  if (!list.is_array()) WrongKind("model_param", v, "{\"key\": value} or [\"key=value\", ...]");
  for (const auto& item : list) {
    const std::string text = item.is_string() ? item.get<std::string>() : std::string();
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InvalidArgument("model_param: " + (item.is_string() ? detail::Quoted(text) : KindOf(item)) +
                                " is not KEY=VALUE (e.g. \"C=0.5\")",
                            {"model_param"});
    params[text.substr(0, eq)] = text.substr(eq + 1);
  }
}

detail::ReportTarget ReadReportTarget(OptionReader& o) {
  detail::ReportTarget target;
  std::string figures = "summary", report;
  o.Take("figures", figures);
  target.options.figures = detail::ParseFigureSet(figures);
  o.Take("out", target.dir);
  o.Take("force", target.force);
  o.Take("report", report);
  if (!report.empty() && report != "html")
    throw InvalidArgument("report='" + report + "': the one report is 'html' (report.html)", {"report"});
  target.html = report == "html";
  if (!target.dir.empty()) detail::PrepareOutputDir(target.dir, target.force);
  return target;
}

namespace {

/** XPER's comparator: "full" unless given. */
XperComparator ReadComparator(OptionReader& o) {
  std::string comparator = "full";
  o.Take("comparator", comparator);
  return ParseXperComparator(comparator);
}

/** model_file: an XGBoost model's path, unless the request holds a model object already. */
void ReadModelFile(OptionReader& o, GivenModelInput& m) {
  if (m.given()) return;
  std::string file;
  o.Take("model_file", file);
  if (!file.empty()) m.name = m.tree_file = file;
}

/** train: the training sample's CSV path, unless the request holds a table already. */
void ReadTrainFile(OptionReader& o, std::optional<DataInput>& train) {
  if (train) return;
  std::string path;
  o.Take("train", path);
  if (path.empty()) return;
  DataInput t;
  t.path = path;
  train = t;
}

std::optional<IterationRange> ReadIterationRange(OptionReader& o) {
  const nlohmann::json& v = o.Raw("iteration_range");
  if (v.is_null()) return std::nullopt;
  const auto [begin, end] = Pair("iteration_range", v, ":", "[begin, end] or \"begin:end\" (boosting rounds)");
  return IterationRange{begin, end};
}

}  // namespace


void ReadShapOptions(OptionReader& o, ShapRequest& request, bool treeshap) {
  ReadDataOptions(o, request.data);
  std::string approach = treeshap ? "tree" : "interventional";
  if (!treeshap) o.Take("approach", approach);
  request.approach = ParseShapApproach(approach);
  std::string output;
  o.Take("output", output);
  if (!output.empty()) request.output = ParseShapOutput(output);
  ShapModelInput& m = request.model;
  o.Take("model", m.learner.name);
  ReadModelParams(o, m.learner.params);
  ReadModelFile(o, m);
  ReadTrainFile(o, m.train);
  if (o.Has("max_depth")) {
    int depth = 0;
    o.Take("max_depth", depth);
    m.max_depth = depth;
  }
  if (o.Has("trees")) {
    int trees = 0;
    o.Take("trees", trees);
    m.trees = trees;
  }
  if (auto range = ReadIterationRange(o)) m.iteration_range = range;
  if (o.Has("background")) {
    std::size_t n = 0;
    o.Take("background", n);
    request.background = n;
  }
  if (!request.background_rows) {
    std::string file;
    o.Take("background_file", file);
    if (!file.empty()) {
      DataInput b;
      b.path = file;
      request.background_rows = b;
    }
  }
  const nlohmann::json& rows = o.Raw("rows");
  if (!rows.is_null()) {
    const auto [first, last] = Pair("rows", rows, "..", "[first, last] or \"first..last\" (0-based rows)");
    if (first > last) WrongKind("rows", rows, "[first, last] with first <= last");
    request.rows = std::make_pair(static_cast<std::size_t>(first), static_cast<std::size_t>(last));
  }
  std::int64_t row = -1;
  o.Take("explain_row", row);
  if (row >= 0) request.explain_row = static_cast<std::size_t>(row);
  o.Take("interactions", request.interactions);
  if (o.Has("interaction_features"))
    request.interaction_features = Names("interaction_features", o.Raw("interaction_features"));
  o.Take("seed", request.seed);
  ShapOptions& opt = request.options;
  ReadSolverOptions(o, request.seed, opt.solver, opt.solver_options, treeshap ? "exact" : "auto");
  ReadExecutionOptions(o, opt.solver_options.execution);
}



}  // namespace perfshap::api
