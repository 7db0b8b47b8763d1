// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// ROC / PR curves read at fixed grids (shapauc-shaproc-robustness sections 3.2.2 and 3.4).
// Two modes: kExact walks the curve's points at every distinct score (metric.hpp's RocCurve /
// PrCurve, computed here without allocation from two sorted key arrays), kThresholds rebuilds
// the authors' 101-threshold curves from a histogram of the probabilities over the thresholds.
#include "perfshap/curves.hpp"

#include "common/compensated_sum.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

#include "perfshap/error.hpp"

namespace perfshap {
namespace {

using detail::CompensatedSum;

std::string Str(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

/// Order-preserving map of a double (not NaN) to 64 bits, -0.0 folded onto +0.0 (one
/// threshold), as metric.cpp's RocAuc: a < b <=> key(a) < key(b).
std::uint64_t OrderedKey(double x) noexcept {
  constexpr std::uint64_t kSignBit = std::uint64_t{1} << 63;
  const double v = (x == 0.0) ? 0.0 : x;
  const auto bits = std::bit_cast<std::uint64_t>(v);
  return (bits & kSignBit) != 0 ? ~bits : (bits | kSignBit);
}

void CheckGrid(const char* name, const std::vector<double>& grid) {
  for (std::size_t j = 0; j < grid.size(); ++j) {
    const double g = grid[j];
    if (!(g >= 0.0 && g <= 1.0)) {
      throw InvalidArgument(std::string("CurveGridOptions: ") + name + "[" + std::to_string(j) +
                            "] = " + Str(g) + " is outside [0, 1]; grid points are rates");
    }
    if (j > 0 && !(g > grid[j - 1])) {
      throw InvalidArgument(std::string("CurveGridOptions: ") + name + "[" + std::to_string(j) +
                            "] = " + Str(g) + " does not exceed " + name + "[" + std::to_string(j - 1) +
                            "] = " + Str(grid[j - 1]) + "; pass grid points strictly increasing");
    }
  }
}

struct ClassCounts {
  std::size_t positives = 0;
  std::size_t negatives = 0;
};

[[noreturn]] void ThrowLabel(std::size_t i, double v) {
  throw InvalidArgument("CurveGridEvaluator: y_true[" + std::to_string(i) + "] = " + Str(v) +
                        " is not a binary label; y_true must hold 0 (negative) or 1 (positive)");
}

void CheckLengths(std::size_t m_true, std::size_t m_score) {
  if (m_true != m_score) {
    throw InvalidArgument("CurveGridEvaluator: y_true has " + std::to_string(m_true) +
                          " elements but score has " + std::to_string(m_score) +
                          "; pass arrays of the same length m");
  }
  if (m_true == 0) {
    throw InvalidArgument(
        "CurveGridEvaluator: y_true and score are empty; the curves need "
        "samples of both classes");
  }
}

void RequireBothClasses(const ClassCounts& c) {
  if (c.positives == 0 || c.negatives == 0) {
    throw InvalidArgument(
        std::string("CurveGridEvaluator: the ROC curve is undefined: y_true has only one class "
                    "(all ") +
        std::to_string(c.positives + c.negatives) + " labels are " + (c.negatives == 0 ? "1" : "0") +
        "); pass a sample holding both positives (1) and negatives (0)");
  }
}

/// Section 3.2.2 with the ARCHITECTURE.md kExact rule, read while the walk produces the points
/// (x non-decreasing, x[0] <= g <= x.back()): a run of points exactly at g gives y_a = lowest,
/// y_b = highest of them; otherwise a = last point with x < g and b = first with x > g. A run is
/// closed by the first point beyond it; a grid point strictly between two points reads the pair.
class StreamingGridReader {
 public:
  StreamingGridReader(std::span<const double> grid, GridStrategy strategy, double* out) noexcept
      : grid_(grid), strategy_(strategy), out_(out) {}

  void Push(double x, double y) noexcept {
    const std::size_t n = grid_.size();
    if (in_run_) {
      if (x == grid_[k_]) {
        lowest_ = std::min(lowest_, y);
        highest_ = std::max(highest_, y);
        x_a_ = x;
        y_a_ = y;
        return;
      }
      CloseRun();
    }
    // Here x_a_ < grid_[k_] (every grid point <= x_a_ is written or was the closed run).
    while (k_ < n && grid_[k_] < x) {
      const double g = grid_[k_];
      double value;
      switch (strategy_) {
        case GridStrategy::kOptimistic:
          value = std::max(y_a_, y);
          break;
        case GridStrategy::kPessimistic:
          value = std::min(y_a_, y);
          break;
        default:
          value = y_a_ + (y - y_a_) * (g - x_a_) / (x - x_a_);
          break;
      }
      out_[k_++] = value;
    }
    if (k_ < n && grid_[k_] == x) {
      in_run_ = true;
      lowest_ = y;
      highest_ = y;
    }
    x_a_ = x;
    y_a_ = y;
  }

  void Finish() noexcept {
    if (in_run_) CloseRun();
  }

 private:
  void CloseRun() noexcept {
    double value;
    switch (strategy_) {
      case GridStrategy::kOptimistic:
        value = highest_;
        break;
      case GridStrategy::kPessimistic:
        value = lowest_;
        break;
      default:
        value = (lowest_ + highest_) / 2.0;
        break;
    }
    out_[k_++] = value;
    in_run_ = false;
  }

  std::span<const double> grid_;
  GridStrategy strategy_;
  double* out_;
  std::size_t k_ = 0;
  bool in_run_ = false;
  double lowest_ = 0.0;
  double highest_ = 0.0;
  double x_a_ = 0.0;
  double y_a_ = 0.0;
};

/// Sorts keys[0, n) ascending. Quicksort with a branch-free Lomuto partition (the scores'
/// order is random, so a compare-and-branch sort mispredicts about every other comparison),
/// a second pass that strips keys equal to the pivot when none is below it (ties, such as
/// probabilities saturated at 1, then cost one pass), insertion sort for 12 keys or fewer, and
/// std::sort once the partitions nest deeper than depth (2 log2 n: no quadratic worst case).
void SortKeys(std::uint64_t* a, std::size_t n, int depth) noexcept {
  while (n > 12) {
    if (depth-- == 0) {
      std::sort(a, a + n);
      return;
    }
    // Median of the first, middle and last keys, moved to the end as the pivot.
    std::uint64_t& x = a[0];
    std::uint64_t& y = a[n / 2];
    std::uint64_t& z = a[n - 1];
    if (y < x) std::swap(x, y);
    if (z < y) std::swap(y, z);
    if (y < x) std::swap(x, y);
    std::swap(y, z);
    const std::uint64_t pivot = a[n - 1];
    std::size_t i = 0;
    for (std::size_t j = 0; j + 1 < n; ++j) {
      const std::uint64_t v = a[j];
      const std::size_t below = v < pivot ? 1 : 0;
      a[j] = a[i];
      a[i] = v;
      i += below;
    }
    if (i == 0) {
      // Nothing below the pivot: the keys equal to it go first and are done.
      for (std::size_t j = 0; j + 1 < n; ++j) {
        const std::uint64_t v = a[j];
        const std::size_t equal = v == pivot ? 1 : 0;
        a[j] = a[i];
        a[i] = v;
        i += equal;
      }
      std::swap(a[i], a[n - 1]);
      a += i + 1;
      n -= i + 1;
      continue;
    }
    std::swap(a[i], a[n - 1]);
    // Recurse into the smaller side, loop on the larger.
    const std::size_t left = i;
    const std::size_t right = n - i - 1;
    if (left < right) {
      SortKeys(a, left, depth);
      a += i + 1;
      n = right;
    } else {
      SortKeys(a + i + 1, right, depth);
      n = left;
    }
  }
  for (std::size_t i = 1; i < n; ++i) {
    const std::uint64_t v = a[i];
    std::size_t j = i;
    for (; j > 0 && a[j - 1] > v; --j) a[j] = a[j - 1];
    a[j] = v;
  }
}

void SortKeys(std::uint64_t* a, std::size_t n) noexcept {
  SortKeys(a, n, 2 * static_cast<int>(std::bit_width(n)));
}

/// The authors' reading of a merged threshold curve (x strictly increasing, from 0 to 1): an
/// exact hit takes its y under every strategy; otherwise L / R = nearest points left / right:
/// optimistic y_R, pessimistic y_L, interpolation y_L + (y_R - y_L)(g - x_L)/(x_R - x_L)
/// (the scripts' expression, evaluated in the same order).
void ReadGridThresholds(std::span<const double> x, std::span<const double> y, std::span<const double> grid,
                        GridStrategy strategy, double* out) {
  const std::size_t n = x.size();
  std::size_t i = 0;
  for (std::size_t k = 0; k < grid.size(); ++k) {
    const double g = grid[k];
    while (i < n && x[i] < g) ++i;
    if (i < n && x[i] == g) {
      out[k] = y[i];
      continue;
    }
    const std::size_t left = i - 1;
    const std::size_t right = i;
    switch (strategy) {
      case GridStrategy::kOptimistic:
        out[k] = y[right];
        break;
      case GridStrategy::kPessimistic:
        out[k] = y[left];
        break;
      default:
        out[k] = y[left] + (y[right] - y[left]) * (g - x[left]) / (x[right] - x[left]);
        break;
    }
  }
}

/// Trapezoid rule over a grid: sum_k (g_{k+1} - g_k) (f_k + f_{k+1}) / 2, f_k = v_k - shift_k
/// where shift is the grid itself (ROC gain tpr - fpr) or zero.
double GridTrapezoid(std::span<const double> grid, const std::vector<double>& v, bool subtract_grid) {
  CompensatedSum sum;
  for (std::size_t k = 0; k + 1 < grid.size(); ++k) {
    const double f0 = subtract_grid ? v[k] - grid[k] : v[k];
    const double f1 = subtract_grid ? v[k + 1] - grid[k + 1] : v[k + 1];
    sum.Add((grid[k + 1] - grid[k]) * (f0 + f1) / 2.0);
  }
  return sum.Value();
}

/// Appends (x, y) to a curve sorted by x, merging equal x into the largest y (the scripts'
/// "removing equal values ... we keep the maximum").
void PushMerged(std::vector<double>& xs, std::vector<double>& ys, std::size_t& count, double x, double y) {
  if (count > 0 && xs[count - 1] == x) {
    ys[count - 1] = std::max(ys[count - 1], y);
    return;
  }
  xs[count] = x;
  ys[count] = y;
  ++count;
}

}  // namespace

std::vector<double> DefaultCurveGrid(CurveMode mode, int points) {
  PERFSHAP_CHECK(points >= 2, "DefaultCurveGrid: points = " + std::to_string(points) +
                                  " is below 2; a grid needs at least the ends 0 and 1");
  const auto n = static_cast<std::size_t>(points);
  std::vector<double> grid(n);
  const double last = static_cast<double>(points - 1);
  if (mode == CurveMode::kThresholds) {
    // numpy arange(0, 1 + step, step) fills start + j * step: for step = 0.01 this is j * 0.01,
    // and 1.0 / 100 is the same double as the literal 0.01.
    const double step = 1.0 / last;
    for (std::size_t j = 0; j + 1 < n; ++j) grid[j] = static_cast<double>(j) * step;
  } else {
    for (std::size_t j = 0; j + 1 < n; ++j) grid[j] = static_cast<double>(j) / last;
  }
  grid[n - 1] = 1.0;
  return grid;
}

void ParseCurvePoints(std::string_view text, CurveGridOptions& options) {
  const auto fail = [&]() {
    throw InvalidArgument("--curve-points '" + std::string(text) +
                          "' is not understood; use 'exact', 'thresholds' or 'thresholds:T' "
                          "with an integer T >= 2 (the authors' scripts use thresholds:101)");
  };
  if (text == "exact") {
    options.mode = CurveMode::kExact;
    return;
  }
  constexpr std::string_view kPrefix = "thresholds";
  if (text.substr(0, kPrefix.size()) != kPrefix) fail();
  std::string_view rest = text.substr(kPrefix.size());
  int t = 101;
  if (!rest.empty()) {
    if (rest.front() != ':') fail();
    rest.remove_prefix(1);
    const auto [ptr, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), t);
    if (ec != std::errc() || ptr != rest.data() + rest.size() || t < 2 || t > 1000000) fail();
  }
  options.mode = CurveMode::kThresholds;
  options.thresholds = t;
}

GridStrategy ParseGridStrategy(std::string_view text) {
  if (text == "optimistic") return GridStrategy::kOptimistic;
  if (text == "pessimistic") return GridStrategy::kPessimistic;
  if (text == "interpolation") return GridStrategy::kInterpolation;
  throw InvalidArgument("--strategy '" + std::string(text) +
                        "' is not understood; use optimistic, pessimistic or interpolation");
}

std::string CurvePointsName(const CurveGridOptions& options) {
  if (options.mode == CurveMode::kExact) return "exact";
  return "thresholds:" + std::to_string(options.thresholds);
}

const char* GridStrategyName(GridStrategy strategy) {
  switch (strategy) {
    case GridStrategy::kOptimistic:
      return "optimistic";
    case GridStrategy::kPessimistic:
      return "pessimistic";
    default:
      return "interpolation";
  }
}

void CurveGridScratch::Reserve(std::size_t m, int thresholds) {
  const std::size_t t = thresholds > 0 ? static_cast<std::size_t>(thresholds) : 0;
  const std::size_t points = std::max(m, t) + 2;
  keys_.reserve(m);
  positives_.reserve(t + 1);
  negatives_.reserve(t + 1);
  roc_x_.reserve(points);
  roc_y_.reserve(points);
  pr_x_.reserve(points);
  pr_y_.reserve(points);
}

CurveGridEvaluator::CurveGridEvaluator(CurveGridOptions options) : options_(std::move(options)) {
  PERFSHAP_CHECK(options_.thresholds >= 2,
                 "CurveGridOptions: thresholds = " + std::to_string(options_.thresholds) +
                     " is below 2; use thresholds:101 as the authors' scripts");
  const int default_points = options_.mode == CurveMode::kThresholds ? options_.thresholds : 101;
  if (options_.fpr_grid.empty()) options_.fpr_grid = DefaultCurveGrid(options_.mode, default_points);
  if (options_.recall_grid.empty()) {
    options_.recall_grid = DefaultCurveGrid(options_.mode, default_points);
  }
  CheckGrid("fpr_grid", options_.fpr_grid);
  CheckGrid("recall_grid", options_.recall_grid);
  if (options_.mode == CurveMode::kThresholds) {
    thresholds_ = DefaultCurveGrid(CurveMode::kThresholds, options_.thresholds);
  }
}

CurveGridValues CurveGridEvaluator::MakeValues() const {
  CurveGridValues v;
  v.tpr.resize(options_.fpr_grid.size());
  v.precision.resize(options_.recall_grid.size());
  return v;
}

void CurveGridEvaluator::Evaluate(std::span<const double> y_true, std::span<const double> score,
                                  CurveGridScratch& scratch, CurveGridValues& out) const {
  CheckLengths(y_true.size(), score.size());
  out.tpr.resize(options_.fpr_grid.size());
  out.precision.resize(options_.recall_grid.size());
  if (options_.mode == CurveMode::kExact) {
    EvaluateExact(y_true, score, scratch, out);
  } else {
    EvaluateThresholds(y_true, score, scratch, out);
  }
}

void CurveGridEvaluator::EvaluateExact(std::span<const double> y_true, std::span<const double> score,
                                       CurveGridScratch& s, CurveGridValues& out) const {
  const std::size_t m = y_true.size();
  // One pass: validate and split the order keys by class (positives from the front, negatives
  // from the back), as metric.cpp's RocAuc; each class is then sorted alone.
  s.keys_.resize(m);
  std::size_t front = 0;
  std::size_t back = m;
  for (std::size_t i = 0; i < m; ++i) {
    if (std::isnan(score[i])) {
      throw InvalidArgument("CurveGridEvaluator: score[" + std::to_string(i) +
                            "] is NaN; remove or impute missing values first");
    }
    const std::uint64_t key = OrderedKey(score[i]);
    if (y_true[i] == 1.0) {
      s.keys_[front++] = key;
    } else if (y_true[i] == 0.0) {
      s.keys_[--back] = key;
    } else {
      ThrowLabel(i, y_true[i]);
    }
  }
  const ClassCounts counts{front, m - front};
  RequireBothClasses(counts);
  std::uint64_t* const keys = s.keys_.data();
  SortKeys(keys, front);
  SortKeys(keys + front, m - front);

  const auto n_pos = static_cast<double>(counts.positives);
  const auto n_neg = static_cast<double>(counts.negatives);
  s.roc_x_.resize(m + 1);
  s.roc_y_.resize(m + 1);
  s.pr_x_.resize(m + 1);
  s.pr_y_.resize(m + 1);
  // Leading points at threshold +inf: ROC (0, 0), PR (recall 0, precision 1).
  s.roc_x_[0] = 0.0;
  s.roc_y_[0] = 0.0;
  s.pr_x_[0] = 0.0;
  s.pr_y_[0] = 1.0;
  std::size_t points = 1;
  StreamingGridReader roc_reader(options_.fpr_grid, options_.strategy, out.tpr.data());
  StreamingGridReader pr_reader(options_.recall_grid, options_.strategy, out.precision.data());
  roc_reader.Push(0.0, 0.0);
  pr_reader.Push(0.0, 1.0);

  // Walk the distinct scores from the highest (sklearn _binary_clf_curve), both classes at once.
  // Mann-Whitney 2U = sum over a tie block of 2 dp (negatives below) + dp dn, exact in integers.
  std::uint64_t twice_u = 0;
  CompensatedSum average_precision;
  CompensatedSum trapezoid;
  std::size_t tp = 0;
  std::size_t fp = 0;
  std::size_t pos = front;  // positives not yet walked: [0, pos)
  std::size_t neg = m;      // negatives not yet walked: [front, neg)
  double previous_precision = 1.0;
  while (pos > 0 || neg > front) {
    std::uint64_t key = 0;
    if (pos > 0) key = keys[pos - 1];
    if (neg > front) key = std::max(key, keys[neg - 1]);
    std::size_t dp = 0;
    std::size_t dn = 0;
    while (pos > 0 && keys[pos - 1] == key) {
      --pos;
      ++dp;
    }
    while (neg > front && keys[neg - 1] == key) {
      --neg;
      ++dn;
    }
    tp += dp;
    fp += dn;
    twice_u +=
        2 * static_cast<std::uint64_t>(dp) * (counts.negatives - fp) + static_cast<std::uint64_t>(dp) * dn;
    const auto tps = static_cast<double>(tp);
    const auto fps = static_cast<double>(fp);
    const double precision = tps / (tps + fps);
    const double fpr = fps / n_neg;
    const double tpr = tps / n_pos;
    s.roc_x_[points] = fpr;
    s.roc_y_[points] = tpr;
    s.pr_x_[points] = tpr;
    s.pr_y_[points] = precision;
    ++points;
    roc_reader.Push(fpr, tpr);
    pr_reader.Push(tpr, precision);
    // Same terms, same order as metric.cpp AveragePrecision / AuprcTrapezoid.
    if (dp != 0) {
      const auto dtp = static_cast<double>(dp);
      average_precision.Add(dtp * tps / (tps + fps));
      trapezoid.Add(dtp * (0.5 * (precision + previous_precision)));
    }
    previous_precision = precision;
  }
  s.roc_x_.resize(points);
  s.roc_y_.resize(points);
  s.pr_x_.resize(points);
  s.pr_y_.resize(points);

  out.auc = static_cast<double>(twice_u) / (2.0 * (n_pos * n_neg));
  out.average_precision = average_precision.Value() / n_pos;
  out.auprc_trapezoid = trapezoid.Value() / n_pos;
  roc_reader.Finish();
  pr_reader.Finish();
}

void CurveGridEvaluator::EvaluateThresholds(std::span<const double> y_true, std::span<const double> score,
                                            CurveGridScratch& s, CurveGridValues& out) const {
  const std::size_t m = y_true.size();
  const std::size_t t = thresholds_.size();
  // Histogram over buckets c(p) = #{j : t_j < p} in 0..T: a row is positive at threshold j
  // (p > t_j) exactly when c(p) > j. O(m + T) instead of the scripts' O(m T).
  s.positives_.assign(t + 1, 0);
  s.negatives_.assign(t + 1, 0);
  const double scale = static_cast<double>(t - 1);
  for (std::size_t i = 0; i < m; ++i) {
    const double p = score[i];
    if (!(p >= 0.0 && p <= 1.0)) {
      throw InvalidArgument("CurveGridEvaluator: score[" + std::to_string(i) + "] = " + Str(p) +
                            " is not a probability; --curve-points thresholds:T needs "
                            "probabilities in [0, 1] (use exact for other scores)");
    }
    // Guess from p * (T - 1), then settle against the thresholds themselves.
    auto c = static_cast<std::size_t>(p * scale);
    if (c > t) c = t;
    while (c < t && thresholds_[c] < p) ++c;
    while (c > 0 && !(thresholds_[c - 1] < p)) --c;
    if (y_true[i] == 1.0) {
      ++s.positives_[c];
    } else if (y_true[i] == 0.0) {
      ++s.negatives_[c];
    } else {
      ThrowLabel(i, y_true[i]);
    }
  }
  ClassCounts counts;
  for (std::size_t c = 0; c <= t; ++c) {
    counts.positives += s.positives_[c];
    counts.negatives += s.negatives_[c];
  }
  RequireBothClasses(counts);
  const auto n_pos = static_cast<double>(counts.positives);
  const auto n_neg = static_cast<double>(counts.negatives);

  // Walk the thresholds from the highest: counts only grow, so x (FPR, recall) never
  // decreases and the merge of equal x needs no sort.
  s.roc_x_.resize(t + 1);
  s.roc_y_.resize(t + 1);
  s.pr_x_.resize(t + 1);
  s.pr_y_.resize(t + 1);
  std::size_t roc_points = 0;
  std::size_t pr_points = 0;
  std::size_t tp = 0;
  std::size_t fp = 0;
  for (std::size_t j = t; j-- > 0;) {
    tp += s.positives_[j + 1];
    fp += s.negatives_[j + 1];
    const auto tps = static_cast<double>(tp);
    const auto fps = static_cast<double>(fp);
    const double recall = tps / n_pos;
    // The scripts: precision := 1 when no row is predicted positive.
    const double precision = tp + fp > 0 ? tps / (tps + fps) : 1.0;
    PushMerged(s.roc_x_, s.roc_y_, roc_points, fps / n_neg, recall);
    PushMerged(s.pr_x_, s.pr_y_, pr_points, recall, precision);
  }
  // Rows at p = 0 exactly are never positive: close the curves with the all-positive point.
  if (s.roc_x_[roc_points - 1] < 1.0) PushMerged(s.roc_x_, s.roc_y_, roc_points, 1.0, 1.0);
  if (s.pr_x_[pr_points - 1] < 1.0) {
    PushMerged(s.pr_x_, s.pr_y_, pr_points, 1.0, n_pos / (n_pos + n_neg));
  }
  s.roc_x_.resize(roc_points);
  s.roc_y_.resize(roc_points);
  s.pr_x_.resize(pr_points);
  s.pr_y_.resize(pr_points);

  ReadGridThresholds(s.roc_x_, s.roc_y_, options_.fpr_grid, options_.strategy, out.tpr.data());
  ReadGridThresholds(s.pr_x_, s.pr_y_, options_.recall_grid, options_.strategy, out.precision.data());
  // The scripts' ShapAUC / ShapAUPRC: numpy trapz of the ShapROC / ShapPRC curves over the
  // grid; by linearity, per coalition the grid trapezoid of (tpr(g) - g) and of precision(r).
  out.auc = 0.5 + GridTrapezoid(options_.fpr_grid, out.tpr, true);
  out.auprc_trapezoid = GridTrapezoid(options_.recall_grid, out.precision, false);
  CompensatedSum step_sum;
  for (std::size_t k = 1; k < pr_points; ++k) {
    step_sum.Add((s.pr_x_[k] - s.pr_x_[k - 1]) * s.pr_y_[k]);
  }
  out.average_precision = step_sum.Value();
}

void CurveGridEvaluator::WritePayoffs(const CurveGridValues& values, double prc_baseline,
                                      std::span<double> out) const {
  const std::size_t nf = options_.fpr_grid.size();
  const std::size_t nr = options_.recall_grid.size();
  PERFSHAP_CHECK(out.size() == payoff_count(),
                 "CurveGridEvaluator::WritePayoffs: out has " + std::to_string(out.size()) +
                     " values, expected payoff_count() = " + std::to_string(payoff_count()));
  PERFSHAP_CHECK(values.tpr.size() == nf && values.precision.size() == nr,
                 "CurveGridEvaluator::WritePayoffs: values were not made by this evaluator");
  std::size_t k = 0;
  out[k++] = values.auc - 0.5;                                                           // eq. (5)
  for (std::size_t j = 0; j < nf; ++j) out[k++] = values.tpr[j] - options_.fpr_grid[j];  // (7)
  for (std::size_t j = 0; j < nr; ++j) out[k++] = values.precision[j] - prc_baseline;    // (15)
  const bool average =
      options_.mode == CurveMode::kExact && options_.auprc == AuprcDefinition::kAveragePrecision;
  out[k] = (average ? values.average_precision : values.auprc_trapezoid) - prc_baseline;  // (13)
}

CurveGridValues CurveGridEvaluator::RandomClassifier(double prc_baseline) const {
  CurveGridValues v;
  v.auc = 0.5;
  v.average_precision = prc_baseline;
  v.auprc_trapezoid = prc_baseline;
  v.tpr = options_.fpr_grid;
  v.precision.assign(options_.recall_grid.size(), prc_baseline);
  return v;
}

}  // namespace perfshap
