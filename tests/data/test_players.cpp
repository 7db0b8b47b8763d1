// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Groups files (ReadFeatureGroups / ParseFeatureGroups): the groups in file order, and a
// one-line DataError naming the file and the group for each bad file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/players.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::ExpectDataError;

/// Writes text to a file called name and expects ReadFeatureGroups to fail naming the file.
void ExpectGroupsFileError(const std::string& name, const std::string& text,
                           std::initializer_list<std::string> parts) {
  const std::string path = testing::WriteTempFile(name, text);
  ExpectDataError([&] { ReadFeatureGroups(path); }, parts);
  ExpectDataError([&] { ReadFeatureGroups(path); }, {path + ": "});
}

TEST(FeatureGroups, ReadsGroupsInFileOrder) {
  const std::string path =
      testing::WriteTempFile("good.json",
                "{\n  \"work\": [\"occupation\", \"workclass\"],\n  \"demography\": [\"race\", \"sex\"],\n"
                "  \"a\": [\"age\"]\n}\n");
  const std::vector<FeatureGroup> groups = ReadFeatureGroups(path);
  ASSERT_EQ(groups.size(), 3u);
  // File order, not sorted by name (nlohmann::json would sort the keys).
  EXPECT_EQ(groups[0].name, "work");
  EXPECT_EQ(groups[0].columns, (std::vector<std::string>{"occupation", "workclass"}));
  EXPECT_EQ(groups[1].name, "demography");
  EXPECT_EQ(groups[1].columns, (std::vector<std::string>{"race", "sex"}));
  EXPECT_EQ(groups[2].name, "a");
  EXPECT_EQ(groups[2].columns, (std::vector<std::string>{"age"}));
  EXPECT_EQ(groups[0].source, path);
}

TEST(FeatureGroups, EmptyObjectIsNoGroup) { EXPECT_TRUE(ParseFeatureGroups("{}", "none.json").empty()); }

TEST(FeatureGroups, MissingFileIsAnError) {
  ExpectDataError([] { ReadFeatureGroups("/nonexistent/perfshap/groups.json"); },
                  {"/nonexistent/perfshap/groups.json", "no such file"});
}

TEST(FeatureGroups, DirectoryIsAnError) {
  const std::string dir = ::testing::TempDir() + "perfshap_groups_dir";
  std::filesystem::create_directories(dir);
  ExpectDataError([&] { ReadFeatureGroups(dir); }, {dir, "is a directory"});
}

TEST(FeatureGroups, InvalidJsonNamesLineAndColumn) {
  ExpectGroupsFileError("invalid.json", "{\n  \"work\": [\"occupation\",]\n}\n",
                        {"invalid.json", "not valid JSON", "line 2, column"});
  ExpectGroupsFileError("empty.json", "", {"empty.json", "not valid JSON"});
}

TEST(FeatureGroups, TopLevelNotAnObjectIsAnError) {
  ExpectGroupsFileError("array.json", "[[\"age\", \"sex\"]]",
                        {"array.json", "the top level is", "not an object"});
}

TEST(FeatureGroups, ValueNotAnArrayIsAnError) {
  ExpectGroupsFileError("string.json", "{\"work\": \"occupation\"}",
                        {"string.json", "group 'work'", "\"occupation\"", "not an array of column names"});
}

TEST(FeatureGroups, ItemNotAStringIsAnError) {
  ExpectGroupsFileError("number.json", "{\"work\": [\"occupation\", 3]}",
                        {"number.json", "group 'work', item 2", "is 3", "not a column name"});
}

TEST(FeatureGroups, EmptyColumnNameIsAnError) {
  ExpectGroupsFileError("empty_column.json", "{\"work\": [\"\"]}",
                        {"empty_column.json", "group 'work', item 1", "empty column name"});
}

TEST(FeatureGroups, EmptyGroupIsAnError) {
  ExpectGroupsFileError("empty_group.json", "{\"work\": [\"occupation\"], \"life\": []}",
                        {"empty_group.json", "group 'life'", "is empty"});
}

TEST(FeatureGroups, EmptyGroupNameIsAnError) {
  ExpectGroupsFileError("empty_name.json", "{\"work\": [\"occupation\"], \"\": [\"age\"]}",
                        {"empty_name.json", "the 2nd group", "empty name"});
}

TEST(FeatureGroups, ColumnTwiceInOneGroupIsAnError) {
  ExpectGroupsFileError("twice.json", "{\"work\": [\"occupation\", \"workclass\", \"occupation\"]}",
                        {"twice.json", "group 'work'", "column 'occupation' twice"});
}

TEST(FeatureGroups, ColumnInTwoGroupsNamesBoth) {
  ExpectGroupsFileError(
      "two_groups.json", "{\"work\": [\"occupation\", \"hours\"], \"life\": [\"age\", \"hours\"]}",
      {"two_groups.json", "column 'hours'", "group 'work'", "group 'life'", "one group only"});
}

TEST(FeatureGroups, GroupDefinedTwiceIsAnError) {
  ExpectGroupsFileError("same_name.json", "{\"work\": [\"occupation\"], \"work\": [\"workclass\"]}",
                        {"same_name.json", "group 'work'", "defined twice"});
}

TEST(FeatureGroups, ControlCharactersStayOnOneLine) {
  ExpectDataError([] { ParseFeatureGroups("{\"a\\nb\": []}", "odd.json"); },
                  {"odd.json", "group 'a\\nb'", "empty"});
}

}  // namespace
}}  // namespace perfshap
