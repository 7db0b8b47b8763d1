// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// CurveGridEvaluator (perfshap/blocks/curves.hpp).
// kExact is checked against a brute-force reading of metric.hpp's RocCurve / PrCurve (which
// test_metric.cpp checks against scikit-learn) with the ARCHITECTURE.md rule written out
// literally, and against hand-derived curves for the "f_a = f_b" case and grid points 0 and 1.
// kThresholds is checked against bench/peer_shaproc_authors.py, a Python re-implementation of
// the authors' 101-threshold procedure (thresholds j * 0.01, p > t, precision := 1 with no
// positive prediction, sort + merge keeping the largest y, left/right-neighbour strategies; the
// own areas numpy trapz over the merged knots, and the grid integrals numpy trapz(dx=0.01) over
// the grid). The golden numbers of GoldenTable() and AreaTable() below were printed by
//   /usr/bin/python3 bench/peer_shaproc_authors.py vectors
// (numpy 1.24.2, '%.17g'); its case_small / case_large / case_imbalanced are SmallCase(),
// LargeCase(), ImbalancedCase() here, built by the same literals and integer formulas.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "perfshap/blocks/curves.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/metric.hpp"

namespace perfshap { inline namespace v0 {
namespace {

struct Case {
  std::vector<double> y;
  std::vector<double> p;
};

// m = 24: probabilities on and next to thresholds (0.35 and 35 * 0.01), ties across classes.
Case SmallCase() {
  return {
      {1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0},
      {0.95, 0.9,  0.35, 0.35, 0.8,  0.62, 0.62, 0.5,   0.71, 0.35000000000000003, 0.1, 0.2, 0.57, 0.57, 0.05,
       0.41, 0.99, 0.3,  0.46, 0.12, 0.7,  0.83, 0.015, 0.28}};
}

// m = 500: y = 1 iff (7i) % 5 < 2; p = ((7919 i) % 101 + 30 y) / 130 (131 levels, p = 0 for some
// negatives, p = 1 for some positives).
Case LargeCase() {
  Case c;
  for (int i = 0; i < 500; ++i) {
    const double y = (i * 7) % 5 < 2 ? 1.0 : 0.0;
    c.y.push_back(y);
    c.p.push_back(static_cast<double>((i * 7919) % 101 + 30 * static_cast<int>(y)) / 130.0);
  }
  return c;
}

// m = 300, 10% positives: p = ((613 i) % 997) / 996 * (0.6 for negatives, 1 for positives).
Case ImbalancedCase() {
  Case c;
  for (int i = 0; i < 300; ++i) {
    const double y = i % 10 == 3 ? 1.0 : 0.0;
    c.y.push_back(y);
    c.p.push_back(static_cast<double>((i * 613) % 997) / 996.0 * (y == 0.0 ? 0.6 : 1.0));
  }
  return c;
}

// Ties across classes and a negative on top (PR curve starts (0, 1) then (0, 0)).
Case TiedScoresCase() {
  return {{0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0},
          {0.9, 0.8, 0.8, 0.8, 0.7, 0.6, 0.6, 0.5, 0.5, 0.5, 0.4, 0.3, 0.3, 0.2, 0.1, 0.1}};
}

Case CaseByName(const std::string& name) {
  if (name == "small") return SmallCase();
  if (name == "large") return LargeCase();
  return ImbalancedCase();
}

CurveGridOptions Options(CurveMode mode, GridStrategy strategy) {
  CurveGridOptions o;
  o.mode = mode;
  o.strategy = strategy;
  return o;
}

constexpr GridStrategy kStrategies[] = {GridStrategy::kOptimistic, GridStrategy::kPessimistic,
                                        GridStrategy::kInterpolation};

// The kExact rule of ARCHITECTURE.md written out literally over a metric.hpp Curve: a = the last
// point with x < g, b = the first with x > g; points at x == g give y_a = lowest, y_b = highest
// of them, and interpolation takes their mean.
double BruteForceRead(const Curve& c, double g, GridStrategy strategy) {
  std::vector<double> at;
  double ya = 0, xa = 0, yb = 0, xb = 0;
  bool have_a = false;
  bool have_b = false;
  for (std::size_t k = 0; k < c.x.size(); ++k) {
    if (c.x[k] == g) at.push_back(c.y[k]);
    if (c.x[k] < g) {
      xa = c.x[k];
      ya = c.y[k];
      have_a = true;
    }
    if (c.x[k] > g && !have_b) {
      xb = c.x[k];
      yb = c.y[k];
      have_b = true;
    }
  }
  if (!at.empty()) {
    ya = *std::min_element(at.begin(), at.end());
    yb = *std::max_element(at.begin(), at.end());
    if (strategy == GridStrategy::kInterpolation) return (ya + yb) / 2.0;
  } else {
    EXPECT_TRUE(have_a && have_b) << "g = " << g;
    if (strategy == GridStrategy::kInterpolation) return ya + (yb - ya) * (g - xa) / (xb - xa);
  }
  return strategy == GridStrategy::kOptimistic ? std::max(ya, yb) : std::min(ya, yb);
}

TEST(CurveGrid, DefaultGridsAreJTimesStepAndCorrectlyRounded) {
  const std::vector<double> thresholds = DefaultCurveGrid(CurveMode::kThresholds, 101);
  const std::vector<double> exact = DefaultCurveGrid(CurveMode::kExact, 101);
  ASSERT_EQ(thresholds.size(), 101u);
  ASSERT_EQ(exact.size(), 101u);
  int differ = 0;
  for (int j = 0; j <= 100; ++j) {
    // The authors' np.arange(0, 1.01, 0.01) holds j * 0.01.
    EXPECT_EQ(thresholds[static_cast<std::size_t>(j)], static_cast<double>(j) * 0.01) << j;
    EXPECT_EQ(exact[static_cast<std::size_t>(j)], static_cast<double>(j) / 100.0) << j;
    differ += thresholds[static_cast<std::size_t>(j)] != exact[static_cast<std::size_t>(j)];
  }
  // j * 0.01 != j / 100 for j = 35, 41, 47, 57, 69, 70, 82, 83, 94, 95 (numpy agrees).
  EXPECT_EQ(differ, 10);
  EXPECT_EQ(thresholds[35], 0.35000000000000003);
  EXPECT_EQ(thresholds.back(), 1.0);
  // Other T: the last value is exactly 1 even where (T - 1) * (1 / (T - 1)) is not.
  EXPECT_EQ(DefaultCurveGrid(CurveMode::kThresholds, 50).back(), 1.0);
  EXPECT_EQ(DefaultCurveGrid(CurveMode::kExact, 2), (std::vector<double>{0.0, 1.0}));
  EXPECT_THROW(DefaultCurveGrid(CurveMode::kExact, 1), InvalidArgument);
}

TEST(CurveGridExact, PointsAndAreasEqualMetricFunctionsBitForBit) {
  for (const Case& c : {SmallCase(), LargeCase(), ImbalancedCase(), TiedScoresCase()}) {
    const CurveGridEvaluator evaluator(Options(CurveMode::kExact, GridStrategy::kInterpolation));
    CurveGridScratch scratch;
    CurveGridValues values = evaluator.MakeValues();
    evaluator.Evaluate(c.y, c.p, scratch, values);
    const Curve roc = RocCurve(c.y, c.p);
    const Curve pr = PrCurve(c.y, c.p);
    EXPECT_EQ(std::vector<double>(scratch.roc().x.begin(), scratch.roc().x.end()), roc.x);
    EXPECT_EQ(std::vector<double>(scratch.roc().y.begin(), scratch.roc().y.end()), roc.y);
    EXPECT_EQ(std::vector<double>(scratch.pr().x.begin(), scratch.pr().x.end()), pr.x);
    EXPECT_EQ(std::vector<double>(scratch.pr().y.begin(), scratch.pr().y.end()), pr.y);
    EXPECT_EQ(values.auc, RocAuc(c.y, c.p));
    EXPECT_EQ(values.average_precision, AveragePrecision(c.y, c.p));
    EXPECT_EQ(values.auprc_trapezoid, AuprcTrapezoid(c.y, c.p));
  }
}

TEST(CurveGridExact, GridReadingMatchesBruteForceForEveryStrategy) {
  // Grids: the default (j / 100) and one holding every x of the curves (exact hits, 0 and 1)
  // plus midpoints.
  for (const Case& c : {SmallCase(), LargeCase(), ImbalancedCase(), TiedScoresCase()}) {
    const Curve roc = RocCurve(c.y, c.p);
    const Curve pr = PrCurve(c.y, c.p);
    std::vector<double> roc_grid(roc.x);
    std::vector<double> pr_grid(pr.x);
    for (std::size_t k = 0; k + 1 < roc.x.size(); ++k) {
      roc_grid.push_back((roc.x[k] + roc.x[k + 1]) / 2.0);
    }
    for (std::size_t k = 0; k + 1 < pr.x.size(); ++k) pr_grid.push_back((pr.x[k] + pr.x[k + 1]) / 2.0);
    for (auto* grid : {&roc_grid, &pr_grid}) {
      std::sort(grid->begin(), grid->end());
      grid->erase(std::unique(grid->begin(), grid->end()), grid->end());
    }
    for (const bool custom : {false, true}) {
      for (const GridStrategy strategy : kStrategies) {
        CurveGridOptions o = Options(CurveMode::kExact, strategy);
        if (custom) {
          o.fpr_grid = roc_grid;
          o.recall_grid = pr_grid;
        }
        const CurveGridEvaluator evaluator(o);
        CurveGridScratch scratch;
        CurveGridValues values = evaluator.MakeValues();
        evaluator.Evaluate(c.y, c.p, scratch, values);
        for (std::size_t j = 0; j < evaluator.fpr_grid().size(); ++j) {
          const double g = evaluator.fpr_grid()[j];
          EXPECT_NEAR(values.tpr[j], BruteForceRead(roc, g, strategy), 1e-15) << "fpr " << g;
        }
        for (std::size_t j = 0; j < evaluator.recall_grid().size(); ++j) {
          const double g = evaluator.recall_grid()[j];
          EXPECT_NEAR(values.precision[j], BruteForceRead(pr, g, strategy), 1e-15) << "recall " << g;
        }
      }
    }
  }
}

TEST(CurveGridExact, PointsExactlyAtGridTakeLowestHighestAndMean) {
  // ROC of y = {1, 1, 0, 0, 1, 0}, scores decreasing: (0,0) (0,1/3) (0,2/3) (1/3,2/3) (2/3,2/3)
  // (2/3,1) (1,1). Vertical runs at x = 0 (y 0..2/3) and x = 2/3 (y 2/3..1).
  const std::vector<double> y = {1, 1, 0, 0, 1, 0};
  const std::vector<double> s = {0.9, 0.8, 0.7, 0.6, 0.5, 0.4};
  // PR of the same: (0,1) (1/3,1) (2/3,1) (2/3,2/3) (2/3,1/2) (1,3/5) (1,1/2).
  struct Expected {
    double g, roc_opt, roc_pess, roc_interp, pr_opt, pr_pess, pr_interp;
  };
  const double third = 1.0 / 3.0;
  const double two_thirds = 2.0 / 3.0;
  const Expected expected[] = {
      // g = 0: ROC points (0,0),(0,1/3),(0,2/3); PR point (0,1) only.
      {0.0, two_thirds, 0.0, (0.0 + two_thirds) / 2.0, 1.0, 1.0, 1.0},
      // g = 1/6: ROC between (0,2/3) and (1/3,2/3); PR between (0,1) and (1/3,1).
      {1.0 / 6.0, two_thirds, two_thirds, two_thirds, 1.0, 1.0, 1.0},
      // g = 1/2: ROC between (1/3,2/3) and (2/3,2/3); PR between (1/3,1) and (2/3,1).
      {0.5, two_thirds, two_thirds, two_thirds, 1.0, 1.0, 1.0},
      // g = 2/3: ROC run (2/3,2/3),(2/3,1); PR run (2/3,1),(2/3,2/3),(2/3,1/2).
      {two_thirds, 1.0, two_thirds, (two_thirds + 1.0) / 2.0, 1.0, 0.5, (0.5 + 1.0) / 2.0},
      // g = 5/6: ROC between (2/3,1) and (1,1); PR between (2/3,1/2) and (1,3/5).
      {5.0 / 6.0, 1.0, 1.0, 1.0, 0.6, 0.5, 0.5 + (0.6 - 0.5) * (5.0 / 6.0 - two_thirds) / third},
      // g = 1: ROC (1,1); PR run (1,3/5),(1,1/2).
      {1.0, 1.0, 1.0, 1.0, 0.6, 0.5, (0.5 + 0.6) / 2.0},
  };
  std::vector<double> grid;
  for (const Expected& e : expected) grid.push_back(e.g);
  for (const GridStrategy strategy : kStrategies) {
    CurveGridOptions o = Options(CurveMode::kExact, strategy);
    o.fpr_grid = grid;
    o.recall_grid = grid;
    const CurveGridEvaluator evaluator(o);
    CurveGridScratch scratch;
    CurveGridValues values = evaluator.MakeValues();
    evaluator.Evaluate(y, s, scratch, values);
    for (std::size_t j = 0; j < grid.size(); ++j) {
      const Expected& e = expected[j];
      const double roc = strategy == GridStrategy::kOptimistic    ? e.roc_opt
                         : strategy == GridStrategy::kPessimistic ? e.roc_pess
                                                                  : e.roc_interp;
      const double pr = strategy == GridStrategy::kOptimistic    ? e.pr_opt
                        : strategy == GridStrategy::kPessimistic ? e.pr_pess
                                                                 : e.pr_interp;
      EXPECT_NEAR(values.tpr[j], roc, 1e-15) << GridStrategyName(strategy) << " fpr " << e.g;
      EXPECT_NEAR(values.precision[j], pr, 1e-15) << GridStrategyName(strategy) << " recall " << e.g;
    }
  }
}

TEST(CurveGridExact, NegativeOnTopGivesPrRunAtRecallZero) {
  // PR: (0,1) then (0,0) for the top negative: at g = 0, pessimistic 0, optimistic 1, mean 1/2.
  const std::vector<double> y = {0, 1, 0, 1};
  const std::vector<double> s = {0.9, 0.8, 0.7, 0.6};
  for (const GridStrategy strategy : kStrategies) {
    CurveGridOptions o = Options(CurveMode::kExact, strategy);
    o.recall_grid = {0.0, 0.25, 0.5, 1.0};
    const CurveGridEvaluator evaluator(o);
    CurveGridScratch scratch;
    CurveGridValues values = evaluator.MakeValues();
    evaluator.Evaluate(y, s, scratch, values);
    // Points: (0,1) (0,0) (1/2,1/2) (1/2,1/3) (1,1/2).
    const std::vector<double> want = strategy == GridStrategy::kOptimistic
                                         ? std::vector<double>{1.0, 0.5, 0.5, 0.5}
                                     : strategy == GridStrategy::kPessimistic
                                         ? std::vector<double>{0.0, 0.0, 1.0 / 3.0, 0.5}
                                         : std::vector<double>{0.5, 0.25, (1.0 / 3.0 + 0.5) / 2.0, 0.5};
    for (std::size_t j = 0; j < want.size(); ++j) {
      EXPECT_NEAR(values.precision[j], want[j], 1e-15) << GridStrategyName(strategy) << " " << j;
    }
  }
}

// ---- kThresholds against bench/peer_shaproc_authors.py ---------------------------------------
struct Golden {
  const char* name;
  GridStrategy strategy;
  double grid_auc_gain;    // np.trapz(tpr(g) - g, dx=0.01)
  double grid_auprc_gain;  // np.trapz(precision(r) - 0.5, dx=0.01)
  double sum_tpr;     // math.fsum of the 101 TPR readings
  double sum_precision;
  std::vector<double> tpr_at;        // at grid indices kCheckPoints
  std::vector<double> precision_at;  // at grid indices kCheckPoints
};
constexpr std::size_t kCheckPoints[] = {0, 1, 7, 20, 35, 50, 57, 80, 99, 100};

const std::vector<Golden>& GoldenTable() {
  static const std::vector<Golden> table = {
      {"small",
       GridStrategy::kOptimistic,
       0.2994444444444444,
       0.18029286073403722,
       80.555555555555557,
       68.793991955756667,
       {0.22222222222222221, 0.33333333333333331, 0.44444444444444442, 0.44444444444444442,
        0.77777777777777779, 1, 1, 1, 1, 1},
       {1, 1, 1, 1, 0.66666666666666663, 0.55555555555555558, 0.54545454545454541, 0.52941176470588236,
        0.52941176470588236, 0.52941176470588236}},
      {"small",
       GridStrategy::kPessimistic,
       0.24833333333333332,
       0.23305304172951227,
       75.444444444444443,
       74.070010055304166,
       {0.22222222222222221, 0.22222222222222221, 0.33333333333333331, 0.44444444444444442,
        0.66666666666666663, 0.77777777777777779, 1, 1, 1, 1},
       {1, 1, 1, 1, 0.75, 0.66666666666666663, 0.55555555555555558, 0.53846153846153844, 0.53846153846153844,
        0.52941176470588236}},
      {"small",
       GridStrategy::kInterpolation,
       0.27405555555555561,
       0.20609262192056305,
       78.016666666666666,
       71.373968074409248,
       {0.22222222222222221, 0.23888888888888887, 0.33888888888888891, 0.44444444444444442,
        0.69444444444444453, 0.88888888888888884, 1, 1, 1, 1},
       {1, 1, 1, 1, 0.73749999999999993, 0.61111111111111116, 0.5542424242424242, 0.53755656108597283,
        0.52981900452488684, 0.52941176470588236}},
      {"large",
       GridStrategy::kOptimistic,
       0.25707500000000005,
       0.21200072632321795,
       76.355000000000004,
       71.943975071346188,
       {0.29499999999999998, 0.315, 0.36499999999999999, 0.495, 0.66500000000000004, 0.80500000000000005,
        0.87, 1, 1, 1},
       {1, 1, 1, 1, 0.797752808988764, 0.61585365853658536, 0.58080808080808077, 0.51602564102564108,
        0.48780487804878048, 0.48780487804878048}},
      {"large",
       GridStrategy::kPessimistic,
       0.24982499999999999,
       0.21952847838789921,
       75.629999999999995,
       72.696750277814303,
       {0.29499999999999998, 0.29499999999999998, 0.36499999999999999, 0.495, 0.64500000000000002,
        0.79500000000000004, 0.84999999999999998, 1, 1, 1},
       {1, 1, 1, 1, 0.84810126582278478, 0.62264150943396224, 0.59042553191489366, 0.51791530944625408,
        0.48999999999999999, 0.48780487804878048}},
      {"large",
       GridStrategy::kInterpolation,
       0.25347166666666665,
       0.21578499602403192,
       75.994666666666674,
       72.32240204142758,
       {0.29499999999999998, 0.30499999999999999, 0.36499999999999999, 0.495, 0.64833333333333343,
        0.80166666666666675, 0.8666666666666667, 1, 1, 1},
       {1, 1, 1, 1, 0.81033992319726911, 0.6192475839852738, 0.58321244358478397, 0.51697047523594764,
        0.48890243902439023, 0.48780487804878048}},
      {"imbalanced",
       GridStrategy::kOptimistic,
       0.19033333333333333,
       0.010164442148839437,
       69.733333333333334,
       51.566611438964209,
       {0.40000000000000002, 0.40000000000000002, 0.46666666666666667, 0.5, 0.59999999999999998,
        0.66666666666666663, 0.73333333333333328, 0.8666666666666667, 1, 1},
       {1, 1, 1, 1, 1, 0.27777777777777779, 0.16666666666666666, 0.11214953271028037, 0.10033444816053512,
        0.10033444816053512}},
      {"imbalanced",
       GridStrategy::kPessimistic,
       0.17900000000000002,
       0.03725338080421798,
       68.599999999999994,
       54.275505304502069,
       {0.40000000000000002, 0.40000000000000002, 0.43333333333333335, 0.5, 0.59999999999999998,
        0.66666666666666663, 0.69999999999999996, 0.8666666666666667, 0.96666666666666667, 1},
       {1, 1, 1, 1, 1, 0.27777777777777779, 0.18279569892473119, 0.11214953271028037, 0.10139860139860139,
        0.10033444816053512}},
      {"imbalanced",
       GridStrategy::kInterpolation,
       0.18501365079365079,
       0.022668674518472719,
       69.201365079365075,
       52.817034675927538,
       {0.40000000000000002, 0.40000000000000002, 0.44083333333333335, 0.5, 0.59999999999999998,
        0.66666666666666663, 0.70600000000000007, 0.8666666666666667, 0.98583333333333323, 1},
       {1, 1, 1, 1, 1, 0.27777777777777779, 0.1811827956989247, 0.11214953271028037, 0.100653694131955,
        0.10033444816053512}},
  };
  return table;
}

// The own areas of the ShapAUC / ShapAUPRC scripts, the same for every strategy:
// np.trapz(tpr - fpr, fpr) over the merged ROC knots, np.trapz(precision - 0.5, recall) over the
// merged PR knots (the peer's area_auc_gain / area_auprc_gain).
struct GoldenArea {
  const char* name;
  double auc_gain;
  double auprc_gain;
};

const std::vector<GoldenArea>& AreaTable() {
  static const std::vector<GoldenArea> table = {
      {"small", 0.27407407407407408, 0.20608676000832865},
      {"large", 0.25347500000000006, 0.21579341455697579},
      {"imbalanced", 0.18506172839506171, 0.022548530100696226},
  };
  return table;
}

TEST(CurveGridThresholds, ReproducesTheAuthorsProcedure) {
  ASSERT_EQ(GoldenTable().size(), 9u);
  for (const Golden& gold : GoldenTable()) {
    const Case c = CaseByName(gold.name);
    const CurveGridEvaluator evaluator(Options(CurveMode::kThresholds, gold.strategy));
    CurveGridScratch scratch;
    CurveGridValues values = evaluator.MakeValues();
    evaluator.Evaluate(c.y, c.p, scratch, values);
    const std::string where = std::string(gold.name) + " " + GridStrategyName(gold.strategy);
    ASSERT_EQ(values.tpr.size(), 101u);
    ASSERT_EQ(values.precision.size(), 101u);
    for (std::size_t k = 0; k < std::size(kCheckPoints); ++k) {
      EXPECT_NEAR(values.tpr[kCheckPoints[k]], gold.tpr_at[k], 1e-12) << where << " fpr " << k;
      EXPECT_NEAR(values.precision[kCheckPoints[k]], gold.precision_at[k], 1e-12) << where << " recall " << k;
    }
    double sum_tpr = 0;
    double sum_precision = 0;
    for (const double v : values.tpr) sum_tpr += v;
    for (const double v : values.precision) sum_precision += v;
    EXPECT_NEAR(sum_tpr, gold.sum_tpr, 1e-12) << where;
    EXPECT_NEAR(sum_precision, gold.sum_precision, 1e-12) << where;
    // The payoffs RetrainGame records: AUC - 0.5 first and AUPRC - b last, the coalition's own
    // areas; the grid payoffs in between integrate to the ShapROC / ShapPRC scripts' areas.
    std::vector<double> payoffs(evaluator.payoff_count());
    evaluator.WritePayoffs(values, 0.5, payoffs);
    const auto area = std::find_if(AreaTable().begin(), AreaTable().end(),
                                   [&](const GoldenArea& a) { return std::string(a.name) == gold.name; });
    ASSERT_NE(area, AreaTable().end());
    EXPECT_NEAR(payoffs.front(), area->auc_gain, 1e-15) << where;
    EXPECT_NEAR(payoffs.back(), area->auprc_gain, 1e-15) << where;
    EXPECT_NEAR(values.auc - 0.5, area->auc_gain, 1e-15) << where;
    EXPECT_NEAR(values.auprc_trapezoid - 0.5, area->auprc_gain, 1e-15) << where;
    const std::span<const double> roc_payoffs(payoffs.data() + 1, 101);
    const std::span<const double> prc_payoffs(payoffs.data() + 102, 101);
    EXPECT_NEAR(GridTrapezoid(evaluator.fpr_grid(), roc_payoffs), gold.grid_auc_gain, 1e-15) << where;
    EXPECT_NEAR(GridTrapezoid(evaluator.recall_grid(), prc_payoffs), gold.grid_auprc_gain, 1e-15) << where;
  }
}

// The areas come from the merged knots, never from the grid readings: bitwise the same for every
// strategy, and the trapezoid over CurveGridScratch::roc() / pr() as written out here.
TEST(CurveGridThresholds, AreasAreTheKnotsTrapezoidForEveryStrategy) {
  for (const Case& c : {SmallCase(), LargeCase(), ImbalancedCase()}) {
    std::vector<double> aucs;
    std::vector<double> auprcs;
    for (const GridStrategy strategy : kStrategies) {
      const CurveGridEvaluator evaluator(Options(CurveMode::kThresholds, strategy));
      CurveGridScratch scratch;
      CurveGridValues values = evaluator.MakeValues();
      evaluator.Evaluate(c.y, c.p, scratch, values);
      aucs.push_back(values.auc);
      auprcs.push_back(values.auprc_trapezoid);
      for (const bool roc : {true, false}) {
        const CurvePoints knots = roc ? scratch.roc() : scratch.pr();
        ASSERT_EQ(knots.x.front(), 0.0);
        ASSERT_EQ(knots.x.back(), 1.0);
        double area = 0.0;
        for (std::size_t k = 1; k < knots.x.size(); ++k)
          area += (knots.x[k] - knots.x[k - 1]) * (knots.y[k] + knots.y[k - 1]) / 2.0;
        EXPECT_NEAR(roc ? values.auc : values.auprc_trapezoid, area, 1e-15) << GridStrategyName(strategy);
      }
    }
    for (std::size_t s = 1; s < aucs.size(); ++s) {
      EXPECT_EQ(aucs[s], aucs[0]);
      EXPECT_EQ(auprcs[s], auprcs[0]);
    }
  }
}

TEST(CurveGrid, GridTrapezoidIsNumpyTrapzOverTheGrid) {
  // trapz([1, 3, 2], x=[0, 0.5, 2]) = 0.5 * 4 / 2 + 1.5 * 5 / 2 = 4.75; one point: 0.
  const std::vector<double> grid = {0.0, 0.5, 2.0};
  const std::vector<double> values = {1.0, 3.0, 2.0};
  EXPECT_EQ(GridTrapezoid(grid, values), 4.75);
  EXPECT_EQ(GridTrapezoid(std::span<const double>(grid).first(1), std::span<const double>(values).first(1)),
            0.0);
  EXPECT_THROW(GridTrapezoid(grid, std::span<const double>(values).first(2)), InvalidArgument);
}

TEST(CurveGridThresholds, MergedCurveIsSortedClosedAndStartsAtOrigin) {
  for (const Case& c : {SmallCase(), LargeCase(), ImbalancedCase()}) {
    const CurveGridEvaluator evaluator(Options(CurveMode::kThresholds, GridStrategy::kOptimistic));
    CurveGridScratch scratch;
    CurveGridValues values = evaluator.MakeValues();
    evaluator.Evaluate(c.y, c.p, scratch, values);
    for (const CurvePoints points : {scratch.roc(), scratch.pr()}) {
      ASSERT_GE(points.x.size(), 2u);
      EXPECT_EQ(points.x.front(), 0.0);
      EXPECT_EQ(points.x.back(), 1.0);
      for (std::size_t k = 1; k < points.x.size(); ++k) EXPECT_LT(points.x[k - 1], points.x[k]);
    }
    // At x = 0 the merge keeps the largest y: the TPR reached before the first false positive
    // (t = 1 contributes (0, 0)), and precision 1 (t = 1: no positive prediction, precision := 1).
    const Curve exact_roc = RocCurve(c.y, c.p);
    double tpr_at_zero = 0;
    for (std::size_t k = 0; k < exact_roc.x.size() && exact_roc.x[k] == 0.0; ++k) {
      tpr_at_zero = exact_roc.y[k];
    }
    EXPECT_LE(scratch.roc().y.front(), tpr_at_zero);
    EXPECT_EQ(scratch.pr().y.front(), 1.0);
  }
}

TEST(CurveGridThresholds, ZeroProbabilitiesCloseTheCurveWithAllPositivePoint) {
  // The negative at p = 0 is never predicted positive: FPR stops at 1/2, the scripts would fail
  // at g = 1; the curve is closed at (1, 1), and PR at (1, prevalence) is not needed (recall 1
  // is reached at t = 0 by p = 0.9).
  const std::vector<double> y = {1, 0, 0};
  const std::vector<double> p = {0.9, 0.0, 0.5};
  const CurveGridEvaluator evaluator(Options(CurveMode::kThresholds, GridStrategy::kPessimistic));
  CurveGridScratch scratch;
  CurveGridValues values = evaluator.MakeValues();
  evaluator.Evaluate(y, p, scratch, values);
  const CurvePoints roc = scratch.roc();
  ASSERT_EQ(roc.x.size(), 3u);  // (0, 1) with x 0 merged over (0, 0), (1/2, 1), (1, 1)
  EXPECT_EQ(roc.y.front(), 1.0);
  EXPECT_EQ(roc.x[1], 0.5);
  EXPECT_EQ(roc.x[2], 1.0);
  EXPECT_EQ(values.tpr.back(), 1.0);
  // A positive at p = 0: recall stops at 1/2; closed at (1, prevalence = 2/3).
  const std::vector<double> y2 = {1, 1, 0};
  const std::vector<double> p2 = {0.9, 0.0, 0.5};
  evaluator.Evaluate(y2, p2, scratch, values);
  EXPECT_EQ(scratch.pr().x.back(), 1.0);
  EXPECT_EQ(scratch.pr().y.back(), 2.0 / 3.0);
}

TEST(CurveGridThresholds, ProbabilityOnAThresholdIsNotAbove) {
  // A positive at p = 35 * 0.01 (= t_35) and a negative at 0.35 (< t_35): both are positive at
  // t_34 and neither at t_35 (p > t, strict), so the ROC goes (0, 1/2) -> (1/2, 1). With p >= t
  // the positive would count at t_35 alone and the curve would start at (0, 1).
  const std::vector<double> y = {1, 1, 0, 0};
  const std::vector<double> p = {0.35000000000000003, 0.9, 0.35, 0.0};
  const CurveGridEvaluator evaluator(Options(CurveMode::kThresholds, GridStrategy::kPessimistic));
  CurveGridScratch scratch;
  CurveGridValues values = evaluator.MakeValues();
  evaluator.Evaluate(y, p, scratch, values);
  const CurvePoints roc = scratch.roc();
  ASSERT_EQ(roc.x.size(), 3u);
  EXPECT_EQ(roc.x[0], 0.0);
  EXPECT_EQ(roc.y[0], 0.5);
  EXPECT_EQ(roc.x[1], 0.5);
  EXPECT_EQ(roc.y[1], 1.0);
  EXPECT_EQ(roc.x[2], 1.0);  // closed: the negative at p = 0 is never positive
}

// ---- options, payoffs, scratch ---------------------------------------------------------------
TEST(CurveGrid, ParsesAndNamesCurvePointsAndStrategies) {
  CurveGridOptions o;
  ParseCurvePoints("thresholds:101", o);
  EXPECT_EQ(o.mode, CurveMode::kThresholds);
  EXPECT_EQ(o.thresholds, 101);
  EXPECT_EQ(CurvePointsName(o), "thresholds:101");
  ParseCurvePoints("thresholds:51", o);
  EXPECT_EQ(o.thresholds, 51);
  ParseCurvePoints("thresholds", o);
  EXPECT_EQ(o.thresholds, 101);
  ParseCurvePoints("exact", o);
  EXPECT_EQ(o.mode, CurveMode::kExact);
  EXPECT_EQ(CurvePointsName(o), "exact");
  for (const char* bad :
       {"", "exact:3", "thresholds:", "thresholds:1", "thresholds:10x", "thresholds101", "Exact"}) {
    EXPECT_THROW(ParseCurvePoints(bad, o), InvalidArgument) << bad;
  }
  for (const GridStrategy s : kStrategies) EXPECT_EQ(ParseGridStrategy(GridStrategyName(s)), s);
  EXPECT_THROW(ParseGridStrategy("median"), InvalidArgument);
}

TEST(CurveGrid, RejectsBadGridsAndInputs) {
  CurveGridOptions o;
  o.fpr_grid = {0.0, 0.5, 0.5};
  EXPECT_THROW(CurveGridEvaluator{o}, InvalidArgument);
  o.fpr_grid = {0.0, 1.5};
  EXPECT_THROW(CurveGridEvaluator{o}, InvalidArgument);
  o.fpr_grid = {std::nan("")};
  EXPECT_THROW(CurveGridEvaluator{o}, InvalidArgument);
  o = CurveGridOptions{};
  o.mode = CurveMode::kThresholds;
  o.thresholds = 1;
  EXPECT_THROW(CurveGridEvaluator{o}, InvalidArgument);

  for (const CurveMode mode : {CurveMode::kExact, CurveMode::kThresholds}) {
    const CurveGridEvaluator evaluator(Options(mode, GridStrategy::kInterpolation));
    CurveGridScratch scratch;
    CurveGridValues values = evaluator.MakeValues();
    const std::vector<double> one_class = {1, 1, 1};
    const std::vector<double> p3 = {0.2, 0.4, 0.6};
    EXPECT_THROW(evaluator.Evaluate(one_class, p3, scratch, values), InvalidArgument);
    const std::vector<double> bad_label = {1, 0, 2};
    EXPECT_THROW(evaluator.Evaluate(bad_label, p3, scratch, values), InvalidArgument);
    const std::vector<double> y3 = {1, 0, 1};
    const std::vector<double> p2 = {0.2, 0.4};
    EXPECT_THROW(evaluator.Evaluate(y3, p2, scratch, values), InvalidArgument);
    const std::vector<double> nan_score = {0.2, std::nan(""), 0.6};
    EXPECT_THROW(evaluator.Evaluate(y3, nan_score, scratch, values), InvalidArgument);
    const std::vector<double> empty;
    EXPECT_THROW(evaluator.Evaluate(empty, empty, scratch, values), InvalidArgument);
  }
  // Thresholds need probabilities; exact takes any real score.
  const std::vector<double> y = {1, 0, 1};
  const std::vector<double> logits = {2.5, -1.0, 0.3};
  CurveGridScratch scratch;
  const CurveGridEvaluator thresholds(Options(CurveMode::kThresholds, GridStrategy::kOptimistic));
  CurveGridValues values = thresholds.MakeValues();
  try {
    thresholds.Evaluate(y, logits, scratch, values);
    ADD_FAILURE() << "no error for a score outside [0, 1]";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("score[0] = 2.5"), std::string::npos) << e.what();
  }
  const CurveGridEvaluator exact(Options(CurveMode::kExact, GridStrategy::kOptimistic));
  values = exact.MakeValues();
  EXPECT_NO_THROW(exact.Evaluate(y, logits, scratch, values));
}

TEST(CurveGrid, PayoffsFollowTheDocumentedLayout) {
  const Case c = ImbalancedCase();
  for (const CurveMode mode : {CurveMode::kExact, CurveMode::kThresholds}) {
    for (const AuprcDefinition auprc : {AuprcDefinition::kAveragePrecision, AuprcDefinition::kTrapezoid}) {
      CurveGridOptions o = Options(mode, GridStrategy::kInterpolation);
      o.auprc = auprc;
      o.recall_grid = {0.0, 0.5, 1.0};
      const CurveGridEvaluator evaluator(o);
      ASSERT_EQ(evaluator.payoff_count(), 2u + 101u + 3u);
      CurveGridScratch scratch;
      CurveGridValues values = evaluator.MakeValues();
      evaluator.Evaluate(c.y, c.p, scratch, values);
      const double b = 0.1;  // the prevalence of ImbalancedCase
      std::vector<double> out(evaluator.payoff_count());
      evaluator.WritePayoffs(values, b, out);
      EXPECT_EQ(out[0], values.auc - 0.5);
      for (std::size_t j = 0; j < 101; ++j) {
        EXPECT_EQ(out[1 + j], values.tpr[j] - evaluator.fpr_grid()[j]);
      }
      for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(out[102 + j], values.precision[j] - b);
      const double area = mode == CurveMode::kExact && auprc == AuprcDefinition::kAveragePrecision
                              ? values.average_precision
                              : values.auprc_trapezoid;
      EXPECT_EQ(out.back(), area - b);
      // The empty coalition: every payoff 0.
      evaluator.WritePayoffs(evaluator.RandomClassifier(b), b, out);
      for (const double v : out) EXPECT_EQ(v, 0.0);
      std::vector<double> wrong(3);
      EXPECT_THROW(evaluator.WritePayoffs(values, b, wrong), InvalidArgument);
    }
  }
}

TEST(CurveGrid, ReusedScratchAllocatesNothingAndRepeatsBitwise) {
  const Case large = LargeCase();
  const Case small = SmallCase();
  for (const CurveMode mode : {CurveMode::kExact, CurveMode::kThresholds}) {
    const CurveGridEvaluator evaluator(Options(mode, GridStrategy::kInterpolation));
    CurveGridScratch scratch;
    scratch.Reserve(large.y.size());
    CurveGridValues first = evaluator.MakeValues();
    evaluator.Evaluate(large.y, large.p, scratch, first);
    const double* roc_x = scratch.roc().x.data();
    const double* pr_y = scratch.pr().y.data();
    const double* tpr = first.tpr.data();
    CurveGridValues again = evaluator.MakeValues();
    const double* again_tpr = again.tpr.data();
    evaluator.Evaluate(small.y, small.p, scratch, again);  // a smaller sample in between
    evaluator.Evaluate(large.y, large.p, scratch, again);
    // Same buffers (no reallocation) and the same bits.
    EXPECT_EQ(scratch.roc().x.data(), roc_x);
    EXPECT_EQ(scratch.pr().y.data(), pr_y);
    EXPECT_EQ(first.tpr.data(), tpr);
    EXPECT_EQ(again.tpr.data(), again_tpr);
    EXPECT_EQ(again.tpr, first.tpr);
    EXPECT_EQ(again.precision, first.precision);
    EXPECT_EQ(again.auc, first.auc);
    EXPECT_EQ(again.average_precision, first.average_precision);
    EXPECT_EQ(again.auprc_trapezoid, first.auprc_trapezoid);
  }
}

TEST(CurveGrid, ExactAndThresholdModesAgreeOnCoarseProbabilities) {
  // With probabilities on a 1/130 lattice the threshold curve is a subset of the exact points,
  // so areas differ by at most the trapezoid error of skipped points: a sanity bound.
  const Case c = LargeCase();
  const CurveGridEvaluator exact(Options(CurveMode::kExact, GridStrategy::kInterpolation));
  const CurveGridEvaluator thresholds(Options(CurveMode::kThresholds, GridStrategy::kInterpolation));
  CurveGridScratch scratch;
  CurveGridValues a = exact.MakeValues();
  CurveGridValues b = thresholds.MakeValues();
  exact.Evaluate(c.y, c.p, scratch, a);
  thresholds.Evaluate(c.y, c.p, scratch, b);
  EXPECT_NEAR(a.auc, b.auc, 0.02);
  EXPECT_NEAR(a.auprc_trapezoid, b.auprc_trapezoid, 0.02);
}

}  // namespace
}}  // namespace perfshap
