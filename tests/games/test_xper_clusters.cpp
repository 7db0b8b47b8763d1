// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// XPER heterogeneity: the silhouette choice of k, cluster profiles against direct means,
// efficiency inside each cluster, the per-cluster refit against direct predictions and
// metrics, and determinism across thread counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "perfshap/cluster.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/generators.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/blocks/random.hpp"

namespace perfshap { inline namespace v0 {
namespace {

Dataset Rows(const Dataset& all, std::size_t first, std::size_t last) {
  std::vector<std::vector<double>> cols;
  for (std::size_t j = 0; j < all.n_features(); ++j) {
    const auto c = all.column(j);
    cols.emplace_back(c.begin() + static_cast<std::ptrdiff_t>(first), c.begin() + static_cast<std::ptrdiff_t>(last));
  }
  const auto y = all.label();
  return Dataset(all.feature_names(), std::move(cols),
                 std::vector<double>(y.begin() + static_cast<std::ptrdiff_t>(first),
                                     y.begin() + static_cast<std::ptrdiff_t>(last)),
                 "y");
}

// The paper's design: a probit fitted on 700 rows, the train and test decompositions.
struct Fitted {
  Dataset train;
  Dataset test;
  std::unique_ptr<Model> model;
  XperResult train_xper;
  XperResult test_xper;
};

Fitted FitProbitDesign(std::uint64_t seed, std::string metric = "auc") {
  ProbitDesign design;
  design.seed = seed;
  const Dataset all = GenerateProbitDesign(design);
  Fitted f;
  f.train = Rows(all, 0, 700);
  f.test = Rows(all, 700, 1000);
  std::vector<std::size_t> rows(700), columns{0, 1, 2};
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  f.model = Train("probit", f.train, rows, columns);
  XperOptions o;
  o.metric = metric;
  o.comparator = XperComparator::kFull;
  f.train_xper = ExplainXper(*f.model, f.train, o);
  f.test_xper = ExplainXper(*f.model, f.test, o);
  return f;
}

// A hand-made decomposition whose individual values form three separated groups.
XperResult ThreeGroups(std::size_t n) {
  XperResult r;
  r.features = {"a", "b"};
  r.n_rows = n;
  r.individual_phi.resize(2 * n);
  r.individual_base.assign(n, 0.5);
  r.individual_value.resize(n);
  RandomStream rng(3, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const double centre = 2.0 * static_cast<double>(i % 3);
    r.individual_phi[2 * i] = centre + 0.1 * rng.Normal();
    r.individual_phi[2 * i + 1] = -centre + 0.1 * rng.Normal();
    r.individual_value[i] = 0.5 + r.individual_phi[2 * i] + r.individual_phi[2 * i + 1];
  }
  return r;
}

Dataset SampleFor(std::size_t n) {
  std::vector<double> a(n), b(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    a[i] = static_cast<double>(i);
    b[i] = static_cast<double>(i % 7);
    y[i] = i % 3 == 2 ? 1.0 : 0.0;
  }
  return Dataset({"a", "b"}, {a, b}, y, "y");
}

TEST(XperClusters, SilhouettePicksTheNaturalNumberOfGroups) {
  const std::size_t n = 90;
  const XperResult r = ThreeGroups(n);
  const Dataset sample = SampleFor(n);
  const XperClusters c = ClusterXper(r, sample, {});
  EXPECT_TRUE(c.automatic);
  EXPECT_EQ(c.ks, (std::vector<std::size_t>{2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(c.k, 3u);
  EXPECT_EQ(*std::max_element(c.silhouette.begin(), c.silhouette.end()), c.silhouette[1]);
  // Every group is one cluster: its members are i = g (mod 3).
  for (std::size_t i = 3; i < n; ++i) EXPECT_EQ(c.partition.labels[i], c.partition.labels[i % 3]);
  // The silhouette of k = 3 is the SilhouetteScore of the chosen partition.
  const DistanceMatrix dist(r.individual_phi, n, 2);
  EXPECT_EQ(c.silhouette[1], SilhouetteScore(dist, c.partition.labels, 3));
}

TEST(XperClusters, ProfilesAreTheMembersMeans) {
  const std::size_t n = 90;
  const XperResult r = ThreeGroups(n);
  const Dataset sample = SampleFor(n);
  XperClusterOptions o;
  o.clusters = 4;  // fixed, not the silhouette's choice
  const XperClusters c = ClusterXper(r, sample, o);
  EXPECT_FALSE(c.automatic);
  EXPECT_EQ(c.k, 4u);
  ASSERT_EQ(c.profiles.size(), 4u);
  std::size_t total = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const auto& prof = c.profiles[k];
    double size = 0, y = 0, a = 0, phi_b = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (c.partition.labels[i] != k) continue;
      size += 1;
      y += sample.label()[i];
      a += sample.column(0)[i];
      phi_b += r.individual(i, 1);
    }
    EXPECT_EQ(static_cast<double>(prof.size), size);
    EXPECT_NEAR(prof.label_mean, y / size, 1e-15);
    EXPECT_NEAR(prof.feature_means[0], a / size, 1e-12);
    EXPECT_NEAR(prof.phi_means[1], phi_b / size, 1e-15);
    EXPECT_EQ(prof.medoid, c.partition.medoids[k]);
    EXPECT_EQ(c.medoid_phi[2 * k], r.individual(prof.medoid, 0));
    total += prof.size;
  }
  EXPECT_EQ(total, n);
}

TEST(XperClusters, EfficiencyHoldsInsideEveryCluster) {
  const Fitted f = FitProbitDesign(11);
  const XperClusters c = ClusterXper(f.train_xper, f.train, {});
  ASSERT_GE(c.k, 2u);
  for (const auto& prof : c.profiles) {
    double sum = prof.base_mean;
    for (double v : prof.phi_means) sum += v;
    EXPECT_NEAR(sum, prof.value_mean, 1e-12);
  }
}

TEST(XperClusters, BitwiseIdenticalForOneTwoFourThreads) {
  const Fitted f = FitProbitDesign(12);
  std::vector<XperClusters> runs;
  for (int threads : {1, 2, 4}) {
    XperClusterOptions o;
    o.execution.threads = threads;
    runs.push_back(ClusterXper(f.train_xper, f.train, o));
  }
  for (std::size_t t = 1; t < runs.size(); ++t) {
    EXPECT_EQ(runs[t].silhouette, runs[0].silhouette);
    EXPECT_EQ(runs[t].cost, runs[0].cost);
    EXPECT_EQ(runs[t].partition.labels, runs[0].partition.labels);
    EXPECT_EQ(runs[t].medoid_phi, runs[0].medoid_phi);
  }
}

TEST(XperClusterRefit, MatchesDirectPredictionsAndMetrics) {
  const Fitted f = FitProbitDesign(13);
  XperClusterOptions o;
  o.clusters = 2;
  const XperClusters c = ClusterXper(f.train_xper, f.train, o);
  const XperClusterRefit refit =
      RefitPerCluster(*MakeLearner("probit"), f.train, c, *f.model, f.test, f.test_xper, 0.5);
  ASSERT_EQ(refit.models.size(), 2u);
  EXPECT_EQ(refit.train_labels, c.partition.labels);
  EXPECT_EQ(refit.test_labels, AssignToMedoids(f.test_xper.individual_phi, 300, 3, c.medoid_phi, 2));
  EXPECT_EQ(refit.train_sizes[0] + refit.train_sizes[1], 700u);
  EXPECT_EQ(refit.test_sizes[0] + refit.test_sizes[1], 300u);
  ASSERT_EQ(refit.metric_names,
            (std::vector<std::string>{"auc", "brier", "accuracy", "balanced_accuracy", "sensitivity", "specificity"}));

  // One model: the metrics of the global model's predictions.
  std::vector<double> x(900), p(300), yhat(300);
  for (std::size_t j = 0; j < 3; ++j)
    for (std::size_t i = 0; i < 300; ++i) x[j * 300 + i] = f.test.column(j)[i];
  f.model->Predict(x, 300, p);
  for (std::size_t i = 0; i < 300; ++i) yhat[i] = p[i] > 0.5 ? 1.0 : 0.0;
  EXPECT_EQ(refit.test_one_model[0], RocAuc(f.test.label(), p));
  EXPECT_EQ(refit.test_one_model[1], Brier(f.test.label(), p));
  EXPECT_EQ(refit.test_one_model[3], BalancedAccuracy(f.test.label(), yhat));
  // The one-model test AUC is the decomposed value (full comparator, ties counted 1/2).
  EXPECT_NEAR(refit.test_one_model[0], f.test_xper.value, 1e-12);

  // Per cluster: each test row scored by its cluster's model.
  std::vector<double> q(300);
  for (std::size_t i = 0; i < 300; ++i) {
    std::vector<double> row{f.test.column(0)[i], f.test.column(1)[i], f.test.column(2)[i]};
    double out = 0;
    refit.models[refit.test_labels[i]]->Predict(row, 1, std::span<double>(&out, 1));
    q[i] = out;
  }
  EXPECT_NEAR(refit.test_per_cluster[0], RocAuc(f.test.label(), q), 1e-15);
  EXPECT_NEAR(refit.test_per_cluster[1], Brier(f.test.label(), q), 1e-15);
}

TEST(XperClusterRefit, AClusterThatCannotBeRefittedKeepsTheGlobalModel) {
  // Individual values split the rows into y = 1 and y = 0 groups: a probit cannot be fitted
  // on one class, so both clusters keep the one-fits-all model and say why.
  const Fitted f = FitProbitDesign(14);
  XperResult by_label = f.train_xper;
  for (std::size_t i = 0; i < 700; ++i)
    for (std::size_t j = 0; j < 3; ++j) by_label.individual_phi[i * 3 + j] = f.train.label()[i] + 0.001 * static_cast<double>(j);
  XperClusterOptions o;
  o.clusters = 2;
  const XperClusters c = ClusterXper(by_label, f.train, o);
  const XperClusterRefit refit =
      RefitPerCluster(*MakeLearner("probit"), f.train, c, *f.model, f.test, f.test_xper, 0.5);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_NE(refit.notes[k].find("one-fits-all"), std::string::npos) << refit.notes[k];
    EXPECT_EQ(refit.models[k].get(), f.model.get());
  }
  EXPECT_EQ(refit.test_per_cluster, refit.test_one_model);
}

TEST(XperClusters, BadArgumentsAreClearErrors) {
  const XperResult r = ThreeGroups(30);
  XperClusterOptions o;
  o.clusters = 30;  // k must be <= n - 1
  EXPECT_THROW(ClusterXper(r, SampleFor(30), o), InvalidArgument);
  o.clusters = 1;
  EXPECT_THROW(ClusterXper(r, SampleFor(30), o), InvalidArgument);
  EXPECT_THROW(ClusterXper(r, SampleFor(29), {}), InvalidArgument);  // wrong sample
}

}  // namespace
}}  // namespace perfshap
