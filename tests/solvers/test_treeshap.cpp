// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/treeshap.hpp"
#include "support/test_paths.hpp"
#include "support/expect_error.hpp"
#include "support/shapley_properties.hpp"
#include "support/tree_reference.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using testing::InterventionalGame;
using testing::PathDependentGame;
using testing::RandomEnsemble;
using testing::RandomRows;
using testing::RandomTreeSpec;
using testing::RecursiveTreeShap;
using testing::RowOf;

ShapleyValues Exact(const Game& g) { return ExactSolver().Solve(g); }

/** Row r, output o of a TreeSHAP result: F + 1 values. */
std::vector<double> Slice(const std::vector<double>& out, std::size_t K, std::size_t F, std::size_t r, std::size_t o) {
  const auto* p = out.data() + (r * K + o) * (F + 1);
  return {p, p + F + 1};
}

struct Case {
  const char* name;
  RandomTreeSpec spec;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    RandomTreeSpec s;
    s.seed = seed;
    s.n_features = 4 + seed;
    s.max_depth = 3 + static_cast<int>(seed % 3);
    cases.push_back({"binary <=", s});
    RandomTreeSpec f = s;
    f.rule = SplitRule::kLessFloat;
    f.zero_covers = true;
    cases.push_back({"float <, zero covers", f});
    RandomTreeSpec m = s;
    m.n_outputs = 3;
    m.n_trees = 6;
    cases.push_back({"multi-class, a tree per class", m});
    RandomTreeSpec v = s;
    v.n_outputs = 3;
    v.vector_leaves = true;
    v.tree_scale = 1.0 / 3.0;
    cases.push_back({"forest, vector leaves", v});
  }
  return cases;
}

TEST(TreeShap, PathDependentEqualsBruteForceAndTheRecursiveAlgorithm) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(std::string(c.name) + ", seed " + std::to_string(c.spec.seed));
    const auto model = RandomEnsemble(c.spec);
    const std::size_t F = model->n_features();
    const std::size_t K = model->n_outputs();
    const std::size_t n = 12;
    const auto x = RandomRows(F, n, 0.15, c.spec.seed);
    const auto out = TreeShap(*model, x, n);
    std::vector<double> margin(K * n);
    model->PredictMargin(x, n, margin);
    for (std::size_t r = 0; r < n; ++r) {
      const auto row = RowOf(x, F, n, r);
      const ShapleyValues brute = Exact(PathDependentGame(model, row));
      const auto recursive = RecursiveTreeShap(*model, row);
      for (std::size_t o = 0; o < K; ++o) {
        const auto got = Slice(out, K, F, r, o);
        double sum = got[F];
        for (std::size_t j = 0; j < F; ++j) {
          EXPECT_NEAR(got[j], brute(static_cast<int>(j), o), 1e-12) << "row " << r << " output " << o << " feature " << j;
          EXPECT_NEAR(got[j], recursive[o * (F + 1) + j], 1e-12);
          sum += got[j];
        }
        EXPECT_NEAR(got[F], brute.base[o], 1e-12);
        EXPECT_NEAR(got[F], recursive[o * (F + 1) + F], 1e-12);
        EXPECT_NEAR(sum, margin[o * n + r], 1e-9) << "additivity";
      }
    }
  }
}

TEST(TreeShap, InterventionalEqualsTheExactPredictionGame) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(std::string(c.name) + ", seed " + std::to_string(c.spec.seed));
    const auto model = RandomEnsemble(c.spec);
    const std::size_t F = model->n_features();
    const std::size_t K = model->n_outputs();
    const std::size_t n = 6;
    const std::size_t nb = 9;
    const auto x = RandomRows(F, n, 0.15, c.spec.seed);
    auto bg = RandomRows(F, nb, 0.15, c.spec.seed + 100);
    // Repeated background rows: their patterns are counted once.
    for (std::size_t j = 0; j < F; ++j) bg[j * nb + 1] = bg[j * nb];
    std::vector<std::vector<double>> bg_rows;
    for (std::size_t b = 0; b < nb; ++b) bg_rows.push_back(RowOf(bg, F, nb, b));
    const auto out = InterventionalTreeShap(*model, x, n, bg, nb);
    std::vector<double> margin(K * n);
    model->PredictMargin(x, n, margin);
    for (std::size_t r = 0; r < n; ++r) {
      const ShapleyValues brute = Exact(InterventionalGame(model, RowOf(x, F, n, r), bg_rows));
      for (std::size_t o = 0; o < K; ++o) {
        const auto got = Slice(out, K, F, r, o);
        double sum = got[F];
        for (std::size_t j = 0; j < F; ++j) {
          EXPECT_NEAR(got[j], brute(static_cast<int>(j), o), 1e-12) << "row " << r << " output " << o << " feature " << j;
          sum += got[j];
        }
        EXPECT_NEAR(got[F], brute.base[o], 1e-12);
        EXPECT_NEAR(sum, margin[o * n + r], 1e-9) << "additivity";
      }
    }
  }
}

TEST(TreeShap, DeepPathsWithoutTablesAgreeWithTheRecursiveAlgorithm) {
  // Twelve distinct features on a path: past the pattern tables, weights computed per row; and
  // rows too few to tabulate even short paths.
  RandomTreeSpec s;
  s.n_features = 14;
  s.max_depth = 13;
  s.n_trees = 2;
  s.seed = 9;
  const auto model = RandomEnsemble(s);
  for (const std::size_t n : {std::size_t{3}, std::size_t{300}}) {
    const auto x = RandomRows(s.n_features, n, 0.05, 5);
    const auto out = TreeShap(*model, x, n);
    for (std::size_t r = 0; r < n; r += 37) {
      const auto recursive = RecursiveTreeShap(*model, RowOf(x, s.n_features, n, r));
      for (std::size_t j = 0; j <= s.n_features; ++j) EXPECT_NEAR(out[r * (s.n_features + 1) + j], recursive[j], 1e-12);
    }
  }
}

TEST(TreeShap, BitwiseIdenticalAtAnyThreadCount) {
  RandomTreeSpec s;
  s.n_features = 8;
  s.n_trees = 20;
  s.max_depth = 6;
  s.n_outputs = 2;
  const auto model = RandomEnsemble(s);
  const std::size_t n = 1000;
  const auto x = RandomRows(s.n_features, n, 0.1, 3);
  const auto bg = RandomRows(s.n_features, 50, 0.1, 4);
  ExecutionOptions one;
  one.threads = 1;
  const auto ref = TreeShap(*model, x, n, one);
  const auto ref_i = InterventionalTreeShap(*model, x, n, bg, 50, one);
  for (int threads : {2, 4}) {
    ExecutionOptions e;
    e.threads = threads;
    const auto got = TreeShap(*model, x, n, e);
    const auto got_i = InterventionalTreeShap(*model, x, n, bg, 50, e);
    EXPECT_EQ(0, std::memcmp(ref.data(), got.data(), ref.size() * sizeof(double))) << threads << " threads";
    EXPECT_EQ(0, std::memcmp(ref_i.data(), got_i.data(), ref_i.size() * sizeof(double))) << threads << " threads";
  }
}

TEST(TreeShap, ColumnsReadInPlaceAndPhiApartGiveTheSameBits) {
  RandomTreeSpec s;
  s.n_features = 6;
  s.n_trees = 15;
  s.max_depth = 5;
  s.n_outputs = 3;
  const auto model = RandomEnsemble(s);
  const std::size_t n = 700;
  const std::size_t F = s.n_features;
  const std::size_t K = s.n_outputs;
  const auto x = RandomRows(F, n, 0.1, 5);
  const auto bg = RandomRows(F, 40, 0.1, 6);
  // Each feature in a separate buffer of its own, as a data set's columns are.
  std::vector<std::vector<double>> owned(F);
  FeatureColumns columns;
  columns.n_rows = n;
  for (std::size_t j = 0; j < F; ++j) {
    owned[j].assign(x.begin() + static_cast<std::ptrdiff_t>(j * n), x.begin() + static_cast<std::ptrdiff_t>((j + 1) * n));
    columns.columns.push_back(owned[j].data());
  }
  for (const bool interventional : {false, true}) {
    const auto full = interventional ? InterventionalTreeShap(*model, x, n, bg, 40) : TreeShap(*model, x, n);
    const auto apart = interventional ? InterventionalTreeShapPhi(*model, columns, bg, 40) : TreeShapPhi(*model, columns);
    ASSERT_EQ(apart.phi.size(), n * K * F);
    ASSERT_EQ(apart.base.size(), K);
    for (std::size_t ro = 0; ro < n * K; ++ro) {
      EXPECT_EQ(0, std::memcmp(full.data() + ro * (F + 1), apart.phi.data() + ro * F, F * sizeof(double))) << ro;
      EXPECT_EQ(full[ro * (F + 1) + F], apart.base[ro % K]) << ro;
    }
  }
  FeatureColumns short_of_one = columns;
  short_of_one.columns.pop_back();
  testing::ExpectError<InvalidArgument>([&] { TreeShap(*model, short_of_one); }, {"5 columns", "6 features"});
}

TEST(TreeShap, SatisfiesTheAxiomsOfItsGame) {
  // A feature no tree splits on is a null player; the values are linear in the leaves.
  RandomTreeSpec s;
  s.n_features = 6;
  s.seed = 12;
  const auto model = RandomEnsemble(s);
  std::vector<Tree> trees = model->trees();
  TreeEnsembleInfo info = model->info();
  info.n_features = 7;  // feature 6 is never split on
  const TreeEnsemble wider(trees, info);
  std::vector<Tree> doubled = trees;
  for (Tree& t : doubled)
    for (double& v : t.value) v *= 2.0;
  TreeEnsembleInfo info2 = info;
  for (double& b : info2.base_margin) b *= 2.0;
  const TreeEnsemble twice(doubled, info2);
  const auto x = RandomRows(7, 20, 0.1, 8);
  const auto a = TreeShap(wider, x, 20);
  const auto b = TreeShap(twice, x, 20);
  for (std::size_t r = 0; r < 20; ++r) {
    EXPECT_EQ(a[r * 8 + 6], 0.0);
    for (std::size_t j = 0; j < 8; ++j) EXPECT_NEAR(b[r * 8 + j], 2.0 * a[r * 8 + j], 1e-12);
  }
}

TEST(TreeShap, RefusesWrongSizesAndMissingCovers) {
  RandomTreeSpec s;
  const auto model = RandomEnsemble(s);
  const std::vector<double> x(s.n_features * 3 - 1, 0.0);
  testing::ExpectError<InvalidArgument>([&] { TreeShap(*model, x, 3); }, {"TreeSHAP", "values"});
  const std::vector<double> ok(s.n_features * 3, 0.0);
  testing::ExpectError<InvalidArgument>([&] { InterventionalTreeShap(*model, ok, 3, {}, 0); }, {"background"});
  std::vector<Tree> trees = model->trees();
  trees[0].cover[0] = 0.0;
  const TreeEnsemble no_cover(trees, model->info());
  testing::ExpectError<InvalidArgument>([&] { TreeShap(no_cover, ok, 3); }, {"tree 0, node 0", "cover", "interventional"});
  // Interventional TreeSHAP does not need covers.
  EXPECT_NO_THROW(InterventionalTreeShap(no_cover, ok, 3, ok, 3));
}

// A child's cover above its parent's (fuzz/corpus/xgboost/crash_cover_above_parent.json: an
// XGBoost node's sum_hessian of 1.1e22 under a parent of 268) made a zero fraction of 4e19, and
// values that no longer added up to the margin (off by 2.9e37). Refused, naming the node; a
// cover at the parent's own (a sibling without any) still runs.
TEST(TreeShap, RefusesAChildCoverAboveItsParents) {
  RandomTreeSpec s;
  const auto model = RandomEnsemble(s);
  const std::vector<double> ok(s.n_features * 3, 0.0);
  std::vector<Tree> trees = model->trees();
  Tree& t = trees[0];
  ASSERT_FALSE(t.is_leaf(0));
  const auto left = static_cast<std::size_t>(t.left[0]);
  const auto right = static_cast<std::size_t>(t.right[0]);
  t.cover[right] = t.cover[0] * 4e19;
  const TreeEnsemble above(trees, model->info());
  testing::ExpectError<InvalidArgument>([&] { TreeShap(above, ok, 3); },
                                        {"tree 0, node " + std::to_string(right), "parent node 0", "interventional"});
  EXPECT_NO_THROW(InterventionalTreeShap(above, ok, 3, ok, 3));
  for (const double bad : {-1.0, std::numeric_limits<double>::quiet_NaN()}) {
    t.cover[right] = bad;
    testing::ExpectError<InvalidArgument>([&] { TreeShap(TreeEnsemble(trees, model->info()), ok, 3); },
                                          {"node " + std::to_string(right), "cover"});
  }
  t.cover[right] = t.cover[0];
  t.cover[left] = t.cover[0] * (1.0 + 1e-9);  // float rounding of covers summed
  EXPECT_NO_THROW(TreeShap(TreeEnsemble(trees, model->info()), ok, 3));
}

TEST(TreeShap, AddsUpOnEveryRowOfTrainedTreesAndForests) {
  // CART and forests fitted on the fixtures: sum of phi + base = margin to 1e-9 on every row,
  // path-dependent and interventional; a single tree against the recursive algorithm too.
  for (const char* name : {"wine", "banknote"}) {
    SCOPED_TRACE(name);
    CsvOptions o;
    o.label = "label";
    o.regression = true;  // wine's classes 1, 2, 3 as they are
    const Dataset data = ReadCsv(testing::FixturePath(std::string("data/") + name + ".csv"), o);
    std::vector<std::size_t> rows(data.n_rows());
    std::vector<std::size_t> columns(data.n_features());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = i;
    for (std::size_t j = 0; j < columns.size(); ++j) columns[j] = j;
    ForestOptions fo;
    fo.n_estimators = 25;
    fo.seed = 4;
    TreeOptions to;
    to.max_depth = 6;
    const auto forest = FitForest(fo, data, rows, columns);
    const auto tree = FitTree(to, data, rows, columns);
    const std::size_t n = data.n_rows();
    const std::size_t F = data.n_features();
    std::vector<double> x(F * n);
    for (std::size_t j = 0; j < F; ++j)
      for (std::size_t r = 0; r < n; ++r) x[j * n + r] = data.column(j)[r];
    std::vector<double> bg(x.begin(), x.end());
    for (const TreeEnsemble* model : {forest.get(), tree.get()}) {
      const std::size_t K = model->n_outputs();
      std::vector<double> margin(K * n);
      model->PredictMargin(x, n, margin);
      const auto path = TreeShap(*model, x, n);
      // Interventional against 40 of the rows.
      std::vector<double> b40(F * 40);
      for (std::size_t j = 0; j < F; ++j)
        for (std::size_t b = 0; b < 40; ++b) b40[j * 40 + b] = x[j * n + b * 7 % n];
      const auto inter = InterventionalTreeShap(*model, x, n, b40, 40);
      for (std::size_t r = 0; r < n; ++r)
        for (std::size_t o2 = 0; o2 < K; ++o2) {
          double a = 0.0;
          double b = 0.0;
          for (std::size_t j = 0; j <= F; ++j) {
            a += path[(r * K + o2) * (F + 1) + j];
            b += inter[(r * K + o2) * (F + 1) + j];
          }
          EXPECT_NEAR(a, margin[o2 * n + r], 1e-9) << "row " << r;
          EXPECT_NEAR(b, margin[o2 * n + r], 1e-9) << "row " << r;
        }
    }
    for (std::size_t r = 0; r < n; r += 29) {
      const auto ref = RecursiveTreeShap(*tree, RowOf(x, F, n, r));
      const auto got = TreeShap(*tree, RowOf(x, F, n, r), 1);
      for (std::size_t k = 0; k < ref.size(); ++k) EXPECT_NEAR(got[k], ref[k], 1e-12);
    }
  }
}

TEST(TreeShap, InputsBeyondFloatRangeFollowXgboostsRule) {
  // XGBoost stores inputs as float: a double past float's range is +-infinity there, and a value
  // within float rounding of a threshold is the threshold (not below it).
  EXPECT_EQ(RoundToFloat(1e39), std::numeric_limits<double>::infinity());
  EXPECT_EQ(RoundToFloat(-1e39), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(RoundToFloat(3.4028235e38), 3.4028234663852886e38);
  Tree t;
  const double v[1] = {0.0};
  t.AddNode(0, static_cast<double>(0.1f), true, 10.0, v);
  const double l[1] = {-1.0};
  const double r[1] = {1.0};
  t.left[0] = t.AddNode(-1, 0.0, false, 4.0, l);
  t.right[0] = t.AddNode(-1, 0.0, false, 6.0, r);
  TreeEnsembleInfo info;
  info.n_features = 1;
  info.rule = SplitRule::kLessFloat;
  const TreeEnsemble model({t}, info);
  const std::vector<double> x = {1e39, -1e39, 0.1, static_cast<double>(0.1f) - 1e-12};
  std::vector<double> m(4);
  model.PredictMargin(x, 4, m);
  EXPECT_EQ(m, (std::vector<double>{1.0, -1.0, 1.0, 1.0}));
  const auto phi = TreeShap(model, x, 4);
  for (std::size_t row = 0; row < 4; ++row) EXPECT_NEAR(phi[row * 2] + phi[row * 2 + 1], m[row], 1e-12);
}

}  // namespace
}}  // namespace perfshap
