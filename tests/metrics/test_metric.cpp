// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// Golden numbers come from scikit-learn 1.2.1 (Debian python3-sklearn, numpy 1.24.2), printed
// with '%.17g'; each carries the exact call that produced it. The Python names y1, s1, yhat1,
// y2, s2, yr, pr are the vectors kY1, kS1, ... below; yl, sl, yhatl, yrl, prl are the
// m = 1000 vectors of LargeCase(), built by the same integer formulas in both languages:
//   M = 1000
//   yl    = [1.0 if (i*7) % 5 < 2 else 0.0 for i in range(M)]
//   sl    = [((i*7919) % 101 + 30*int(yl[i])) / 130.0 for i in range(M)]  # 131 levels: ties
//   yhatl = [1.0 if s >= 0.5 else 0.0 for s in sl]
//   yrl   = [((i*37) % 113) / 7.0 for i in range(M)]
//   prl   = [yrl[i] + ((i*53) % 29 - 14) / 10.0 for i in range(M)]
// (integer arithmetic and one IEEE division or addition per value, so both sides agree bit
// for bit). Imports: from sklearn.metrics import roc_auc_score, roc_curve,
// precision_recall_curve, average_precision_score, auc, accuracy_score,
// balanced_accuracy_score, recall_score, precision_score, f1_score, brier_score_loss,
// log_loss, mean_squared_error, mean_absolute_error, r2_score.
#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/blocks/metric.hpp"

namespace perfshap { inline namespace v0 {
namespace {

constexpr double kTol = 1e-12;
constexpr double kInf = std::numeric_limits<double>::infinity();

// kY1/kS1: m = 24, 7 positives; tied blocks spanning both classes at 0.85, 0.64, 0.55 and
// 0.05, and same-class ties at 0.70, 0.33, 0.21. kY2/kS2: m = 32, 6 positives, negative
// scores, -0.0 tied with 0.0, and full recall reached at 0.5 with 10 thresholds below it.
// kYr/kPr: regression targets and predictions, m = 30 (numpy default_rng(7), 3 decimals).
const std::vector<double> kY1 = {
    1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0,
    1.0, 0.0, 0.0, 0.0, 1.0, 0.0
};
const std::vector<double> kS1 = {
    0.91000000000000003, 0.84999999999999998, 0.84999999999999998, 0.84999999999999998,
    0.71999999999999997, 0.69999999999999996, 0.69999999999999996, 0.64000000000000001,
    0.64000000000000001, 0.55000000000000004, 0.55000000000000004, 0.55000000000000004,
    0.40000000000000002, 0.33000000000000002, 0.33000000000000002, 0.29999999999999999,
    0.20999999999999999, 0.20999999999999999, 0.90000000000000002, 0.050000000000000003,
    0.050000000000000003, 0.12, 0.050000000000000003, 0.98999999999999999
};
const std::vector<double> kYhat1 = {
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    1.0, 0.0, 0.0, 0.0, 0.0, 1.0
};
const std::vector<double> kY2 = {
    0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0,
    0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
};
const std::vector<double> kS2 = {
    2.5, 3.0, -1.25, 0.0, 1.5, -0.0, 1.5, 0.75, 2.0, -3.5, 1.5, 0.25, -0.5, 2.0, 0.75, 4.0,
    -2.0, 0.25, -1.25, 1.0, 0.0, -0.75, 1.25, -1.0, 0.5, -0.0, 0.5, -2.5, 1.75, 0.0, -1.5, 2.25
};
const std::vector<double> kYr = {
    3.0019999999999998, 3.597, 2.452, 1.2190000000000001, 2.0910000000000002,
    1.0169999999999999, 3.1200000000000001, 5.6799999999999997, 2.016, 1.7589999999999999, 3.98,
    3.714, 3.2109999999999999, 1.139, 2.9409999999999998, 4.391, 0.312, 2.085,
    -0.80200000000000005, 0.42099999999999999, -0.68300000000000005, 2.5299999999999998,
    0.46500000000000002, 3.5430000000000001, 3.3140000000000001, 2.6259999999999999,
    -2.0339999999999998, 1.923, 2.903, 3.2269999999999999
};
const std::vector<double> kPr = {
    1.978, 3.415, 1.869, 0.77200000000000002, 3.1400000000000001, 0.57099999999999995, 3.294,
    6.5880000000000001, 1.7490000000000001, 1.8700000000000001, 4.2679999999999998,
    3.9649999999999999, 2.431, 1.3999999999999999, 4.2279999999999998, 3.3530000000000002, 1.2,
    2.3799999999999999, -1.115, 2.2210000000000001, 0.127, 1.7709999999999999,
    0.72499999999999998, 4.2039999999999997, 3.363, 3.3719999999999999, -1.887, 2.657,
    4.2539999999999996, 2.8860000000000001
};
// roc_auc_score(y1, s1)
constexpr double kRocAuc1 = 0.60924369747899154;
// average_precision_score(y1, s1)
constexpr double kAp1 = 0.43034941249226966;
// auc(*precision_recall_curve(y1, s1)[1::-1])
constexpr double kAuprc1 = 0.38970815598966851;
// roc_auc_score(y2, s2)
constexpr double kRocAuc2 = 0.81730769230769229;
// average_precision_score(y2, s2)
constexpr double kAp2 = 0.44861111111111113;
// auc(*precision_recall_curve(y2, s2)[1::-1])
constexpr double kAuprc2 = 0.36175144300144302;
// roc_auc_score(yl, sl)
constexpr double kRocAucLarge = 0.75336666666666663;
// average_precision_score(yl, sl)
constexpr double kApLarge = 0.71308578377020915;
// auc(*precision_recall_curve(yl, sl)[1::-1])
constexpr double kAuprcLarge = 0.71564051099363424;
// roc_auc_score([1, 0, 0, 1], [0.0, -0.0, 0.5, -1.0])
constexpr double kRocAucSignedZero = 0.125;
// accuracy_score(y1, yhat1)
constexpr double kAccuracy1 = 0.54166666666666663;
// balanced_accuracy_score(y1, yhat1)
constexpr double kBalancedAccuracy1 = 0.59243697478991597;
// recall_score(y1, yhat1, zero_division=0)
constexpr double kSensitivity1 = 0.7142857142857143;
// recall_score(y1, yhat1, pos_label=0, zero_division=0)
constexpr double kSpecificity1 = 0.47058823529411764;
// precision_score(y1, yhat1, zero_division=0)
constexpr double kPrecision1 = 0.35714285714285715;
// f1_score(y1, yhat1, zero_division=0)
constexpr double kF11 = 0.47619047619047622;
// accuracy_score(yl, yhatl)
constexpr double kAccuracyLarge = 0.64800000000000002;
// balanced_accuracy_score(yl, yhatl)
constexpr double kBalancedAccuracyLarge = 0.64916666666666667;
// recall_score(yl, yhatl, zero_division=0)
constexpr double kSensitivityLarge = 0.65500000000000003;
// recall_score(yl, yhatl, pos_label=0, zero_division=0)
constexpr double kSpecificityLarge = 0.64333333333333331;
// precision_score(yl, yhatl, zero_division=0)
constexpr double kPrecisionLarge = 0.55042016806722693;
// f1_score(yl, yhatl, zero_division=0)
constexpr double kF1Large = 0.59817351598173518;
// balanced_accuracy_score([1, 1, 1, 1], [1, 0, 1, 1])
constexpr double kBalancedAccuracyOneClass = 0.75;
// brier_score_loss(y1, s1)
constexpr double kBrier1 = 0.29952916666666668;
// log_loss(y1, s1)
constexpr double kLogLoss1 = 0.92994386543209639;
// brier_score_loss(yl, sl)
constexpr double kBrierLarge = 0.19812538461538462;
// log_loss(yl, sl)
constexpr double kLogLossLarge = 0.56171282223387131;
// log_loss([1, 0, 1, 0, 1, 0], [0.0, 1.0, 1.0, 0.0, 0.3, 1e-17])
constexpr double kLogLossClipped = 12.215213263760042;
// mean_squared_error(yr, pr)
constexpr double kMseR = 0.54754493333333321;
// mean_absolute_error(yr, pr)
constexpr double kMaeR = 0.60833333333333328;
// mean_squared_error(yr, pr, squared=False)
constexpr double kRmseR = 0.73996279185735625;
// r2_score(yr, pr)
constexpr double kR2R = 0.79749454045394585;
// mean_squared_error(yrl, prl)
constexpr double kMseLarge = 0.70150000000000001;
// mean_absolute_error(yrl, prl)
constexpr double kMaeLarge = 0.72499999999999998;
// mean_squared_error(yrl, prl, squared=False)
constexpr double kRmseLarge = 0.83755596827913537;
// r2_score(yrl, prl)
constexpr double kR2Large = 0.96771727202423719;
// r2_score([0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5])
constexpr double kR2ConstantPerfect = 1.0;
// r2_score([0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.625, 0.5])
constexpr double kR2ConstantImperfect = 0.0;
// fpr, tpr, thr = roc_curve(kY1, kS1, drop_intermediate=False); thr[0] is +inf here (sklearn
// 1.2.1 gives max(score) + 1 = 1.99)
const std::vector<double> kRocFpr1 = {
    0.0, 0.058823529411764705, 0.058823529411764705, 0.058823529411764705, 0.17647058823529413,
    0.23529411764705882, 0.35294117647058826, 0.41176470588235292, 0.52941176470588236,
    0.58823529411764708, 0.70588235294117652, 0.70588235294117652, 0.82352941176470584,
    0.88235294117647056, 1.0
};
const std::vector<double> kRocTpr1 = {
    0.0, 0.0, 0.14285714285714285, 0.2857142857142857, 0.42857142857142855, 0.42857142857142855,
    0.42857142857142855, 0.5714285714285714, 0.7142857142857143, 0.7142857142857143,
    0.7142857142857143, 0.8571428571428571, 0.8571428571428571, 0.8571428571428571, 1.0
};
const std::vector<double> kRocThr1 = {
    kInf, 0.98999999999999999, 0.91000000000000003, 0.90000000000000002, 0.84999999999999998,
    0.71999999999999997, 0.69999999999999996, 0.64000000000000001, 0.55000000000000004,
    0.40000000000000002, 0.33000000000000002, 0.29999999999999999, 0.20999999999999999, 0.12,
    0.050000000000000003
};
// p, r, t = precision_recall_curve(kY1, kS1), reversed (r[::-1], p[::-1], [+inf] + t[::-1])
const std::vector<double> kPrRecall1 = {
    0.0, 0.0, 0.14285714285714285, 0.2857142857142857, 0.42857142857142855, 0.42857142857142855,
    0.42857142857142855, 0.5714285714285714, 0.7142857142857143, 0.7142857142857143,
    0.7142857142857143, 0.8571428571428571, 0.8571428571428571, 0.8571428571428571, 1.0
};
const std::vector<double> kPrPrecision1 = {
    1.0, 0.0, 0.5, 0.66666666666666663, 0.5, 0.42857142857142855, 0.33333333333333331,
    0.36363636363636365, 0.35714285714285715, 0.33333333333333331, 0.29411764705882354,
    0.33333333333333331, 0.29999999999999999, 0.2857142857142857, 0.29166666666666669
};
const std::vector<double> kPrThr1 = {
    kInf, 0.98999999999999999, 0.91000000000000003, 0.90000000000000002, 0.84999999999999998,
    0.71999999999999997, 0.69999999999999996, 0.64000000000000001, 0.55000000000000004,
    0.40000000000000002, 0.33000000000000002, 0.29999999999999999, 0.20999999999999999, 0.12,
    0.050000000000000003
};
// fpr, tpr, thr = roc_curve(kY2, kS2, drop_intermediate=False); thr[0] is +inf here (sklearn
// 1.2.1 gives max(score) + 1 = 5.0)
const std::vector<double> kRocFpr2 = {
    0.0, 0.038461538461538464, 0.038461538461538464, 0.076923076923076927, 0.11538461538461539,
    0.11538461538461539, 0.15384615384615385, 0.23076923076923078, 0.26923076923076922,
    0.26923076923076922, 0.34615384615384615, 0.38461538461538464, 0.46153846153846156,
    0.65384615384615385, 0.69230769230769229, 0.73076923076923073, 0.76923076923076927,
    0.84615384615384615, 0.88461538461538458, 0.92307692307692313, 0.96153846153846156, 1.0
};
const std::vector<double> kRocTpr2 = {
    0.0, 0.0, 0.16666666666666666, 0.16666666666666666, 0.16666666666666666, 0.5, 0.5,
    0.66666666666666663, 0.66666666666666663, 0.83333333333333337, 0.83333333333333337, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
};
const std::vector<double> kRocThr2 = {
    kInf, 4.0, 3.0, 2.5, 2.25, 2.0, 1.75, 1.5, 1.25, 1.0, 0.75, 0.5, 0.25, 0.0, -0.5, -0.75,
    -1.0, -1.25, -1.5, -2.0, -2.5, -3.5
};
// p, r, t = precision_recall_curve(kY2, kS2), reversed (r[::-1], p[::-1], [+inf] + t[::-1])
const std::vector<double> kPrRecall2 = {
    0.0, 0.0, 0.16666666666666666, 0.16666666666666666, 0.16666666666666666, 0.5, 0.5,
    0.66666666666666663, 0.66666666666666663, 0.83333333333333337, 0.83333333333333337, 1.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0
};
const std::vector<double> kPrPrecision2 = {
    1.0, 0.0, 0.5, 0.33333333333333331, 0.25, 0.5, 0.42857142857142855, 0.40000000000000002,
    0.36363636363636365, 0.41666666666666669, 0.35714285714285715, 0.375, 0.33333333333333331,
    0.2608695652173913, 0.25, 0.23999999999999999, 0.23076923076923078, 0.21428571428571427,
    0.20689655172413793, 0.20000000000000001, 0.19354838709677419, 0.1875
};
const std::vector<double> kPrThr2 = {
    kInf, 4.0, 3.0, 2.5, 2.25, 2.0, 1.75, 1.5, 1.25, 1.0, 0.75, 0.5, 0.25, 0.0, -0.5, -0.75,
    -1.0, -1.25, -1.5, -2.0, -2.5, -3.5
};

struct LargeCase {
  std::vector<double> y;
  std::vector<double> score;
  std::vector<double> yhat;
  std::vector<double> y_reg;
  std::vector<double> pred_reg;
};

// The m = 1000 vectors of the header comment, same formulas as the Python.
LargeCase MakeLargeCase() {
  constexpr int kM = 1000;
  LargeCase c;
  for (int i = 0; i < kM; ++i) {
    const int label = (i * 7) % 5 < 2 ? 1 : 0;
    const double score = static_cast<double>((i * 7919) % 101 + 30 * label) / 130.0;
    c.y.push_back(static_cast<double>(label));
    c.score.push_back(score);
    c.yhat.push_back(score >= 0.5 ? 1.0 : 0.0);
    const double y_reg = static_cast<double>((i * 37) % 113) / 7.0;
    c.y_reg.push_back(y_reg);
    c.pred_reg.push_back(y_reg + static_cast<double>((i * 53) % 29 - 14) / 10.0);
  }
  return c;
}

const LargeCase& Large() {
  static const LargeCase kCase = MakeLargeCase();
  return kCase;
}

void ExpectCurveNear(const Curve& curve, const std::vector<double>& x,
                     const std::vector<double>& y, const std::vector<double>& thresholds) {
  ASSERT_EQ(curve.x.size(), x.size());
  ASSERT_EQ(curve.y.size(), y.size());
  ASSERT_EQ(curve.thresholds.size(), thresholds.size());
  for (std::size_t k = 0; k < x.size(); ++k) {
    EXPECT_NEAR(curve.x[k], x[k], kTol) << "point " << k;
    EXPECT_NEAR(curve.y[k], y[k], kTol) << "point " << k;
    // Thresholds are input scores (or +inf), so they match exactly.
    EXPECT_EQ(curve.thresholds[k], thresholds[k]) << "point " << k;
  }
}

// Runs f and returns the InvalidArgument message, or fails when nothing is thrown.
std::string InvalidArgumentMessage(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected perfshap::InvalidArgument";
  return {};
}

using Metric = double (*)(std::span<const double>, std::span<const double>);

// --- AUC -----------------------------------------------------------------------------------

TEST(Metric, RocAucMatchesSklearnWithTiedBlocksAcrossClasses) {
  EXPECT_NEAR(RocAuc(kY1, kS1), kRocAuc1, kTol);
}

TEST(Metric, RocAucMatchesSklearnWithNegativeScoresAndSignedZeros) {
  EXPECT_NEAR(RocAuc(kY2, kS2), kRocAuc2, kTol);
}

TEST(Metric, RocAucTreatsMinusZeroAndZeroAsATie) {
  const std::vector<double> y = {1, 0, 0, 1};
  const std::vector<double> s = {0.0, -0.0, 0.5, -1.0};
  EXPECT_NEAR(RocAuc(y, s), kRocAucSignedZero, kTol);
}

TEST(Metric, RocAucMatchesSklearnOnLargeFormulaVector) {
  EXPECT_NEAR(RocAuc(Large().y, Large().score), kRocAucLarge, kTol);
}

TEST(Metric, RocAucCountsAllTiesOneHalf) {
  // Every pair tied: AUC = 1/2 exactly; a perfect and a reversed ranking give 1 and 0.
  const std::vector<double> y = {0, 1, 1, 0, 1};
  EXPECT_EQ(RocAuc(y, std::vector<double>{0.3, 0.3, 0.3, 0.3, 0.3}), 0.5);
  EXPECT_EQ(RocAuc(y, std::vector<double>{0.1, 0.8, 0.9, 0.2, 0.7}), 1.0);
  EXPECT_EQ(RocAuc(y, std::vector<double>{0.9, 0.2, 0.1, 0.8, 0.3}), 0.0);
  EXPECT_EQ(RocAuc(y, std::vector<double>{-kInf, 0.0, kInf, -kInf, 1.0}), 1.0);
}

TEST(Metric, RocAucScratchOverloadEqualsPlainAndKeepsItsBuffer) {
  std::vector<std::size_t> scratch;
  scratch.reserve(Large().y.size());
  const std::size_t* const buffer = scratch.data();
  // Largest first, then smaller inputs: the same buffer serves every call.
  EXPECT_EQ(RocAuc(Large().y, Large().score, scratch), RocAuc(Large().y, Large().score));
  EXPECT_EQ(RocAuc(kY2, kS2, scratch), RocAuc(kY2, kS2));
  EXPECT_EQ(RocAuc(kY1, kS1, scratch), RocAuc(kY1, kS1));
  EXPECT_EQ(RocAuc(Large().y, Large().score, scratch), RocAuc(Large().y, Large().score));
  EXPECT_EQ(scratch.data(), buffer);
  EXPECT_EQ(scratch.capacity(), Large().y.size());
}

TEST(Metric, RocAucThrowsOnOneClass) {
  const std::vector<double> zeros = {0, 0, 0};
  const std::vector<double> ones = {1, 1, 1};
  const std::vector<double> s = {0.1, 0.5, 0.9};
  for (const auto* y : {&zeros, &ones}) {
    const std::string msg = InvalidArgumentMessage([&] { RocAuc(*y, s); });
    EXPECT_NE(msg.find("AUC is undefined: y_true has only one class"), std::string::npos) << msg;
    std::vector<std::size_t> scratch;
    EXPECT_THROW(RocAuc(*y, s, scratch), InvalidArgument);
  }
}

TEST(Metric, RocAucThrowsOnLengthMismatchAndEmptyInput) {
  const std::vector<double> y = {0, 1, 1};
  const std::vector<double> s = {0.2, 0.4};
  const std::string msg = InvalidArgumentMessage([&] { RocAuc(y, s); });
  EXPECT_NE(msg.find("y_true has 3 elements but score has 2"), std::string::npos) << msg;
  const std::vector<double> empty;
  EXPECT_THROW(RocAuc(empty, empty), InvalidArgument);
  std::vector<std::size_t> scratch;
  EXPECT_THROW(RocAuc(y, s, scratch), InvalidArgument);
  EXPECT_THROW(RocAuc(empty, empty, scratch), InvalidArgument);
}

TEST(Metric, RocAucThrowsOnNonBinaryLabelAndNanScore) {
  const std::vector<double> s = {0.2, 0.4, 0.6};
  const std::string msg =
      InvalidArgumentMessage([&] { RocAuc(std::vector<double>{0, 2, 1}, s); });
  EXPECT_NE(msg.find("y_true[1] = 2 is not a binary label"), std::string::npos) << msg;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(RocAuc(std::vector<double>{0, 1, 1}, std::vector<double>{0.1, nan, 0.3}),
               InvalidArgument);
  EXPECT_THROW(AveragePrecision(std::vector<double>{0, 1, 1}, std::vector<double>{0.1, nan, 0.3}),
               InvalidArgument);
}

// --- Curves ---------------------------------------------------------------------------------

TEST(Metric, RocCurveMatchesSklearnPointByPoint) {
  ExpectCurveNear(RocCurve(kY1, kS1), kRocFpr1, kRocTpr1, kRocThr1);
  ExpectCurveNear(RocCurve(kY2, kS2), kRocFpr2, kRocTpr2, kRocThr2);
}

TEST(Metric, PrCurveMatchesSklearnPointByPoint) {
  ExpectCurveNear(PrCurve(kY1, kS1), kPrRecall1, kPrPrecision1, kPrThr1);
}

TEST(Metric, PrCurveKeepsThresholdsBelowFullRecallAsSklearn) {
  // kY2 reaches full recall at threshold 0.5; sklearn 1.2.1 keeps the 10 lower thresholds.
  const Curve curve = PrCurve(kY2, kS2);
  ExpectCurveNear(curve, kPrRecall2, kPrPrecision2, kPrThr2);
  EXPECT_EQ(curve.x.size(), 22U);
  EXPECT_EQ(curve.x[11], 1.0);
  EXPECT_EQ(curve.thresholds[11], 0.5);
}

TEST(Metric, CurvesThrowWhereUndefined) {
  const std::vector<double> s = {0.1, 0.5, 0.9};
  EXPECT_THROW(RocCurve(std::vector<double>{1, 1, 1}, s), InvalidArgument);
  EXPECT_THROW(RocCurve(std::vector<double>{0, 0, 0}, s), InvalidArgument);
  EXPECT_THROW(PrCurve(std::vector<double>{0, 0, 0}, s), InvalidArgument);
  EXPECT_THROW(RocCurve(std::vector<double>{0, 1}, s), InvalidArgument);
  EXPECT_THROW(PrCurve(std::vector<double>{}, std::vector<double>{}), InvalidArgument);
  // All positives: recall and precision are defined (precision 1 everywhere).
  const Curve pr = PrCurve(std::vector<double>{1, 1, 1}, s);
  ASSERT_EQ(pr.y.size(), 4U);
  for (const double p : pr.y) EXPECT_EQ(p, 1.0);
}

// --- Areas under the PR curve ----------------------------------------------------------------

TEST(Metric, AveragePrecisionMatchesSklearn) {
  EXPECT_NEAR(AveragePrecision(kY1, kS1), kAp1, kTol);
  EXPECT_NEAR(AveragePrecision(kY2, kS2), kAp2, kTol);
  EXPECT_NEAR(AveragePrecision(Large().y, Large().score), kApLarge, kTol);
}

TEST(Metric, AuprcTrapezoidMatchesSklearn) {
  EXPECT_NEAR(AuprcTrapezoid(kY1, kS1), kAuprc1, kTol);
  EXPECT_NEAR(AuprcTrapezoid(kY2, kS2), kAuprc2, kTol);
  EXPECT_NEAR(AuprcTrapezoid(Large().y, Large().score), kAuprcLarge, kTol);
}

TEST(Metric, PrAreasThrowWithoutPositivesAndAcceptAllPositives) {
  const std::vector<double> s = {0.1, 0.5, 0.9};
  for (const Metric metric : {Metric{&AveragePrecision}, Metric{&AuprcTrapezoid}}) {
    const std::string msg =
        InvalidArgumentMessage([&] { metric(std::vector<double>{0, 0, 0}, s); });
    EXPECT_NE(msg.find("no positive"), std::string::npos) << msg;
    EXPECT_THROW(metric(std::vector<double>{0, 1}, s), InvalidArgument);
    EXPECT_THROW(metric(std::vector<double>{}, std::vector<double>{}), InvalidArgument);
  }
  // sklearn: average_precision_score([1, 1, 1], [0.1, 0.5, 0.9]) == 1.0
  EXPECT_EQ(AveragePrecision(std::vector<double>{1, 1, 1}, s), 1.0);
  EXPECT_EQ(AuprcTrapezoid(std::vector<double>{1, 1, 1}, s), 1.0);
}

// --- Class metrics ---------------------------------------------------------------------------

TEST(Metric, ConfusionCountsCountsEachCell) {
  const Confusion c = ConfusionCounts(kY1, kYhat1);
  EXPECT_EQ(c.tp, 5.0);
  EXPECT_EQ(c.fn, 2.0);
  EXPECT_EQ(c.fp, 9.0);
  EXPECT_EQ(c.tn, 8.0);
}

TEST(Metric, ClassMetricsMatchSklearn) {
  EXPECT_NEAR(Accuracy(kY1, kYhat1), kAccuracy1, kTol);
  EXPECT_NEAR(BalancedAccuracy(kY1, kYhat1), kBalancedAccuracy1, kTol);
  EXPECT_NEAR(Sensitivity(kY1, kYhat1), kSensitivity1, kTol);
  EXPECT_NEAR(Specificity(kY1, kYhat1), kSpecificity1, kTol);
  EXPECT_NEAR(Precision(kY1, kYhat1), kPrecision1, kTol);
  EXPECT_NEAR(F1(kY1, kYhat1), kF11, kTol);
  const LargeCase& l = Large();
  EXPECT_NEAR(Accuracy(l.y, l.yhat), kAccuracyLarge, kTol);
  EXPECT_NEAR(BalancedAccuracy(l.y, l.yhat), kBalancedAccuracyLarge, kTol);
  EXPECT_NEAR(Sensitivity(l.y, l.yhat), kSensitivityLarge, kTol);
  EXPECT_NEAR(Specificity(l.y, l.yhat), kSpecificityLarge, kTol);
  EXPECT_NEAR(Precision(l.y, l.yhat), kPrecisionLarge, kTol);
  EXPECT_NEAR(F1(l.y, l.yhat), kF1Large, kTol);
}

TEST(Metric, ClassMetricsUseZeroDivisionZero) {
  // No predicted positive: precision 0/0 -> 0, and F1 = 0 (sklearn zero_division=0).
  const std::vector<double> none(kY1.size(), 0.0);
  EXPECT_EQ(Precision(kY1, none), 0.0);
  EXPECT_EQ(F1(kY1, none), 0.0);
  EXPECT_EQ(Sensitivity(kY1, none), 0.0);
  EXPECT_EQ(Specificity(kY1, none), 1.0);
  // No actual positive: recall 0/0 -> 0; no actual negative: specificity 0/0 -> 0.
  const std::vector<double> zeros = {0, 0, 0, 0};
  const std::vector<double> ones = {1, 1, 1, 1};
  EXPECT_EQ(Sensitivity(zeros, zeros), 0.0);
  EXPECT_EQ(F1(zeros, zeros), 0.0);
  EXPECT_EQ(Specificity(ones, ones), 0.0);
}

TEST(Metric, BalancedAccuracyAveragesOnlyClassesPresentInYTrue) {
  EXPECT_NEAR(BalancedAccuracy(std::vector<double>{1, 1, 1, 1}, std::vector<double>{1, 0, 1, 1}),
              kBalancedAccuracyOneClass, kTol);
  EXPECT_EQ(BalancedAccuracy(std::vector<double>{0, 0, 0, 0}, std::vector<double>{0, 0, 0, 0}),
            1.0);
}

TEST(Metric, ClassMetricsRejectNonBinaryValues) {
  const std::vector<double> y = {0, 1, 1};
  const std::string msg =
      InvalidArgumentMessage([&] { Accuracy(y, std::vector<double>{0, 0.7, 1}); });
  EXPECT_NE(msg.find("yhat[1] = 0.69999999999999996 is not a binary label"), std::string::npos)
      << msg;
  EXPECT_THROW(F1(std::vector<double>{0, -1, 1}, y), InvalidArgument);
}

// --- Probability metrics ---------------------------------------------------------------------

TEST(Metric, BrierMatchesSklearn) {
  EXPECT_NEAR(Brier(kY1, kS1), kBrier1, kTol);
  EXPECT_NEAR(Brier(Large().y, Large().score), kBrierLarge, kTol);
}

TEST(Metric, LogLossMatchesSklearn) {
  EXPECT_NEAR(LogLoss(kY1, kS1), kLogLoss1, kTol);
  EXPECT_NEAR(LogLoss(Large().y, Large().score), kLogLossLarge, kTol);
}

TEST(Metric, LogLossClipsProbabilitiesAtEpsilon) {
  const std::vector<double> y = {1, 0, 1, 0, 1, 0};
  const std::vector<double> p = {0.0, 1.0, 1.0, 0.0, 0.3, 1e-17};
  EXPECT_NEAR(LogLoss(y, p), kLogLossClipped, kTol);
}

TEST(Metric, ProbabilityMetricsRejectValuesOutsideUnitInterval) {
  const std::vector<double> y = {0, 1, 1};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Metric metric : {Metric{&Brier}, Metric{&LogLoss}}) {
    const std::string msg =
        InvalidArgumentMessage([&] { metric(y, std::vector<double>{0.2, 1.5, 0.3}); });
    EXPECT_NE(msg.find("prob[1] = 1.5 is not a probability"), std::string::npos) << msg;
    EXPECT_THROW(metric(y, std::vector<double>{-0.1, 0.5, 0.3}), InvalidArgument);
    EXPECT_THROW(metric(y, std::vector<double>{0.1, nan, 0.3}), InvalidArgument);
    EXPECT_THROW(metric(std::vector<double>{0, 3, 1}, std::vector<double>{0.1, 0.2, 0.3}),
                 InvalidArgument);
  }
}

// --- Regression metrics ----------------------------------------------------------------------

TEST(Metric, RegressionMetricsMatchSklearn) {
  EXPECT_NEAR(Mse(kYr, kPr), kMseR, kTol);
  EXPECT_NEAR(Mae(kYr, kPr), kMaeR, kTol);
  EXPECT_NEAR(Rmse(kYr, kPr), kRmseR, kTol);
  EXPECT_NEAR(R2(kYr, kPr), kR2R, kTol);
  const LargeCase& l = Large();
  EXPECT_NEAR(Mse(l.y_reg, l.pred_reg), kMseLarge, kTol);
  EXPECT_NEAR(Mae(l.y_reg, l.pred_reg), kMaeLarge, kTol);
  EXPECT_NEAR(Rmse(l.y_reg, l.pred_reg), kRmseLarge, kTol);
  EXPECT_NEAR(R2(l.y_reg, l.pred_reg), kR2Large, kTol);
}

TEST(Metric, R2FollowsSklearnConstantTargetConvention) {
  const std::vector<double> y = {0.5, 0.5, 0.5, 0.5};
  EXPECT_EQ(R2(y, y), kR2ConstantPerfect);
  EXPECT_EQ(R2(y, std::vector<double>{0.5, 0.5, 0.625, 0.5}), kR2ConstantImperfect);
  // 0.1 * 3 / 3 != 0.1 in floating point, yet a constant target still has SST = 0.
  const std::vector<double> tenths = {0.1, 0.1, 0.1};
  EXPECT_EQ(R2(tenths, std::vector<double>{0.1, 0.2, 0.1}), 0.0);
}

TEST(Metric, R2ThrowsOnSingleSample) {
  // sklearn returns NaN with a warning for m < 2; perfshap refuses the input.
  EXPECT_THROW(R2(std::vector<double>{1.0}, std::vector<double>{1.0}), InvalidArgument);
}

TEST(Metric, RegressionMetricsRejectNonFiniteValues) {
  const std::vector<double> y = {0.5, 1.5, 2.5};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const Metric metric : {Metric{&Mse}, Metric{&Mae}, Metric{&Rmse}, Metric{&R2}}) {
    const std::string msg =
        InvalidArgumentMessage([&] { metric(y, std::vector<double>{0.5, nan, 2.5}); });
    EXPECT_NE(msg.find("pred[1] = nan is not finite"), std::string::npos) << msg;
    EXPECT_THROW(metric(std::vector<double>{kInf, 1.0, 2.0}, y), InvalidArgument);
  }
}

// --- Shapes shared by every metric -----------------------------------------------------------

TEST(Metric, EveryMetricThrowsOnLengthMismatchAndEmptyInput) {
  const Metric metrics[] = {&RocAuc, &AveragePrecision, &AuprcTrapezoid, &Accuracy,
                            &BalancedAccuracy, &Sensitivity, &Specificity, &Precision,
                            &F1, &Brier, &LogLoss, &Mse, &Mae, &Rmse, &R2};
  const std::vector<double> y = {0, 1, 1, 0};
  const std::vector<double> short_one = {0, 1, 1};
  const std::vector<double> empty;
  for (const Metric metric : metrics) {
    EXPECT_THROW(metric(y, short_one), InvalidArgument);
    EXPECT_THROW(metric(short_one, y), InvalidArgument);
    EXPECT_THROW(metric(empty, empty), InvalidArgument);
  }
  EXPECT_THROW(ConfusionCounts(y, short_one), InvalidArgument);
  EXPECT_THROW(ConfusionCounts(empty, empty), InvalidArgument);
  EXPECT_THROW(RocCurve(y, short_one), InvalidArgument);
  EXPECT_THROW(PrCurve(empty, empty), InvalidArgument);
}

}  // namespace
}}  // namespace perfshap
