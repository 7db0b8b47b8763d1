// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The JSON files a user gives (groups, splits, XGBoost models) under hostile input (issue 20):
// nesting beyond 64 levels is refused before parsing (a message formatting a value nested some
// 65,000 levels used to overflow the stack), a number beyond a double's range is a one-line
// DataError naming the file and the number (it leaked "[json.exception...]"), and messages show
// at most a few dozen characters of any value, however large.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "data/json_text.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/players.hpp"
#include "perfshap/blocks/split.hpp"
#include "perfshap/blocks/trees.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 {
namespace {

/** `depth` arrays, one in the other, around `inner`. */
std::string Nested(std::size_t depth, const std::string& inner = "") {
  return std::string(depth, '[') + inner + std::string(depth, ']');
}

TEST(JsonNesting, SixtyFourLevelsPassSixtyFiveDoNot) {
  EXPECT_NO_THROW(detail::CheckJsonNesting(Nested(64), "f.json: ", "fix it"));
  EXPECT_NO_THROW(detail::CheckJsonNesting("{\"a\": \"[[[[[[\\\"[[[[\"}", "f.json: ", "fix it"));  // in strings
  testing::ExpectDataError([] { detail::CheckJsonNesting(Nested(65), "f.json: ", "fix it"); },
                           {"f.json: ", "more than 64 levels deep (line 1, column 65)", "fix it"});
  testing::ExpectDataError([] { detail::CheckJsonNesting("{\n \"a\": " + Nested(70) + "}", "f.json: ", "x"); },
                           {"line 2, column 70"});  // the object is level 1
}

TEST(JsonNesting, GroupsNested65000LevelsAreOneLine) {
  testing::ExpectDataError([] { ParseFeatureGroups(Nested(65000), "groups.json"); },
                           {"groups.json: ", "more than 64 levels deep", "{\"group name\""});
  testing::ExpectDataError([] { ParseFeatureGroups("{\"g\": " + Nested(65000, "\"x\"") + "}", "groups.json"); },
                           {"groups.json: ", "more than 64 levels deep"});
  const std::string path = testing::WriteTempFile("deep_groups.json", Nested(65000));
  testing::ExpectDataError([&] { ReadFeatureGroups(path); }, {"deep_groups.json: ", "64 levels"});
}

TEST(JsonNesting, SplitsNested65000LevelsAreOneLine) {
  const std::string deep = testing::WriteTempFile("deep_split.json", Nested(65000));
  testing::ExpectDataError([&] { ReadSplits(deep, 10); }, {"deep_split.json: ", "more than 64 levels deep"});
  const std::string inner =
      testing::WriteTempFile("deep_train.json", "{\"train\": " + Nested(65000, "1") + ", \"test\": [2]}");
  testing::ExpectDataError([&] { ReadSplits(inner, 10); }, {"deep_train.json: ", "64 levels"});
}

TEST(JsonNesting, XgboostModelsNested65000LevelsAreOneLine) {
  testing::ExpectDataError([] { ParseXgboostModel("{\"learner\": " + Nested(65000) + "}", "deep.json"); },
                           {"XGBoost model deep.json: ", "more than 64 levels deep"});
  // Bytes that look like UBJSON nesting are not parsed as UBJSON.
  testing::ExpectDataError([] { ParseXgboostModel("{U" + std::string(100000, '['), "m.ubj"); }, {"m.ubj"});
}

// 1e999 overflows a double: nlohmann reports it as out_of_range, not as a parse error.
TEST(JsonFiles, DevicesBinaryLatin1AndHugeFilesAreRefusedBeforeAnyParse) {
  // Hardening round 2, item 3: /dev/zero as any JSON input ends in its first block (it used to
  // grow memory without bound); /dev/urandom is not UTF-8 in its first block.
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    SCOPED_TRACE(device);
    testing::ExpectDataError([&] { ReadXgboostModel(device); }, {device, ", column"});
    testing::ExpectDataError([&] { ReadFeatureGroups(device); }, {device, ", column"});
    testing::ExpectDataError([&] { ReadSplits(device, 10); }, {device, ", column"});
    testing::ExpectDataError([&] { ReadXgboostModelText(device); }, {device});
  }
  testing::ExpectDataError([] { ReadXgboostModel("/dev/zero"); }, {"NUL byte", "not JSON text"});
  const std::string latin1 = testing::WriteTempFile("latin1_groups.json", "{\n  \"caf\xE9\": [\"a\"]\n}\n");
  testing::ExpectDataError([&] { ReadFeatureGroups(latin1); },
                           {"line 2, column 7", "not UTF-8 (byte 0xE9", "re-save the file as UTF-8"});
  const std::string cut = testing::WriteTempFile("cut_utf8.json", "{\"a\": \"\xC3");
  testing::ExpectDataError([&] { ReadFeatureGroups(cut); }, {"line 1, column 8", "not UTF-8 (byte 0xC3"});
  // The size limit, set lower through the environment: refused before reading, naming the way out.
  const std::string big = testing::WriteTempFile("big_groups.json", "{\"g\": [\"a\", \"b\"]}" + std::string(200, ' '));
  ::setenv("PERFSHAP_MAX_JSON_BYTES", "100", 1);
  testing::ExpectDataError([&] { ReadFeatureGroups(big); }, {"larger than 100 bytes", "PERFSHAP_MAX_JSON_BYTES"});
  ::setenv("PERFSHAP_MAX_JSON_BYTES", "lots", 1);
  EXPECT_THROW(ReadFeatureGroups(big), InvalidArgument);
  ::unsetenv("PERFSHAP_MAX_JSON_BYTES");
  EXPECT_EQ(ReadFeatureGroups(big).size(), 1u);
}

TEST(JsonNumbers, BeyondADoubleIsOneLineNamingTheNumber) {
  testing::ExpectDataError([] { ParseFeatureGroups("{\"g\": [\"a\", 1e999]}", "groups.json"); },
                           {"groups.json: ", "the number '1e999' is beyond the range of a double"});
  const std::string split = testing::WriteTempFile("big.json", "{\"train\": [0, 1e999], \"test\": [2]}");
  testing::ExpectDataError([&] { ReadSplits(split, 10); }, {"big.json: ", "'1e999'", "beyond the range"});
  const std::string negative = testing::WriteTempFile("small.json", "{\"train\": [0], \"test\": [-2e400]}");
  testing::ExpectDataError([&] { ReadSplits(negative, 10); }, {"small.json: ", "'-2e400'"});
  testing::ExpectDataError([] { ParseXgboostModel("{\"learner\": {\"x\": [1E+999]}}", "m.json"); },
                           {"XGBoost model m.json: ", "the number '1E+999' is beyond the range of a double"});
  // A long number is cut in the message.
  const std::string digits = "1" + std::string(5000, '0');
  try {
    ParseFeatureGroups("{\"g\": [" + digits + "]}", "groups.json");
    ADD_FAILURE() << "no error";
  } catch (const DataError& e) {
    EXPECT_LT(std::string(e.what()).size(), 200u) << e.what();
  }
}

TEST(JsonSnippet, ShowsAtMostTheLimitOfAnyValue) {
  using Json = nlohmann::json;
  EXPECT_EQ(detail::JsonSnippet(Json::parse("[1, \"a\", {\"k\": null}]")), "[1,\"a\",{\"k\":null}]");
  EXPECT_EQ(detail::JsonSnippet(Json(3.5)), "3.5");
  // What dump() writes, cut: a prefix of 37 characters and "...".
  Json big = Json::object();
  big["a"] = Json::array();
  for (int k = 0; k < 10000; ++k) big["a"].push_back(k);
  big["b"] = std::string(100000, 'x');
  const std::string full = big.dump();
  EXPECT_EQ(detail::JsonSnippet(big), full.substr(0, 37) + "...");
  const Json text(std::string(100000, 'y'));
  EXPECT_EQ(detail::JsonSnippet(text), text.dump().substr(0, 37) + "...");
  const Json deep = Json::parse(Nested(60, "1"));
  EXPECT_EQ(detail::JsonSnippet(deep, 200), deep.dump());  // short enough to show whole
  EXPECT_EQ(detail::JsonSnippet(deep), deep.dump().substr(0, 37) + "...");
  // Keys are cut too; non-ASCII is escaped on request and never cut inside a character.
  const Json key = Json::object({{std::string(500, 'k'), 1}});
  EXPECT_EQ(detail::JsonSnippet(key), key.dump().substr(0, 37) + "...");
  EXPECT_EQ(detail::JsonSnippet(Json("\xc3\xa9t\xc3\xa9"), 40, true), "\"\\u00e9t\\u00e9\"");
  std::string accents = "a";
  for (int k = 0; k < 30; ++k) accents += "\xc3\xa9";  // e acute, 2 bytes: the cut falls inside one
  const std::string snippet = detail::JsonSnippet(Json(accents));
  EXPECT_EQ(snippet, "\"" + accents.substr(0, 35) + "...");
  EXPECT_NO_THROW(Json(snippet).dump());  // valid UTF-8
}

// A value of the wrong shape in a groups file is shown cut, not dumped whole.
TEST(JsonSnippet, MessagesShowLargeValuesCut) {
  std::string ones;
  for (int k = 0; k < 100000; ++k) ones += "1,";
  const std::string huge = "{\"g\": {\"a\": [" + ones + "1]}}";
  try {
    ParseFeatureGroups(huge, "groups.json");
    ADD_FAILURE() << "no error";
  } catch (const DataError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("group 'g' is {\"a\":[1,1,1,"), std::string::npos) << what;
    EXPECT_LT(what.size(), 200u) << what;
  }
}

}  // namespace
}}  // namespace perfshap
