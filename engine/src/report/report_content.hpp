// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A method's report as data, the one record every format writer reads: its tables, its figures
// (chart specs), its text files and result.json's run and body, in the order the method gives
// them. A method builds it (ReportContent's Table, Figure, Text and Result, once per run);
// WriteReport then hands each part to its format's writer (CSV: CsvTable::Text, SVG: RenderSvg,
// JSON: ResultJsonText) into an OutputDir, and the HTML page (HtmlReport) reads what they
// wrote, so a new format is one writer over every method. --figures decides here which figures
// are built at all.

#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "report/csv.hpp"
#include "report/json.hpp"
#include "report/output.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief A method's report as data: build it with Table, Figure, Text and Result. */
class ReportContent {
  friend void WriteReport(OutputDir& out, ReportContent content);

 public:
  /** @brief One file of the report, as data: a table, a figure or a text. */
  struct Item {
    std::string name;
    std::variant<CsvTable, Chart, std::string> content;
  };

  /** @brief A report drawn as `options` ask (which figures). */
  explicit ReportContent(ReportOptions options = {}) : options_(options) {}

  /** @brief The table `name` (a .csv file); a second part of the same name replaces the first.
   *  Without ReportOptions::tables only its name is kept (files()). */
  void Table(const std::string& name, CsvTable table);
  /** @brief The table `name`, built by `build` only when the options ask for tables (a large
   *  table: one row per explained row). */
  void Table(const std::string& name, const std::function<CsvTable()>& build);
  /** @brief The text file `name` (e.g. a Markdown table), written as it is. */
  void Text(const std::string& name, std::string text);

  /** @brief Whether the options ask for the figures of `level` (kSummary or kAll). */
  bool Draws(FigureSet level) const noexcept {
    return level != FigureSet::kNone && options_.figures >= level;
  }

  /**
   * @brief The figure `name` (a .svg file), built by `build` when the options ask for `level`
   * (Draws); otherwise nothing is built. @return whether the figure is kept.
   */
  bool Figure(const std::string& name, FigureSet level, const std::function<Chart()>& build);

  /** @brief result.json: the run's record and the method's keys (ResultJsonText). */
  void Result(RunRecord run, Json body);

  /** @brief The names of the parts so far, in order (result.json not among them). */
  const std::vector<std::string>& files() const noexcept { return files_; }
  /** @brief The figures kept so far (Figure), in order: what result.json lists. */
  const std::vector<std::string>& figures() const noexcept { return figures_; }
  /** @brief The parts, in order. */
  const std::vector<Item>& items() const noexcept { return items_; }
  /** @brief Whether Result was given. */
  bool has_result() const noexcept { return has_result_; }
  const RunRecord& run() const noexcept { return run_; }
  const Json& body() const noexcept { return body_; }
  const ReportOptions& options() const noexcept { return options_; }

 private:
  void Keep(const std::string& name, std::variant<CsvTable, Chart, std::string> content);

  ReportOptions options_;
  std::vector<Item> items_;
  std::vector<std::string> files_;
  std::vector<std::string> figures_;
  RunRecord run_;
  Json body_;
  bool has_result_ = false;
};

/** @brief `listed` (the files a report's result.json names) without the SVG figures that
 *  `content` did not keep (--figures), in their order. */
std::vector<std::string> FilesDrawn(const ReportContent& content, const std::vector<std::string>& listed);

/**
 * @brief Writes `content` into `out` through the writer of each format, in its order: a table as
 * CSV (CsvTable::Text), a figure as SVG (RenderSvg), a text as it is; result.json last
 * (OutputDir::WriteResult). Takes the content (move it in): a table's text moves into its file,
 * so a large table is never held twice. @throws InvalidArgument as RenderSvg for a figure it
 * cannot draw.
 */
void WriteReport(OutputDir& out, ReportContent content);

}}}  // namespace perfshap::detail
