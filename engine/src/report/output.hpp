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

/** @brief One file of a run's report: its name in the output directory and its content. */
struct ReportFile {
  std::string name;
  std::string content;
};

/**
 * @brief A run's output: every file a reporter writes goes through Write and is kept, in order,
 * so the reporter can list what it wrote and the HTML report (report/html_report.hpp) or an
 * embedding front end (the Python module) can read it back. With a directory, each file is also
 * written there atomically (WriteFileAtomic); without one, the files stay in memory.
 */
class OutputDir {
 public:
  /** @brief Files kept in memory only. */
  OutputDir() = default;
  /** @brief The directory, already prepared (PrepareOutputDir). */
  explicit OutputDir(std::filesystem::path dir) : dir_(std::move(dir)) {}

  /** @brief Writes `name` (a file name inside the directory) atomically and keeps it; a second
   *  write of the same name replaces the kept content.
   *  @throws Error naming the path when the file cannot be written. */
  void Write(const std::string& name, const std::string& content);

  /** @brief The names written so far, in order. */
  const std::vector<std::string>& files() const noexcept { return files_; }
  /** @brief The files written so far, in order, with their contents. */
  const std::vector<ReportFile>& contents() const noexcept { return contents_; }
  /** @brief The directory (empty for files kept in memory only). */
  const std::filesystem::path& path() const noexcept { return dir_; }

 private:
  std::filesystem::path dir_;
  std::vector<std::string> files_;
  std::vector<ReportFile> contents_;
};

}  // namespace perfshap::detail
