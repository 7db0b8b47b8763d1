// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The request layer's XPER method (api/xper_request.hpp), which the CLI calls: the model of a
// coefficients file, of a learner fitted on a training sample, or of the generated design, the
// sample from a file or a table, equal to ExplainXper on the same model and rows; bad requests
// are refused naming the option.
#include <gtest/gtest.h>

#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "api/xper_request.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/model.hpp"
#include "support/expect_error.hpp"
#include "support/temp_files.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

std::string Pima() { return testing::FixturePath("data/pima.csv"); }

api::XperRequest OnPima() {
  api::XperRequest r;
  r.data.path = Pima();
  r.data.label = "label";
  r.options.execution.threads = 2;
  r.options.max_features = 8;
  return r;
}

TEST(XperRequest, TheGeneratedDesignsTrueProbitEqualsExplainXper) {
  api::XperRequest r;
  r.options.seed = 11;
  const api::XperResponse got = api::RunXper(r);
  ProbitDesign design;
  design.seed = 11;
  std::vector<std::size_t> rows(300);
  std::iota(rows.begin(), rows.end(), std::size_t{700});
  const Dataset sample = GenerateProbitDesign(design).SelectRows(rows);
  const auto model = MakeGlm(Link::kProbit, ProbitDesign{}.beta, true);
  XperOptions opt;
  opt.seed = 11;
  const XperResult want = ExplainXper(*model, sample, opt);
  EXPECT_EQ(got.result.phi, want.phi);
  EXPECT_EQ(got.result.value, want.value);
  EXPECT_EQ(got.run.model.kind, "probit");
  EXPECT_EQ(got.run.permutation, "drawn from the seed");
  EXPECT_EQ(got.sample.n_rows(), 300u);
}

TEST(XperRequest, ALearnerFittedOnATrainingSampleEqualsExplainXperOfItsFit) {
  api::XperRequest r = OnPima();
  r.model.learner.name = "logistic";
  r.model.train = api::DataInput{};
  r.model.train->path = Pima();
  r.data.features = {"glucose", "bmi", "age"};
  const api::XperResponse got = api::RunXper(r);
  CsvOptions csv;
  csv.label = "label";
  const Dataset all = ReadCsv(Pima(), csv);
  std::vector<std::vector<double>> columns;
  for (const std::size_t j : {1, 5, 7}) columns.emplace_back(all.column(j).begin(), all.column(j).end());
  const Dataset pima({"glucose", "bmi", "age"}, std::move(columns),
                     std::vector<double>(all.label().begin(), all.label().end()), "label");
  std::vector<std::size_t> all_rows(pima.n_rows()), all_columns(pima.n_features());
  std::iota(all_rows.begin(), all_rows.end(), std::size_t{0});
  std::iota(all_columns.begin(), all_columns.end(), std::size_t{0});
  const auto model = MakeLearner("logistic")->Train(pima, all_rows, all_columns);
  XperOptions opt;
  opt.max_features = 8;
  const XperResult want = ExplainXper(*model, pima, opt);
  EXPECT_EQ(got.result.phi, want.phi);
  EXPECT_EQ(got.run.model.kind, "logistic");
  EXPECT_EQ(got.run.model.n_train, pima.n_rows());
  EXPECT_TRUE(got.run.have_train);
  EXPECT_GT(got.result.value, 0.8);  // pima's AUC of a logistic fit on itself
}

TEST(XperRequest, ACoefficientsFileOrdersTheModelsColumns) {
  const std::string data = testing::WriteTempFile("xr_data.csv", "a,b,y\n0.1,1,1\n0.4,-1,0\n-0.3,0.5,1\n1.2,0,0\n");
  const std::string coef = testing::WriteTempFile("xr_coef.csv", "name,coef\nconst,0.1\nb,0.5\na,-0.25\n");
  api::XperRequest r;
  r.data.path = data;
  r.data.label = "y";
  r.model.learner.name = "logistic";
  r.model.coefficients = coef;
  const api::XperResponse got = api::RunXper(r);
  EXPECT_EQ(got.result.features, (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(got.run.model.coefficients_file, coef);
  const Dataset sample({"b", "a"}, {{1, -1, 0.5, 0}, {0.1, 0.4, -0.3, 1.2}}, {1, 0, 1, 0}, "y");
  const XperResult want = ExplainXper(*MakeGlm(Link::kLogit, {0.1, 0.5, -0.25}, true), sample, XperOptions{});
  EXPECT_EQ(got.result.phi, want.phi);
}

TEST(XperRequest, BadRequestsNameTheirOption) {
  api::XperRequest two = OnPima();
  two.model.learner.name = "logistic";
  two.model.coefficients = "coef.csv";
  two.model.train = api::DataInput{};
  testing::ExpectError<InvalidArgument>([&] { api::RunXper(two); }, {"give one model"}, "coefficients");
  api::XperRequest none = OnPima();
  testing::ExpectError<InvalidArgument>([&] { api::RunXper(none); }, {"need a model"}, "model_file");
  api::XperRequest no_learner = OnPima();
  no_learner.model.train = api::DataInput{};
  testing::ExpectError<InvalidArgument>([&] { api::RunXper(no_learner); }, {"training sample needs the learner"},
                                        "learner");
  api::XperRequest overfit;
  overfit.overfit = true;
  testing::ExpectError<InvalidArgument>([&] { api::RunXper(overfit); }, {"training sample"}, "overfit");
  api::XperRequest row;
  row.explain_row = 300;
  testing::ExpectError<InvalidArgument>([&] { api::RunXper(row); }, {"outside 0..299"}, "explain_row");
  api::XperRequest permutation;
  permutation.options.comparator = XperComparator::kFull;
  permutation.permutation_file = "pi.txt";
  testing::ExpectError<InvalidArgument>([&] { api::RunXper(permutation); }, {"permuted comparator"}, "comparator");
  api::XperRequest regression;
  regression.options.metric = "mse";
  testing::ExpectError<InvalidArgument>([&] { api::RunXper(regression); }, {"real-valued target"}, "data");
  api::XperRequest params;
  params.model.learner.params["C"] = "2";
  testing::ExpectError<InvalidArgument>([&] { api::RunXper(params); }, {"already-fitted model"}, "model_params");
  api::XperRequest features = OnPima();
  features.model.learner.name = "logistic";
  features.model.train = api::DataInput{};
  features.model.train->path = Pima();
  features.data.features = {"glucose", "nope"};
  testing::ExpectError<InvalidArgument>([&] { api::RunXper(features); }, {"'nope' is not a column"}, "features");
}

}  // namespace
}}  // namespace perfshap
