// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The learner registry: the built-in learners (one line each below, defined in their folders)
// and those a library user registers.
#include <algorithm>
#include <mutex>
#include <utility>

#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"

namespace perfshap { inline namespace v0 {

namespace detail {
LearnerEntry GaussianNbEntry();  // models/gaussian_nb/
LearnerEntry LogisticEntry();    // models/glm/
LearnerEntry LinearEntry();      // models/least_squares/
LearnerEntry ProbitEntry();      // models/glm/
LearnerEntry TreeEntry();        // models/trees/
LearnerEntry ForestEntry();      // models/trees/
}  // namespace detail

namespace {

// Built-in learners, in the order the help lists them.
constexpr LearnerEntry (*kBuiltIn[])() = {
    detail::GaussianNbEntry,
    detail::LogisticEntry,
    detail::LinearEntry,
    detail::ProbitEntry,
    detail::TreeEntry,
    detail::ForestEntry,
};

struct Registry {
  std::mutex mutex;
  std::vector<LearnerEntry> entries;
  Registry() {
    for (auto entry : kBuiltIn) entries.push_back(entry());
  }
};

Registry& TheRegistry() {
  static Registry registry;
  return registry;
}

}  // namespace

std::vector<LearnerEntry> RegisteredLearners() {
  Registry& r = TheRegistry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  return r.entries;
}

void RegisterLearner(LearnerEntry entry) {
  PERFSHAP_CHECK(!entry.name.empty() && entry.make, "RegisterLearner: a learner needs a name and a factory");
  Registry& r = TheRegistry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  for (const LearnerEntry& e : r.entries)
    PERFSHAP_CHECK(e.name != entry.name, "RegisterLearner: a learner called '" + entry.name + "' is registered already");
  r.entries.push_back(std::move(entry));
}

bool UnregisterLearner(const std::string& name) {
  Registry& r = TheRegistry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = std::find_if(r.entries.begin(), r.entries.end(), [&](const LearnerEntry& e) { return e.name == name; });
  if (it == r.entries.end()) return false;
  r.entries.erase(it);
  return true;
}

std::shared_ptr<const Learner> MakeLearner(const std::string& name, const LearnerParams& params) {
  LearnerFactory make;
  std::string names;
  {
    Registry& r = TheRegistry();
    const std::lock_guard<std::mutex> lock(r.mutex);
    for (const LearnerEntry& e : r.entries) {
      if (e.name == name) make = e.make;
      names += (names.empty() ? "" : ", ") + e.name;
    }
  }
  if (!make) throw InvalidArgument("unknown model '" + name + "': choose one of " + names, {"learner"});
  return make(params);
}

}}  // namespace perfshap
