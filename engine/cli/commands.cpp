// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "commands.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>

#include "api/registry.hpp"
#include "api/shared_options.hpp"
#include "data/message_text.hpp"
#include "report/json.hpp"
#include "perfshap/error.hpp"

namespace perfshap::inline v0::cli {

namespace {

// The library's option names (the fields of its options structs) and the flags that set them,
// for every subcommand that has the flag.
const std::map<std::string, std::string>& CommonFlags() {
  static const std::map<std::string, std::string> flags = {
      {"label", "--label"},           {"positive", "--positive"},     {"features", "--features"},
      {"groups", "--groups"},         {"missing", "--missing"},       {"learner", "--model"},
      {"C", "--C"},                   {"standardize", "--no-standardize"}, {"out", "--out"},
      {"force", "--force"},           {"threads", "--threads"},       {"seed", "--seed"},
      {"data", "--data"},             {"solver", "--solver"},         {"budget", "--budget"},
      {"tolerance", "--tolerance"},   {"time_limit_seconds", "--time-limit"}, {"keep_samples", "--keep-samples"},
      {"max_memory", "--max-memory"}, {"max_model_evaluations", "--max-evaluations"},
      {"iteration_range", "--iteration-range"}, {"checkpoint", "--checkpoint"},
  };
  return flags;
}

}  // namespace

std::vector<std::string> OptionFlags(const Command& command, const std::vector<std::string>& options) {
  std::vector<std::string> out;
  const api::MethodEntry* registered = api::FindMethod(command.name);
  for (const std::string& option : options) {
    // A registered method's option is its --flag ('-' for '_'), whatever the method.
    if (registered != nullptr) {
      std::vector<api::MethodOption> all = registered->options;
      for (const api::MethodOption& o : api::OutputOptionGroup().options()) all.push_back(o);
      if (const api::MethodOption* o = detail::FindMethodOption(all, option)) {
        std::string flag = "--" + o->info.name;
        std::replace(flag.begin(), flag.end(), '_', '-');
        if (std::find(out.begin(), out.end(), flag) == out.end()) out.push_back(flag);
        continue;
      }
    }
    const auto own = command.flags.find(option);
    const auto common = CommonFlags().find(option);
    std::string flag = own != command.flags.end()       ? own->second
                       : common != CommonFlags().end() ? common->second
                                                       : std::string();
    // A learner's option without a flag of its own is set by --model-param.
    if (flag.empty())
      for (const LearnerEntry& entry : RegisteredLearners())
        if (std::any_of(entry.options.begin(), entry.options.end(),
                        [&](const OptionInfo& info) { return info.name == option; }))
          flag = "--model-param";
    if (!flag.empty() && std::find(out.begin(), out.end(), flag) == out.end()) out.push_back(flag);
  }
  return out;
}

std::vector<Command> AllCommands() {
  return {
      RegisteredCommand("demo"),
      RegisteredCommand("xper"),
      RegisteredCommand("xper-montecarlo"),
      RegisteredCommand("robustness"),
      {"shap", "SHAP: explain a model's predictions (interventional, by retraining, or TreeSHAP), per row and globally",
       SetupShap, {{"output", "--output"}, {"background", "--background"}, {"max_players", "--budget"}, {"rows", "--rows"},
                   {"train", "--train"}, {"model_file", "--model-file"}, {"approach", "--approach"},
                   {"background_file", "--background-file"}, {"explain_row", "--explain-row"}, {"trees", "--trees"},
                   {"max_depth", "--max-depth"}, {"model_params", "--model-param"},
                   {"interactions", "--interactions"}, {"interaction_features", "--interaction-features"}}},
      {"treeshap", "TreeSHAP: exact SHAP of a tree model's margins (XGBoost JSON, --model tree|forest), threaded",
       SetupTreeShap, {{"output", "--output"}, {"background", "--background"}, {"rows", "--rows"},
                       {"train", "--train"}, {"model_file", "--model-file"}, {"background_file", "--background-file"},
                       {"explain_row", "--explain-row"}, {"trees", "--trees"}, {"max_depth", "--max-depth"},
                       {"model_params", "--model-param"}, {"interactions", "--interactions"},
                       {"interaction_features", "--interaction-features"}}},
      RegisteredCommand("axom"),
      RegisteredCommand("chains"),
  };
}

namespace {

/// A whole number as the user meant it: decimal digits (a '-' only where the field is signed),
/// within [lo, hi]. CLI11 reads integers with strtoull / strtoll in base 0, so "-1" wraps to
/// 2^64 - 1, "2^64" or more saturates, and "010" is octal: each would silently run with another
/// number.
template <class Int>
std::string CheckWholeNumber(const std::string& text) {
  Int value{};
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const bool digits = !text.empty() && (std::isdigit(static_cast<unsigned char>(text[0])) ||
                                        (std::numeric_limits<Int>::is_signed && text[0] == '-' && text.size() > 1));
  const auto [end, ec] = std::from_chars(first, last, value);
  if (digits && ec == std::errc() && end == last) return {};
  const std::string range = std::to_string(std::numeric_limits<Int>::min()) + ".." +
                            std::to_string(std::numeric_limits<Int>::max());
  return detail::Quoted(text) + " is not a whole number in " + range + " (decimal digits" +
         (std::numeric_limits<Int>::is_signed ? std::string(", maybe a leading -") : std::string()) + ")";
}

}  // namespace

CLI::App* AddCommand(CLI::App& parent, const Command& command) {
  CLI::App* sub = parent.add_subcommand(command.name, command.description);
  command.setup(*sub);
  for (CLI::Option* option : sub->get_options()) {
    // Flags without a value (--quiet) have no type to check; "UINT" / "INT" are CLI11's names
    // of unsigned and signed integer fields.
    if (option->get_expected_min() == 0) continue;
    const std::string type = option->get_type_name();
    if (type == "UINT")
      option->check(CLI::Validator(CheckWholeNumber<std::uint64_t>, "", "whole number"));
    else if (type == "INT")
      option->check(CLI::Validator(CheckWholeNumber<std::int64_t>, "", "whole number"));
  }
  return sub;
}

void AddModelParamOption(CLI::App& app, std::vector<std::string>& items) {
  // The learners' options as they declare them (a host's registered learner too): name=default.
  std::string options;
  for (const LearnerEntry& entry : RegisteredLearners()) {
    if (entry.options.empty()) continue;
    options += "\n  " + entry.name + ":";
    for (const OptionInfo& info : entry.options) {
      const std::string range = info.RangeText();
      options += " " + info.name + "=" + info.default_text + (range.empty() ? "" : " (" + range + ")");
    }
  }
  app.add_option("--model-param", items,
                 "KEY=VALUE: an option of the --model learner (repeatable), e.g. --model-param C=0.5. The "
                 "learners' options, with their defaults:" + options)
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one KEY=VALUE per --model-param, repeated as often as needed
}

LearnerParams ModelParams(const std::vector<std::string>& items, LearnerParams from_flags,
                          const std::map<std::string, std::string>& flag_of) {
  LearnerParams params = std::move(from_flags);
  std::map<std::string, std::string> given;  // key -> the item that set it
  for (const std::string& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InvalidArgument("--model-param " + detail::Quoted(item) +
                                ": give KEY=VALUE, an option of the learner, e.g. --model-param C=0.5",
                            {"model_params"});
    const std::string key = item.substr(0, eq);
    if (given.count(key) != 0)
      throw InvalidArgument("--model-param " + detail::Quoted(key) + " is given twice (" +
                                detail::Quoted(given[key]) + " and " + detail::Quoted(item) + "); give it once",
                            {"model_params"});
    if (params.count(key) != 0) {
      const auto flag = flag_of.find(key);
      throw InvalidArgument("--model-param " + detail::Quoted(item) + " sets " + key + ", which " +
                                (flag != flag_of.end() ? flag->second : std::string("another flag")) +
                                " sets too; give one of them",
                            {"model_params"});
    }
    given[key] = item;
    params[key] = item.substr(eq + 1);
  }
  return params;
}

std::string CommandOptionsJson() {
  detail::Json doc = detail::Json::object();
  for (const Command& command : AllCommands()) {
    CLI::App app{"perfshap", "perfshap"};
    CLI::App* sub = AddCommand(app, command);
    detail::Json options = detail::Json::array();
    for (CLI::Option* option : sub->get_options()) {
      if (option->get_lnames().empty()) continue;
      options.push_back({{"names", option->get_lnames()},
                         {"type", option->get_type_name()},
                         {"switch", option->get_items_expected_max() == 0},
                         {"many", option->get_items_expected_max() > 1}});
    }
    doc[command.name] = std::move(options);
  }
  return doc.dump(1);
}

}  // namespace perfshap::cli
