// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Options declared once (perfshap/blocks/options.hpp): parse, range checks, format, declarations; and
// the learners' declarations, which MakeLearner parses with.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/options.hpp"
#include "support/expect_error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::ExpectError;

struct Toy {
  bool flag = false;
  int depth = 3;
  std::uint64_t seed = 7;
  std::size_t rows = 10;
  double rate = 0.1;
  std::string mode = "fast";
  std::vector<std::string> names{"a", "b"};
  struct Inner {
    double tolerance = 1e-9;
  } inner;
};

OptionTable<Toy> ToyTable() {
  OptionTable<Toy> t("toy");
  t.Add("flag", &Toy::flag).Help("a switch");
  t.Add("depth", &Toy::depth).Help("a depth").AtLeast(0).AtMost(64);
  t.Add("seed", &Toy::seed).Help("a seed");
  t.Add("rows", &Toy::rows).Help("rows").AtLeast(1);
  t.Add("rate", &Toy::rate).Help("a rate").Above(0.0).Below(1.0);
  t.Add("mode", &Toy::mode).Help("a mode").Choices({"fast", "slow"});
  t.Add("names", &Toy::names).Help("names");
  t.AddVia<double>("tolerance", [](Toy& o) -> double& { return o.inner.tolerance; }).Help("nested").Above(0.0);
  return t;
}

TEST(OptionTable, DeclaresDefaultsTypesAndRanges) {
  const OptionTable<Toy> t = ToyTable();
  const std::vector<OptionInfo> infos = t.infos();
  ASSERT_EQ(infos.size(), 8U);
  EXPECT_EQ(infos[0].name, "flag");
  EXPECT_EQ(infos[0].type, OptionType::kBool);
  EXPECT_EQ(infos[0].default_text, "false");
  EXPECT_EQ(infos[1].default_text, "3");
  EXPECT_EQ(infos[1].RangeText(), "in [0, 64]");
  EXPECT_EQ(infos[2].type, OptionType::kInteger);
  EXPECT_TRUE(infos[2].is_unsigned);
  EXPECT_EQ(infos[2].RangeText(), "");
  EXPECT_EQ(infos[3].RangeText(), ">= 1");
  EXPECT_EQ(infos[4].default_text, "0.1");
  EXPECT_EQ(infos[4].RangeText(), "in (0, 1)");
  EXPECT_EQ(infos[5].RangeText(), "one of fast, slow");
  EXPECT_EQ(infos[6].default_text, "a,b");
  EXPECT_EQ(infos[7].default_text, "1e-09");
  EXPECT_TRUE(t.Has("tolerance"));
  EXPECT_FALSE(t.Has("speed"));
}

TEST(OptionTable, ParsesTextOfEveryTypeAndFormatsItBack) {
  const OptionTable<Toy> t = ToyTable();
  Toy v;
  t.Parse({{"flag", "yes"}, {"depth", "12"}, {"seed", "18446744073709551615"}, {"rows", " 5 "}, {"rate", "0.25"},
           {"mode", "slow"}, {"names", "x, y,,z"}, {"tolerance", "1e-12"}},
          v);
  EXPECT_TRUE(v.flag);
  EXPECT_EQ(v.depth, 12);
  EXPECT_EQ(v.seed, UINT64_MAX);
  EXPECT_EQ(v.rows, 5U);
  EXPECT_EQ(v.rate, 0.25);
  EXPECT_EQ(v.mode, "slow");
  EXPECT_EQ(v.names, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(v.inner.tolerance, 1e-12);
  const OptionValues text = t.Format(v);
  EXPECT_EQ(text.at("seed"), "18446744073709551615");
  EXPECT_EQ(text.at("names"), "x,y,z");
  Toy again;
  t.Parse(text, again);
  EXPECT_EQ(t.Format(again), text);
  // '-' spells '_' (a flag's spelling).
  Toy dashed;
  OptionTable<Toy> d("toy");
  d.Add("test_size", &Toy::rate);
  d.Parse({{"test-size", "0.5"}}, dashed);
  EXPECT_EQ(dashed.rate, 0.5);
}

TEST(OptionTable, RefusesUnknownNamesAndBadValuesNamingTheOption) {
  const OptionTable<Toy> t = ToyTable();
  Toy v;
  ExpectError<InvalidArgument>([&] { t.Parse({{"speed", "1"}}, v); },
                               {"toy has no option speed (its options: flag, depth, seed"}, "speed");
  ExpectError<InvalidArgument>([&] { t.Parse({{"flag", "maybe"}}, v); }, {"toy: option flag = 'maybe' is not true or false"},
                               "flag");
  ExpectError<InvalidArgument>([&] { t.Parse({{"depth", "2.5"}}, v); }, {"'2.5' is not an integer in [0, 64]"}, "depth");
  ExpectError<InvalidArgument>([&] { t.Parse({{"depth", "65"}}, v); }, {"depth must be an integer in [0, 64], got '65'"},
                               "depth");
  // An unsigned option never wraps a sign or an overflow around.
  ExpectError<InvalidArgument>([&] { t.Parse({{"seed", "-1"}}, v); }, {"'-1' is not an integer in 0 .. 18446744073709551615"},
                               "seed");
  ExpectError<InvalidArgument>([&] { t.Parse({{"seed", "18446744073709551616"}}, v); }, {"is not an integer"}, "seed");
  ExpectError<InvalidArgument>([&] { t.Parse({{"rows", "0"}}, v); }, {"rows must be an integer >= 1, got '0'"}, "rows");
  for (const char* bad : {"1", "0", "nan", "inf", "1e999", "x"})
    ExpectError<InvalidArgument>([&] { t.Parse({{"rate", bad}}, v); }, {"rate"}, "rate");
  ExpectError<InvalidArgument>([&] { t.Parse({{"mode", "medium"}}, v); }, {"'medium' is not one of fast, slow"}, "mode");
  // A message never quotes an unbounded value.
  ExpectError<InvalidArgument>([&] { t.Parse({{"mode", std::string(100000, 'x')}}, v); }, {"xxx...'"}, "mode");
}

TEST(LearnerOptions, EveryLearnerDeclaresItsOptionsOnce) {
  for (const LearnerEntry& e : RegisteredLearners()) {
    SCOPED_TRACE(e.name);
    ASSERT_FALSE(e.options.empty());
    LearnerParams defaults;
    for (const OptionInfo& info : e.options) {
      EXPECT_FALSE(info.help.empty()) << info.name;
      if (!info.default_text.empty()) defaults[info.name] = info.default_text;
    }
    // The declared defaults parse back to the learner a default MakeLearner gives.
    EXPECT_EQ(MakeLearner(e.name, defaults)->params(), MakeLearner(e.name)->params());
  }
  ExpectError<InvalidArgument>([] { MakeLearner("logistic", {{"C", "0"}}); }, {"learner logistic: option C must be"},
                               "C");
}

}  // namespace
}}  // namespace perfshap
