// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The JSON file reader every JSON input goes through (--model-file, --groups, --split,
// perfshap_model_from_file): any bytes as a file, read under a small size cap
// (PERFSHAP_MAX_JSON_BYTES, set to 4096 here) so that the cap is reached too. Checks: a refusal
// is a perfshap::Error with one bounded line; text accepted is at most the cap, holds no NUL
// byte and is valid UTF-8 (what the reader promises before any parse).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_support.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/blocks/trees.hpp"

namespace {

constexpr std::size_t kCap = 4096;

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "perfshap fuzz: the JSON file reader broke a promise: %s\n", what);
    std::abort();
  }
}

/** Whether `s` is UTF-8 as RFC 3629 defines it (no overlong forms, no surrogates, <= U+10FFFF). */
bool ValidUtf8(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (b < 0x80) {
      ++i;
      continue;
    }
    if (b >= 0xC2 && b <= 0xDF) n = 1, cp = b & 0x1Fu;
    else if (b >= 0xE0 && b <= 0xEF) n = 2, cp = b & 0x0Fu;
    else if (b >= 0xF0 && b <= 0xF4) n = 3, cp = b & 0x07u;
    else return false;
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return false;
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0u) != 0x80u) return false;
      cp = cp << 6 | (c & 0x3Fu);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n + 1;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("PERFSHAP_MAX_JSON_BYTES", std::to_string(kCap).c_str(), 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static perfshap::fuzz::InputFile file("input.json");
  setenv("PERFSHAP_MAX_JSON_BYTES", std::to_string(kCap).c_str(), 1);  // the replay main has no Initialize
  const std::string& path = file.Write(data, size);
  perfshap::fuzz::Refusable([&] {
    const std::string text = perfshap::ReadXgboostModelText(path);
    Check(text.size() <= kCap, "text past the cap accepted");
    Check(text.find('\0') == std::string::npos, "a NUL byte accepted");
    Check(ValidUtf8(text), "text that is not UTF-8 accepted");
  });
  perfshap::fuzz::Refusable([&] { (void)perfshap::ReadFeatureGroups(path); });
  perfshap::fuzz::Refusable([&] { (void)perfshap::ReadSplits(path, 50); });
  return 0;
}
