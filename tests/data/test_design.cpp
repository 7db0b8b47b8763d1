// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// DesignEncoder: one-hot as scikit-learn's OneHotEncoder(drop="first"), sorted codes,
// train/test files that agree, and the players over the design's columns.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/players.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::ExpectDataError;

using testing::FixturePath;

CsvOptions Label(MissingValues missing = MissingValues::kError) {
  CsvOptions options;
  options.label = "label";
  options.missing = missing;
  return options;
}

std::vector<double> ToVector(std::span<const double> s) { return {s.begin(), s.end()}; }

/// x (numeric), color (text: red, blue, green, blue, Red, red; first-appearance codes as
/// ReadCsv gives them), y (numeric), label.
Dataset ColorData() {
  Dataset data({"x", "color", "y"},
               {{1, 2, 3, 4, 5, 6}, {0, 1, 2, 1, 3, 0}, {0.5, std::nan(""), 1.5, 2.5, 3.5, 4.5}},
               {0, 1, 0, 1, 1, 0});
  data.set_encoding(1, CategoricalEncoding{{"red", "blue", "green", "Red"}});
  data.set_source("colors.csv");
  return data;
}

std::vector<std::string> PlayerNames(const std::vector<Player>& players) {
  std::vector<std::string> names;
  for (const Player& p : players) names.push_back(p.name);
  return names;
}

TEST(DesignEncoder, OneHotDropsFirstSortedLevel) {
  const Dataset data = ColorData();
  const std::vector<std::size_t> features = {1};
  const Design design = DesignEncoder(data, features, {}, TextColumns::kOneHot).Apply(data);
  // /usr/bin/python3 -c "import numpy as np; from sklearn.preprocessing import OneHotEncoder;
  //   x = np.array([['red'], ['blue'], ['green'], ['blue'], ['Red'], ['red']]);
  //   e = OneHotEncoder(drop='first', sparse_output=False).fit(x);
  //   print(e.categories_, e.transform(x))"
  // categories ['Red', 'blue', 'green', 'red'] (byte order: 'R' < 'b'), 'Red' dropped:
  //   [[0 0 1] [1 0 0] [0 1 0] [1 0 0] [0 0 0] [0 0 1]]
  ASSERT_EQ(design.data.n_features(), 3u);
  EXPECT_EQ(design.data.feature_names(),
            (std::vector<std::string>{"color=blue", "color=green", "color=red"}));
  EXPECT_EQ(ToVector(design.data.column(0)), (std::vector<double>{0, 1, 0, 1, 0, 0}));
  EXPECT_EQ(ToVector(design.data.column(1)), (std::vector<double>{0, 0, 1, 0, 0, 0}));
  EXPECT_EQ(ToVector(design.data.column(2)), (std::vector<double>{1, 0, 0, 0, 0, 1}));
  for (std::size_t j = 0; j < 3; ++j) EXPECT_FALSE(design.data.encoding(j).has_value());
  // The indicators are one player named after the column.
  ASSERT_EQ(design.players.size(), 1u);
  EXPECT_EQ(design.players[0].name, "color");
  EXPECT_EQ(design.players[0].columns, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(design.players[0].source_columns, (std::vector<std::string>{"color"}));
}

TEST(DesignEncoder, CodesAreSortedLevels) {
  const Dataset data = ColorData();
  const DesignEncoder encoder(data, {}, {}, TextColumns::kCodes);
  const Design design = encoder.Apply(data);
  ASSERT_EQ(design.data.n_features(), 3u);
  EXPECT_EQ(design.data.feature_names(), (std::vector<std::string>{"x", "color", "y"}));
  // Sorted levels Red=0, blue=1, green=2, red=3 (first appearance was red, blue, green, Red).
  EXPECT_EQ(ToVector(design.data.column(1)), (std::vector<double>{3, 1, 2, 1, 0, 3}));
  ASSERT_TRUE(design.data.encoding(1).has_value());
  EXPECT_EQ(design.data.encoding(1)->levels, (std::vector<std::string>{"Red", "blue", "green", "red"}));
  EXPECT_EQ(PlayerNames(design.players), (std::vector<std::string>{"x", "color", "y"}));
  EXPECT_EQ(design.players[1].columns, (std::vector<std::size_t>{1}));
  EXPECT_EQ(encoder.policy(), TextColumns::kCodes);
}

TEST(DesignEncoder, NumericColumnsAreCopiedOnePlayerEach) {
  const Dataset data = ColorData();
  const Design design = DesignEncoder(data, {}, {}, TextColumns::kOneHot).Apply(data);
  EXPECT_EQ(design.data.feature_names(),
            (std::vector<std::string>{"x", "color=blue", "color=green", "color=red", "y"}));
  EXPECT_EQ(ToVector(design.data.column(0)), ToVector(data.column(0)));
  EXPECT_TRUE(std::isnan(design.data.column(4)[1]));  // NaN kept as it is
  EXPECT_EQ(design.data.column(4)[5], 4.5);
  ASSERT_EQ(design.players.size(), 3u);
  EXPECT_EQ(design.players[0].columns, (std::vector<std::size_t>{0}));
  EXPECT_EQ(design.players[1].columns, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(design.players[2].columns, (std::vector<std::size_t>{4}));
  // The label, label name and source are those of the data encoded.
  EXPECT_EQ(ToVector(design.data.label()), ToVector(data.label()));
  EXPECT_EQ(design.data.label_name(), data.label_name());
  EXPECT_EQ(design.data.source(), "colors.csv");
}

TEST(DesignEncoder, SharesTheNumericColumnsAndEncodesAsACopyWould) {
  const Dataset data = ColorData();
  const DesignEncoder encoder(data, {}, {}, TextColumns::kOneHot);
  const Design copied = encoder.Apply(data.Owned());
  Dataset temporary = ColorData();
  const double* x_values = temporary.column(0).data();
  const Design moved = encoder.Apply(temporary);
  EXPECT_EQ(moved.data.column(0).data(), x_values);  // the buffer itself, not a copy
  EXPECT_EQ(moved.data.label().data(), temporary.label().data());
  ASSERT_EQ(moved.data.n_features(), copied.data.n_features());
  EXPECT_EQ(moved.data.feature_names(), copied.data.feature_names());
  for (std::size_t j = 0; j < copied.data.n_features(); ++j) {
    const auto a = ToVector(moved.data.column(j));
    const auto b = ToVector(copied.data.column(j));
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      EXPECT_TRUE(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))) << j << "," << i;
  }
  EXPECT_EQ(ToVector(moved.data.label()), ToVector(copied.data.label()));
  EXPECT_EQ(moved.data.source(), "colors.csv");
}

TEST(DesignEncoder, TrainAndTestWithDifferentFirstAppearanceEncodeAlike) {
  const std::string train_path =
      testing::WriteTempFile("train.csv", "x,color,label\n1,red,0\n2,blue,1\n3,green,0\n4,red,1\n");
  const std::string test_path = testing::WriteTempFile("test.csv", "x,color,label\n5,green,1\n6,blue,0\n7,red,1\n");
  const Dataset train = ReadCsv(train_path, Label());
  const Dataset test = ReadCsv(test_path, Label());
  ASSERT_NE(ToVector(train.column(1))[0], ToVector(test.column(1))[2]);  // 'red' has two codes
  for (const TextColumns policy : {TextColumns::kOneHot, TextColumns::kCodes}) {
    const Design by_train = DesignEncoder(train, {}, {}, policy).Apply(test);
    const Design by_test = DesignEncoder(test, {}, {}, policy).Apply(test);
    ASSERT_EQ(by_train.data.feature_names(), by_test.data.feature_names());
    for (std::size_t j = 0; j < by_train.data.n_features(); ++j) {
      EXPECT_EQ(ToVector(by_train.data.column(j)), ToVector(by_test.data.column(j))) << j;
    }
  }
  // Rows green, blue, red; 'blue' is the reference level.
  const Design design = DesignEncoder(train, {}, {}, TextColumns::kOneHot).Apply(test);
  EXPECT_EQ(design.data.feature_names(), (std::vector<std::string>{"x", "color=green", "color=red"}));
  EXPECT_EQ(ToVector(design.data.column(1)), (std::vector<double>{1, 0, 0}));
  EXPECT_EQ(ToVector(design.data.column(2)), (std::vector<double>{0, 0, 1}));
  const Design codes = DesignEncoder(train, {}, {}, TextColumns::kCodes).Apply(test);
  EXPECT_EQ(ToVector(codes.data.column(1)), (std::vector<double>{1, 0, 2}));
}

TEST(DesignEncoder, UnseenLevelIsOneLineError) {
  const Dataset train = ReadCsv(testing::WriteTempFile("seen.csv", "x,color,label\n1,red,0\n2,blue,1\n"), Label());
  const Dataset test = ReadCsv(testing::WriteTempFile("unseen.csv", "x,color,label\n5,red,1\n6,purple,0\n"), Label());
  const DesignEncoder encoder(train, {}, {}, TextColumns::kOneHot);
  ExpectDataError([&] { encoder.Apply(test); }, {"unseen.csv: ", "column 'color'", "data row 2",
                                                 "level 'purple'", "not seen", "seen.csv", "'blue', 'red'"});
}

TEST(DesignEncoder, MissingOrRetypedColumnIsOneLineError) {
  const Dataset train = ReadCsv(testing::WriteTempFile("fit.csv", "x,color,label\n1,red,0\n2,blue,1\n"), Label());
  const DesignEncoder encoder(train, {}, {}, TextColumns::kOneHot);
  const Dataset no_color = ReadCsv(testing::WriteTempFile("no_color.csv", "x,label\n5,1\n6,0\n"), Label());
  ExpectDataError([&] { encoder.Apply(no_color); }, {"no_color.csv: ", "no column 'color'", "fit.csv"});
  const Dataset numeric_color =
      ReadCsv(testing::WriteTempFile("numeric_color.csv", "x,color,label\n5,1,1\n6,2,0\n"), Label());
  ExpectDataError([&] { encoder.Apply(numeric_color); },
                  {"numeric_color.csv: ", "column 'color'", "is numeric but was text in", "fit.csv"});
  const Dataset text_x = ReadCsv(testing::WriteTempFile("text_x.csv", "x,color,label\nfive,red,1\nsix,blue,0\n"), Label());
  ExpectDataError([&] { encoder.Apply(text_x); },
                  {"text_x.csv: ", "column 'x'", "is text", "was numeric in", "fit.csv"});
}

TEST(DesignEncoder, LevelsAreThoseTheRowsHold) {
  // Rows 0, 1, 3 hold red and blue only: 'green' and 'Red' are not levels of the fit.
  const Dataset data = ColorData();
  const std::vector<std::size_t> rows = {0, 1, 3};
  const Dataset part = data.SelectRows(rows);
  const std::vector<std::size_t> features = {1};
  const DesignEncoder encoder(part, features, {}, TextColumns::kOneHot);
  EXPECT_EQ(encoder.column_names(), (std::vector<std::string>{"color=red"}));
  EXPECT_EQ(ToVector(encoder.Apply(part).data.column(0)), (std::vector<double>{1, 0, 0}));
  ExpectDataError([&] { encoder.Apply(data); }, {"colors.csv: ", "data row 3", "level 'green'"});
}

TEST(DesignEncoder, OneLevelTextColumnIsAnError) {
  const Dataset data = ReadCsv(testing::WriteTempFile("one_level.csv", "x,kind,label\n1,a,0\n2,a,1\n"), Label());
  ExpectDataError([&] { DesignEncoder(data, {}, {}, TextColumns::kOneHot); },
                  {"one_level.csv: ", "column 'kind'", "one level only", "'a'", "constant"});
  ExpectDataError([&] { DesignEncoder(data, {}, {}, TextColumns::kCodes); },
                  {"column 'kind'", "one level only"});
  // Left out of the features, it is no trouble.
  const std::vector<std::size_t> features = {0};
  EXPECT_EQ(DesignEncoder(data, features, {}, TextColumns::kOneHot).players().size(), 1u);
}

TEST(DesignEncoder, BadFeatureIndexIsInvalidArgument) {
  const Dataset data = ColorData();
  const std::vector<std::size_t> out_of_range = {3};
  EXPECT_THROW(DesignEncoder(data, out_of_range, {}, TextColumns::kOneHot), InvalidArgument);
  const std::vector<std::size_t> twice = {0, 0};
  EXPECT_THROW(DesignEncoder(data, twice, {}, TextColumns::kOneHot), InvalidArgument);
}

/// a (numeric), color (text), b (numeric), size (text), c (numeric).
Dataset FiveColumns() {
  return ReadCsv(testing::WriteTempFile("five.csv",
                           "a,color,b,size,c,label\n1,red,2,S,3,0\n4,blue,5,M,6,1\n7,green,8,L,9,0\n"
                           "1,red,2,M,3,1\n"),
                 Label());
}

TEST(DesignEncoder, GroupsFormPlayersInFeatureOrder) {
  const Dataset data = FiveColumns();
  // Group 'g' lists c before color; it sits where color (its first feature) would, and its
  // columns follow the features' order: color's indicators, then c.
  const std::vector<FeatureGroup> groups = {{"g", {"c", "color"}, ""}};
  const DesignEncoder encoder(data, {}, groups, TextColumns::kOneHot);
  const Design design = encoder.Apply(data);
  EXPECT_EQ(PlayerNames(design.players), (std::vector<std::string>{"a", "g", "b", "size"}));
  // Sorted levels: color blue < green < red (blue dropped); size L < M < S (L dropped).
  EXPECT_EQ(design.data.feature_names(),
            (std::vector<std::string>{"a", "color=green", "color=red", "c", "b", "size=M", "size=S"}));
  EXPECT_EQ(design.players[0].columns, (std::vector<std::size_t>{0}));
  EXPECT_EQ(design.players[1].columns, (std::vector<std::size_t>{1, 2, 3}));
  EXPECT_EQ(design.players[1].source_columns, (std::vector<std::string>{"color", "c"}));
  EXPECT_EQ(design.players[2].columns, (std::vector<std::size_t>{4}));
  EXPECT_EQ(design.players[3].columns, (std::vector<std::size_t>{5, 6}));
  EXPECT_EQ(ToVector(design.data.column(3)), ToVector(data.column(4)));  // c copied
  EXPECT_EQ(encoder.players().size(), 4u);
  EXPECT_EQ(encoder.column_names(), design.data.feature_names());
}

TEST(DesignEncoder, GroupsOverAFeatureSubsetInItsOrder) {
  const Dataset data = FiveColumns();
  const std::vector<std::size_t> features = {4, 2, 0};  // c, b, a
  const std::vector<FeatureGroup> groups = {{"ab", {"a", "b"}, ""}};
  const Design design = DesignEncoder(data, features, groups, TextColumns::kCodes).Apply(data);
  EXPECT_EQ(PlayerNames(design.players), (std::vector<std::string>{"c", "ab"}));
  EXPECT_EQ(design.data.feature_names(), (std::vector<std::string>{"c", "b", "a"}));
  EXPECT_EQ(design.players[1].columns, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(design.players[1].source_columns, (std::vector<std::string>{"b", "a"}));
}

TEST(DesignEncoder, GroupMayBeNamedLikeItsOwnColumn) {
  const Dataset data = FiveColumns();
  const std::vector<FeatureGroup> groups = {{"a", {"a", "b"}, ""}};
  const Design design = DesignEncoder(data, {}, groups, TextColumns::kOneHot).Apply(data);
  EXPECT_EQ(PlayerNames(design.players), (std::vector<std::string>{"a", "color", "size", "c"}));
}

TEST(DesignEncoder, UnknownGroupColumnSuggestsCloseNames) {
  const Dataset data = FiveColumns();
  const std::string path = testing::WriteTempFile("unknown.json", "{\"g\": [\"a\", \"colour\"]}");
  const std::vector<FeatureGroup> groups = ReadFeatureGroups(path);
  ExpectDataError(
      [&] { DesignEncoder(data, {}, groups, TextColumns::kOneHot); },
      {path + ": group 'g'", "column 'colour'", "five.csv", "does not have", "did you mean 'color'"});
  const std::vector<FeatureGroup> far = {{"g", {"zzzzzz"}, "far.json"}};
  ExpectDataError([&] { DesignEncoder(data, {}, far, TextColumns::kOneHot); },
                  {"far.json: group 'g'", "column 'zzzzzz'", "'a', 'color', 'b', 'size', 'c'"});
}

TEST(DesignEncoder, GroupColumnOutsideFeaturesIsAnError) {
  const Dataset data = FiveColumns();
  const std::vector<std::size_t> features = {0, 1};
  const std::vector<FeatureGroup> groups = {{"g", {"a", "b"}, "subset.json"}};
  try {
    DesignEncoder(data, features, groups, TextColumns::kOneHot);
    ADD_FAILURE() << "expected DataError";
  } catch (const DataError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("subset.json: group 'g' names column 'b', which is not among the features used"),
              std::string::npos)
        << what;
    EXPECT_EQ(e.options(), (std::vector<std::string>{"features"}));
  }
}

TEST(DesignEncoder, LabelInGroupIsAnError) {
  const Dataset data = FiveColumns();
  const std::vector<FeatureGroup> groups = {{"g", {"a", "label"}, "label.json"}};
  ExpectDataError([&] { DesignEncoder(data, {}, groups, TextColumns::kOneHot); },
                  {"label.json: group 'g'", "column 'label'", "the label"});
}

TEST(DesignEncoder, GroupNamedLikeUngroupedFeatureIsAnError) {
  const Dataset data = FiveColumns();
  const std::vector<FeatureGroup> groups = {{"c", {"a", "b"}, "clash.json"}};
  ExpectDataError([&] { DesignEncoder(data, {}, groups, TextColumns::kOneHot); },
                  {"clash.json: group 'c'", "feature 'c'", "in no group", "rename the group"});
}

TEST(DesignEncoder, GroupsBuiltInCodeAreCheckedToo) {
  const Dataset data = FiveColumns();
  const std::vector<FeatureGroup> two = {{"g", {"a", "b"}, ""}, {"h", {"c", "b"}, ""}};
  ExpectDataError([&] { DesignEncoder(data, {}, two, TextColumns::kOneHot); },
                  {"column 'b'", "group 'g'", "group 'h'", "one group only"});
  const std::vector<FeatureGroup> empty = {{"g", {}, ""}};
  ExpectDataError([&] { DesignEncoder(data, {}, empty, TextColumns::kOneHot); }, {"group 'g'", "is empty"});
  const std::vector<FeatureGroup> unnamed = {{"", {"a"}, ""}};
  ExpectDataError([&] { DesignEncoder(data, {}, unnamed, TextColumns::kOneHot); }, {"group 1", "empty name"});
  const std::vector<FeatureGroup> same = {{"g", {"a"}, ""}, {"g", {"b"}, ""}};
  ExpectDataError([&] { DesignEncoder(data, {}, same, TextColumns::kOneHot); },
                  {"group 'g'", "defined twice"});
  const std::vector<FeatureGroup> repeat = {{"g", {"a", "a"}, ""}};
  ExpectDataError([&] { DesignEncoder(data, {}, repeat, TextColumns::kOneHot); }, {"group 'g'", "'a' twice"});
}

TEST(DesignEncoder, IndicatorNameClashIsAnError) {
  const Dataset data = ReadCsv(testing::WriteTempFile("clash.csv", "color,color=red,label\nred,1,0\nblue,2,1\n"), Label());
  ExpectDataError([&] { DesignEncoder(data, {}, {}, TextColumns::kOneHot); }, {"clash.csv: ", "'color=red'"});
  EXPECT_EQ(DesignEncoder(data, {}, {}, TextColumns::kCodes).column_names().size(), 2u);
}

TEST(DesignEncoder, KeepsTheDroppedRowCount) {
  const Dataset data = ReadCsv(FixturePath("missing_policies.csv"), Label(MissingValues::kDrop));
  const Design design = DesignEncoder(data, {}, {}, TextColumns::kOneHot).Apply(data);
  EXPECT_EQ(design.data.dropped_rows(), 4u);
  EXPECT_EQ(design.data.n_rows(), 4u);
}

// adult_head200.csv: the header and first 200 data rows of the UCI Adult training file,
//   head -n 201 shared/data/adult.csv > tests/fixtures/data/adult_head200.csv
// 14 feature columns, 8 of them text; 14 rows hold a '?' (workclass 10, occupation 10,
// native_country 5).
TEST(DesignEncoder, AdultHeadWithMissingCategoryHasFourteenPlayers) {
  const Dataset data = ReadCsv(FixturePath("data/adult_head200.csv"), Label(MissingValues::kCategory));
  ASSERT_EQ(data.n_rows(), 200u);
  ASSERT_EQ(data.n_features(), 14u);
  const DesignEncoder encoder(data, {}, {}, TextColumns::kOneHot);
  const Design design = encoder.Apply(data);
  ASSERT_EQ(design.players.size(), 14u);
  EXPECT_EQ(PlayerNames(design.players), data.feature_names());
  // Indicators per text column = its distinct values in these rows ('?' counted) - 1:
  //   /usr/bin/python3 -c "import csv; r = list(csv.DictReader(open('tests/fixtures/data/adult_head200.csv')));
  //     print({c: len({x[c] for x in r}) - 1 for c in ['workclass', 'education', 'marital_status',
  //            'occupation', 'relationship', 'race', 'sex', 'native_country']})"
  const std::vector<std::pair<std::string, std::size_t>> indicators = {
      {"workclass", 6}, {"education", 13}, {"marital_status", 6}, {"occupation", 12}, {"relationship", 5},
      {"race", 4},      {"sex", 1},        {"native_country", 13}};
  std::size_t n_columns = 0;
  for (const Player& player : design.players) {
    const auto it = std::find_if(indicators.begin(), indicators.end(),
                                 [&](const auto& entry) { return entry.first == player.name; });
    const std::size_t expected = it == indicators.end() ? 1 : it->second;
    EXPECT_EQ(player.columns.size(), expected) << player.name;
    for (std::size_t k = 0; k < player.columns.size(); ++k) EXPECT_EQ(player.columns[k], n_columns + k);
    n_columns += player.columns.size();
  }
  EXPECT_EQ(design.data.n_features(), n_columns);
  EXPECT_EQ(n_columns, 6u + 60u);  // 6 numeric columns and 60 indicators
  // '?' sorts before every letter, so it is workclass's reference level (no column).
  const auto& names = design.data.feature_names();
  EXPECT_EQ(std::find(names.begin(), names.end(), "workclass=?"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "workclass=Private"), names.end());
}

TEST(DesignEncoder, AdultHeadDropRemovesExactlyTheRowsWithAQuestionMark) {
  const Dataset all = ReadCsv(FixturePath("data/adult_head200.csv"), Label(MissingValues::kCategory));
  std::vector<std::size_t> complete;
  for (std::size_t i = 0; i < all.n_rows(); ++i) {
    bool missing = false;
    for (std::size_t j = 0; j < all.n_features(); ++j) {
      if (all.encoding(j))
        missing = missing || all.encoding(j)->levels[static_cast<std::size_t>(all.column(j)[i])] == "?";
    }
    if (!missing) complete.push_back(i);
  }
  ASSERT_EQ(complete.size(), 186u);
  const Dataset dropped = ReadCsv(FixturePath("data/adult_head200.csv"), Label(MissingValues::kDrop));
  EXPECT_EQ(dropped.dropped_rows(), 14u);
  ASSERT_EQ(dropped.n_rows(), 186u);
  // The same rows: the designs (fitted on the complete rows) agree column by column.
  const Dataset expected = all.SelectRows(complete);
  const DesignEncoder encoder(expected, {}, {}, TextColumns::kOneHot);
  const Design a = encoder.Apply(expected);
  const Design b = encoder.Apply(dropped);
  ASSERT_EQ(a.data.feature_names(), b.data.feature_names());
  for (std::size_t j = 0; j < a.data.n_features(); ++j) {
    EXPECT_EQ(ToVector(a.data.column(j)), ToVector(b.data.column(j))) << a.data.feature_names()[j];
  }
  EXPECT_EQ(ToVector(a.data.label()), ToVector(b.data.label()));
}

}  // namespace
}}  // namespace perfshap
