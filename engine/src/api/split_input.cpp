// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/split_input.hpp"

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace api {

bool SplitInput::explicit_splits() const {
  if (splits.has_value() && !file.empty())
    throw InvalidArgument("give the splits in memory or as a file, not both", {"split"});
  return splits.has_value() || !file.empty();
}

std::string SplitInput::plan_name() const {
  return !explicit_splits() ? plan : !name.empty() ? name : !file.empty() ? file : "splits";
}

SplitPlan ExplicitSplitPlan(const SplitInput& s, std::size_t n_rows) {
  return s.splits.has_value() ? CheckSplits(*s.splits, n_rows, s.name, s.listed) : ReadSplits(s.file, n_rows);
}

SplitPlan HeldSplitPlan(const SplitInput& s, std::size_t n_rows, std::uint64_t seed,
                        std::span<const double> labels, const ExecutionOptions& execution) {
  if (s.explicit_splits()) return ExplicitSplitPlan(s, n_rows);
  return MakeSplitPlan(s.plan, n_rows, s.test_size, seed, s.stratify ? labels : std::span<const double>(),
                       execution);
}

}}}  // namespace perfshap::api
