// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <filesystem>
#include <string>

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

}  // namespace perfshap::detail
