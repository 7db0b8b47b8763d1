// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The request layer's shap method (api/shap_request.hpp), which the CLI and Python both call: a
// tree model's TreeSHAP equals ExplainTrees on the same rows; a host's own model runs through
// it and gives the interventional values of the definition; a table in memory and its CSV file
// give the same numbers bit for bit; bad requests are refused naming the option.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "api/shap_request.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/shap.hpp"
#include "perfshap/blocks/trees.hpp"
#include "support/expect_error.hpp"
#include "support/tables.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

std::string BreastCancer() { return testing::FixturePath("data/breast_cancer.csv"); }
std::string Model() { return testing::FixturePath("xgboost/binary_logistic.json"); }

api::ShapRequest TreeRequest() {
  api::ShapRequest r;
  r.data.path = BreastCancer();
  r.data.label = "label";
  r.model.tree_file = Model();
  r.approach = api::ShapApproach::kTree;
  r.rows = std::make_pair(std::size_t{3}, std::size_t{12});
  r.options.solver_options.execution.threads = 2;
  return r;
}

TEST(ShapRequest, TreeShapOfAnXgboostFileEqualsExplainTreesOnTheSameRows) {
  const api::ShapResponse got = api::RunShap(TreeRequest());
  const auto model = ReadXgboostModel(Model());
  CsvOptions csv;
  csv.label = "label";
  const Dataset d = ReadCsv(BreastCancer(), csv);
  const std::vector<std::string>& names = model->info().feature_names;
  std::vector<double> x;  // column-major, rows 3..12, in the model's feature order
  for (const std::string& name : names)
    for (std::size_t r = 3; r <= 12; ++r) x.push_back(d.column(d.FeatureIndex(name))[r]);
  const ShapExplanation want = ExplainTrees(*model, {x, 10}, {}, names);
  EXPECT_EQ(got.explanation.phi, want.phi);
  EXPECT_EQ(got.explanation.base, want.base);
  EXPECT_EQ(got.explanation.players, want.players);
  EXPECT_EQ(got.run.rows[0], 3u);
  EXPECT_EQ(got.run.rows.size(), 10u);
  EXPECT_EQ(got.run.model_source, Model());
  EXPECT_EQ(got.run.background_rows, 0u);  // path-dependent: no background
}

/** A host's own model: 2 x0 - 3 x1 + 0.5 x2 over three columns. */
class LinearHostModel final : public perfshap::Model {
 public:
  std::size_t n_features() const override { return 3; }
  std::size_t n_outputs() const override { return 1; }
  bool is_classifier() const override { return false; }
  void Predict(std::span<const double> x, std::size_t n, std::span<double> out) const override {
    for (std::size_t r = 0; r < n; ++r) out[r] = 2.0 * x[r] - 3.0 * x[n + r] + 0.5 * x[2 * n + r];
  }
  std::string Describe() const override { return "the host's linear model"; }
};

TEST(ShapRequest, AHostsModelGivesTheInterventionalValuesOfTheDefinition) {
  // A linear model's interventional SHAP: phi_j = w_j (x_j - mean of the background's x_j).
  const std::string csv =
      testing::WriteTempFile("shap_host.csv", "a,b,c\n1,2,3\n4,-1,0.5\n0,0,0\n2.5,7,-1\n");
  api::ShapRequest r;
  r.data.path = csv;
  r.model.host_model = std::make_shared<LinearHostModel>();
  r.model.name = "the function f";
  r.background = 4;  // every row
  r.options.solver = "exact";
  const api::ShapResponse got = api::RunShap(r);
  const double w[3] = {2.0, -3.0, 0.5};
  const double rows[4][3] = {{1, 2, 3}, {4, -1, 0.5}, {0, 0, 0}, {2.5, 7, -1}};
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      double mean = 0.0;
      for (const auto& row : rows) mean += row[j] / 4.0;
      EXPECT_NEAR(got.explanation(i, 0, j), w[j] * (rows[i][j] - mean), 1e-12) << i << "," << j;
    }
  EXPECT_EQ(got.run.model_source, "the function f");
  EXPECT_EQ(got.run.background_rows, 4u);
  EXPECT_EQ(got.explanation.players, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ShapRequest, ATableInMemoryEqualsItsCsvFile) {
  api::ShapRequest file;
  file.data.path = testing::FixturePath("data/pima.csv");
  file.data.label = "label";
  file.model.learner.name = "logistic";
  file.model.train = api::DataInput{};
  file.model.train->path = file.data.path;
  file.rows = std::make_pair(std::size_t{0}, std::size_t{7});
  file.background = 30;
  file.seed = 5;
  file.options.solver = "kernel";
  file.options.solver_options.budget = 300;
  file.options.solver_options.seed = 5;
  const api::ShapResponse a = api::RunShap(file);

  CsvOptions csv;
  csv.label = "label";
  const Dataset d = ReadCsv(file.data.path, csv);
  const auto table = testing::TableOf(d);
  api::ShapRequest in_memory = file;
  in_memory.data.path.clear();
  in_memory.data.table = table;
  in_memory.model.train->path.clear();
  in_memory.model.train->table = table;
  const api::ShapResponse b = api::RunShap(in_memory);
  EXPECT_EQ(a.explanation.phi, b.explanation.phi);
  EXPECT_EQ(a.explanation.phi_se, b.explanation.phi_se);
  EXPECT_EQ(a.explanation.base, b.explanation.base);
  EXPECT_EQ(a.run.learner_params, b.run.learner_params);
  EXPECT_EQ(b.run.model_source, "logistic trained on the frame");
  EXPECT_EQ(b.run.background_source, "drawn from the frame with the seed");
}

TEST(ShapRequest, BadRequestsAreRefusedNamingTheOption) {
  using testing::ExpectError;
  ExpectError<InvalidArgument>([] { api::RunShap(api::ShapRequest{}); }, {"rows to explain"}, "data");
  {
    api::ShapRequest r = TreeRequest();
    r.model.tree_file.clear();
    ExpectError<InvalidArgument>([&] { api::RunShap(r); }, {"give the model"}, "model_file");
  }
  {
    api::ShapRequest r = TreeRequest();
    r.rows = std::make_pair(std::size_t{560}, std::size_t{600});
    ExpectError<InvalidArgument>([&] { api::RunShap(r); }, {"560..600", "past the last row"}, "rows");
  }
  {
    api::ShapRequest r = TreeRequest();
    r.explain_row = 40;
    ExpectError<InvalidArgument>([&] { api::RunShap(r); }, {"40", "not among the rows explained"},
                                 "explain_row");
  }
  {
    api::ShapRequest r = TreeRequest();
    r.output = ShapOutputScale::kPrediction;
    ExpectError<InvalidArgument>([&] { api::RunShap(r); }, {"margin"}, "output");
  }
  {
    api::ShapRequest r = TreeRequest();
    r.background = 10;
    r.background_rows = api::DataInput{};
    r.background_rows->path = BreastCancer();
    ExpectError<InvalidArgument>([&] { api::RunShap(r); }, {"not both"}, "background_file");
  }
  {
    api::ShapRequest r = TreeRequest();
    r.approach = api::ShapApproach::kRetrain;
    ExpectError<InvalidArgument>([&] { api::RunShap(r); }, {"retrain", "learner"}, "approach");
  }
  {
    api::ShapRequest r = TreeRequest();
    r.model.learner.params["C"] = "2";
    ExpectError<InvalidArgument>([&] { api::RunShap(r); }, {"already fitted"}, "model_params");
  }
  {
    api::ShapRequest r;
    r.data.path = BreastCancer();
    r.data.label = "label";
    r.model.learner.name = "forest";
    r.model.train = r.data;
    r.model.trees = 5;
    r.model.learner.params["n_estimators"] = "7";
    ExpectError<InvalidArgument>([&] { api::RunShap(r); }, {"n_estimators", "set twice"}, "trees");
    r.model.learner.name = "logistic";
    r.model.learner.params.clear();
    ExpectError<InvalidArgument>([&] { api::RunShap(r); }, {"tree and forest learners"}, "trees");
  }
  EXPECT_THROW(api::ParseShapApproach("kernel"), InvalidArgument);
  EXPECT_THROW(api::ParseShapOutput("log-odds"), InvalidArgument);
}

}  // namespace
}}  // namespace perfshap
