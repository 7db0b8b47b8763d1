// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// `perfshap chains` end to end (issue 13): the xor data in the paper's order and in every order,
// Adult prepared as the paper's section 4.2 (the fixture's first 1400 rows), the files and keys the
// issue names, and the one-line errors of the acceptance list.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_runner.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::CliRun;
using testing::FreshDir;
using testing::OneLine;
using testing::Quote;
using testing::ReadJson;
using testing::ReadText;
using testing::RunCli;

TEST(CliChains, XorInThePapersOrderRunsThroughAndAndOr) {
  const auto out = FreshDir("chains_xor");
  const CliRun run = RunCli("chains --order and,or,xor --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto r = ReadJson(out / "result.json");
  EXPECT_EQ(r["method"], "chains");
  const auto& order = r["orders"][0];
  for (const char* x : {"x1", "x2"}) {
    const double direct = order["direct"]["xor"][x].get<double>();
    const double indirect = order["indirect"]["xor"][x].get<double>();
    EXPECT_LT(direct, 0.1 * indirect) << x;
    EXPECT_NEAR(order["total"]["xor"][x].get<double>(), direct + indirect, 1e-12);
    EXPECT_LT(r["independent"]["xor"][x].get<double>(), 0.05) << x;  // a lone linear xor classifier sees nothing
  }
  EXPECT_TRUE(order["direct"]["xor"].contains("and"));  // the earlier outputs are inputs of the link
  EXPECT_LT(order["hamming_loss"].get<double>(), 0.05);
  EXPECT_GT(order["accuracy"]["xor"].get<double>(), 0.95);
  EXPECT_EQ(ReadText(out / "direct.csv").substr(0, 27), "instance,output,input,value");
  EXPECT_TRUE(std::filesystem::exists(out / "indirect.csv"));
  EXPECT_TRUE(std::filesystem::exists(out / "chains_and-or-xor.svg"));
}

TEST(CliChains, EveryOrderIsAveraged) {
  const auto out = FreshDir("chains_all");
  const CliRun run = RunCli("chains --orders all --xor-rows 300 --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto r = ReadJson(out / "result.json");
  EXPECT_EQ(r["orders"].size(), 6U);
  for (const char* k : {"direct", "indirect", "total"}) EXPECT_TRUE(r["averaged"][k].contains("xor")) << k;
  EXPECT_EQ(ReadText(out / "direct.csv").substr(0, 33), "order,instance,output,input,value");
}

TEST(CliChains, AdultPreparedAsThePaper) {
  const auto out = FreshDir("chains_adult");
  const CliRun run = RunCli("chains --adult " + Quote(testing::FixturePath("data/adult_head.csv")) +
                            " --orders all --rows 40 --background 30 --out " + Quote(out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const auto r = ReadJson(out / "result.json");
  EXPECT_EQ(r["outputs"], (std::vector<std::string>{"sex", "income", "occupation_white_collar"}));
  EXPECT_EQ(r["features"].size(), 9U);
  EXPECT_FALSE(r["averaged"]["total"]["sex"].contains("race"));
  EXPECT_EQ(r["orders"].size(), 6U);
}

TEST(CliChains, BadInputGivesOneLineErrors) {
  const std::string bad = testing::WriteTempFile("chain.csv", "a,b,y1,y2\n0.1,0.2,0,1\n0.3,0.1,1,0.5\n0.2,0.2,1,1\n");
  const std::string ok = testing::WriteTempFile("chain_ok.csv", "a,b,y1,y2\n0.1,0.2,0,1\n0.3,0.1,1,0\n0.2,0.2,1,1\n");
  testing::ExpectOneLineErrors({
      {"chains --data " + Quote(bad) + " --outputs y1,y2", "not binary"},
      {"chains --data " + Quote(ok) + " --outputs y1,y1", "twice"},
      {"chains --data " + Quote(ok) + " --outputs y1,y3", "no column 'y3'"},
      {"chains --orders all --max-outputs 2", "at most 2 outputs"},
      {"chains --order and,xor", "every output once"},
  });
}

}  // namespace
}}  // namespace perfshap
