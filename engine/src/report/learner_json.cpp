// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/learner_json.hpp"

#include <vector>

#include "perfshap/blocks/options.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

const OptionInfo* Declared(const std::vector<LearnerEntry>& learners, const std::string& learner,
                           const std::string& option) {
  for (const LearnerEntry& entry : learners) {
    if (entry.name != learner) continue;
    for (const OptionInfo& info : entry.options)
      if (info.name == option) return &info;
  }
  return nullptr;
}

// The value as its declaration types it; a value its declaration does not parse stays text (it
// was parsed when the learner was made: this only types what the learner reports).
Json Typed(const OptionInfo& info, const std::string& text) {
  try {
    switch (info.type) {
      case OptionType::kBool: return ParseBoolOption(info.name, info, text);
      case OptionType::kInteger:
        if (info.is_unsigned) return ParseUnsignedOption(info.name, info, text);
        return ParseIntegerOption(info.name, info, text);
      case OptionType::kNumber: return ParseNumberOption(info.name, info, text);
      case OptionType::kList: return ParseListOption(info.name, info, text);
      case OptionType::kText: return text;
    }
  } catch (const Error&) {
  }
  return text;
}

}  // namespace

Json LearnerParamsJson(const std::string& learner, const LearnerParams& params) {
  const std::vector<LearnerEntry> learners = RegisteredLearners();
  Json out = Json::object();
  for (const auto& [name, text] : params) {
    const OptionInfo* info = Declared(learners, learner, name);
    out[name] = info != nullptr ? Typed(*info, text) : Json(text);
  }
  return out;
}

}}}  // namespace perfshap::detail
