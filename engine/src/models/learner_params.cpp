// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/learner_params.hpp"

#include <charconv>
#include <cstdio>

#include "perfshap/error.hpp"

namespace perfshap::detail {

const std::string* ParamReader::Find(const std::string& name) {
  known_.push_back(name);
  const auto it = params_.find(name);
  return it == params_.end() ? nullptr : &it->second;
}

void ParamReader::Read(const std::string& name, double& value) {
  const std::string* text = Find(name);
  if (text == nullptr) return;
  double v = 0.0;
  const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || ptr != text->data() + text->size() || text->empty())
    throw InvalidArgument("learner " + learner_ + ": option " + name + " = '" + *text + "' is not a number", {name});
  value = v;
}

void ParamReader::Read(const std::string& name, int& value) {
  const std::string* text = Find(name);
  if (text == nullptr) return;
  int v = 0;
  const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || ptr != text->data() + text->size() || text->empty())
    throw InvalidArgument("learner " + learner_ + ": option " + name + " = '" + *text + "' is not an integer", {name});
  value = v;
}

void ParamReader::Read(const std::string& name, bool& value) {
  const std::string* text = Find(name);
  if (text == nullptr) return;
  if (*text == "true" || *text == "1" || *text == "yes") {
    value = true;
  } else if (*text == "false" || *text == "0" || *text == "no") {
    value = false;
  } else {
    throw InvalidArgument("learner " + learner_ + ": option " + name + " = '" + *text + "' is not true or false",
                          {name});
  }
}

void ParamReader::Finish() const {
  for (const auto& [name, text] : params_) {
    bool found = false;
    for (const std::string& k : known_) found = found || k == name;
    if (found) continue;
    std::string list;
    for (const std::string& k : known_) list += (list.empty() ? "" : ", ") + k;
    throw InvalidArgument("learner " + learner_ + " has no option " + name + " (its options: " +
                              (list.empty() ? std::string("none") : list) + ")",
                          {name});
  }
}

std::string ParamText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace perfshap::detail
