// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <vector>

#include "perfshap/axom.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/solver.hpp"
#include "perfshap/blocks/tree_learners.hpp"
#include "perfshap/treeshap.hpp"
#include "support/expect_error.hpp"
#include "support/test_paths.hpp"
#include "support/tree_reference.hpp"

namespace perfshap { inline namespace v0 {
namespace {

/** wine, min-max normalised over all rows, classes 1..3 as read. */
struct Wine {
  Dataset data;
  std::vector<double> x;  // column-major, normalised
  std::size_t n = 0;
  std::size_t F = 0;
  Wine() {
    CsvOptions o;
    o.label = "label";
    o.regression = true;
    const Dataset raw = ReadCsv(testing::FixturePath("data/wine.csv"), o);
    n = raw.n_rows();
    F = raw.n_features();
    std::vector<std::vector<double>> cols(F);
    for (std::size_t j = 0; j < F; ++j) {
      const auto c = raw.column(j);
      const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
      for (double v : c) cols[j].push_back((v - *lo) / (*hi - *lo));
      x.insert(x.end(), cols[j].begin(), cols[j].end());
    }
    data = Dataset(raw.feature_names(), cols, std::vector<double>(raw.label().begin(), raw.label().end()));
  }
  std::vector<std::size_t> Rows() const {
    std::vector<std::size_t> r(n);
    std::iota(r.begin(), r.end(), std::size_t{0});
    return r;
  }
  std::vector<std::size_t> Columns() const {
    std::vector<std::size_t> c(F);
    std::iota(c.begin(), c.end(), std::size_t{0});
    return c;
  }
};

std::shared_ptr<const TreeEnsemble> Forest(const Wine& w, int trees, int depth, std::uint64_t seed) {
  ForestOptions fo;
  fo.n_estimators = trees;
  fo.max_depth = depth;
  fo.seed = seed;
  return FitForest(fo, w.data, w.Rows(), w.Columns());
}

/** One tree of a forest as a model of its own (its class fractions as they are). */
TreeEnsemble TreeAlone(const TreeEnsemble& forest, std::size_t t) {
  TreeEnsembleInfo info = forest.info();
  info.tree_scale = 1.0;
  return TreeEnsemble({forest.trees()[t]}, info);
}

/** Two features, two classes, one split at 0.5 on feature 0 (class fractions 0.9 / 0.1 left,
 *  0.2 / 0.8 right). */
TreeEnsemble Stump() {
  Tree t;
  t.width = 2;
  const double root[2] = {0.5, 0.5};
  t.AddNode(0, 0.5, true, 10.0, root);
  const double l[2] = {0.9, 0.1};
  const double r[2] = {0.2, 0.8};
  t.left[0] = t.AddNode(-1, 0.0, false, 5.0, l);
  t.right[0] = t.AddNode(-1, 0.0, false, 5.0, r);
  TreeEnsembleInfo info;
  info.n_features = 2;
  info.n_outputs = 2;
  info.classifier = true;
  return TreeEnsemble({t}, info);
}

TEST(Axom, IsTheMeanOfTheKeptTreesTreeShapAndEqualsTheForestsWhereAllTreesAgree) {
  const Wine w;
  const auto forest = Forest(w, 7, 3, 5);
  const AxomExplanation e = ExplainAxom(*forest, {w.x, w.n});
  ASSERT_EQ(e.n_classes, 3U);
  const std::size_t F = w.F;
  const std::size_t K = 3;
  const auto whole = TreeShap(*forest, w.x, w.n);
  std::size_t unanimous = 0;
  std::size_t split = 0;
  for (std::size_t r = 0; r < w.n; r += 3) {
    const std::vector<double> row = testing::RowOf(w.x, F, w.n, r);
    // Per tree: TreeSHAP of the tree alone, checked against brute force (the exact solver over the
    // tree's conditional expectation game), then the mean of the trees voting the forest's label.
    std::vector<double> mean(K * F, 0.0);
    std::size_t kept = 0;
    for (std::size_t t = 0; t < forest->trees().size(); ++t) {
      const auto alone = std::make_shared<TreeEnsemble>(TreeAlone(*forest, t));
      const auto phi = TreeShap(*alone, row, 1);
      if (r % 30 == 0) {
        const ShapleyValues brute = ExactSolver().Solve(testing::PathDependentGame(alone, row));
        for (std::size_t o = 0; o < K; ++o)
          for (std::size_t j = 0; j < F; ++j) ASSERT_NEAR(phi[o * (F + 1) + j], brute(static_cast<int>(j), o), 1e-12);
      }
      std::vector<double> p(K);
      alone->PredictMargin(row, 1, p);
      const int label = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
      if (label != e.label[r]) continue;
      ++kept;
      for (std::size_t o = 0; o < K; ++o)
        for (std::size_t j = 0; j < F; ++j) mean[o * F + j] += phi[o * (F + 1) + j];
    }
    ASSERT_EQ(kept, e.kept_trees[r]);
    for (std::size_t i = 0; i < K * F; ++i) {
      EXPECT_NEAR(e.axom[r * K * F + i], mean[i] / static_cast<double>(kept), 1e-12);
      // The forest's values are its TreeSHAP.
      EXPECT_NEAR(e.forest[r * K * F + i], whole[(r * K + i / F) * (F + 1) + i % F], 1e-12);
    }
    if (kept == forest->trees().size()) {
      ++unanimous;
      EXPECT_EQ(0, std::memcmp(e.axom.data() + r * K * F, e.forest.data() + r * K * F, K * F * sizeof(double)));
    } else {
      ++split;
    }
  }
  EXPECT_GT(unanimous, 0U);
  EXPECT_GT(split, 0U);
}

TEST(ExplanationRobustness, LinearExplainerHasItsLipschitzConstant) {
  // g(x) = 3 x: every ratio is 3, so L_bar = L_hat = 3; a label that splits the box keeps only
  // the neighbours on the point's side.
  ExplainerFunction f;
  f.n_features = 4;
  f.size = 4;
  f.explain = [](const double* x, double* g) {
    for (int j = 0; j < 4; ++j) g[j] = 3.0 * x[j];
  };
  f.label = [](const double* x) { return x[0] > 0.5 ? 1 : 0; };
  const std::vector<double> points = {0.2, 0.5, 0.3, 0.3, 0.3, 0.3, 0.7, 0.7};  // two points, column-major
  ExplanationRobustnessOptions o;
  o.neighbours = 2000;
  o.eps = 0.05;
  const ExplanationRobustness r = PlainExplanationRobustness(f, {points, 2}, o);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(r.l_bar[i], 3.0, 1e-12);
    EXPECT_NEAR(r.l_hat[i], 3.0, 1e-12);
  }
  EXPECT_EQ(r.kept[0], 2000U);             // x0 = 0.2: the whole box has label 0
  EXPECT_GT(r.kept[1], 800U);              // x0 = 0.5 on the boundary: about half
  EXPECT_LT(r.kept[1], 1200U);
}

TEST(ExplanationRobustness, AStumpIsPerfectlyRobustAwayFromItsThreshold) {
  // One split at 0.5 on feature 0: the SHAP values are constant on each side, so L_bar = L_hat = 0
  // for a point whose box does not reach the threshold; at the threshold, neighbours across it
  // have another label and are not counted, so it is 0 there too.
  const TreeEnsemble stump = Stump();
  const std::vector<double> points = {0.2, 0.5, 0.9, 0.5, 0.5, 0.5};
  ExplanationRobustnessOptions o;
  o.neighbours = 500;
  const AxomRobustness r = EvaluateExplanationRobustness(&stump, stump, {points, 3}, o);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.tree.l_bar[i], 0.0);
    EXPECT_EQ(r.forest.l_hat[i], 0.0);
    EXPECT_EQ(r.axom.l_bar[i], 0.0);
    EXPECT_EQ(r.mislabelling[i], 0.0);
  }
  EXPECT_EQ(r.tree.kept[0], 500U);
  EXPECT_LT(r.tree.kept[1], 500U);  // the point on the threshold loses the neighbours across it
}

TEST(ExplanationHeatmaps, AStumpsMapsAreZeroOnItsSideAndUndefinedAcross) {
  // The stump splits feature 0 at 0.5; a point at (0.495, 0.3) with eps 0.01 sees the split in
  // its box: lattice columns with x0 > 0.5 have the other label (NaN), the others difference 0.
  const TreeEnsemble stump = Stump();
  const std::vector<double> points = {0.495, 0.3};
  const ExplanationHeatmaps h = ComputeExplanationHeatmaps(&stump, stump, {points, 1}, 0, 0, 1, 0.01, 11);
  ASSERT_EQ(h.difference[1].size(), 121U);
  for (std::size_t r = 0; r < 11; ++r)
    for (std::size_t c = 0; c < 11; ++c) {
      const double x0 = 0.495 - 0.01 + 0.002 * static_cast<double>(c);
      const double d = h.difference[1][r * 11 + c];
      if (x0 > 0.5 + 1e-12) {
        EXPECT_TRUE(std::isnan(d)) << r << "," << c;
      } else if (x0 < 0.5 - 1e-12) {
        EXPECT_EQ(d, 0.0) << r << "," << c;
        if (r != 5 || c != 5) {
          EXPECT_EQ(h.ratio[1][r * 11 + c], 0.0);
        }
      }
    }
  EXPECT_TRUE(std::isnan(h.ratio[1][5 * 11 + 5]));  // the point itself: no ratio
  testing::ExpectError<InvalidArgument>([&] { ComputeExplanationHeatmaps(&stump, stump, {points, 1}, 0, 0, 0, 0.01, 11); },
                                        {"two different features"}, "features");
}

TEST(ExplanationRobustness, CachedPerTreeValuesEqualThePlainReference) {
  const Wine w;
  const auto forest = Forest(w, 15, 0, 3);
  TreeOptions to;
  to.seed = 1;
  const auto tree = FitTree(to, w.data, w.Rows(), w.Columns());
  const std::size_t F = w.F;
  // Five points; a box of 0.05 crosses some thresholds.
  std::vector<std::size_t> picked = {0, 40, 70, 120, 170};
  std::vector<double> pts(F * picked.size());
  for (std::size_t j = 0; j < F; ++j)
    for (std::size_t k = 0; k < picked.size(); ++k) pts[j * picked.size() + k] = w.x[j * w.n + picked[k]];
  ExplanationRobustnessOptions o;
  o.neighbours = 300;
  o.eps = 0.05;
  o.seed = 9;
  const AxomRobustness fast = EvaluateExplanationRobustness(tree.get(), *forest, {pts, picked.size()}, o);
  // The plain reference: AXOM / the forest / the tree explained from scratch at every neighbour.
  auto label_of = [&](const TreeEnsemble& m, const double* x) {
    std::vector<double> p(3);
    m.PredictMargin(std::span<const double>(x, F), 1, p);
    return static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
  };
  for (const int which : {0, 1, 2}) {  // tree, forest, axom
    SCOPED_TRACE(which);
    ExplainerFunction f;
    f.n_features = F;
    f.size = F;
    const TreeEnsemble& model = which == 0 ? *tree : *forest;
    int point_label = 0;
    f.label = [&](const double* x) { return label_of(model, x); };
    f.explain = [&](const double* x, double* g) {
      const std::vector<double> row(x, x + F);
      const AxomExplanation e = ExplainAxom(model, {row, 1});
      point_label = e.label[0];
      const std::vector<double>& v = which == 2 ? e.axom : e.forest;
      for (std::size_t j = 0; j < F; ++j) g[j] = v[static_cast<std::size_t>(e.label[0]) * F + j];
    };
    const ExplanationRobustness plain = PlainExplanationRobustness(f, {pts, picked.size()}, o);
    const ExplanationRobustness& got = which == 0 ? fast.tree : which == 1 ? fast.forest : fast.axom;
    for (std::size_t i = 0; i < picked.size(); ++i) {
      EXPECT_EQ(got.kept[i], plain.kept[i]) << "point " << i;
      EXPECT_NEAR(got.l_bar[i], plain.l_bar[i], 1e-12) << "point " << i;
      EXPECT_NEAR(got.l_hat[i], plain.l_hat[i], 1e-12) << "point " << i;
    }
    (void)point_label;
  }
  // Bitwise the same at any thread count.
  for (int threads : {1, 3}) {
    ExplanationRobustnessOptions ot = o;
    ot.execution.threads = threads;
    const AxomRobustness again = EvaluateExplanationRobustness(tree.get(), *forest, {pts, picked.size()}, ot);
    EXPECT_EQ(0, std::memcmp(again.axom.l_bar.data(), fast.axom.l_bar.data(), picked.size() * sizeof(double)));
    EXPECT_EQ(0, std::memcmp(again.forest.l_hat.data(), fast.forest.l_hat.data(), picked.size() * sizeof(double)));
  }
}

/** The model's twin on features multiplied by `scale` (thresholds scaled alike). */
TreeEnsemble Scaled(const TreeEnsemble& m, const std::vector<double>& scale) {
  std::vector<Tree> trees = m.trees();
  for (Tree& t : trees)
    for (std::size_t i = 0; i < t.n_nodes(); ++i)
      if (!t.is_leaf(i)) t.threshold[i] *= scale[static_cast<std::size_t>(t.feature[i])];
  return TreeEnsemble(std::move(trees), m.info());
}

TEST(ExplanationRobustness, FeatureUnitsJudgeARawModelAsItsNormalisedTwin) {
  // A forest fitted on normalised wine, and its twin on raw features (feature j times a power of
  // two, thresholds alike: every product is exact). With scale = those factors the box, the
  // neighbours' sides of every threshold and the distances are the normalised run's, so the
  // robustness is bitwise the same.
  const Wine w;
  const auto forest = Forest(w, 12, 0, 5);
  TreeOptions to;
  to.seed = 2;
  const auto tree = FitTree(to, w.data, w.Rows(), w.Columns());
  const std::size_t F = w.F;
  std::vector<double> scale(F);
  for (std::size_t j = 0; j < F; ++j) scale[j] = std::ldexp(1.0, static_cast<int>(j % 7) - 2);  // 1/4 .. 16
  const TreeEnsemble raw_forest = Scaled(*forest, scale);
  const TreeEnsemble raw_tree = Scaled(*tree, scale);
  const std::vector<std::size_t> picked = {3, 50, 90, 140};
  std::vector<double> pts(F * picked.size());
  std::vector<double> raw(pts.size());
  for (std::size_t j = 0; j < F; ++j)
    for (std::size_t k = 0; k < picked.size(); ++k) {
      pts[j * picked.size() + k] = w.x[j * w.n + picked[k]];
      raw[j * picked.size() + k] = w.x[j * w.n + picked[k]] * scale[j];
    }
  ExplanationRobustnessOptions o;
  o.neighbours = 400;
  o.eps = 0.05;
  o.seed = 4;
  const AxomRobustness normalised = EvaluateExplanationRobustness(tree.get(), *forest, {pts, picked.size()}, o);
  ExplanationRobustnessOptions os = o;
  os.scale = scale;
  const AxomRobustness scaled = EvaluateExplanationRobustness(&raw_tree, raw_forest, {raw, picked.size()}, os);
  const std::size_t bytes = picked.size() * sizeof(double);
  for (const auto& [a, b] : {std::pair{&normalised.tree, &scaled.tree}, std::pair{&normalised.forest, &scaled.forest},
                             std::pair{&normalised.axom, &scaled.axom}}) {
    EXPECT_EQ(0, std::memcmp(a->l_bar.data(), b->l_bar.data(), bytes));
    EXPECT_EQ(0, std::memcmp(a->l_hat.data(), b->l_hat.data(), bytes));
    EXPECT_EQ(a->kept, b->kept);
  }
  // Without the units the raw model is judged on raw distances: other numbers.
  const AxomRobustness unscaled = EvaluateExplanationRobustness(&raw_tree, raw_forest, {raw, picked.size()}, o);
  EXPECT_NE(0, std::memcmp(unscaled.forest.l_bar.data(), normalised.forest.l_bar.data(), bytes));
  // The heat maps too: the lattice spans eps x scale[j].
  const ExplanationHeatmaps hn = ComputeExplanationHeatmaps(tree.get(), *forest, {pts, picked.size()}, 1, 0, 6, 0.05, 9);
  const ExplanationHeatmaps hs =
      ComputeExplanationHeatmaps(&raw_tree, raw_forest, {raw, picked.size()}, 1, 0, 6, 0.05, 9, {}, scale);
  for (int m = 0; m < 3; ++m) {
    for (std::size_t c = 0; c < hn.ratio[m].size(); ++c) {
      const double a = hn.mean_ratio[m][c];
      const double b = hs.mean_ratio[m][c];
      EXPECT_TRUE((std::isnan(a) && std::isnan(b)) || a == b) << "model " << m << " cell " << c;
    }
  }
  // Units that are not powers of two: the cached values still equal the plain reference.
  for (std::size_t j = 0; j < F; ++j) os.scale[j] = 0.3 + 0.7 * static_cast<double>(j);
  const AxomRobustness fast = EvaluateExplanationRobustness(nullptr, raw_forest, {raw, picked.size()}, os);
  ExplainerFunction f;
  f.n_features = F;
  f.size = F;
  f.label = [&](const double* x) {
    const AxomExplanation e = ExplainAxom(raw_forest, {std::vector<double>(x, x + F), 1});
    return e.label[0];
  };
  f.explain = [&](const double* x, double* g) {
    const AxomExplanation e = ExplainAxom(raw_forest, {std::vector<double>(x, x + F), 1});
    for (std::size_t j = 0; j < F; ++j) g[j] = e.axom[static_cast<std::size_t>(e.label[0]) * F + j];
  };
  const ExplanationRobustness plain = PlainExplanationRobustness(f, {raw, picked.size()}, os);
  for (std::size_t i = 0; i < picked.size(); ++i) {
    EXPECT_EQ(fast.axom.kept[i], plain.kept[i]);
    EXPECT_NEAR(fast.axom.l_bar[i], plain.l_bar[i], 1e-12 * std::max(1.0, plain.l_bar[i]));
  }
}

TEST(ExplanationRobustness, RefusesBadOptionsAndModels) {
  const Wine w;
  const auto forest = Forest(w, 3, 2, 1);
  const std::vector<double> pts(w.F, 0.5);
  ExplanationRobustnessOptions o;
  o.eps = 0.0;
  testing::ExpectError<InvalidArgument>([&] { EvaluateExplanationRobustness(nullptr, *forest, {pts, 1}, o); },
                                        {"eps", "(0, 0.5]"}, "eps");
  o.eps = 0.6;
  testing::ExpectError<InvalidArgument>([&] { EvaluateExplanationRobustness(nullptr, *forest, {pts, 1}, o); },
                                        {"eps"}, "eps");
  o.eps = 0.01;
  o.neighbours = 0;
  testing::ExpectError<InvalidArgument>([&] { EvaluateExplanationRobustness(nullptr, *forest, {pts, 1}, o); },
                                        {"neighbour"}, "neighbours");
  o.neighbours = 10;
  o.scale = {1.0, 2.0};
  testing::ExpectError<InvalidArgument>([&] { EvaluateExplanationRobustness(nullptr, *forest, {pts, 1}, o); },
                                        {"2 values for 13 features"}, "scale");
  o.scale.assign(w.F, 1.0);
  o.scale[4] = 0.0;
  testing::ExpectError<InvalidArgument>([&] { EvaluateExplanationRobustness(nullptr, *forest, {pts, 1}, o); },
                                        {"feature 4", "> 0"}, "scale");
  ForestOptions reg;
  reg.regression = true;
  reg.n_estimators = 3;
  const auto regressor = FitForest(reg, w.data, w.Rows(), w.Columns());
  testing::ExpectError<InvalidArgument>([&] { ExplainAxom(*regressor, {pts, 1}); }, {"classification"});
}

}  // namespace
}}  // namespace perfshap
