// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// RankGaussianNb must order and tie rows exactly as their computed GaussianNB probabilities
// (GaussianNbProbability, sklearn's predict_proba arithmetic) do, while evaluating those
// probabilities only where the log-odds cannot decide. Checked on adversarial log-likelihoods
// (saturated probabilities, subnormal ones, huge magnitudes, duplicates, near-duplicates a few
// ulps apart, zero log-odds) against a sort of the probabilities themselves, and end to end on
// every coalition of real and synthetic splits: the curve values of the ranked path equal
// those of the probability path bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "common/vector_kernels.hpp"
#include "common/sort_keys.hpp"
#include "support/learners.hpp"
#include "models/gaussian_nb/gaussian_nb_model.hpp"
#include "models/gaussian_nb/gaussian_nb_learner.hpp"
#include "models/gaussian_nb/gaussian_nb_rank.hpp"
#include "perfshap/blocks/coalition.hpp"
#include "perfshap/blocks/curves.hpp"
#include "perfshap/dataset.hpp"
#include "perfshap/blocks/random.hpp"
#include "perfshap/blocks/split.hpp"
#include "support/curve_checks.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

// The ranking a sort of the probabilities gives, compared through what it determines: the
// probabilities read in rank order, and which neighbours tie.
void ExpectRankingOfProbabilities(const std::vector<double>& jll0, const std::vector<double>& jll1,
                                  const GaussianNbRanking& ranking, const std::string& what) {
  const std::size_t m = jll0.size();
  std::vector<double> p(m);
  for (std::size_t i = 0; i < m; ++i) p[i] = GaussianNbProbability(jll0[i], jll1[i]);
  std::vector<double> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  ASSERT_EQ(ranking.order.size(), m) << what;
  std::vector<std::uint8_t> seen(m, 0);
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint32_t r = ranking.order[i];
    ASSERT_LT(r, m) << what;
    ASSERT_EQ(seen[r], 0) << what << ": row " << r << " twice";
    seen[r] = 1;
    ASSERT_EQ(p[r], sorted[i]) << what << ": rank " << i << " holds row " << r;
    if (i > 0) {
      EXPECT_EQ(ranking.tie[i] != 0, p[r] == p[ranking.order[i - 1]]) << what << ": tie flag at rank " << i;
    }
  }
}

// Adversarial rows: log-likelihood pairs drawn from regimes where a log-odds order could
// differ from the probabilities' (or tie where they do not).
void MakeRows(std::uint64_t seed, std::size_t m, std::vector<double>& jll0, std::vector<double>& jll1) {
  RandomStream rng(seed, 3);
  jll0.clear();
  jll1.clear();
  for (std::size_t i = 0; i < m; ++i) {
    const double u = rng.Uniform();
    const double base = -std::exp(rng.Uniform() * 9.0);  // -1 .. -8100: ulps from 1e-16 to 1e-12
    double d;
    if (u < 0.25) d = (rng.Uniform() - 0.5) * 20.0;             // ordinary
    else if (u < 0.45) d = 25.0 + rng.Uniform() * 20.0;         // P(1) near or at 1
    else if (u < 0.55) d = -(690.0 + rng.Uniform() * 80.0);     // P(1) subnormal or 0
    else if (u < 0.65) d = -(30.0 + rng.Uniform() * 600.0);     // tiny but normal
    else if (u < 0.70) d = 0.0;                                 // P(1) = 1/2
    else if (u < 0.80 && i > 0) {                               // a copy of an earlier row
      const auto j = static_cast<std::size_t>(rng.Uniform() * static_cast<double>(i));
      jll0.push_back(jll0[j]);
      jll1.push_back(jll1[j]);
      continue;
    } else if (i > 0) {  // an earlier row moved by a few ulps
      const auto j = static_cast<std::size_t>(rng.Uniform() * static_cast<double>(i));
      double a = jll0[j];
      double b = jll1[j];
      const int steps = 1 + static_cast<int>(rng.Uniform() * 4.0);
      for (int s = 0; s < steps; ++s)
        b = rng.Uniform() < 0.5 ? std::nextafter(b, 0.0) : std::nextafter(b, -1e300);
      if (rng.Uniform() < 0.5) a = std::nextafter(a, 0.0);
      jll0.push_back(a);
      jll1.push_back(b);
      continue;
    } else {
      d = 1.0;
    }
    const bool huge = rng.Uniform() < 0.1;
    const double b0 = huge ? base * 1e4 : base;
    jll0.push_back(b0);
    jll1.push_back(b0 + d);
  }
}

// Every kernel this machine runs: the portable one, and the AVX-512 one where the CPU has it.
std::vector<RankKernel> Kernels() {
  std::vector<RankKernel> kernels{RankKernel::kPortable};
  if (HasAvx512()) kernels.push_back(RankKernel::kAvx512);
  return kernels;
}

const char* Name(RankKernel kernel) { return kernel == RankKernel::kAvx512 ? "avx512" : "portable"; }

class RankKernels : public ::testing::TestWithParam<RankKernel> {};

INSTANTIATE_TEST_SUITE_P(RankGaussianNb, RankKernels, ::testing::ValuesIn(Kernels()),
                         [](const ::testing::TestParamInfo<RankKernel>& p) { return Name(p.param); });

TEST_P(RankKernels, OrdersAndTiesExactlyAsTheProbabilities) {
  GaussianNbRanking ranking;
  std::size_t evaluated = 0;
  std::size_t rows = 0;
  // Up to 673 rows: the AVX-512 kernel hands more than 512 to the portable one.
  for (std::uint64_t seed = 0; seed < 2000; ++seed) {
    std::vector<double> jll0, jll1;
    MakeRows(seed, 1 + seed % 97 * 7, jll0, jll1);
    ASSERT_TRUE(RankGaussianNb(jll0, jll1, ranking, {}, GetParam()));
    ExpectRankingOfProbabilities(jll0, jll1, ranking, "seed " + std::to_string(seed));
    if (HasFatalFailure()) return;
    evaluated += ranking.evaluated;
    rows += jll0.size();
  }
  // These rows are built to need evaluation (saturated, subnormal, duplicated): most do.
  EXPECT_GT(evaluated, rows / 4);
}

TEST_P(RankKernels, OrdinaryRowsAreRankedWithoutEvaluatingProbabilities) {
  // Spread log-odds in (-20, 20): no two are close enough to need the probabilities.
  RandomStream rng(11, 0);
  std::vector<double> jll0, jll1;
  for (int i = 0; i < 512; ++i) {
    jll0.push_back(-5.0 - 50.0 * rng.Uniform());
    jll1.push_back(jll0.back() + 40.0 * (rng.Uniform() - 0.5));
  }
  for (std::size_t m : {512, 275, 9}) {
    const std::vector<double> a(jll0.begin(), jll0.begin() + static_cast<std::ptrdiff_t>(m));
    const std::vector<double> b(jll1.begin(), jll1.begin() + static_cast<std::ptrdiff_t>(m));
    GaussianNbRanking ranking;
    ASSERT_TRUE(RankGaussianNb(a, b, ranking, {}, GetParam()));
    ExpectRankingOfProbabilities(a, b, ranking, "spread");
    EXPECT_LT(ranking.evaluated, 50u);
  }
}

TEST_P(RankKernels, DuplicatedRowsTieWithoutEvaluatingProbabilities) {
  // Forty spread rows, each three times in a shuffled order: every cluster is one set of
  // copies, a tie known without evaluating anything; then one copy is moved by an ulp, and
  // that cluster must be evaluated (and come out untied).
  RandomStream rng(12, 0);
  std::vector<double> base0, base1;
  for (int i = 0; i < 40; ++i) {
    base0.push_back(-5.0 - 50.0 * rng.Uniform());
    base1.push_back(base0.back() + 40.0 * (rng.Uniform() - 0.5));
  }
  std::vector<std::size_t> source;
  for (std::size_t copy = 0; copy < 3; ++copy)
    for (std::size_t i = 0; i < base0.size(); ++i) source.push_back(i);
  for (std::size_t i = source.size(); i-- > 1;) std::swap(source[i], source[rng.Below(i + 1)]);
  std::vector<double> jll0, jll1;
  for (std::size_t i : source) {
    jll0.push_back(base0[i]);
    jll1.push_back(base1[i]);
  }
  GaussianNbRanking ranking;
  ASSERT_TRUE(RankGaussianNb(jll0, jll1, ranking, {}, GetParam()));
  ExpectRankingOfProbabilities(jll0, jll1, ranking, "copies");
  EXPECT_EQ(ranking.evaluated, 0u);
  jll1[0] = std::nextafter(jll1[0], 0.0);
  ASSERT_TRUE(RankGaussianNb(jll0, jll1, ranking, {}, GetParam()));
  ExpectRankingOfProbabilities(jll0, jll1, ranking, "copies, one moved");
  EXPECT_EQ(ranking.evaluated, 3u);
}

TEST_P(RankKernels, NonFiniteLogLikelihoodsAreLeftToTheCaller) {
  GaussianNbRanking ranking;
  const double inf = std::numeric_limits<double>::infinity();
  const RankKernel k = GetParam();
  EXPECT_FALSE(RankGaussianNb(std::vector<double>{-1.0, -inf}, std::vector<double>{-2.0, -inf}, ranking, {}, k));
  EXPECT_FALSE(
      RankGaussianNb(std::vector<double>{-1.0, std::nan("")}, std::vector<double>{-2.0, -1.0}, ranking, {}, k));
  EXPECT_TRUE(RankGaussianNb(std::vector<double>{}, std::vector<double>{}, ranking, {}, k));
  // A bad row in the last, partly filled block of a vector kernel, and anywhere in a long sample.
  for (std::size_t m : {11, 300}) {
    for (std::size_t bad : {std::size_t{0}, m / 2, m - 1}) {
      std::vector<double> a(m, -3.0), b(m);
      for (std::size_t i = 0; i < m; ++i) b[i] = -3.0 + 0.01 * static_cast<double>(i);
      b[bad] = bad % 2 == 0 ? inf : std::nan("");
      EXPECT_FALSE(RankGaussianNb(a, b, ranking, {}, k)) << m << " rows, row " << bad;
    }
  }
}

// Every coalition of the split: the ranked path (RankTest + EvaluateRanked) and the probability
// path (ScoreTest + Evaluate) give the same curve values, bit for bit, for each strategy.
void ExpectRankedPathEqualsProbabilityPath(const Dataset& data, const SplitPlan& plan, const std::string& name) {
  std::vector<std::size_t> columns(data.n_features());
  for (std::size_t j = 0; j < columns.size(); ++j) columns[j] = j;
  for (GridStrategy strategy :
       {GridStrategy::kOptimistic, GridStrategy::kPessimistic, GridStrategy::kInterpolation}) {
    CurveGridOptions options;
    options.strategy = strategy;
    const CurveGridEvaluator evaluator(options);
    CurveGridScratch scratch_a, scratch_b;
    CurveGridValues a = evaluator.MakeValues();
    CurveGridValues b = evaluator.MakeValues();
    RankedTest ranked, other;
    for (std::size_t r = 0; r < plan.size(); ++r) {
      const auto split_ptr = testing::PrepareSplit("gnb", data, columns, plan[r].train, plan[r].test);
    const PreparedSplit& split = *split_ptr;
      const auto trainer_ptr = split.MakeFitter();
    CoalitionFitter& trainer = *trainer_ptr;
      std::vector<double> p(split.n_test());
      const std::uint64_t total = std::uint64_t{1} << columns.size();
      for (Coalition s = 1; s < total; ++s) {
        trainer.Fit(s);
        trainer.ScoreTest(p);
        if (strategy == GridStrategy::kOptimistic) {
          // The trainer's probabilities (cached per-player terms) equal the fitted model's own
          // prediction, term by term from the raw test values, bit for bit.
          const auto model = trainer.MakeModel();
          std::vector<double> x;
          for (std::size_t j = 0; j < columns.size(); ++j)
            if (Contains(s, static_cast<int>(j)))
              for (std::size_t row : plan[r].test) x.push_back(data.column(j)[row]);
          std::vector<double> direct(split.n_test());
          model->Predict(x, split.n_test(), direct);
          ASSERT_EQ(direct, p) << name << " split " << r << " coalition " << s;
        }
        evaluator.Evaluate(split.test_labels(), p, scratch_a, a);
        ASSERT_TRUE(trainer.RankTest(ranked));
        // A copy: the spans view the fitter's memory, which the next RankTest overwrites.
        const struct {
          std::vector<std::uint32_t> order;
          std::vector<std::uint8_t> tie, positive;
        } ranking{{ranked.order.begin(), ranked.order.end()},
                  {ranked.tie.begin(), ranked.tie.end()},
                  {ranked.positive.begin(), ranked.positive.end()}};
        // Every kernel ranks alike (the ranking above is the one RetrainGame's kAuto picks).
        for (RankKernel kernel : Kernels()) {
          ASSERT_TRUE(detail::RankGaussianNbTest(trainer, other, kernel));
          ASSERT_TRUE(std::equal(other.order.begin(), other.order.end(), ranking.order.begin(), ranking.order.end()))
              << name << " " << Name(kernel);
          ASSERT_TRUE(std::equal(other.tie.begin(), other.tie.end(), ranking.tie.begin(), ranking.tie.end()))
              << name << " " << Name(kernel);
          ASSERT_TRUE(std::equal(other.positive.begin(), other.positive.end(), ranking.positive.begin(),
                                 ranking.positive.end()))
              << name << " " << Name(kernel);
        }
        for (std::size_t i = 0; i < ranking.order.size(); ++i)
          ASSERT_EQ(ranking.positive[i], split.test_labels()[ranking.order[i]] == 1.0 ? 1 : 0) << name;
        evaluator.EvaluateRanked(ranking.positive, ranking.tie, scratch_b, b);
        const std::string what = name + " split " + std::to_string(r) + " coalition " + std::to_string(s);
        ASSERT_TRUE(testing::SameCurveValues(a, b)) << what;
      }
    }
  }
}

TEST(RankGaussianNb, RankedPathEqualsProbabilityPathOnSeparableSynthetic) {
  // Two far-apart classes (probabilities saturate at 0 and 1 in most rows), duplicated rows,
  // and a feature whose values repeat: the clusters and ties the ranking must get right.
  RandomStream rng(5, 1);
  const std::size_t n = 400;
  std::vector<std::vector<double>> cols(4, std::vector<double>(n));
  std::vector<double> label(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t src = i % 10 == 9 ? i - 1 : i;  // every tenth row copies the one before
    label[i] = src % 2 == 0 ? 1.0 : 0.0;
    if (src != i) {
      for (auto& c : cols) c[i] = c[src];
      continue;
    }
    const double shift = label[i] == 1.0 ? 6.0 : -6.0;
    cols[0][i] = shift + rng.Normal();
    cols[1][i] = 0.3 * shift + 2.0 * rng.Normal();
    cols[2][i] = std::floor(3.0 * rng.Uniform()) + (label[i] == 1.0 ? 0.5 : 0.0);
    cols[3][i] = rng.Normal() * 1e-3 + 40.0 * shift;
  }
  const Dataset data({"x0", "x1", "x2", "x3"}, cols, label);
  const SplitPlan plan = MonteCarloSplits(n, 6, 0.3, 9, label);
  ExpectRankedPathEqualsProbabilityPath(data, plan, "synthetic");
}

// Five public data sets of tests/fixtures/data.
TEST(RankGaussianNb, RankedPathEqualsProbabilityPathOnPublicData) {
  for (const char* file : {"banknote.csv", "pima.csv", "breast_cancer.csv", "ionosphere.csv", "sonar.csv"}) {
    const std::string path = testing::FixturePath(std::string("data/") + file);
    CsvOptions csv;
    csv.label = "label";
    Dataset full = ReadCsv(path, csv);
    // At most 6 players (64 coalitions) per data set, columns with 10 or more distinct values
    // (none constant on a training part); a 0/1 label.
    std::vector<std::size_t> keep;
    for (std::size_t j = 0; j < full.n_features() && keep.size() < 6; ++j) {
      std::vector<double> v(full.column(j).begin(), full.column(j).end());
      std::sort(v.begin(), v.end());
      if (std::unique(v.begin(), v.end()) - v.begin() >= 10) keep.push_back(j);
    }
    std::vector<std::string> names;
    std::vector<std::vector<double>> cols;
    for (std::size_t j : keep) {
      names.push_back(full.feature_names()[j]);
      cols.emplace_back(full.column(j).begin(), full.column(j).end());
    }
    std::vector<double> label(full.label().begin(), full.label().end());
    const double first = label[0];
    for (double& v : label) v = v == first ? 1.0 : 0.0;
    const Dataset data(names, cols, label);
    const SplitPlan plan = MonteCarloSplits(data.n_rows(), 3, 0.25, 4, label);
    ExpectRankedPathEqualsProbabilityPath(data, plan, file);
  }
}

}  // namespace
}}}  // namespace perfshap::detail
