// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The self-contained HTML report (engine/src/report/html_report.hpp): one table per CSV with its
// rows and escaped cells, each SVG inlined once without its XML declaration, result.json embedded
// so that it parses back whole, the settings in the JSON's order, nothing fetched from elsewhere,
// clear errors; then the page of a real `perfshap xper` run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/cli_runner.hpp"
#include "perfshap/error.hpp"
#include "report/html_report.hpp"
#include "report/json.hpp"
#include "report/run_summary.hpp"
#include "support/expect_error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

std::size_t Count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + needle.size()))
    ++n;
  return n;
}

// The pieces of `text` from each `open` to the next `close` (both included).
std::vector<std::string> Pieces(const std::string& text, const std::string& open, const std::string& close) {
  std::vector<std::string> out;
  for (std::size_t at = text.find(open); at != std::string::npos; at = text.find(open, at + 1)) {
    const std::size_t end = text.find(close, at);
    if (end == std::string::npos) break;
    out.push_back(text.substr(at, end + close.size() - at));
  }
  return out;
}

// `text` without its pieces from `open` to `close`.
std::string Without(std::string text, const std::string& open, const std::string& close) {
  for (std::size_t at = text.find(open); at != std::string::npos; at = text.find(open, at)) {
    const std::size_t end = text.find(close, at);
    text.erase(at, end == std::string::npos ? std::string::npos : end + close.size() - at);
  }
  return text;
}

// The text of each `<tag>...</tag>` in `text`, in order.
std::vector<std::string> Texts(const std::string& text, const std::string& tag) {
  std::vector<std::string> out;
  for (const std::string& piece : Pieces(text, "<" + tag + ">", "</" + tag + ">"))
    out.push_back(piece.substr(tag.size() + 2, piece.size() - 2 * tag.size() - 5));
  return out;
}

std::string EmbeddedJson(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"result-json\">";
  const std::size_t begin = html.find(open);
  EXPECT_NE(begin, std::string::npos);
  if (begin == std::string::npos) return "";
  const std::size_t end = html.find("</script>", begin);
  return html.substr(begin + open.size(), end - begin - open.size());
}

Json SyntheticResult() {
  Json j;
  j["method"] = "shap";
  j["version"] = "1.2.3";
  j["features"] = {"a,b", "<c>"};
  j["seed"] = 7;
  j["threads"] = 2;
  j["elapsed_seconds"] = 0.5;
  j["solver"] = {{"name", "exact"}, {"coalitions", 256}};
  j["note"] = "ends </script> here <!-- and & 'quotes' \"too\"";
  j["flag"] = true;
  j["missing"] = nullptr;
  j["rows"] = Json::array({Json{{"row", 1}}, Json{{"row", 2}}});
  j["long"] = std::vector<int>(500, 1);
  return j;
}

constexpr const char* kSvg =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"300\" height=\"200\" "
    "viewBox=\"0 0 300 200\">\n<rect x=\"0\" y=\"0\" width=\"300\" height=\"200\" fill=\"#ffffff\"/>\n"
    "<text x=\"10\" y=\"20\">marker-of-the-bar-chart &amp; co</text>\n</svg>\n";

std::vector<ReportFile> SyntheticFiles(const Json& result) {
  return {{"shap_bar.svg", kSvg},
          {"values.csv", "name,value,note\n\"a,b\",1.5,\"say \"\"hi\"\"\"\n<c>,-2e-3,x & y\n"},
          {"second.csv", "x\r\n1\r\n2\r\n\"3\"\r\n"},
          {"summary.md", "# Summary\n<b>bold</b> & more\n"},
          {"extra.txt", "a file of another kind"},
          {"result.json", result.dump(2)}};
}

TEST(HtmlReport, SyntheticRunHasOneTablePerCsvWithItsRowsAndEscapedCells) {
  const std::string html = HtmlReport(SyntheticFiles(SyntheticResult()));
  const std::vector<std::string> tables = Pieces(html, "<table", "</table>");
  ASSERT_EQ(tables.size(), 2U);
  EXPECT_EQ(Count(tables[0], "<tr>"), 3U);  // header + 2 rows
  EXPECT_EQ(Count(tables[1], "<tr>"), 4U);  // header + 3 rows (CRLF, a quoted number)
  EXPECT_EQ(Count(tables[0], "<th "), 3U);
  EXPECT_NE(tables[0].find("<td>a,b</td>"), std::string::npos) << tables[0];
  EXPECT_NE(tables[0].find("<td>say &quot;hi&quot;</td>"), std::string::npos) << tables[0];
  EXPECT_NE(tables[0].find("<td>&lt;c&gt;</td>"), std::string::npos) << tables[0];
  EXPECT_NE(tables[0].find("<td>x &amp; y</td>"), std::string::npos) << tables[0];
  // Numbers right-aligned and shown as written.
  EXPECT_NE(tables[0].find("<td class=\"num\">1.5</td>"), std::string::npos) << tables[0];
  EXPECT_NE(tables[0].find("<td class=\"num\" data-value=\"-2e-3\" title=\"-2e-3\">-0.002</td>"),
            std::string::npos)
      << tables[0];
  EXPECT_NE(tables[1].find("<td class=\"num\">3</td>"), std::string::npos) << tables[1];
  EXPECT_EQ(html.find("<c>"), std::string::npos) << "unescaped text in the page";
  EXPECT_EQ(html.find("first 500"), std::string::npos);
}

TEST(HtmlReport, NumbersShowFourSignificantDigitsAndKeepTheirTextForSortingAndHover) {
  nlohmann::ordered_json result;
  result["method"] = "robustness";
  const std::vector<ReportFile> files = {{"phi.csv", "feature,phi\nx1,0.30453736062836029\nx2,-0.010004896681816068\n"},
                                         {"result.json", result.dump()}};
  const std::string html = HtmlReport(files);
  EXPECT_NE(
      html.find(
          "<td class=\"num\" data-value=\"0.30453736062836029\" title=\"0.30453736062836029\">0.3045</td>"),
      std::string::npos)
      << html;
  EXPECT_NE(html.find(">-0.01</td>"), std::string::npos);
}

// Where in `html` the first of `needle` is (npos: nowhere), for order checks.
std::size_t At(const std::string& html, const std::string& needle) { return html.find(needle); }

Json RobustnessLikeResult() {
  Json j;
  j["method"] = "robustness";
  j["data"] = "banknote.csv";
  j["n_rows"] = 1372;
  j["learner"] = "gnb";
  j["value"] = 0.95;
  j["value_std"] = 0.0125;
  j["base"] = 0.5;
  j["phi"] = {{"a", 0.1}, {"b", -0.25}, {"c", 0.3}, {"d", 0.05}};
  j["phi_std"] = {{"a", 0.01}, {"b", 0.02}, {"c", 0.03}, {"d", 0.04}};
  j["phi_se"] = {{"a", 0.001}, {"b", 0.004}, {"c", 0.002}, {"d", 0.003}};
  j["solver"] = "kernel";
  j["stopped_by"] = "tolerance";
  j["converged"] = true;
  return j;
}

TEST(HtmlReport, OpensOnTheSummaryThenTheMainFigureThenTablesByImportance) {
  const std::vector<ReportFile> files = {{"phi.csv", "feature,phi\na,0.1\nb,-0.25\nc,0.3\nd,0.05\n"},
                                         {"splits.csv", "split,auc\n0,0.9\n1,0.95\n"},
                                         {"main.svg", kSvg},
                                         {"other.svg", kSvg},
                                         {"result.json", RobustnessLikeResult().dump()}};
  const std::string html = HtmlReport(files);
  // The order: summary, main figure (the reporter's first), the tables, the other figures.
  ASSERT_NE(At(html, "<section id=\"summary\">"), std::string::npos);
  EXPECT_LT(At(html, "<section id=\"summary\">"), At(html, "<section id=\"main-figure\">"));
  EXPECT_LT(At(html, "<section id=\"main-figure\">"), At(html, "<section id=\"tables\">"));
  EXPECT_LT(At(html, "<section id=\"tables\">"), At(html, "<section id=\"figures\">"));
  EXPECT_LT(At(html, "<figcaption>main.svg"), At(html, "<figcaption>other.svg"));
  // The strongest three by |phi|, each with its band over the splits.
  const std::string summary = Pieces(html, "<section id=\"summary\">", "</section>").at(0);
  EXPECT_EQ(Texts(summary, "li"), (std::vector<std::string>{"<b>c</b> 0.3 ± 0.03", "<b>b</b> -0.25 ± 0.02",
                                                            "<b>a</b> 0.1 ± 0.01"}));
  EXPECT_NE(summary.find("standard deviation over the splits"), std::string::npos) << summary;
  EXPECT_NE(summary.find("Which features make the model&#39;s AUC"), std::string::npos) << summary;
  EXPECT_NE(summary.find("banknote.csv, 1372 rows"), std::string::npos) << summary;
  EXPECT_NE(summary.find("AUC 0.95 ± 0.0125"), std::string::npos) << summary;
  EXPECT_NE(summary.find("kernel, stopped by its tolerance; largest standard error of a value 0.004"),
            std::string::npos)
      << summary;
  // A table of features by decreasing |phi|; another table keeps its order.
  const std::vector<std::string> tables = Pieces(html, "<table", "</table>");
  ASSERT_EQ(tables.size(), 2U);
  EXPECT_LT(At(tables[0], ">c<"), At(tables[0], ">b<"));
  EXPECT_LT(At(tables[0], ">b<"), At(tables[0], ">a<"));
  EXPECT_LT(At(tables[0], ">a<"), At(tables[0], ">d<"));
  EXPECT_LT(At(tables[1], ">0.9<"), At(tables[1], ">0.95<"));
}

TEST(HtmlReport, SummaryReadsEachMethodsShapeOfValues) {
  // SAGE: a phi array beside players, with standard errors.
  Json sage;
  sage["method"] = "sage";
  sage["metric"] = "log_loss";
  sage["metric_full"] = 0.47;
  sage["metric_empty"] = 0.65;
  sage["players"] = {"x", "y"};
  sage["phi"] = {0.02, 0.16};
  sage["phi_se"] = {0.001, 0.002};
  sage["solver"] = {{"name", "exact"}, {"converged", true}, {"stopped_by", "exact"}};
  ReportSummary s = SummarizeResult(sage);
  ASSERT_EQ(s.strongest.size(), 2U);
  EXPECT_EQ(s.strongest[0].name, "y");
  EXPECT_DOUBLE_EQ(s.strongest[0].band, 0.002);
  EXPECT_EQ(s.band_label, "standard error");
  // SHAP: the first output's mean |phi|, no band.
  Json shap;
  shap["method"] = "shap";
  shap["global"] = {{"mean_abs", {{"P(y=1)", {{"u", 0.5}, {"v", 0.7}}}}}};
  s = SummarizeResult(shap);
  ASSERT_EQ(s.strongest.size(), 2U);
  EXPECT_EQ(s.strongest[0].name, "v");
  EXPECT_TRUE(std::isnan(s.strongest[0].band));
  EXPECT_EQ(s.values_label, "mean |phi| over the rows (P(y=1))");
  // An unknown method with none of the shapes: an empty summary, no question, no failure.
  s = SummarizeResult(Json{{"method", "other"}});
  EXPECT_TRUE(s.question.empty());
  EXPECT_TRUE(s.strongest.empty());
  EXPECT_EQ(ShortNumber(-2.3141e-5), "-2.314e-05");
  EXPECT_EQ(ShortNumber(0.30453736), "0.3045");
}

TEST(HtmlReport, InlinesEachSvgOnceWithoutItsXmlDeclaration) {
  const std::string html = HtmlReport(SyntheticFiles(SyntheticResult()));
  EXPECT_EQ(Count(html, "marker-of-the-bar-chart &amp; co"), 1U);
  EXPECT_EQ(Count(html, "<svg"), 1U);
  EXPECT_EQ(Count(html, "</svg>"), 1U);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  EXPECT_EQ(Count(html, "<figure"), 1U);
  const std::vector<std::string> figures = Pieces(html, "<figure", "</figure>");
  ASSERT_EQ(figures.size(), 1U);
  EXPECT_NE(figures[0].find("<figcaption>shap_bar.svg</figcaption>"), std::string::npos) << figures[0];
  EXPECT_NE(figures[0].find("viewBox=\"0 0 300 200\""), std::string::npos);
  EXPECT_NE(html.find("svg{display:block;max-width:100%;height:auto"), std::string::npos);
}

TEST(HtmlReport, EmbeddedJsonParsesBackEvenWithScriptEndsInStrings) {
  const Json result = SyntheticResult();
  const std::string html = HtmlReport(SyntheticFiles(result));
  const std::string embedded = EmbeddedJson(html);
  EXPECT_EQ(embedded.find('<'), std::string::npos) << "a '<' could end the script element";
  EXPECT_EQ(Json::parse(embedded), result);
  EXPECT_EQ(Json::parse(embedded)["note"], "ends </script> here <!-- and & 'quotes' \"too\"");
  EXPECT_EQ(Count(html, "id=\"result-json\""), 1U);
  // The pretty-printed copy is escaped text inside <details>.
  const std::vector<std::string> details = Pieces(html, "<details>", "</details>");
  ASSERT_EQ(details.size(), 1U);
  EXPECT_NE(details[0].find("ends &lt;/script&gt; here &lt;!-- and &amp; &#39;quotes&#39;"),
            std::string::npos);
  EXPECT_NE(details[0].find("\n    &quot;coalitions&quot;: 256"), std::string::npos) << "not pretty-printed";
}

TEST(HtmlReport, FetchesNothingFromElsewhere) {
  const std::string html = HtmlReport(SyntheticFiles(SyntheticResult()));
  const std::string outside_svg = Without(html, "<svg", "</svg>");
  ASSERT_LT(outside_svg.size(), html.size());
  for (const char* banned :
       {"src=", "href=\"http", "href='http", "@import", "url(http", "<link", "<img", "<iframe"})
    EXPECT_EQ(outside_svg.find(banned), std::string::npos) << banned;
  EXPECT_NE(html.find("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"),
            std::string::npos);
  EXPECT_EQ(Count(html, "<script"), 2U);  // the embedded JSON and the one inline script
}

TEST(HtmlReport, SettingsListTheScalarKeysInTheJsonsOrder) {
  const std::string html = HtmlReport(SyntheticFiles(SyntheticResult()));
  EXPECT_NE(html.find("<title>perfshap shap</title>"), std::string::npos);
  EXPECT_NE(html.find("<h1>perfshap shap</h1>"), std::string::npos);
  const std::vector<std::string> lists = Pieces(html, "<dl class=\"settings", "</dl>");
  ASSERT_EQ(lists.size(), 1U);
  EXPECT_EQ(Texts(lists[0], "dt"),
            (std::vector<std::string>{"method", "version", "features", "seed", "threads", "elapsed_seconds",
                                      "note", "flag", "missing"}));
  EXPECT_EQ(
      Texts(lists[0], "dd"),
      (std::vector<std::string>{
          "shap", "1.2.3", "a,b, &lt;c&gt;", "7", "2", "0.5",
          "ends &lt;/script&gt; here &lt;!-- and &amp; &#39;quotes&#39; &quot;too&quot;", "true", "null"}));
}

TEST(HtmlReport, MarkdownAsEscapedTextAndOtherFilesByName) {
  const std::string html = HtmlReport(SyntheticFiles(SyntheticResult()));
  const std::vector<std::string> pres = Pieces(html, "<pre", "</pre>");
  ASSERT_EQ(pres.size(), 2U);  // summary.md and the pretty result.json
  EXPECT_NE(pres[0].find("# Summary\n&lt;b&gt;bold&lt;/b&gt; &amp; more"), std::string::npos) << pres[0];
  EXPECT_NE(html.find("<li>extra.txt</li>"), std::string::npos);
  EXPECT_EQ(html.find("a file of another kind"), std::string::npos);
}

TEST(HtmlReport, LargeTablesShowTheFirst500Rows) {
  std::string csv = "i,square\n";
  for (int i = 0; i < 600; ++i) csv += std::to_string(i) + "," + std::to_string(i * i) + "\n";
  const std::vector<ReportFile> files = {{"big.csv", csv}, {"result.json", R"({"method":"demo"})"}};
  const std::string html = HtmlReport(files);
  const std::vector<std::string> tables = Pieces(html, "<table", "</table>");
  ASSERT_EQ(tables.size(), 1U);
  EXPECT_EQ(Count(tables[0], "<tr>"), 501U);
  EXPECT_NE(html.find("first 500 of 600 rows"), std::string::npos);
  EXPECT_NE(html.find("big.csv."), std::string::npos) << "the note names the file holding the whole table";
  EXPECT_NE(tables[0].find("<td class=\"num\">499</td>"), std::string::npos);
  EXPECT_EQ(tables[0].find("<td class=\"num\">500</td>"), std::string::npos);
}

TEST(HtmlReport, QuotedFieldsMayHoldLineBreaksAndRaggedRowsArePadded) {
  const std::vector<ReportFile> files = {{"t.csv", "a,b,c\n\"two\nlines\",2\n\n1,2,3\n"},
                                         {"result.json", R"({"method":"x"})"}};
  const std::string html = HtmlReport(files);
  const std::vector<std::string> tables = Pieces(html, "<table", "</table>");
  ASSERT_EQ(tables.size(), 1U);
  EXPECT_EQ(Count(tables[0], "<tr>"), 3U);  // the blank line is no row
  EXPECT_EQ(Count(tables[0], "<td"), 6U);
  EXPECT_NE(tables[0].find("<td>two\nlines</td><td class=\"num\">2</td><td></td>"), std::string::npos)
      << tables[0];
}

TEST(HtmlReport, AddsAViewBoxAndKeepsEachFiguresIdsApart) {
  const std::string svg =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"320\" height=\"240\"><defs><clipPath "
      "id=\"plot-area\">"
      "<rect width=\"10\" height=\"10\"/></clipPath></defs><rect clip-path=\"url(#plot-area)\" width=\"5\" "
      "height=\"5\"/><text>url(#elsewhere)</text></svg>";
  const std::vector<ReportFile> files = {
      {"a.svg", svg}, {"b.svg", svg}, {"result.json", R"({"method":"x"})"}};
  const std::string html = HtmlReport(files);
  EXPECT_EQ(Count(html, "<svg viewBox=\"0 0 320 240\""), 2U);
  for (const char* part :
       {"id=\"f1-plot-area\"", "url(#f1-plot-area)", "id=\"f2-plot-area\"", "url(#f2-plot-area)"})
    EXPECT_EQ(Count(html, part), 1U) << part;
  EXPECT_EQ(html.find("id=\"plot-area\""), std::string::npos);
  EXPECT_EQ(Count(html, "url(#elsewhere)"), 2U) << "a reference to no id of the figure is left alone";
}

TEST(HtmlReport, NoResultJsonOrAnInvalidOneIsAnError) {
  const std::vector<ReportFile> none = {{"a.csv", "x\n1\n"}};
  testing::ExpectError<Error>([&] { HtmlReport(none); }, {"result.json"});
  testing::ExpectError<Error>([] { HtmlReport(std::span<const ReportFile>()); }, {"result.json"});
  const std::vector<ReportFile> invalid = {{"result.json", "{\"method\": \"x\",\n  \"seed\": --1}"}};
  testing::ExpectError<Error>([&] { HtmlReport(invalid); }, {"result.json", "not valid JSON", "line 2"});
  const std::vector<ReportFile> truncated = {{"result.json", "{\"method\": \"x\""}};
  testing::ExpectError<Error>([&] { HtmlReport(truncated); }, {"result.json", "not valid JSON"});
  const std::vector<ReportFile> array = {{"result.json", "[1, 2]"}};
  testing::ExpectError<Error>([&] { HtmlReport(array); }, {"result.json", "object"});
}

// A real run: every table and figure of `perfshap xper` (built-in data) is in the page.
TEST(HtmlReport, XperRunsFilesAllAppear) {
  const auto out = testing::FreshDir("html_report_xper");
  const testing::CliRun run = testing::RunCli("xper --quiet --out " + testing::Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<ReportFile> files;
  std::size_t csvs = 0, svgs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    const std::string name = entry.path().filename().string();
    files.push_back({name, testing::ReadText(entry.path())});
    csvs += entry.path().extension() == ".csv" ? 1 : 0;
    svgs += entry.path().extension() == ".svg" ? 1 : 0;
  }
  std::sort(files.begin(), files.end(),
            [](const ReportFile& a, const ReportFile& b) { return a.name < b.name; });
  const std::string html = HtmlReport(files);
  ASSERT_GT(svgs, 0U);
  EXPECT_EQ(Count(html, "<table"), csvs);
  EXPECT_EQ(Count(html, "<figure"), svgs);
  EXPECT_EQ(Count(html, "<svg"), svgs);
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  EXPECT_NE(html.find("<title>perfshap xper</title>"), std::string::npos);
  const std::string embedded = EmbeddedJson(html);
  EXPECT_EQ(Json::parse(embedded), Json::parse(testing::ReadText(out / "result.json")));
  std::filesystem::remove_all(out);
}

}  // namespace
}}}  // namespace perfshap::detail
