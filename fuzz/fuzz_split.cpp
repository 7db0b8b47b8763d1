// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The split reader (--split, split=) on any text, for a small and a large data set: a
// perfshap::Error with one bounded line, or splits whose parts are sorted, distinct, in range,
// not empty and disjoint.
#include <algorithm>
#include <cstdlib>

#include "fuzz_support.hpp"
#include "perfshap/blocks/split.hpp"

namespace {

void CheckPart(const std::vector<std::size_t>& part, std::size_t n_rows) {
  if (part.empty() || !std::is_sorted(part.begin(), part.end()) ||
      std::adjacent_find(part.begin(), part.end()) != part.end() || part.back() >= n_rows) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static perfshap::fuzz::InputFile file("split.json");
  const std::string& path = file.Write(data, size);
  for (const std::size_t n_rows : {std::size_t{6}, std::size_t{1000000}}) {
    perfshap::fuzz::Refusable([&] {
      const perfshap::SplitPlan plan = perfshap::ReadSplits(path, n_rows);
      for (const auto& split : plan) {
        CheckPart(split.train, n_rows);
        CheckPart(split.test, n_rows);
        std::vector<std::size_t> both;
        std::set_intersection(split.train.begin(), split.train.end(), split.test.begin(), split.test.end(),
                              std::back_inserter(both));
        if (!both.empty()) std::abort();
      }
    });
  }
  return 0;
}
