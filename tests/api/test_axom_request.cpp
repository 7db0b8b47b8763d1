// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The request layer's AXOM method (api/axom_request.hpp), which the CLI and Python both call:
// one data set over two seeds equals RunAxomProtocol on the same data and seeds, bit for bit; a
// table in memory equals its file; bad requests are refused naming the option.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "api/axom_request.hpp"
#include "perfshap/axom.hpp"
#include "perfshap/error.hpp"
#include "support/expect_error.hpp"
#include "support/tables.hpp"
#include "support/test_paths.hpp"

namespace perfshap {
namespace {

std::string Wine() { return testing::FixturePath("data/wine.csv"); }

api::AxomRequest OnWine() {
  api::AxomRequest r;
  r.data.path = Wine();
  r.trees = 8;
  r.neighbours = 30;
  r.seeds = 2;
  r.seed = 4;
  r.heatmap_grid = 4;
  r.execution.threads = 2;
  return r;
}

/** Equal as doubles, NaN equal to NaN (a point where no neighbour kept the label). */
void ExpectSameValues(const std::vector<double>& a, const std::vector<double>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i])) {
      EXPECT_TRUE(std::isnan(b[i])) << i;
    } else {
      EXPECT_EQ(a[i], b[i]) << i;
    }
  }
}

TEST(AxomRequest, OneDataSetOverTwoSeedsEqualsTheProtocol) {
  const api::AxomResponse got = api::RunAxom(OnWine());
  ASSERT_EQ(got.reports.size(), 1u);
  const detail::AxomDataReport& report = got.reports.front();
  EXPECT_EQ(report.name, "wine");
  EXPECT_EQ(report.seeds, (std::vector<std::uint64_t>{4, 5}));
  CsvOptions csv;
  csv.label = "label";
  csv.regression = true;
  const Dataset data = ReadCsv(Wine(), csv);
  for (std::size_t k = 0; k < 2; ++k) {
    AxomProtocolOptions po;
    po.tune = false;
    po.trees = 8;
    po.robustness.neighbours = 30;
    po.seed = 4 + k;
    po.robustness.seed = po.seed;
    const AxomRun want = RunAxomProtocol(data, po);
    const AxomRun& run = report.runs[k];
    EXPECT_EQ(run.forest_accuracy, want.forest_accuracy);
    EXPECT_EQ(run.test_rows, want.test_rows);
    ExpectSameValues(run.robustness.axom.l_bar, want.robustness.axom.l_bar);
    ExpectSameValues(run.robustness.forest.l_bar, want.robustness.forest.l_bar);
    EXPECT_EQ(run.mislabelling, want.mislabelling);
  }
  EXPECT_EQ(report.heatmaps.grid, 4u);
  EXPECT_EQ(report.heatmaps.ratio[2].size(), 16u);
  EXPECT_FALSE(got.paper);
}

TEST(AxomRequest, ATableInMemoryEqualsItsFile) {
  CsvOptions csv;
  csv.label = "label";
  csv.regression = true;
  const Dataset d = ReadCsv(Wine(), csv);
  const auto table = testing::TableOf(d);
  api::AxomRequest in_memory = OnWine();
  in_memory.data.path.clear();
  in_memory.data.table = table;
  in_memory.seeds = 1;
  api::AxomRequest file = OnWine();
  file.seeds = 1;
  const api::AxomResponse a = api::RunAxom(file);
  const api::AxomResponse b = api::RunAxom(in_memory);
  EXPECT_EQ(b.reports.front().name, "the frame");
  ExpectSameValues(a.reports.front().runs.front().robustness.axom.l_bar,
                   b.reports.front().runs.front().robustness.axom.l_bar);
}

TEST(AxomRequest, BadRequestsAreRefusedNamingTheOption) {
  using testing::ExpectError;
  {
    api::AxomRequest r = OnWine();
    r.eps = 0.7;
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"eps 0.7", "(0, 0.5]"}, "eps");
  }
  {
    api::AxomRequest r = OnWine();
    r.model_file = "m.json";
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"boosted trees", "m.json"}, "model_file");
  }
  {
    api::AxomRequest r = OnWine();
    r.paper = true;
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"one of them"}, "paper");
  }
  {
    api::AxomRequest r = OnWine();
    r.heatmap_features = std::make_pair(std::string("alcohol"), std::string("nope"));
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"'nope' is not a feature"}, "features");
  }
  {
    api::AxomRequest r = OnWine();
    r.seeds = 0;
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"seeds"}, "seeds");
  }
}

}  // namespace
}  // namespace perfshap
