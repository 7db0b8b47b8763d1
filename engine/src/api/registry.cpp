// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/registry.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/shared_options.hpp"
#include "common/enum_names.hpp"
#include "data/message_text.hpp"
#include "perfshap/error.hpp"
#include "report/output.hpp"
#include "report/run_summary.hpp"
#include "schedule/agreement.hpp"

namespace perfshap { inline namespace v0 { namespace api {

#define PERFSHAP_METHOD(entry) MethodEntry entry();
#include "api/methods/method_list.inc"
#undef PERFSHAP_METHOD

const std::vector<MethodEntry>& Methods() {
  static const std::vector<MethodEntry> methods = {
#define PERFSHAP_METHOD(entry) entry(),
#include "api/methods/method_list.inc"
#undef PERFSHAP_METHOD
  };
  return methods;
}

const char* RoleName(InputRole role) noexcept {
  static constexpr detail::EnumName<InputRole> kNames[] = {
      {InputRole::kData, "data"},     {InputRole::kTrain, "train"},     {InputRole::kBackground, "background"},
      {InputRole::kModel, "model"},   {InputRole::kLearner, "learner"}, {InputRole::kSplits, "splits"}};
  return detail::NameOf(kNames, role, "input");
}

void MethodInputs::Wire(ExecutionOptions& execution, const std::string& what) const {
  execution.invocation = invocation;
  if (wire) wire(execution, what);
}

std::function<ExecutionOptions(const std::string&)> MethodInputs::WirePerPart(const ExecutionOptions& base) const {
  return [this, base](const std::string& part) {
    ExecutionOptions e = base;
    Wire(e, part);
    return e;
  };
}

const MethodEntry* FindMethod(const std::string& name) {
  for (const MethodEntry& m : Methods())
    if (m.name == name) return &m;
  return nullptr;
}

namespace {

/** Refuses the tables and the model `m` does not take, naming the role. */
void RefuseInputs(const MethodEntry& m, const MethodInputs& in) {
  const auto takes = [&](InputRole role) {
    return std::find(m.inputs.begin(), m.inputs.end(), role) != m.inputs.end();
  };
  const std::pair<InputRole, bool> given[] = {{InputRole::kData, in.data != nullptr},
                                              {InputRole::kTrain, in.train != nullptr},
                                              {InputRole::kBackground, in.background != nullptr},
                                              {InputRole::kModel, in.model.has_value()},
                                              {InputRole::kLearner, in.learner != nullptr},
                                              {InputRole::kSplits, in.splits.has_value()}};
  for (const auto& [role, is_given] : given)
    if (is_given && !takes(role))
      throw InvalidArgument(m.name + " takes no '" + RoleName(role) + "' " +
                                (role == InputRole::kData || role == InputRole::kTrain || role == InputRole::kBackground ? "table " : "") + "; give it only what the method reads",
                            {RoleName(role)});
}

/** The options given, canonical and sorted, less those that may differ between processes. */
std::string Invocation(const std::string& method, const std::vector<MethodOption>& options,
                       const GivenOptions& given) {
  std::map<std::string, std::string> canonical;
  for (const GivenOption& g : given) {
    const MethodOption* o = detail::FindMethodOption(options, g.first);
    if (o != nullptr && !o->per_process) canonical[o->info.name] = g.second;
  }
  std::string text = method;
  for (const auto& [name, value] : canonical) text.append(1, '\0').append(name).append(1, '=').append(value);
  return text;
}

/** `names` (options a message is about) as `options` declares them. */
std::vector<std::string> DeclaredNames(const std::vector<MethodOption>& options, std::vector<std::string> names) {
  std::vector<std::string> out;
  for (std::string& name : names) {
    const MethodOption* o = detail::OptionOfField(options, name);
    if (o == nullptr) o = detail::OptionOfField(options, OptionKeyOf(name));
    std::string declared = o != nullptr ? o->info.name : OptionKeyOf(name);
    if (std::find(out.begin(), out.end(), declared) == out.end()) out.push_back(std::move(declared));
  }
  return out;
}

}  // namespace

MethodCall CallMethod(const std::string& name, MethodInputs inputs, const GivenOptions& given) {
  const MethodEntry* m = FindMethod(name);
  if (m == nullptr) {
    std::vector<std::string> names;
    for (const MethodEntry& e : Methods()) names.push_back(e.name);
    throw InvalidArgument("unknown method " + perfshap::detail::Quoted(name) + "; the methods: " +
                              perfshap::detail::CommaList(names),
                          {"method"});
  }
  RefuseInputs(*m, inputs);
  // The output options are every method's; the rest are the method's own (or unknown).
  const std::vector<MethodOption> output = OutputOptionGroup().options();
  std::vector<MethodOption> all = m->options;
  all.insert(all.end(), output.begin(), output.end());
  GivenOptions own, out;
  for (const auto& item : given) {
    if (detail::FindMethodOption(m->options, item.first) != nullptr)
      own.push_back(item);
    else if (detail::FindMethodOption(output, item.first) != nullptr)
      out.push_back(item);
    else
      detail::ThrowUnknownMethodOption(m->name, item.first, all);
  }
  MethodCall call;
  OutputOptionGroup().Parse(out, call.target, m->name);
  if (!call.target.dir.empty() && inputs.prepare_out) detail::PrepareOutputDir(call.target.dir, call.target.force);
  inputs.out_dir = call.target.dir;
  inputs.invocation = Invocation(m->name, all, given);
  // The options a message names, as this method declares them (a library field's name, or an
  // alias such as max_features for exact_limit, becomes the declared name the caller knows).
  try {
    call.run = m->run(inputs, own);
  } catch (const DataError& e) {
    throw DataError(e.what(), DeclaredNames(all, e.options()));
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(e.what(), DeclaredNames(all, e.options()));
  }
  // Every front end's console text opens on the summary report.html opens on.
  if (call.run.reporter)
    call.run.console = detail::SummaryText(detail::SummarizeRun(call.run.reporter)) + call.run.console;
  return call;
}

namespace {

std::string ItemText(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float() && !std::isfinite(v.get<double>()))  // JSON would write null
    return detail::FormatOptionNumber(v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

GivenOptions OptionTextOfJson(const nlohmann::json& options) {
  GivenOptions out;
  if (options.is_null()) return out;
  if (!options.is_object())
    throw InvalidArgument("the options must be a JSON object of option names and values, e.g. {\"threads\": 2}",
                          {"options"});
  for (const auto& item : options.items()) {
    const nlohmann::json& v = item.value();
    if (v.is_null()) continue;
    if (v.is_array()) {
      std::string text;
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i > 0) text += ',';
        text += ItemText(v[i]);
      }
      out.emplace_back(item.key(), text, true);
    } else {
      out.emplace_back(item.key(), ItemText(v));
    }
  }
  return out;
}

std::string OptionKeyOf(const std::string& option) {
  static const std::map<std::string, std::string> kKeys = {
      {"time_limit_seconds", "time_limit"}, {"max_model_evaluations", "max_evaluations"},
      {"max_memory_bytes", "max_memory"},   {"model_params", "model_param"},
      {"signed_weights", "signed"}};
  const auto it = kKeys.find(option);
  return it == kKeys.end() ? option : it->second;
}

std::shared_ptr<const Processes> TakeMpiComm(nlohmann::json& options) {
  if (!options.is_object() || !options.contains("mpi_comm")) return nullptr;
  const nlohmann::json comm = options["mpi_comm"];
  options.erase("mpi_comm");
  std::shared_ptr<const Processes> processes;
  if (comm.is_number_integer() && comm.get<std::int64_t>() > 0)
    processes = Processes::FromMpiComm(
        reinterpret_cast<const void*>(static_cast<std::uintptr_t>(comm.get<std::int64_t>())));
  else if (!comm.is_null())
    throw InvalidArgument("mpi_comm: expected the address of an MPI communicator (mpi4py: MPI._addressof(comm))",
                          {"mpi_comm"});
  detail::NoteRunProcesses(processes);
  return processes;
}

}}}  // namespace perfshap::api
