// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace perfshap::detail {

/**
 * @brief Makes `dir` ready for a run's outputs: creates it when absent; refuses a directory
 * that already holds files unless `force` (nothing a user wrote is overwritten without asking).
 * @throws Error naming the directory and the options (`out`, `force`) that resolve it.
 */
void PrepareOutputDir(const std::filesystem::path& dir, bool force);

/**
 * @brief Writes `content` to `path` atomically: a temporary file in the same directory,
 * flushed, then renamed over `path`; a reader never sees a half-written file.
 * @throws Error naming the path when the file cannot be written.
 */
void WriteFileAtomic(const std::filesystem::path& path, const std::string& content);

/**
 * @brief A run's output directory: every file a reporter writes goes through Write (atomic,
 * WriteFileAtomic) and is recorded, so the reporter can list what it wrote.
 */
class OutputDir {
 public:
  /** @brief The directory, already prepared (PrepareOutputDir). */
  explicit OutputDir(std::filesystem::path dir) : dir_(std::move(dir)) {}

  /** @brief Writes `name` (a file name inside the directory) atomically and records it.
   *  @throws Error naming the path when the file cannot be written. */
  void Write(const std::string& name, const std::string& content);

  /** @brief The names written so far, in order. */
  const std::vector<std::string>& files() const noexcept { return files_; }
  /** @brief The directory. */
  const std::filesystem::path& path() const noexcept { return dir_; }

 private:
  std::filesystem::path dir_;
  std::vector<std::string> files_;
};

}  // namespace perfshap::detail
