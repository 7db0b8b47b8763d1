// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "report/csv.hpp"
#include "report/format.hpp"
#include "report/json.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

TEST(ReportFormat, PadsCellsWithAMinimumGap) {
  EXPECT_EQ(PadRight("ab", 5), "ab   ");
  EXPECT_EQ(PadRight("abcdef", 5), "abcdef");
  EXPECT_EQ(PadRight("abcdef", 5, 1), "abcdef ");
  EXPECT_EQ(PadRight("ab", 5, 1), "ab   ");
}

TEST(ReportFormat, MeanStdCellsAsTheTablesPrintThem) {
  EXPECT_EQ(MeanStdCell(0.30454, 0.02141, 4, true), "+0.3045 +- 0.0214");
  EXPECT_EQ(MeanStdCell(0.5, 0.25, 6, false), "0.500000 +- 0.250000");
  EXPECT_EQ(BandCell(-0.01, 0.02, 3, true), "-0.0100 +- 0.0200");
  EXPECT_EQ(BandCell(0.125, 0.0, 1, true), "+0.125000");
  EXPECT_EQ(BandCell(0.125, 0.0, 1, false), "0.125000");
}

TEST(ReportCsv, WritesHeaderRowsAndRoundTripNumbers) {
  CsvTable t({"name", "value", "n"});
  t.Row().Text("a").Number(0.1).Count(3);
  t.Row().Quoted("b+c").Number(std::numeric_limits<double>::quiet_NaN()).Count(0);
  EXPECT_EQ(t.Text(), "name,value,n\na,0.10000000000000001,3\n\"b+c\",nan,0\n");
  EXPECT_EQ(std::stod("0.10000000000000001"), 0.1);
  CsvTable empty_nan({"v"}, CsvTable::NonFinite::kEmpty);
  empty_nan.Row().Number(std::numeric_limits<double>::infinity());
  empty_nan.Row().Number(-2.5);
  EXPECT_EQ(empty_nan.Text(), "v\n\n-2.5\n");
  EXPECT_EQ(CsvTable({"x", "y"}).Text(), "x,y\n");
}

TEST(ReportCsv, NamesAreRfc4180FieldsAndNeverFormulas) {
  // Hardening round 2, item 5: a name with a comma, a quote or a line end stays one field (the
  // columns after it do not shift), in the header and in the rows.
  EXPECT_EQ(CsvCell("plain name"), "plain name");
  EXPECT_EQ(CsvCell("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvCell("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvCell("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvCell(" padded"), "\" padded\"");
  // A formula's first character: quoted behind an apostrophe, shown as text by spreadsheets.
  EXPECT_EQ(CsvCell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
  for (const char* f : {"+1", "-2", "@sum", "\tx"}) EXPECT_EQ(CsvCell(f), "\"'" + std::string(f) + "\"") << f;
  EXPECT_EQ(CsvCell(""), "");
  CsvTable t({"feature", "phi_a,b", "std"});
  t.Row().Text("a,b").Number(0.5).Number(0.25);
  t.Row().Quoted("x\"y").Number(1).Number(2);
  EXPECT_EQ(t.Text(), "feature,\"phi_a,b\",std\n\"a,b\",0.5,0.25\n\"x\"\"y\",1,2\n");
}

TEST(ReportJson, ResultHeadComesFirstAndIsNotOverwritten) {
  Json body;
  body["value"] = 0.75;
  body["method"] = "ignored";
  body["phi"] = NamedValues({"b", "a"}, std::vector<double>{1.0, 2.0});
  body["norm"] = NamedValuesOrNull({"a"}, std::vector<double>{std::nan("")});
  body["band"] = MeanStd(0.5, 0.1);
  const Json j = Json::parse(ResultJsonText({"robustness", {"a", "b"}, 7, 2, 1.5}, body));
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"method", "version", "features", "seed", "threads",
                                            "elapsed_seconds", "value", "phi", "norm", "band"}));
  EXPECT_EQ(j["method"], "robustness");
  EXPECT_EQ(j["phi"].begin().key(), "b");
  EXPECT_TRUE(j["norm"]["a"].is_null());
  EXPECT_EQ(j["band"]["std"].get<double>(), 0.1);
}

}  // namespace
}}}  // namespace perfshap::detail
