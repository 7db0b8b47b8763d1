// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "perfshap/blocks/metric.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "common/compensated_sum.hpp"
#include "common/sort_keys.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {

namespace {

using detail::OrderedKey;

/// Clipping of log_loss (sklearn < 1.2 default, and the value named by metric.hpp).
// sklearn 1.2 log_loss(eps="auto"): clip at the float64 machine epsilon.
constexpr double kLogLossEps = 2.220446049250313e-16;

/// A value as it was given (17 significant digits), for error messages.
std::string Str(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

void CheckLengths(const char* metric, const char* other_name, std::size_t m_true,
                  std::size_t m_other) {
  if (m_true != m_other) {
    throw InvalidArgument(std::string(metric) + ": y_true has " + std::to_string(m_true) +
                          " elements but " + other_name + " has " + std::to_string(m_other) +
                          "; pass arrays of the same length m");
  }
  if (m_true == 0) {
    throw InvalidArgument(std::string(metric) + ": y_true and " + other_name +
                          " are empty; the metric needs m >= 1 samples");
  }
}

[[noreturn]] void ThrowNotBinary(const char* metric, const char* name, std::size_t i, double v) {
  throw InvalidArgument(std::string(metric) + ": " + name + "[" + std::to_string(i) + "] = " +
                        Str(v) + " is not a binary label; " + name +
                        " must hold 0 (negative) or 1 (positive)");
}

[[noreturn]] void ThrowNan(const char* metric, const char* name, std::size_t i) {
  throw InvalidArgument(std::string(metric) + ": " + name + "[" + std::to_string(i) +
                        "] is NaN; remove or impute missing values first");
}

struct ClassCounts {
  std::size_t positives = 0;
  std::size_t negatives = 0;
};

/// Checks lengths, labels in {0, 1} and scores not NaN; counts the classes of y_true.
ClassCounts CheckRankingInputs(const char* metric, std::span<const double> y_true,
                               std::span<const double> score) {
  CheckLengths(metric, "score", y_true.size(), score.size());
  std::size_t positives = 0;
  for (std::size_t i = 0; i < y_true.size(); ++i) {
    if (y_true[i] == 1.0) {
      ++positives;
    } else if (y_true[i] != 0.0) {
      ThrowNotBinary(metric, "y_true", i, y_true[i]);
    }
    if (std::isnan(score[i])) ThrowNan(metric, "score", i);
  }
  return {positives, y_true.size() - positives};
}

[[noreturn]] void ThrowOneClass(const char* what, const ClassCounts& counts) {
  const bool all_positive = counts.negatives == 0;
  throw InvalidArgument(std::string(what) + " is undefined: y_true has only one class (all " +
                        std::to_string(counts.positives + counts.negatives) + " labels are " +
                        (all_positive ? "1" : "0") +
                        "); pass a sample holding both positives (1) and negatives (0)");
}

void RequireBothClasses(const char* what, const ClassCounts& counts) {
  if (counts.positives == 0 || counts.negatives == 0) ThrowOneClass(what, counts);
}

void RequirePositives(const char* what, const ClassCounts& counts) {
  if (counts.positives == 0) {
    throw InvalidArgument(std::string(what) + " is undefined: y_true has no positive (1) among " +
                          std::to_string(counts.negatives) +
                          " labels, so recall is 0/0; pass a sample holding positives");
  }
}

/// Cumulative counts at each distinct threshold, thresholds decreasing (sklearn
/// _binary_clf_curve): fps[k], tps[k] = negatives, positives with score >= thresholds[k].
/// Counts are integer-valued doubles (exact below 2^53).
struct ThresholdCounts {
  std::vector<double> fps;
  std::vector<double> tps;
  std::vector<double> thresholds;
};

ThresholdCounts BinaryClfCurve(std::span<const double> y_true, std::span<const double> score) {
  const std::size_t m = y_true.size();
  std::vector<std::size_t> order(m);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return score[a] > score[b]; });
  ThresholdCounts out;
  std::size_t tp = 0;
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t i = order[k];
    if (y_true[i] == 1.0) ++tp;
    // A threshold closes where the next (lower) score differs: tied scores are one point.
    if (k + 1 == m || score[order[k + 1]] != score[i]) {
      out.tps.push_back(static_cast<double>(tp));
      out.fps.push_back(static_cast<double>(k + 1 - tp));
      out.thresholds.push_back(score[i]);
    }
  }
  return out;
}

/// Checks lengths and that both arrays hold 0/1 classes.
void CheckClassInputs(const char* metric, std::span<const double> y_true,
                      std::span<const double> yhat) {
  CheckLengths(metric, "yhat", y_true.size(), yhat.size());
  for (std::size_t i = 0; i < y_true.size(); ++i) {
    if (y_true[i] != 0.0 && y_true[i] != 1.0) ThrowNotBinary(metric, "y_true", i, y_true[i]);
    if (yhat[i] != 0.0 && yhat[i] != 1.0) ThrowNotBinary(metric, "yhat", i, yhat[i]);
  }
}

/// Checks lengths, labels in {0, 1} and probabilities in [0, 1] (NaN fails the range test).
void CheckProbabilityInputs(const char* metric, std::span<const double> y_true,
                            std::span<const double> prob) {
  CheckLengths(metric, "prob", y_true.size(), prob.size());
  for (std::size_t i = 0; i < y_true.size(); ++i) {
    if (y_true[i] != 0.0 && y_true[i] != 1.0) ThrowNotBinary(metric, "y_true", i, y_true[i]);
    if (!(prob[i] >= 0.0 && prob[i] <= 1.0)) {
      throw InvalidArgument(std::string(metric) + ": prob[" + std::to_string(i) + "] = " +
                            Str(prob[i]) +
                            " is not a probability; pass probabilities in [0, 1], not raw "
                            "scores or logits");
    }
  }
}

/// Checks lengths and that every value is finite (as sklearn's check_array).
void CheckRegressionInputs(const char* metric, std::span<const double> y_true,
                           std::span<const double> pred) {
  CheckLengths(metric, "pred", y_true.size(), pred.size());
  for (std::size_t i = 0; i < y_true.size(); ++i) {
    if (!std::isfinite(y_true[i]) || !std::isfinite(pred[i])) {
      const bool bad_true = !std::isfinite(y_true[i]);
      throw InvalidArgument(std::string(metric) + ": " + (bad_true ? "y_true[" : "pred[") +
                            std::to_string(i) + "] = " + Str(bad_true ? y_true[i] : pred[i]) +
                            " is not finite; remove or impute such values first");
    }
  }
}

/// a / b with sklearn's zero_division=0: a 0/0 ratio is 0.
double RatioOrZero(double a, double b) noexcept { return b == 0.0 ? 0.0 : a / b; }

double SumSquaredError(std::span<const double> y_true, std::span<const double> pred) {
  detail::CompensatedSum sum;
  for (std::size_t i = 0; i < y_true.size(); ++i) {
    const double d = y_true[i] - pred[i];
    sum.Add(d * d);
  }
  return sum.Value();
}

}  // namespace

double RocAuc(std::span<const double> y_true, std::span<const double> score) {
  std::vector<std::size_t> scratch;
  return RocAuc(y_true, score, scratch);
}

double RocAuc(std::span<const double> y_true, std::span<const double> score,
              std::vector<std::size_t>& scratch) {
  static_assert(sizeof(std::size_t) >= sizeof(std::uint64_t),
                "RocAuc stores 64-bit sort keys in a std::size_t scratch");
  CheckLengths("RocAuc", "score", y_true.size(), score.size());
  const std::size_t m = y_true.size();
  scratch.resize(m);  // no allocation once capacity >= m
  // One pass: validate, and split the order keys by class, positives from the front and
  // negatives from the back, so each class can be sorted alone without indirection.
  std::size_t front = 0;
  std::size_t back = m;
  for (std::size_t i = 0; i < m; ++i) {
    if (std::isnan(score[i])) ThrowNan("RocAuc", "score", i);
    const std::uint64_t key = OrderedKey(score[i]);
    if (y_true[i] == 1.0) {
      scratch[front++] = key;
    } else if (y_true[i] == 0.0) {
      scratch[--back] = key;
    } else {
      ThrowNotBinary("RocAuc", "y_true", i, y_true[i]);
    }
  }
  const ClassCounts counts{front, m - front};
  RequireBothClasses("AUC", counts);

  const auto pos_begin = scratch.begin();
  const auto neg_begin = scratch.begin() + static_cast<std::ptrdiff_t>(front);
  std::sort(pos_begin, neg_begin);
  std::sort(neg_begin, scratch.end());

  // Mann-Whitney U with ties counted one half: AUC = U / (P N), where
  // U = sum over positives of #(negatives scored below) + 1/2 #(negatives tied).
  // 2U is an integer; it is accumulated exactly and divided once, so the result is the
  // correctly rounded ratio (sklearn's trapezoid over the ROC gives the same number up to
  // the rounding of its fpr/tpr ratios).
  std::uint64_t twice_u = 0;
  std::size_t below = front;  // first negative with key >= current positive key
  std::size_t upto = front;   // first negative with key >  current positive key
  for (std::size_t k = 0; k < front; ++k) {
    const std::uint64_t key = scratch[k];
    while (below < m && scratch[below] < key) ++below;
    upto = std::max(upto, below);
    while (upto < m && scratch[upto] == key) ++upto;
    twice_u += 2 * static_cast<std::uint64_t>(below - front) +
               static_cast<std::uint64_t>(upto - below);
  }
  const double pairs =
      static_cast<double>(counts.positives) * static_cast<double>(counts.negatives);
  return static_cast<double>(twice_u) / (2.0 * pairs);
}

/** The curve led by `first` at threshold +inf, then point(k) = (x, y) at each threshold of `tc`. */
template <class Point>
Curve CurveOverThresholds(const ThresholdCounts& tc, std::pair<double, double> first, Point point) {
  Curve curve;
  const std::size_t k_points = tc.thresholds.size() + 1;
  curve.x.reserve(k_points);
  curve.y.reserve(k_points);
  curve.thresholds.reserve(k_points);
  curve.x.push_back(first.first);
  curve.y.push_back(first.second);
  curve.thresholds.push_back(std::numeric_limits<double>::infinity());
  for (std::size_t k = 0; k < tc.thresholds.size(); ++k) {
    const auto [x, y] = point(k);
    curve.x.push_back(x);
    curve.y.push_back(y);
    curve.thresholds.push_back(tc.thresholds[k]);
  }
  return curve;
}

Curve RocCurve(std::span<const double> y_true, std::span<const double> score) {
  const ClassCounts counts = CheckRankingInputs("RocCurve", y_true, score);
  RequireBothClasses("The ROC curve", counts);
  const ThresholdCounts tc = BinaryClfCurve(y_true, score);
  const auto n_pos = static_cast<double>(counts.positives);
  const auto n_neg = static_cast<double>(counts.negatives);
  // sklearn >= 1.3 starts at threshold +inf; 1.2 used max(score) + 1 (same point (0, 0)).
  return CurveOverThresholds(tc, {0.0, 0.0}, [&](std::size_t k) {
    return std::pair{tc.fps[k] / n_neg, tc.tps[k] / n_pos};
  });
}

Curve PrCurve(std::span<const double> y_true, std::span<const double> score) {
  const ClassCounts counts = CheckRankingInputs("PrCurve", y_true, score);
  RequirePositives("The PR curve", counts);
  const ThresholdCounts tc = BinaryClfCurve(y_true, score);
  const auto n_pos = static_cast<double>(counts.positives);
  // sklearn appends (recall 0, precision 1) without a threshold; here it leads, at +inf. Every
  // threshold holds at least one sample, so tps + fps >= 1.
  return CurveOverThresholds(tc, {0.0, 1.0}, [&](std::size_t k) {
    return std::pair{tc.tps[k] / n_pos, tc.tps[k] / (tc.tps[k] + tc.fps[k])};
  });
}

double AveragePrecision(std::span<const double> y_true, std::span<const double> score) {
  const ClassCounts counts = CheckRankingInputs("AveragePrecision", y_true, score);
  RequirePositives("Average precision", counts);
  const ThresholdCounts tc = BinaryClfCurve(y_true, score);
  // AP = sum_k (R_k - R_{k-1}) P_k (sklearn, step-wise). With R_k = tps_k / n_pos the recall
  // step is an integer count dtp_k / n_pos, so each term dtp_k * tps_k / (tps_k + fps_k) is
  // one rounding of an exact ratio; the common 1/n_pos is applied once at the end.
  detail::CompensatedSum sum;
  double previous_tp = 0.0;
  for (std::size_t k = 0; k < tc.thresholds.size(); ++k) {
    const double dtp = tc.tps[k] - previous_tp;
    if (dtp != 0.0) sum.Add(dtp * tc.tps[k] / (tc.tps[k] + tc.fps[k]));
    previous_tp = tc.tps[k];
  }
  return sum.Value() / static_cast<double>(counts.positives);
}

double AuprcTrapezoid(std::span<const double> y_true, std::span<const double> score) {
  const ClassCounts counts = CheckRankingInputs("AuprcTrapezoid", y_true, score);
  RequirePositives("The area under the PR curve", counts);
  const ThresholdCounts tc = BinaryClfCurve(y_true, score);
  // Trapezoid over (recall, precision) from the leading point (0, 1):
  // area = sum_k (R_k - R_{k-1}) (P_k + P_{k-1}) / 2, recall steps dtp_k / n_pos as above.
  detail::CompensatedSum sum;
  double previous_tp = 0.0;
  double previous_precision = 1.0;
  for (std::size_t k = 0; k < tc.thresholds.size(); ++k) {
    const double precision = tc.tps[k] / (tc.tps[k] + tc.fps[k]);
    const double dtp = tc.tps[k] - previous_tp;
    if (dtp != 0.0) sum.Add(dtp * (0.5 * (precision + previous_precision)));
    previous_tp = tc.tps[k];
    previous_precision = precision;
  }
  return sum.Value() / static_cast<double>(counts.positives);
}

Confusion ConfusionCounts(std::span<const double> y_true, std::span<const double> yhat) {
  CheckClassInputs("ConfusionCounts", y_true, yhat);
  // Counted in integers, converted once: exact for any m below 2^53.
  std::size_t tp = 0;
  std::size_t fp = 0;
  std::size_t fn = 0;
  for (std::size_t i = 0; i < y_true.size(); ++i) {
    const bool actual = y_true[i] == 1.0;
    const bool predicted = yhat[i] == 1.0;
    tp += static_cast<std::size_t>(actual && predicted);
    fp += static_cast<std::size_t>(!actual && predicted);
    fn += static_cast<std::size_t>(actual && !predicted);
  }
  const std::size_t tn = y_true.size() - tp - fp - fn;
  Confusion c;
  c.tp = static_cast<double>(tp);
  c.fp = static_cast<double>(fp);
  c.tn = static_cast<double>(tn);
  c.fn = static_cast<double>(fn);
  return c;
}

double Accuracy(std::span<const double> y_true, std::span<const double> yhat) {
  const Confusion c = ConfusionCounts(y_true, yhat);
  return (c.tp + c.tn) / static_cast<double>(y_true.size());
}

double BalancedAccuracy(std::span<const double> y_true, std::span<const double> yhat) {
  const Confusion c = ConfusionCounts(y_true, yhat);
  const double positives = c.tp + c.fn;
  const double negatives = c.tn + c.fp;
  // sklearn averages the recall of each class present in y_true (a class absent from y_true
  // gives 0/0 and is dropped from the mean).
  if (positives == 0.0) return c.tn / negatives;
  if (negatives == 0.0) return c.tp / positives;
  return (c.tp / positives + c.tn / negatives) / 2.0;
}

double Sensitivity(std::span<const double> y_true, std::span<const double> yhat) {
  const Confusion c = ConfusionCounts(y_true, yhat);
  return RatioOrZero(c.tp, c.tp + c.fn);
}

double Specificity(std::span<const double> y_true, std::span<const double> yhat) {
  const Confusion c = ConfusionCounts(y_true, yhat);
  return RatioOrZero(c.tn, c.tn + c.fp);
}

double Precision(std::span<const double> y_true, std::span<const double> yhat) {
  const Confusion c = ConfusionCounts(y_true, yhat);
  return RatioOrZero(c.tp, c.tp + c.fp);
}

double F1(std::span<const double> y_true, std::span<const double> yhat) {
  const Confusion c = ConfusionCounts(y_true, yhat);
  // 2PR / (P + R) = 2 tp / (2 tp + fp + fn): one rounding of a ratio of counts.
  return RatioOrZero(2.0 * c.tp, 2.0 * c.tp + c.fp + c.fn);
}

double Brier(std::span<const double> y_true, std::span<const double> prob) {
  CheckProbabilityInputs("Brier", y_true, prob);
  return SumSquaredError(y_true, prob) / static_cast<double>(y_true.size());
}

double LogLoss(std::span<const double> y_true, std::span<const double> prob) {
  CheckProbabilityInputs("LogLoss", y_true, prob);
  detail::CompensatedSum sum;
  for (std::size_t i = 0; i < y_true.size(); ++i) {
    // sklearn clips to [eps, 1 - eps] so that a confident mistake costs -log(eps), not inf.
    const double q = std::clamp(prob[i], kLogLossEps, 1.0 - kLogLossEps);
    sum.Add(y_true[i] == 1.0 ? -std::log(q) : -std::log(1.0 - q));
  }
  return sum.Value() / static_cast<double>(y_true.size());
}

double Mse(std::span<const double> y_true, std::span<const double> pred) {
  CheckRegressionInputs("Mse", y_true, pred);
  return SumSquaredError(y_true, pred) / static_cast<double>(y_true.size());
}

double Mae(std::span<const double> y_true, std::span<const double> pred) {
  CheckRegressionInputs("Mae", y_true, pred);
  detail::CompensatedSum sum;
  for (std::size_t i = 0; i < y_true.size(); ++i) sum.Add(std::fabs(y_true[i] - pred[i]));
  return sum.Value() / static_cast<double>(y_true.size());
}

double Rmse(std::span<const double> y_true, std::span<const double> pred) {
  CheckRegressionInputs("Rmse", y_true, pred);
  return std::sqrt(SumSquaredError(y_true, pred) / static_cast<double>(y_true.size()));
}

double R2(std::span<const double> y_true, std::span<const double> pred) {
  CheckRegressionInputs("R2", y_true, pred);
  const std::size_t m = y_true.size();
  if (m < 2) {
    throw InvalidArgument("R2: needs at least 2 samples (got " + std::to_string(m) +
                          "); R^2 is not defined for a single sample");
  }
  const double sse = SumSquaredError(y_true, pred);
  // A constant y_true has SST = 0 exactly; test it directly because a rounded mean of equal
  // values need not equal them and would leave a spurious tiny SST.
  const bool constant = std::all_of(y_true.begin(), y_true.end(),
                                    [&](double v) { return v == y_true[0]; });
  double sst = 0.0;
  if (!constant) {
    detail::CompensatedSum total;
    for (const double v : y_true) total.Add(v);
    const double mean = total.Value() / static_cast<double>(m);
    detail::CompensatedSum squares;
    for (const double v : y_true) squares.Add((v - mean) * (v - mean));
    sst = squares.Value();
  }
  // sklearn r2_score (force_finite=True): a perfect fit scores 1 even when SST = 0; an
  // imperfect fit of a constant target scores 0 rather than -inf.
  if (sse == 0.0) return 1.0;
  if (sst == 0.0) return 0.0;
  return 1.0 - sse / sst;
}

}}  // namespace perfshap
