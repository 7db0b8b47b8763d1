// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The request layer's AXOM method (api/axom_request.hpp), which the CLI and Python both call:
// one data set over two seeds equals RunAxomProtocol on the same data and seeds, bit for bit; a
// table in memory equals its file; a host's fitted forest is explained at the rows given, in each
// feature's range over them; bad requests are refused naming the option.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "api/axom_request.hpp"
#include "perfshap/axom.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "support/expect_error.hpp"
#include "support/tables.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
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

/** A forest fitted on wine's raw features (classes 1..3 as read), every row. */
std::shared_ptr<const TreeEnsemble> RawWineForest(const Dataset& data) {
  ForestOptions fo;
  fo.n_estimators = 9;
  fo.max_depth = 4;
  fo.seed = 7;
  std::vector<std::size_t> rows(data.n_rows()), columns(data.n_features());
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  for (std::size_t j = 0; j < columns.size(); ++j) columns[j] = j;
  return FitForest(fo, data, rows, columns);
}

TEST(AxomRequest, AGivenForestIsExplainedAtTheRowsInEachFeaturesRange) {
  CsvOptions csv;
  csv.label = "label";
  csv.regression = true;
  const Dataset data = ReadCsv(Wine(), csv);
  const auto forest = RawWineForest(data);
  api::AxomRequest r;
  r.data.path = Wine();
  r.data.label = "label";  // read, and not a feature
  r.model.tree_model = forest;
  r.model.name = "my forest";
  r.neighbours = 40;
  r.eps = 0.02;
  r.seed = 11;
  r.heatmap_grid = 5;
  r.execution.threads = 2;
  const api::AxomResponse got = api::RunAxom(r);
  ASSERT_TRUE(got.given.has_value());
  EXPECT_TRUE(got.reports.empty());
  const detail::AxomModelReport& g = *got.given;
  EXPECT_EQ(g.name, "wine");
  EXPECT_EQ(g.model_source, "my forest");
  EXPECT_EQ(g.feature_names, data.feature_names());
  // The rows as the library takes them, each feature's range, and the same two calls.
  const std::size_t n = data.n_rows();
  const std::size_t F = data.n_features();
  std::vector<double> points(n * F);
  std::vector<double> scale(F);
  for (std::size_t j = 0; j < F; ++j) {
    const auto c = data.column(j);
    std::copy(c.begin(), c.end(), points.begin() + static_cast<std::ptrdiff_t>(j * n));
    scale[j] = *std::max_element(c.begin(), c.end()) - *std::min_element(c.begin(), c.end());
  }
  EXPECT_EQ(g.scale, scale);
  const AxomExplanation e = ExplainAxom(*forest, {points, n});
  EXPECT_EQ(g.explanation.axom, e.axom);
  EXPECT_EQ(g.explanation.forest, e.forest);
  EXPECT_EQ(g.explanation.label, e.label);
  ExplanationRobustnessOptions ro;
  ro.eps = 0.02;
  ro.neighbours = 40;
  ro.seed = 11;
  ro.scale = scale;
  ro.execution.threads = 1;  // any thread count: the same bits
  const AxomRobustness rob = EvaluateExplanationRobustness(nullptr, *forest, {points, n}, ro);
  ExpectSameValues(g.robustness.forest.l_bar, rob.forest.l_bar);
  ExpectSameValues(g.robustness.axom.l_hat, rob.axom.l_hat);
  EXPECT_EQ(g.robustness.mislabelling, rob.mislabelling);
  EXPECT_EQ(g.forest_vs_axom.n, CompareRobustness(rob.forest.l_bar, rob.axom.l_bar).n);
  EXPECT_EQ(g.heatmaps.grid, 5u);
  // The class names: the forest's own (the labels as wine spells them).
  EXPECT_EQ(g.class_names, (std::vector<std::string>{"1", "2", "3"}));
}

TEST(AxomRequest, AGivenModelThatIsNoForestOrWithFittingOptionsIsRefused) {
  using testing::ExpectError;
  CsvOptions csv;
  csv.label = "label";
  csv.regression = true;
  const Dataset data = ReadCsv(Wine(), csv);
  const auto forest = RawWineForest(data);
  auto given = [&] {
    api::AxomRequest r;
    r.data.path = Wine();
    r.data.label = "label";
    r.model.tree_model = forest;
    r.neighbours = 5;
    return r;
  };
  {
    api::AxomRequest r = given();
    r.tune = true;
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"used as it is"}, "tune");
  }
  {
    api::AxomRequest r = given();
    r.seeds = 3;
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"used as it is"}, "seeds");
  }
  {
    api::AxomRequest r = given();
    r.data = {};
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"rows to explain"}, "data");
  }
  {
    ForestOptions reg;
    reg.regression = true;
    reg.n_estimators = 2;
    api::AxomRequest r = given();
    const std::vector<std::size_t> rows = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    const std::vector<std::size_t> columns = {0, 1, 2};
    r.model.tree_model = FitForest(reg, data, rows, columns);
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"class fractions"});
  }
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
    r.model.tree_file = "m.json";
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
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"'nope' is not a feature"}, "heatmap_features");
  }
  {
    api::AxomRequest r = OnWine();
    r.seeds = 0;
    ExpectError<InvalidArgument>([&] { api::RunAxom(r); }, {"seeds"}, "seeds");
  }
}

}  // namespace
}}  // namespace perfshap

namespace perfshap { inline namespace v0 {
namespace {

// --checkpoint: the seeds after the first kept, a run resumed from some of them equal to the
// uninterrupted run (every seed's robustness and tests), another protocol's checkpoint refused.
TEST(AxomRequest, ACheckpointedRunResumedIsBitwiseTheUninterruptedRun) {
  namespace fs = std::filesystem;
  api::AxomRequest request = OnWine();
  request.seeds = 4;
  const api::AxomResponse want = api::RunAxom(request);
  const fs::path dir = fs::temp_directory_path() / "perfshap_axom_checkpoint";
  fs::remove_all(dir);
  request.checkpoint = dir.string();
  const auto expect_same = [&](const api::AxomResponse& got) {
    const detail::AxomDataReport& a = got.reports.front();
    const detail::AxomDataReport& b = want.reports.front();
    ASSERT_EQ(a.runs.size(), b.runs.size());
    for (std::size_t k = 0; k < a.runs.size(); ++k) {
      SCOPED_TRACE(k);
      ExpectSameValues(a.runs[k].robustness.axom.l_bar, b.runs[k].robustness.axom.l_bar);
      ExpectSameValues(a.runs[k].robustness.forest.l_hat, b.runs[k].robustness.forest.l_hat);
      EXPECT_EQ(a.runs[k].forest_accuracy, b.runs[k].forest_accuracy);
      EXPECT_EQ(a.runs[k].test_rows, b.runs[k].test_rows);
      EXPECT_EQ(a.runs[k].forest_vs_axom.wilcoxon.p_value, b.runs[k].forest_vs_axom.wilcoxon.p_value);
    }
  };
  expect_same(api::RunAxom(request));
  EXPECT_TRUE(fs::exists(dir / "wine" / "manifest.json"));
  EXPECT_TRUE(fs::exists(dir / "wine" / "item-00000002.bin"));  // seed 3 of 0..3 (items: seeds 1..3)
  fs::remove(dir / "wine" / "item-00000001.bin");
  expect_same(api::RunAxom(request));
  api::AxomRequest other = request;
  other.neighbours = 31;
  testing::ExpectError<InvalidArgument>([&] { api::RunAxom(other); }, {"another run"}, "checkpoint");
  fs::remove_all(dir);
}

}  // namespace
}}  // namespace perfshap
