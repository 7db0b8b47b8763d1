// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "report/report_content.hpp"

#include <algorithm>
#include <type_traits>
#include <utility>

namespace perfshap { inline namespace v0 { namespace detail {

void ReportContent::Keep(const std::string& name, std::variant<CsvTable, Chart, std::string> content) {
  for (Item& item : items_)
    if (item.name == name) {
      item.content = std::move(content);
      return;
    }
  items_.push_back({name, std::move(content)});
  files_.push_back(name);
}

void ReportContent::Table(const std::string& name, CsvTable table) {
  if (options_.tables) {
    Keep(name, std::move(table));
  } else if (std::find(files_.begin(), files_.end(), name) == files_.end()) {
    files_.push_back(name);
  }
}

void ReportContent::Table(const std::string& name, const std::function<CsvTable()>& build) {
  Table(name, options_.tables ? build() : CsvTable({}));
}

void ReportContent::Text(const std::string& name, std::string text) { Keep(name, std::move(text)); }

bool ReportContent::Figure(const std::string& name, FigureSet level, const std::function<Chart()>& build) {
  if (!Draws(level)) return false;
  Keep(name, build());
  if (std::find(figures_.begin(), figures_.end(), name) == figures_.end()) figures_.push_back(name);
  return true;
}

void ReportContent::Result(RunRecord run, Json body) {
  run_ = std::move(run);
  body_ = std::move(body);
  has_result_ = true;
}

std::vector<std::string> FilesDrawn(const ReportContent& content, const std::vector<std::string>& listed) {
  const auto& figures = content.figures();
  std::vector<std::string> kept;
  for (const std::string& name : listed) {
    const bool figure = name.size() > 4 && name.compare(name.size() - 4, 4, ".svg") == 0;
    if (!figure || std::find(figures.begin(), figures.end(), name) != figures.end()) kept.push_back(name);
  }
  return kept;
}

void WriteReport(OutputDir& out, ReportContent content) {
  for (ReportContent::Item& item : content.items_) {
    std::visit(
        [&](auto& part) {
          using Part = std::decay_t<decltype(part)>;
          if constexpr (std::is_same_v<Part, CsvTable>) {
            out.Write(item.name, std::move(part).Text());
          } else if constexpr (std::is_same_v<Part, Chart>) {
            out.Write(item.name, RenderSvg(part));
          } else {
            out.Write(item.name, std::move(part));
          }
        },
        item.content);
  }
  if (content.has_result()) out.WriteResult(content.run(), content.body());
}

}}}  // namespace perfshap::detail
