// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The row-permutation reader (--permutation) on any text, for 5 rows and for as many rows as
// the text has lines: a perfshap::Error with one bounded line, or a permutation of 0..n-1.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "fuzz_support.hpp"
#include "perfshap/blocks/split.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static perfshap::fuzz::InputFile file("permutation.txt");
  const std::string& path = file.Write(data, size);
  const std::size_t lines = static_cast<std::size_t>(std::count(data, data + size, '\n'));
  for (const std::size_t n_rows : {std::size_t{5}, lines, lines + 1}) {
    perfshap::fuzz::Refusable([&] {
      const std::vector<std::size_t> pi = perfshap::ReadRowPermutation(path, n_rows);
      std::vector<char> seen(n_rows, 0);
      if (pi.size() != n_rows) std::abort();
      for (const std::size_t i : pi) {
        if (i >= n_rows || seen[i] != 0) std::abort();
        seen[i] = 1;
      }
    });
  }
  return 0;
}
