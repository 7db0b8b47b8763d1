// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// What every fuzz target shares: the input as a file (the readers take paths, as the CLI gives
// them), a reader of typed values from the input's bytes, and the one rule every target checks:
// a bad input is a perfshap::Error with a bounded one-line message; any other exception, a
// crash, a sanitizer report or a leak is a defect.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <unistd.h>

#include "perfshap/error.hpp"

namespace perfshap::inline v0::fuzz {

/** Longest error message a target accepts: messages quote bounded snippets of the input. */
inline constexpr std::size_t kMaxMessageChars = 4096;

/** @brief Aborts (a finding) unless e's message is one line of at most kMaxMessageChars. */
inline void CheckMessage(const perfshap::Error& e) {
  const std::string_view what = e.what();
  if (what.empty() || what.size() > kMaxMessageChars || what.find('\n') != std::string_view::npos ||
      what.find('\r') != std::string_view::npos) {
    std::fprintf(stderr, "perfshap fuzz: error message is not one bounded line (%zu chars):\n%.*s\n", what.size(),
                 static_cast<int>(what.size() < 8192 ? what.size() : 8192), what.data());
    std::abort();
  }
}

/** @brief Runs f(); a perfshap::Error is an accepted refusal (its message checked), anything
 *  else propagates (an uncaught exception is a finding). */
template <class F>
void Refusable(F&& f) {
  try {
    f();
  } catch (const perfshap::Error& e) {
    CheckMessage(e);
  }
}

/** @brief A file holding the current input, rewritten for each input (one per process). */
class InputFile {
 public:
  explicit InputFile(const char* name) {
    const char* dir = std::getenv("TMPDIR");
    std::string base = dir != nullptr && *dir != '\0' ? dir : "/tmp";
    path_ = base + "/perfshap_fuzz_" + std::to_string(::getpid()) + "_" + name;
  }
  ~InputFile() { std::remove(path_.c_str()); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  /** @brief Writes the bytes to the file and returns its path. */
  const std::string& Write(const std::uint8_t* data, std::size_t size) {
    std::FILE* f = std::fopen(path_.c_str(), "wb");
    if (f == nullptr || (size > 0 && std::fwrite(data, 1, size, f) != size) || std::fclose(f) != 0) {
      std::perror(path_.c_str());
      std::abort();  // the harness's own failure, not the engine's
    }
    return path_;
  }

 private:
  std::string path_;
};

/** @brief Typed values taken from the front of a byte string; zeros once it is used up. */
class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  std::size_t remaining() const noexcept { return size_ - pos_; }
  std::uint8_t Byte() noexcept { return pos_ < size_ ? data_[pos_++] : 0; }
  /** @brief A value in [0, n) (n > 0) from one or two bytes. */
  std::size_t Below(std::size_t n) noexcept {
    std::size_t v = Byte();
    if (n > 256) v = v << 8 | Byte();
    return v % n;
  }
  /** @brief `n` bytes (fewer when the input ends), as raw storage. */
  std::string_view Take(std::size_t n) noexcept {
    if (n > remaining()) n = remaining();
    std::string_view out(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return out;
  }
  /** @brief A short string: a length byte (mod max_len + 1), then that many bytes. */
  std::string ShortString(std::size_t max_len) {
    return std::string(Take(Byte() % (max_len + 1)));
  }
  /** @brief The rest of the input. */
  std::string_view Rest() noexcept { return Take(remaining()); }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

}  // namespace perfshap::fuzz
