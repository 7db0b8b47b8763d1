// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// report.html: one self-contained page built from a run's files. result.json gives the title, the
// "Settings" list (its top-level scalars and small flat arrays, in the file's order) and is
// embedded whole; each SVG figure is inlined (its XML declaration dropped, its ids prefixed so two
// figures' clip paths and gradients cannot collide); each CSV becomes a sortable table (at most
// kMaxTableRows rows shown); Markdown files are shown as text. The only script is inline, the only
// style is inline (plain colours, no CSS custom properties: their "--name" would read as a flag
// to the library-messages test): the page opens offline, from anywhere, on any screen width.
#include "report/html_report.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string_view>
#include <vector>

#include "perfshap/error.hpp"
#include "report/json.hpp"
#include "report/run_summary.hpp"
#include "report/svg.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

using namespace std::string_literals;

constexpr std::size_t kMaxTableRows = 500;     // rows of a CSV shown in the page
constexpr std::size_t kMaxSettingArray = 100;  // longer arrays stay in result.json only

constexpr std::string_view kStyle = R"css(
:root{color-scheme:light}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:#f6f8fa;color:#1f2328;
font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"DejaVu Sans",sans-serif}
main{max-width:1120px;margin:0 auto;padding:16px}
h1{font-size:1.6rem;line-height:1.25;margin:.25rem 0 .75rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:2rem 0 .75rem;padding-bottom:.25rem;border-bottom:1px solid #d1d9e0}
h3{font-size:1rem;margin:1.25rem 0 .4rem;overflow-wrap:anywhere}
a{color:#0a5bb5}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
.card{background:#fff;border:1px solid #d1d9e0;border-radius:6px}
dl.settings,dl.facts{display:grid;grid-template-columns:minmax(0,max-content) minmax(0,1fr);
gap:.2rem 1.25rem;margin:0;padding:.75rem 1rem}
dl.settings>div,dl.facts>div{display:contents}
dt{font-weight:600;overflow-wrap:anywhere}
dd{margin:0;overflow-wrap:anywhere;font-variant-numeric:tabular-nums}
figure{margin:0 0 1.25rem;padding:8px}
svg{display:block;max-width:100%;height:auto;margin:0 auto}
figcaption{margin-top:.4rem;text-align:center;font-size:.875rem;color:#59636e;overflow-wrap:anywhere}
.table-wrap{overflow-x:auto;margin-bottom:.5rem}
table{border-collapse:collapse;font-size:.875rem;min-width:100%}
th,td{padding:.3rem .65rem;border-bottom:1px solid #d1d9e0;text-align:left;
white-space:nowrap;vertical-align:top}
thead th{background:#eef1f4}
th.num,td.num{text-align:right;font-variant-numeric:tabular-nums}
th button{font:inherit;font-weight:600;color:inherit;background:none;border:0;padding:0;
cursor:pointer;text-align:inherit}
th button::after{content:"\2195";margin-left:.3em;color:#59636e;font-size:.8em}
th[aria-sort=ascending] button::after{content:"\25B2"}
th[aria-sort=descending] button::after{content:"\25BC"}
.note{margin:.25rem 0 .5rem;font-size:.875rem;color:#59636e}
pre{margin:0;padding:.75rem;overflow-x:auto;white-space:pre;
font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace}
.question{font-size:1.05rem;margin:.25rem 0 .5rem}
ol.strongest{margin:0 0 .75rem;padding:.5rem 1rem .5rem 2.25rem;font-variant-numeric:tabular-nums}
ol.strongest li{overflow-wrap:anywhere}
dl.facts{margin:0 0 .5rem}
details{margin-top:.5rem}
summary{cursor:pointer;font-weight:600;margin-bottom:.5rem}
@media (max-width:600px){main{padding:10px}dl.settings,dl.facts{display:block;padding:.5rem .75rem}
dl.settings>div,dl.facts>div{display:flex;flex-wrap:wrap;column-gap:.75rem;padding:.15rem 0}
dt{min-width:0}dd{flex:1 1 9em;min-width:0}}
)css";

// Sorting by a header click; then each figure's page rectangle, the page's width and a ready mark
// (the browser test reads them from the dumped DOM).
constexpr std::string_view kScript = R"js(
(function () {
  'use strict';
  var NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
  var INFINITE = /^[-+]?inf(inity)?$/i;
  function key(cell) {
    var text = cell ? (cell.getAttribute('data-value') || cell.textContent).trim() : '';
    if (NUMBER.test(text)) return {num: true, value: Number(text), text: text};
    if (INFINITE.test(text)) {
      return {num: true, value: text.charAt(0) === '-' ? -Infinity : Infinity, text: text};
    }
    return {num: false, value: 0, text: text};
  }
  // Numbers compare as numbers, other text as text; numbers come before text (a total order).
  function compare(a, b) {
    if (a.num && b.num) return a.value < b.value ? -1 : (a.value > b.value ? 1 : 0);
    if (a.num !== b.num) return a.num ? -1 : 1;
    return a.text.localeCompare(b.text);
  }
  function sortBy(table, th, col) {
    var descending = th.getAttribute('aria-sort') === 'ascending';
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    var body = table.tBodies[0];
    var rows = Array.prototype.map.call(body.rows, function (row, index) {
      return {row: row, key: key(row.cells[col]), index: index};
    });
    rows.sort(function (a, b) {
      var c = compare(a.key, b.key);
      return (descending ? -c : c) || a.index - b.index;
    });
    var fragment = document.createDocumentFragment();
    rows.forEach(function (r) { fragment.appendChild(r.row); });
    body.appendChild(fragment);
  }
  function initTables() {
    document.querySelectorAll('table.sortable').forEach(function (table) {
      if (!table.tHead || !table.tBodies.length) return;
      Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
        var button = th.querySelector('button');
        if (button) button.addEventListener('click', function () { sortBy(table, th, col); });
      });
    });
  }
  function markLayout() {
    var sx = window.scrollX, sy = window.scrollY;
    document.querySelectorAll('figure').forEach(function (figure) {
      var r = figure.getBoundingClientRect();
      var rect = [r.left + sx, r.top + sy, r.width, r.height].map(Math.round);
      figure.setAttribute('data-rect', rect.join(','));
    });
    var root = document.documentElement;
    document.body.setAttribute('data-scroll-width', String(root.scrollWidth));
    document.body.setAttribute('data-scroll-height', String(root.scrollHeight));
  }
  initTables();
  markLayout();
  window.addEventListener('resize', markLayout);
  document.body.dataset.reportReady = '1';
})();
)js";

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// HTML text and attribute values are escaped as XML's are (& < > " '): EscapeXml (report/svg.hpp).
std::string Escape(const std::string& text) { return EscapeXml(text); }

// An id for a file's section: its name with every character outside [A-Za-z0-9_-] as '-'.
std::string Anchor(std::string_view prefix, std::string_view name) {
  std::string id(prefix);
  for (const char ch : name)
    id += (std::isalnum(static_cast<unsigned char>(ch)) != 0 || ch == '_' || ch == '-') ? ch : '-';
  return id;
}

// ---- result.json ----

const ReportFile& FindResult(std::span<const ReportFile> files) {
  for (const ReportFile& f : files)
    if (f.name == "result.json") return f;
  throw Error("the run's files hold no result.json, so there is no result to report");
}

// "line L, column C" of the byte at 1-based position `byte` (nlohmann's parse_error::byte).
std::string Position(const std::string& text, std::size_t byte) {
  const std::size_t end = std::min(byte > 0 ? byte - 1 : 0, text.size());  // the offending byte's index
  const auto newlines = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n');
  const std::size_t last_newline = end == 0 ? std::string::npos : text.rfind('\n', end - 1);
  const std::size_t column = last_newline == std::string::npos ? end + 1 : end - last_newline;
  return "line "s + std::to_string(newlines + 1) + ", column " + std::to_string(column);
}

Json ParseResult(const std::string& text) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw Error("result.json is not valid JSON ("s + Position(text, e.byte) +
                "); the run's result cannot be reported");
  }
  if (!j.is_object())
    throw Error("result.json does not hold a JSON object; the run's result cannot be reported");
  return j;
}

std::string Title(const Json& result) {
  const auto it = result.find("method");
  if (it == result.end() || !it->is_string()) return "perfshap";
  return "perfshap "s + it->get<std::string>();
}

std::string ScalarText(const Json& v) {
  if (v.is_string()) return v.get<std::string>();
  return v.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool IsSetting(const Json& v) {
  if (v.is_primitive()) return true;
  if (!v.is_array() || v.size() > kMaxSettingArray) return false;
  return std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_primitive(); });
}

std::string SettingText(const Json& v) {
  if (!v.is_array()) return ScalarText(v);
  std::string out;
  for (const Json& e : v) out += (out.empty() ? "" : ", ") + ScalarText(e);
  return out;
}

std::string SettingsSection(const Json& result) {
  std::string html = "<section id=\"settings\"><h2>Settings</h2>\n<dl class=\"settings card\">\n";
  for (auto it = result.begin(); it != result.end(); ++it)
    if (IsSetting(it.value()))
      html +=
          "<div><dt>"s + Escape(it.key()) + "</dt><dd>" + Escape(SettingText(it.value())) + "</dd></div>\n";
  return html + "</dl>\n</section>\n";
}

// The JSON text inside <script type="application/json">: every '<' (only ever inside a JSON
// string) written as the escape \u003c, so "</script" or "<!--" cannot end the element.
std::string EmbeddedJson(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    if (ch == '<')
      out += "\\u003c";
    else
      out += ch;
  }
  return out;
}

std::string JsonSection(const ReportFile& file, const Json& result) {
  const std::string pretty = result.dump(2, ' ', false, Json::error_handler_t::replace);
  return "<section id=\"result\"><h2>result.json</h2>\n"
         "<script type=\"application/json\" id=\"result-json\">"s +
         EmbeddedJson(file.content) +
         "</script>\n<details><summary>The whole result.json</summary>\n<pre class=\"card\">" +
         Escape(pretty) + "</pre></details>\n</section>\n";
}

// ---- CSV tables ----

using CsvRow = std::vector<std::string>;

// RFC 4180 records: fields split on commas, records on LF or CRLF; a quoted field may hold
// commas, line breaks and doubled quotes. Blank lines are skipped.
class CsvReader {
 public:
  std::vector<CsvRow> Read(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char ch = text[i];
      if (quoted_)
        i += Quoted(ch, i + 1 < text.size() ? text[i + 1] : '\0');
      else if (ch == '"' && field_.empty())
        quoted_ = touched_ = true;
      else if (ch == ',')
        EndField();
      else if (ch == '\n' || ch == '\r')
        i += EndRecord(ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n');
      else
        Append(ch);
    }
    EndRecord(false);
    return std::move(rows_);
  }

 private:
  void Append(char ch) {
    field_ += ch;
    touched_ = true;
  }
  // One character inside quotes; returns how many characters after it were consumed.
  std::size_t Quoted(char ch, char next) {
    if (ch != '"') {
      field_ += ch;
      return 0;
    }
    if (next == '"') {
      field_ += '"';
      return 1;
    }
    quoted_ = false;
    return 0;
  }
  void EndField() {
    row_.push_back(std::move(field_));
    field_.clear();
    touched_ = true;
  }
  std::size_t EndRecord(bool crlf) {
    if (touched_ || !row_.empty()) {
      EndField();
      rows_.push_back(std::move(row_));
    }
    row_.clear();
    field_.clear();
    touched_ = quoted_ = false;
    return crlf ? 1 : 0;
  }

  std::vector<CsvRow> rows_;
  CsvRow row_;
  std::string field_;
  bool quoted_ = false;
  bool touched_ = false;  // the record holds something (a character, a quote or a comma)
};

// Moves `i` past the digits at s[i...]; returns how many there were.
std::size_t SkipDigits(std::string_view s, std::size_t& i) {
  const std::size_t start = i;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) != 0) ++i;
  return i - start;
}

// A number as a CSV cell writes one: decimal with optional exponent, or nan / inf.
bool IsNumber(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s == "nan" || s == "inf" || s == "NaN" || s == "Infinity") return true;
  std::size_t i = 0;
  std::size_t digits = SkipDigits(s, i);
  if (i < s.size() && s[i] == '.') digits += SkipDigits(s, ++i);
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    if (++i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (SkipDigits(s, i) == 0) return false;
  }
  return i == s.size();
}

// A number with a fraction or an exponent ("0.30453736062836029", the CSV's round-trip digits) is
// shown to 4 significant digits; the cell keeps the text as written for sorting (data-value) and
// on hover (title), and the CSV keeps it whole. Whole numbers (counts, rows) are shown as written.
bool IsWholeNumber(const std::string& text) { return text.find_first_of(".eE") == std::string::npos; }

std::string Cell(const char* tag, const std::string& text, bool number) {
  const std::string shown =
      number && !IsWholeNumber(text) ? ShortNumber(std::strtod(text.c_str(), nullptr)) : text;
  if (shown != text) {
    return std::string("<") + tag + " class=\"num\" data-value=\"" + Escape(text) + "\" title=\"" + Escape(text) +
           "\">" + shown + "</" + tag + ">";
  }
  const std::string open = std::string("<") + tag + (number ? " class=\"num\"" : "") + ">";
  return open + Escape(text) + "</" + tag + ">";
}

// Whether every shown, non-empty cell of column `col` is a number (its header is right-aligned).
bool NumericColumn(const std::vector<CsvRow>& rows, std::size_t shown, std::size_t col) {
  bool any = false;
  for (std::size_t r = 1; r <= shown; ++r) {
    if (col >= rows[r].size() || rows[r][col].empty()) continue;
    if (!IsNumber(rows[r][col])) return false;
    any = true;
  }
  return any;
}

std::string HeaderRow(const std::vector<CsvRow>& rows, std::size_t shown, std::size_t width) {
  std::string html = "<thead><tr>";
  for (std::size_t c = 0; c < width; ++c) {
    const std::string name = c < rows[0].size() ? rows[0][c] : "";
    html += std::string("<th scope=\"col\"") + (NumericColumn(rows, shown, c) ? " class=\"num\"" : "") +
            "><button type=\"button\">" + Escape(name) + "</button></th>";
  }
  return html + "</tr></thead>\n";
}

std::string BodyRows(const std::vector<CsvRow>& rows, std::size_t shown, std::size_t width) {
  static const std::string no_cell;  // the cells a short row lacks
  std::string html = "<tbody>\n";
  for (std::size_t r = 1; r <= shown; ++r) {
    html += "<tr>";
    for (std::size_t c = 0; c < width; ++c) {
      const std::string& text = c < rows[r].size() ? rows[r][c] : no_cell;
      html += Cell("td", text, IsNumber(text));
    }
    html += "</tr>\n";
  }
  return html + "</tbody>\n";
}

std::string TableNote(const std::string& name, std::size_t shown, std::size_t total) {
  if (shown == total) return "";
  return "<p class=\"note\">Showing the first "s + std::to_string(shown) + " of " + std::to_string(total) +
         " rows; the whole table is in " + Escape(name) + ".</p>\n";
}

// A table of features (its first column "feature", "player" or "group", its second a number) is
// shown by decreasing |value| of that number, the strongest first; the CSV keeps the run's order.
void SortByImportance(std::vector<CsvRow>& rows) {
  if (rows.size() < 3 || rows[0].size() < 2) return;
  const std::string& first = rows[0][0];
  if (first != "feature" && first != "player" && first != "group") return;
  const auto magnitude = [](const CsvRow& r) {
    return r.size() > 1 && IsNumber(r[1]) ? std::fabs(std::strtod(r[1].c_str(), nullptr)) : -1.0;
  };
  std::stable_sort(rows.begin() + 1, rows.end(),
                   [&](const CsvRow& a, const CsvRow& b) { return magnitude(a) > magnitude(b); });
}

std::string TableHtml(const ReportFile& file) {
  std::vector<CsvRow> rows = CsvReader().Read(file.content);
  SortByImportance(rows);
  std::string html = "<h3 id=\""s + Anchor("table-", file.name) + "\">" + Escape(file.name) + "</h3>\n";
  if (rows.empty()) return html + "<p class=\"note\">The table is empty.</p>\n";
  std::size_t width = 0;
  for (const CsvRow& row : rows) width = std::max(width, row.size());
  const std::size_t total = rows.size() - 1;
  const std::size_t shown = std::min(total, kMaxTableRows);
  return html + TableNote(file.name, shown, total) +
         "<div class=\"table-wrap card\"><table class=\"sortable\">\n" + HeaderRow(rows, shown, width) +
         BodyRows(rows, shown, width) + "</table></div>\n";
}

// ---- SVG figures ----

// The markup from the root <svg> on: a BOM, an XML declaration, comments or a DOCTYPE before it
// are dropped (they are not allowed, or not wanted, inside an HTML document).
std::string_view SvgElement(std::string_view svg) {
  const std::size_t at = svg.find("<svg");
  return at == std::string_view::npos ? std::string_view() : svg.substr(at);
}

// A numeric attribute of the root tag, as written ("720" of width="720" or "720px"), or "".
std::string RootNumber(std::string_view root_tag, std::string_view name) {
  const std::string key = " "s + std::string(name) + "=\"";
  const std::size_t at = root_tag.find(key);
  if (at == std::string_view::npos) return "";
  const std::size_t begin = at + key.size();
  std::size_t end = begin;
  while (end < root_tag.size() &&
         (std::isdigit(static_cast<unsigned char>(root_tag[end])) != 0 || root_tag[end] == '.'))
    ++end;
  return std::string(root_tag.substr(begin, end - begin));
}

// The root element with a viewBox (from its width and height when it has none), so that CSS can
// scale it to the screen while keeping its aspect ratio.
std::string WithViewBox(std::string_view svg) {
  const std::size_t tag_end = svg.find('>');
  const std::string_view root_tag = svg.substr(0, tag_end);
  if (tag_end == std::string_view::npos || root_tag.find(" viewBox=\"") != std::string_view::npos)
    return std::string(svg);
  const std::string w = RootNumber(root_tag, "width"), h = RootNumber(root_tag, "height");
  if (w.empty() || h.empty()) return std::string(svg);
  return "<svg viewBox=\"0 0 "s + w + " " + h + "\"" + std::string(svg.substr(4));
}

// The ids the figure defines.
std::set<std::string> DefinedIds(const std::string& svg) {
  std::set<std::string> ids;
  for (std::size_t at = svg.find(" id=\""); at != std::string::npos; at = svg.find(" id=\"", at + 1)) {
    const std::size_t begin = at + 5, end = svg.find('"', begin);
    if (end != std::string::npos) ids.insert(svg.substr(begin, end - begin));
  }
  return ids;
}

// Every `marker` + name (name one of `ids`) becomes `marker` + prefix + name.
std::string PrefixReferences(const std::string& svg, std::string_view marker,
                             const std::set<std::string>& ids, const std::string& prefix,
                             std::string_view stops) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = svg.find(marker); at != std::string::npos; at = svg.find(marker, at + 1)) {
    const std::size_t begin = at + marker.size();
    const std::size_t end = svg.find_first_of(stops, begin);
    if (end == std::string::npos || ids.count(svg.substr(begin, end - begin)) == 0) continue;
    out.append(svg, from, begin - from);
    out += prefix;
    from = begin;
  }
  return out + svg.substr(from);
}

// Inline SVGs share one id space: a second figure's url(#plot-area) would use the first figure's
// clip path. Each figure's ids and the references to them get the figure's own prefix.
std::string ScopeIds(const std::string& svg, const std::string& prefix) {
  const std::set<std::string> ids = DefinedIds(svg);
  if (ids.empty()) return svg;
  std::string out = PrefixReferences(svg, " id=\"", ids, prefix, "\"");
  out = PrefixReferences(out, "url(#", ids, prefix, ")");
  return PrefixReferences(out, "href=\"#", ids, prefix, "\"");
}

std::string FigureHtml(const ReportFile& file, std::size_t index) {
  const std::string prefix = "f"s + std::to_string(index) + "-";
  const std::string svg = ScopeIds(WithViewBox(SvgElement(file.content)), prefix);
  return "<figure id=\""s + Anchor("figure-", file.name) + "\">\n" + svg +
         (svg.empty() || svg.back() == '\n' ? "" : "\n") + "<figcaption>" + Escape(file.name) +
         "</figcaption>\n</figure>\n";
}

// ---- the page ----

struct Sections {
  std::string main_figure, figures, tables, texts, others;
  std::size_t n_figures = 0;
};

Sections FileSections(std::span<const ReportFile> files) {
  Sections s;
  for (const ReportFile& f : files) {
    if (f.name == "result.json" || f.name == "report.html") continue;
    if (EndsWith(f.name, ".svg")) {
      // The reporter's first figure is the run's main one (the waterfall of the AUC, the bars of
      // mean |phi|): it follows the summary; the others follow the tables.
      const std::size_t index = ++s.n_figures;
      (index == 1 ? s.main_figure : s.figures) += FigureHtml(f, index);
    } else if (EndsWith(f.name, ".csv"))
      // The first table (phi and its bands, the contributions) open; the others one click away.
      s.tables += s.tables.empty() ? TableHtml(f)
                                   : "<details class=\"more\"><summary>"s + Escape(f.name) + "</summary>\n" +
                                         TableHtml(f) + "</details>\n";
    else if (EndsWith(f.name, ".md"))
      s.texts += "<h3 id=\""s + Anchor("text-", f.name) + "\">" + Escape(f.name) +
                 "</h3>\n<pre class=\"card\">" + Escape(f.content) + "</pre>\n";
    else
      s.others += "<li>"s + Escape(f.name) + "</li>\n";
  }
  return s;
}

std::string Section(const char* id, const char* heading, const std::string& body) {
  if (body.empty()) return "";
  return std::string("<section id=\"") + id + "\"><h2>" + heading + "</h2>\n" + body + "</section>\n";
}

std::string Contents(const Sections& s) {
  std::string items = "<li><a href=\"#summary\">Summary</a></li>";
  if (!s.main_figure.empty()) items += "<li><a href=\"#main-figure\">Main figure</a></li>";
  if (!s.tables.empty()) items += "<li><a href=\"#tables\">Tables</a></li>";
  if (!s.figures.empty()) items += "<li><a href=\"#figures\">Figures</a></li>";
  if (!s.texts.empty()) items += "<li><a href=\"#texts\">Notes</a></li>";
  items += "<li><a href=\"#settings\">Settings</a></li>";
  if (!s.others.empty()) items += "<li><a href=\"#files\">Other files</a></li>";
  items += "<li><a href=\"#result\">result.json</a></li>";
  return "<nav aria-label=\"Contents\"><ul>" + items + "</ul></nav>\n";
}

std::string Head(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta name=\"generator\" content=\"perfshap\">\n<title>"s +
         Escape(title) + "</title>\n<style>" + std::string(kStyle) + "</style>\n</head>\n";
}

}  // namespace

std::string HtmlReport(std::span<const ReportFile> files) {
  const ReportFile& result_file = FindResult(files);
  const Json result = ParseResult(result_file.content);
  const std::string title = Title(result);
  const Sections s = FileSections(files);
  std::string html = Head(title) + "<body>\n<main>\n<h1>" + Escape(title) + "</h1>\n" + Contents(s);
  // The answer first (the summary: the question, the data and model, the strongest features with
  // their bands, the solver and its error; then the main figure), then the details (the tables,
  // sorted by importance, and the other figures), then how they were made.
  html += SummaryHtml(SummarizeResult(result));
  html += Section("main-figure", "Main figure", s.main_figure);
  html += Section("tables", "Tables", s.tables);
  html += Section("figures", "Figures", s.figures);
  html += Section("texts", "Notes", s.texts);
  html += SettingsSection(result);
  html += Section("files", "Other files", s.others.empty() ? "" : "<ul>\n" + s.others + "</ul>\n");
  html += JsonSection(result_file, result);
  return html + "</main>\n<script>" + std::string(kScript) + "</script>\n</body>\n</html>\n";
}

}}}  // namespace perfshap::detail
