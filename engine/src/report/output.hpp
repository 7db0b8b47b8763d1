// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A run's output as one set: the format writers write a report's files into an OutputDir, which
// keeps them in memory; Commit publishes them into the output directory at once (a fresh temporary
// directory beside it, every file and the directory fsynced, then renamed into place, or swapped
// with the directory there), so a reader sees the earlier set or the new one, never a mix, and a
// run that fails or is killed leaves the earlier set as it was.

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "report/json.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief Which figures a run draws. */
enum class FigureSet : std::uint8_t {
  kNone,     ///< no figure (no SVG file)
  kSummary,  ///< the summary figures, each bounded (at most kMaxPointsPerFeature rows, kMaxFeaturesShown
             ///< features)
  kAll,      ///< also the per-row figures a reporter offers (at most kMaxRowFigures of them)
};

/** @brief The names of FigureSet, in order: none, summary, all. */
std::vector<std::string> FigureSetNames();

/** @brief The FigureSet named `name` (FigureSetNames). @throws InvalidArgument naming the option
 *  `figures` for another name. */
FigureSet ParseFigureSet(const std::string& name);

/** @brief What every reporter honours besides its results. */
struct ReportOptions {
  FigureSet figures = FigureSet::kSummary;
  /** Whether the tables are built; without them a report is its result.json (and figures). */
  bool tables = true;
};

/**
 * @brief Checks, before a run computes anything, that its outputs can go to `dir`: an existing
 * `dir` must be a directory, empty, or (with `force`) hold only files an earlier run wrote there
 * (those its manifest, kManifestName, lists; for an older set, result.json and the files it
 * lists): the whole set is replaced, so any other file or folder is refused, named); the folder
 * that holds `dir` is created when missing and must be writable (the set is written beside
 * `dir`, then renamed into place); `dir` may not be the working directory or hold it. Removes
 * what killed runs into `dir` left beside it (PublishFiles). `dir` itself is not created: a run
 * that fails leaves no empty directory behind.
 * @throws Error naming the directory and the options (`out`, `force`) that resolve it.
 */
void PrepareOutputDir(const std::filesystem::path& dir, bool force);

/** @brief The manifest PublishFiles adds to every set: the names of the files the run wrote. */
inline constexpr const char* kManifestName = ".perfshap-manifest.json";

/** @brief One file of a run's report: its name in the output directory and its content. */
struct ReportFile {
  std::string name;
  std::string content;
};

/**
 * @brief Publishes `files` and a manifest of their names (kManifestName) as the whole content of
 * the directory `dir`, atomically as a set:
 * writes them into a fresh directory `.<name>.perfshap-tmp-<pid>-<n>` beside `dir`, fsyncs each
 * file and that directory, then renames it to `dir` when `dir` does not exist, or swaps the two
 * with renameat2(RENAME_EXCHANGE) when it does and removes the earlier set. On a filesystem
 * without RENAME_EXCHANGE the swap is two renames (`dir` aside, the new set in): a reader may
 * then find no `dir` for that moment, but still never a mix. Temporary directories beside `dir`
 * of processes that no longer run (a killed run) are removed first. On any failure the
 * temporary directory is removed and `dir` is left as it was.
 * @param replace whether an existing non-empty `dir` may be replaced (`force`); an empty one
 * always may.
 * @throws Error naming the path and the system's reason (disk full, permissions).
 */
void PublishFiles(const std::filesystem::path& dir, const std::vector<ReportFile>& files, bool replace);

/**
 * @brief A run's output files: the format writers (WriteReport, report/report_content.hpp) put
 * every file of a report here through Write and WriteResult, kept in order, so the HTML page
 * (report/html_report.hpp) or an embedding front end (the Python module) can read them back.
 * With a directory, Commit then publishes the whole set there (PublishFiles); nothing reaches the
 * directory before it, so a writer that throws leaves the directory as it was.
 */
class OutputDir {
 public:
  /** @brief Files kept in memory only. */
  OutputDir() = default;
  /** @brief Files for the directory `dir` (checked by PrepareOutputDir), published by Commit;
   *  `replace` as PublishFiles takes it (`force`). */
  OutputDir(std::filesystem::path dir, bool replace) : dir_(std::move(dir)), replace_(replace) {}

  /** @brief Keeps the file `name` (inside the directory); a second write of the same name
   *  replaces the kept content. */
  void Write(const std::string& name, std::string content);

  /** @brief Keeps result.json (ResultJsonText) and its document (document()). */
  void WriteResult(const RunRecord& run, const Json& body);

  /** @brief result.json's document (WriteResult), or null before it is written. */
  const Json& document() const noexcept { return document_; }

  /** @brief Publishes the files kept into the directory (PublishFiles); nothing for files kept
   *  in memory only. @throws Error as PublishFiles. */
  void Commit() const;

  /** @brief The files written so far, in order, with their contents. */
  const std::vector<ReportFile>& contents() const noexcept { return contents_; }
  /** @brief The directory (empty for files kept in memory only). */
  const std::filesystem::path& path() const noexcept { return dir_; }

 private:
  std::filesystem::path dir_;
  bool replace_ = false;
  std::vector<ReportFile> contents_;
  Json document_;
};
}}}  // namespace perfshap::detail
