// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The groups reader (--groups, groups=) on any text: a perfshap::Error with one bounded line,
// or groups that keep its promises (named, not empty, no column twice).
#include <cstdlib>
#include <set>

#include "fuzz_support.hpp"
#include "perfshap/blocks/players.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static perfshap::fuzz::InputFile file("groups.json");
  const std::string& path = file.Write(data, size);
  perfshap::fuzz::Refusable([&] {
    const auto groups = perfshap::ReadFeatureGroups(path);
    std::set<std::string> names, columns;
    for (const auto& g : groups) {
      if (g.name.empty() || g.columns.empty() || !names.insert(g.name).second) std::abort();
      for (const auto& c : g.columns) {
        if (c.empty() || !columns.insert(c).second) std::abort();
      }
    }
  });
  return 0;
}
