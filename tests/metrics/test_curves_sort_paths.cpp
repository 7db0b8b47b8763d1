// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// CurveGridEvaluator kExact on inputs that stress its own sort (quicksort with a branch-free
// partition, a pass for keys equal to the pivot, a depth limit) and its grid reading done
// during the walk: many ties, saturated probabilities, already sorted and reversed scores,
// signed zeros, grids hit exactly by runs of points. Points and areas must equal metric.hpp's
// RocCurve / PrCurve / RocAuc / AveragePrecision / AuprcTrapezoid (checked against
// scikit-learn in test_metric.cpp) bit for bit, and the grid values a literal reading of the
// ARCHITECTURE.md kExact rule over those curves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "perfshap/blocks/curves.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/metric.hpp"
#include "perfshap/blocks/random.hpp"
#include "support/curve_checks.hpp"

namespace perfshap { inline namespace v0 {
namespace {

struct Sample {
  std::string name;
  std::vector<double> y;
  std::vector<double> p;
};

// The rule written out: a = last point with x < g, b = first with x > g; points at x == g
// give lowest / highest of their y (interpolation: the mean).
double LiteralRead(const Curve& c, double g, GridStrategy strategy) {
  bool hit = false;
  double lowest = 0.0;
  double highest = 0.0;
  std::size_t a = 0;
  std::size_t b = c.x.size();
  for (std::size_t k = 0; k < c.x.size(); ++k) {
    if (c.x[k] == g) {
      lowest = hit ? std::min(lowest, c.y[k]) : c.y[k];
      highest = hit ? std::max(highest, c.y[k]) : c.y[k];
      hit = true;
    }
    if (c.x[k] < g) a = k;
    if (c.x[k] > g && b == c.x.size()) b = k;
  }
  if (hit) {
    if (strategy == GridStrategy::kOptimistic) return highest;
    if (strategy == GridStrategy::kPessimistic) return lowest;
    return (lowest + highest) / 2.0;
  }
  if (strategy == GridStrategy::kOptimistic) return std::max(c.y[a], c.y[b]);
  if (strategy == GridStrategy::kPessimistic) return std::min(c.y[a], c.y[b]);
  return c.y[a] + (c.y[b] - c.y[a]) * (g - c.x[a]) / (c.x[b] - c.x[a]);
}

std::vector<Sample> Samples() {
  std::vector<Sample> out;
  RandomStream rng(2026, 7);
  auto label = [&](std::size_t i) { return (i * 7 + i / 3) % 5 < 2 ? 1.0 : 0.0; };
  {  // Three score levels only: long runs of equal keys in both classes.
    Sample s{"three_levels", {}, {}};
    for (std::size_t i = 0; i < 600; ++i) {
      s.y.push_back(label(i));
      s.p.push_back(static_cast<double>((i * 7919) % 3) / 2.0);
    }
    out.push_back(s);
  }
  {  // Saturated: most probabilities exactly 1 or 0, the rest spread.
    Sample s{"saturated", {}, {}};
    for (std::size_t i = 0; i < 500; ++i) {
      const double y = label(i);
      const double u = rng.Uniform();
      s.y.push_back(y);
      s.p.push_back(u < 0.45 ? y : (u < 0.55 ? 1.0 - y : rng.Uniform()));
    }
    out.push_back(s);
  }
  {  // Already sorted, then reversed, distinct scores.
    Sample s{"ascending", {}, {}};
    for (std::size_t i = 0; i < 400; ++i) {
      s.y.push_back(label(i));
      s.p.push_back(static_cast<double>(i) / 400.0);
    }
    out.push_back(s);
    Sample r{"descending", s.y, {}};
    for (std::size_t i = 0; i < 400; ++i) r.p.push_back(1.0 - s.p[i]);
    out.push_back(r);
  }
  {  // One key repeated except a few: the equal-to-pivot pass.
    Sample s{"almost_constant", {}, {}};
    for (std::size_t i = 0; i < 300; ++i) {
      s.y.push_back(label(i));
      s.p.push_back(i % 50 == 0 ? 0.25 + static_cast<double>(i) / 1000.0 : 0.5);
    }
    out.push_back(s);
  }
  {  // Signed scores with -0.0 and +0.0 (one threshold), organ-pipe order.
    Sample s{"signed", {}, {}};
    for (std::size_t i = 0; i < 257; ++i) {
      s.y.push_back(label(i));
      const double v = static_cast<double>(i < 128 ? i : 256 - i) - 40.0;
      s.p.push_back(i % 17 == 0 ? (i % 34 == 0 ? -0.0 : 0.0) : v);
    }
    out.push_back(s);
  }
  {  // m = 200 with 100 / 100 classes: ROC x = k / 100 lands on the 101-point grid exactly.
    Sample s{"grid_hits", {}, {}};
    for (std::size_t i = 0; i < 200; ++i) {
      s.y.push_back(i % 2 == 0 ? 1.0 : 0.0);
      s.p.push_back(static_cast<double>((i * 37) % 23) / 23.0);
    }
    out.push_back(s);
  }
  return out;
}

// The ranking EvaluateRanked takes: rows by increasing score, ties flagged.
void RankByScore(const std::vector<double>& p, std::vector<std::uint32_t>& order, std::vector<std::uint8_t>& tie) {
  order.resize(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) order[i] = static_cast<std::uint32_t>(i);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return p[a] < p[b]; });
  tie.assign(p.size(), 0);
  for (std::size_t i = 1; i < p.size(); ++i) tie[i] = p[order[i]] == p[order[i - 1]] ? 1 : 0;
}

// Checks one evaluation (by scores or by ranking) against the metric functions and the rule.
void ExpectMatchesMetricsAndRule(const Sample& s, const CurveGridEvaluator& evaluator, const CurveGridScratch& scratch,
                                 const CurveGridValues& values, GridStrategy strategy, const std::string& what) {
  const Curve roc = RocCurve(s.y, s.p);
  const Curve pr = PrCurve(s.y, s.p);
  EXPECT_EQ(std::vector<double>(scratch.roc().x.begin(), scratch.roc().x.end()), roc.x) << what;
  EXPECT_EQ(std::vector<double>(scratch.roc().y.begin(), scratch.roc().y.end()), roc.y) << what;
  EXPECT_EQ(std::vector<double>(scratch.pr().x.begin(), scratch.pr().x.end()), pr.x) << what;
  EXPECT_EQ(std::vector<double>(scratch.pr().y.begin(), scratch.pr().y.end()), pr.y) << what;
  EXPECT_EQ(values.auc, RocAuc(s.y, s.p)) << what;
  EXPECT_EQ(values.average_precision, AveragePrecision(s.y, s.p)) << what;
  EXPECT_EQ(values.auprc_trapezoid, AuprcTrapezoid(s.y, s.p)) << what;
  for (std::size_t k = 0; k < evaluator.fpr_grid().size(); ++k)
    EXPECT_EQ(values.tpr[k], LiteralRead(roc, evaluator.fpr_grid()[k], strategy)) << what << " fpr grid " << k;
  for (std::size_t k = 0; k < evaluator.recall_grid().size(); ++k)
    EXPECT_EQ(values.precision[k], LiteralRead(pr, evaluator.recall_grid()[k], strategy))
        << what << " recall grid " << k;
}

// EvaluateRanked (the GaussianNB fast path's entry) gives Evaluate's numbers for the same
// order and ties, on the default grids and on irregular grids whose points fall on, between and
// next to curve points; one scratch alternates between evaluators of different grids (its grid
// index cache must follow the evaluator).
TEST(CurveGridExactSortPaths, RankedEntryEqualsScoresEntryBitForBit) {
  const std::vector<double> irregular = {0.0, 0.013, 0.25, 0.3333333333333333, 0.5, 0.77, 0.99, 1.0};
  for (const Sample& s : Samples()) {
    std::vector<std::uint32_t> order;
    std::vector<std::uint8_t> tie;
    RankByScore(s.p, order, tie);
    CurveGridScratch shared;
    for (GridStrategy strategy :
         {GridStrategy::kOptimistic, GridStrategy::kPessimistic, GridStrategy::kInterpolation}) {
      for (bool custom : {false, true, false}) {
        CurveGridOptions options;
        options.strategy = strategy;
        if (custom) options.fpr_grid = options.recall_grid = irregular;
        const CurveGridEvaluator evaluator(options);
        CurveGridScratch scratch;
        CurveGridValues by_score = evaluator.MakeValues();
        CurveGridValues by_rank = evaluator.MakeValues();
        evaluator.Evaluate(s.y, s.p, scratch, by_score);
        std::vector<std::uint8_t> positive(order.size());
        for (std::size_t i = 0; i < order.size(); ++i) positive[i] = s.y[order[i]] == 1.0 ? 1 : 0;
        evaluator.EvaluateRanked(positive, tie, shared, by_rank);
        const std::string what = s.name + (custom ? " irregular grid" : " default grid");
        ExpectMatchesMetricsAndRule(s, evaluator, shared, by_rank, strategy, what + " ranked");
        EXPECT_TRUE(testing::SameCurveValues(by_rank, by_score)) << what;
        // Any nonzero byte flags a tie, and the first rank's flag is not read.
        std::vector<std::uint8_t> wide(tie.size());
        for (std::size_t i = 0; i < tie.size(); ++i) wide[i] = tie[i] != 0 ? static_cast<std::uint8_t>(1 + i % 255) : 0;
        wide[0] = 9;
        CurveGridValues by_wide = evaluator.MakeValues();
        evaluator.EvaluateRanked(positive, wide, shared, by_wide);
        EXPECT_TRUE(testing::SameCurveValues(by_wide, by_score)) << what << " wide tie flags";
      }
    }
  }
}

TEST(CurveGridExactSortPaths, RankedEntryRejectsBadInput) {
  const CurveGridEvaluator evaluator{CurveGridOptions{}};
  CurveGridScratch scratch;
  CurveGridValues values = evaluator.MakeValues();
  const std::vector<std::uint8_t> positive = {1, 0, 1};
  const std::vector<std::uint8_t> tie = {0, 0, 0};
  EXPECT_THROW(evaluator.EvaluateRanked(positive, std::vector<std::uint8_t>{0, 0}, scratch, values), InvalidArgument);
  EXPECT_THROW(evaluator.EvaluateRanked(std::vector<std::uint8_t>{1, 1, 1}, tie, scratch, values), InvalidArgument);
  EXPECT_THROW(evaluator.EvaluateRanked(std::vector<std::uint8_t>{1, 2, 0}, tie, scratch, values), InvalidArgument);
  CurveGridOptions thresholds;
  ParseCurvePoints("thresholds:101", thresholds);
  EXPECT_THROW(CurveGridEvaluator(thresholds).EvaluateRanked(positive, tie, scratch, values), InvalidArgument);
}

TEST(CurveGridExactSortPaths, EqualsMetricFunctionsAndLiteralReadingBitForBit) {
  for (const Sample& s : Samples()) {
    const Curve roc = RocCurve(s.y, s.p);
    const Curve pr = PrCurve(s.y, s.p);
    for (GridStrategy strategy :
         {GridStrategy::kOptimistic, GridStrategy::kPessimistic, GridStrategy::kInterpolation}) {
      CurveGridOptions options;
      options.mode = CurveMode::kExact;
      options.strategy = strategy;
      const CurveGridEvaluator evaluator(options);
      CurveGridScratch scratch;
      scratch.Reserve(s.y.size(), 0);
      CurveGridValues values = evaluator.MakeValues();
      evaluator.Evaluate(s.y, s.p, scratch, values);
      EXPECT_EQ(std::vector<double>(scratch.roc().x.begin(), scratch.roc().x.end()), roc.x) << s.name;
      EXPECT_EQ(std::vector<double>(scratch.roc().y.begin(), scratch.roc().y.end()), roc.y) << s.name;
      EXPECT_EQ(std::vector<double>(scratch.pr().x.begin(), scratch.pr().x.end()), pr.x) << s.name;
      EXPECT_EQ(std::vector<double>(scratch.pr().y.begin(), scratch.pr().y.end()), pr.y) << s.name;
      EXPECT_EQ(values.auc, RocAuc(s.y, s.p)) << s.name;
      EXPECT_EQ(values.average_precision, AveragePrecision(s.y, s.p)) << s.name;
      EXPECT_EQ(values.auprc_trapezoid, AuprcTrapezoid(s.y, s.p)) << s.name;
      for (std::size_t k = 0; k < evaluator.fpr_grid().size(); ++k) {
        EXPECT_EQ(values.tpr[k], LiteralRead(roc, evaluator.fpr_grid()[k], strategy)) << s.name << " " << k;
      }
      for (std::size_t k = 0; k < evaluator.recall_grid().size(); ++k) {
        EXPECT_EQ(values.precision[k], LiteralRead(pr, evaluator.recall_grid()[k], strategy))
            << s.name << " " << k;
      }
    }
  }
}

}  // namespace
}}  // namespace perfshap
