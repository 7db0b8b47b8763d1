// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The request layer's column alignment (api/model_columns.hpp), which shap and xper share: a
// model's named features by name, an unnamed model's by position, text columns refused.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "api/model_columns.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/model.hpp"
#include "perfshap/blocks/trees.hpp"
#include "support/expect_error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

std::shared_ptr<const TreeEnsemble> Stump(std::vector<std::string> names) {
  Tree t;
  t.AddNode(-1, 0.0, true, 1.0, std::vector<double>{0.5});
  t.left = {-1};
  t.right = {-1};
  TreeEnsembleInfo info;
  info.n_features = names.size();
  info.feature_names = std::move(names);
  return std::make_shared<const TreeEnsemble>(std::vector<Tree>{t}, info);
}

Dataset Data() {
  Dataset d({"a", "b", "c"}, {{1, 2}, {3, 4}, {5, 6}}, {0, 1}, "y");
  d.set_source("x.csv");
  return d;
}

TEST(ModelColumns, NamedFeaturesByNameUnnamedByPosition) {
  const Dataset d = Data();
  EXPECT_EQ(api::ModelColumns(d, *Stump({"c", "a"}), "m.json", "the data x.csv"), (std::vector<std::size_t>{2, 0}));
  const auto glm = MakeGlm(Link::kLogit, {0.0, 1.0, 1.0, 1.0}, true);
  EXPECT_EQ(api::ModelColumns(d, *glm, "the function f", "X"), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_TRUE(api::ModelFeatureNames(*glm).empty());
}

TEST(ModelColumns, OneLineErrorsNameTheColumnOrTheCounts) {
  const Dataset d = Data();
  testing::ExpectDataError([&] { api::ModelColumns(d, *Stump({"a", "zz"}), "m.json", "the data x.csv"); },
                           {"the data x.csv has no column 'zz'", "a feature of the model m.json", "its features: 2"});
  const auto two = MakeGlm(Link::kLogit, {0.0, 1.0, 1.0}, true);
  testing::ExpectDataError([&] { api::ModelColumns(d, *two, "the function f", "X"); },
                           {"the model the function f has 2 features", "X has 3 columns"});
  Dataset text = Data();
  text.set_encoding(1, CategoricalEncoding{{"no", "yes"}});
  testing::ExpectDataError([&] { api::ModelColumns(text, *Stump({"b"}), "m.json", "the data x.csv"); },
                           {"column 'b' holds text", "takes numbers"});
}

}  // namespace
}}  // namespace perfshap
