// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// ROC / PR curves read at fixed grids (shapauc-shaproc-robustness sections 3.2.2 and 3.4).
// Two modes: kExact walks the curve's points at every distinct score (metric.hpp's RocCurve /
// PrCurve, computed here without allocation from two sorted key arrays), kThresholds rebuilds
// the authors' 101-threshold curves from a histogram of the probabilities over the thresholds.
#include "perfshap/blocks/curves.hpp"

#include "common/compensated_sum.hpp"
#include "common/sort_keys.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using detail::CompensatedSum;
using detail::OrderedKey;
using detail::SortKeys;

std::string GridNumberText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

void CheckGrid(const char* name, const std::vector<double>& grid) {
  for (std::size_t j = 0; j < grid.size(); ++j) {
    const double g = grid[j];
    if (!(g >= 0.0 && g <= 1.0)) {
      throw InvalidArgument(std::string("CurveGridOptions: ") + name + "[" + std::to_string(j) +
                            "] = " + GridNumberText(g) + " is outside [0, 1]; grid points are rates");
    }
    if (j > 0 && !(g > grid[j - 1])) {
      throw InvalidArgument(std::string("CurveGridOptions: ") + name + "[" + std::to_string(j) + "] = " +
                            GridNumberText(g) + " does not exceed " + name + "[" + std::to_string(j - 1) +
                            "] = " + GridNumberText(grid[j - 1]) + "; pass grid points strictly increasing");
    }
  }
}

struct LabelCounts {
  std::size_t positives = 0;
  std::size_t negatives = 0;
};

[[noreturn]] void ThrowLabel(std::size_t i, double v) {
  throw InvalidArgument("CurveGridEvaluator: y_true[" + std::to_string(i) + "] = " + GridNumberText(v) +
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

void RequireBothClasses(const LabelCounts& c) {
  if (c.positives == 0 || c.negatives == 0) {
    throw InvalidArgument(
        std::string("CurveGridEvaluator: the ROC curve is undefined: y_true has only one class "
                    "(all ") +
        std::to_string(c.positives + c.negatives) + " labels are " + (c.negatives == 0 ? "1" : "0") +
        "); pass a sample holding both positives (1) and negatives (0)");
  }
}

constexpr std::uint64_t kUnseen = ~std::uint64_t{0};

/// The exact walk's tables from groups of tied rows, from the highest score down (sklearn
/// _binary_clf_curve), one curve point per group: per false- / true-positive count, the other
/// count at the first and the last point with that count. No data-dependent branch: the slots
/// of groups that start no new count go to the spare entry N + 1 / P + 1 (masks, not a branch,
/// which the compiler would otherwise emit for one of them: mispredicted at every other row, as
/// the labels come in random order).
template <class Groups>
void FillTablesFromGroups(Groups& groups, std::uint64_t big_p, std::uint64_t big_n, std::uint64_t* roc_first,
                          std::uint64_t* roc_last, std::uint64_t* pr_first, std::uint64_t* pr_last) noexcept {
  std::fill(roc_first + 1, roc_first + big_n + 2, kUnseen);
  std::fill(pr_first + 1, pr_first + big_p + 2, kUnseen);
  std::uint64_t tp = 0;
  std::uint64_t fp = 0;
  std::size_t dp = 0;
  std::size_t dn = 0;
  while (groups.Next(dp, dn)) {
    tp += dp;
    fp += dn;
    const std::uint64_t no_negative = std::uint64_t{0} - static_cast<std::uint64_t>(dn == 0);
    const std::uint64_t no_positive = std::uint64_t{0} - static_cast<std::uint64_t>(dp == 0);
    roc_first[(fp & ~no_negative) | ((big_n + 1) & no_negative)] = tp;
    roc_last[fp] = tp;
    pr_first[(tp & ~no_positive) | ((big_p + 1) & no_positive)] = fp;
    pr_last[tp] = fp;
  }
}

/// The first i in [from, m) with bytes[i] != 0, or m; eight bytes at a time (ties are rare).
std::size_t NextNonZero(const std::uint8_t* bytes, std::size_t from, std::size_t m) noexcept {
  while (from < m) {
    if (from + 8 <= m) {
      std::uint64_t word;
      std::memcpy(&word, bytes + from, sizeof(word));
      if (word == 0) {
        from += 8;
        continue;
      }
      if constexpr (std::endian::native == std::endian::little)
        return from + static_cast<std::size_t>(std::countr_zero(word)) / 8;
    }
    if (bytes[from] != 0) return from;
    ++from;
  }
  return m;
}

/// The same tables from rows already ranked (positive[i] = label of rank i, tie[i] != 0 when
/// rank i ties with rank i - 1; tie[0] is not read), for samples with few ties. First as if no row tied: then every
/// row is a point that starts a new count of its class, so a negative row fixes roc_first at its
/// fp and a positive one pr_first at its tp (one store each, the other class's to the spare
/// entry), and the last point of a count is the one before the next row of the other class:
/// roc_last[f] = roc_first[f + 1], pr_last[t] = pr_first[t + 1], with the final point (P, N).
/// Then each group of tied rows, taking the counts from (T0, F0) to (T1, F1), is one point:
/// counts strictly inside its range have no point, its own count's first point is (T1, F1), and
/// the last point at its starting count is the one before it, (T0, F0).
void FillTablesFromRanks(const std::uint8_t* positive, const std::uint8_t* tie, std::size_t m, std::uint64_t big_p,
                         std::uint64_t big_n, std::uint64_t* roc_first, std::uint64_t* roc_last,
                         std::uint64_t* pr_first, std::uint64_t* pr_last) noexcept {
  std::uint64_t tp = 0;
  std::uint64_t fp = 0;
  for (std::size_t r = m; r-- > 0;) {
    const std::uint64_t label = positive[r];
    const std::uint64_t is_positive = std::uint64_t{0} - label;
    tp += label;
    fp += 1 - label;
    roc_first[(fp & ~is_positive) | ((big_n + 1) & is_positive)] = tp;
    pr_first[(tp & is_positive) | ((big_p + 1) & ~is_positive)] = fp;
  }
  std::copy(roc_first + 1, roc_first + big_n + 1, roc_last);
  roc_last[big_n] = big_p;
  std::copy(pr_first + 1, pr_first + big_p + 1, pr_last);
  pr_last[big_p] = big_n;
  roc_first[big_n + 1] = kUnseen;
  pr_first[big_p + 1] = kUnseen;
  // The groups, from the lowest rank up: [lo, hi] with tie[j] != 0 for lo < j <= hi.
  std::uint64_t positives_below = 0;  // among ranks [0, scanned)
  std::size_t scanned = 0;
  for (std::size_t from = 1; from < m;) {
    const std::size_t next = NextNonZero(tie, from, m);
    if (next == m) break;
    const std::size_t lo = next - 1;
    std::size_t hi = lo + 1;
    while (hi + 1 < m && tie[hi + 1] != 0) ++hi;
    for (; scanned < lo; ++scanned) positives_below += positive[scanned];
    std::uint64_t group_positives = 0;
    for (std::size_t j = lo; j <= hi; ++j) group_positives += positive[j];
    const std::uint64_t t1 = big_p - positives_below;
    const std::uint64_t f1 = big_n - (lo - positives_below);
    const std::uint64_t t0 = t1 - group_positives;
    const std::uint64_t f0 = f1 - ((hi - lo + 1) - group_positives);
    if (f1 > f0) {
      for (std::uint64_t f = f0 + 1; f < f1; ++f) roc_first[f] = kUnseen;
      roc_first[f1] = t1;
      roc_last[f0] = t0;
    }
    if (t1 > t0) {
      for (std::uint64_t t = t0 + 1; t < t1; ++t) pr_first[t] = kUnseen;
      pr_first[t1] = f1;
      pr_last[t0] = f0;
    }
    positives_below += group_positives;
    scanned = hi + 1;
    from = hi + 1;
  }
}

/// A count (below 2^63) as a double, through the signed conversion: one instruction, where the
/// unsigned one costs a branch and a fix-up. The same value.
inline double CountValue(std::uint64_t c) noexcept { return static_cast<double>(static_cast<std::int64_t>(c)); }
constexpr std::uint32_t kNone = ~std::uint32_t{0};

/// Where each grid point g falls among the rates r(c) = c / n (c = 0..n, increasing, r(0) = 0,
/// r(n) = 1): below = the largest c with r(c) < g, equal = the c with r(c) == g, above = the
/// smallest c with r(c) > g (kNone where there is none).
void IndexGrid(std::span<const double> grid, const double* rate, std::size_t n, std::vector<std::uint32_t>& below,
               std::vector<std::uint32_t>& equal, std::vector<std::uint32_t>& above) {
  below.assign(grid.size(), kNone);
  equal.assign(grid.size(), kNone);
  above.assign(grid.size(), kNone);
  std::size_t c = 0;  // the first count with rate >= g
  for (std::size_t k = 0; k < grid.size(); ++k) {
    const double g = grid[k];
    while (c <= n && rate[c] < g) ++c;
    if (c > 0) below[k] = static_cast<std::uint32_t>(c - 1);
    std::size_t next = c;
    if (c <= n && rate[c] == g) {
      equal[k] = static_cast<std::uint32_t>(c);
      ++next;
    }
    if (next <= n) above[k] = static_cast<std::uint32_t>(next);
  }
}

/// Section 3.2.2 with the ARCHITECTURE.md kExact rule, read from the walk's tables: the curve's
/// points with count c (FPR or recall = rate(c)) run from y_first(c) to y_last(c). A grid point g
/// that some points lie on exactly gives y_a / y_b = the lowest / highest y among them (the
/// strategy: pessimistic, optimistic, or their mean); otherwise a = the last point with x < g,
/// b = the first with x > g: optimistic max(y_a, y_b), pessimistic min, interpolation
/// y_a + (y_b - y_a)(g - x_a)/(x_b - x_a). YAt(c, first) gives the y of the first (first = true)
/// or the last point with count c.
template <class YAt>
void ReadGridExact(std::span<const double> grid, GridStrategy strategy, const double* rate,
                   const std::uint32_t* below, const std::uint32_t* equal, const std::uint32_t* above,
                   const std::uint64_t* first_at, YAt y_at, double* out) {
  for (std::size_t k = 0; k < grid.size(); ++k) {
    const std::uint32_t eq = equal[k];
    if (eq != kNone && first_at[eq] != kUnseen) {
      const double y_first = y_at(eq, true);
      const double y_last = y_at(eq, false);
      const double lowest = std::min(y_first, y_last);
      const double highest = std::max(y_first, y_last);
      switch (strategy) {
        case GridStrategy::kOptimistic:
          out[k] = highest;
          break;
        case GridStrategy::kPessimistic:
          out[k] = lowest;
          break;
        default:
          out[k] = (lowest + highest) / 2.0;
          break;
      }
      continue;
    }
    // Not a run, so 0 < g < 1, and counts 0 and n always have points: the nearest counts
    // with points below and above g exist (usually below[k] and above[k] themselves; counts
    // skipped by a group of tied rows have none).
    std::uint32_t a = below[k];
    while (first_at[a] == kUnseen) --a;
    std::uint32_t b = above[k];
    while (first_at[b] == kUnseen) ++b;
    const double y_a = y_at(a, false);
    const double y_b = y_at(b, true);
    switch (strategy) {
      case GridStrategy::kOptimistic:
        out[k] = std::max(y_a, y_b);
        break;
      case GridStrategy::kPessimistic:
        out[k] = std::min(y_a, y_b);
        break;
      default: {
        const double x_a = rate[a];
        out[k] = y_a + (y_b - y_a) * (grid[k] - x_a) / (rate[b] - x_a);
        break;
      }
    }
  }
}

/// Precision tp / (tp + fp), and 1 at the leading point (0, 0) (sklearn's first PR point).
double PrecisionOf(std::uint64_t tp, std::uint64_t fp) noexcept {
  if (tp + fp == 0) return 1.0;
  const double tps = CountValue(tp);
  return tps / (tps + CountValue(fp));
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

/// numpy trapz(y, x) over the first `count` points: sum_k (x_{k+1} - x_k) (y_k + y_{k+1}) / 2,
/// each term as numpy forms it, summed in index order (compensated: about one ulp whatever the
/// number of points).
double Trapezoid(const double* x, const double* y, std::size_t count) noexcept {
  CompensatedSum sum;
  for (std::size_t k = 0; k + 1 < count; ++k) sum.Add((x[k + 1] - x[k]) * (y[k] + y[k + 1]) / 2.0);
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

double GridTrapezoid(std::span<const double> grid, std::span<const double> values) {
  PERFSHAP_CHECK(grid.size() == values.size(), "GridTrapezoid: the grid has " + std::to_string(grid.size()) +
                                                   " points but values has " + std::to_string(values.size()) +
                                                   "; pass one value per grid point");
  return Trapezoid(grid.data(), values.data(), grid.size());
}

void CurveGridScratch::Reserve(std::size_t m, int thresholds) {
  const std::size_t t = thresholds > 0 ? static_cast<std::size_t>(thresholds) : 0;
  const std::size_t points = std::max(m, t) + 2;
  keys_.reserve(m);
  roc_first_.reserve(m + 2);
  roc_last_.reserve(m + 2);
  pr_first_.reserve(m + 2);
  pr_last_.reserve(m + 2);
  positives_.reserve(t + 1);
  negatives_.reserve(t + 1);
  roc_x_.reserve(points);
  roc_y_.reserve(points);
  pr_x_.reserve(points);
  pr_y_.reserve(points);
}

// kExact points from the walk's tables: every point ends a group of tied rows; a group with
// positives ends at the first point of its true-positive count t, (t, pr_first[t]), one with
// negatives only at the first point of its false-positive count c, (roc_first[c], c). Both
// lists rise in tp and fp; merged (a point in both once), with the leading (0, 0), they are the
// curve's points in walk order.
template <class Emit>
void ExactPoints(const std::vector<std::uint64_t>& roc_first, const std::vector<std::uint64_t>& pr_first, Emit emit) {
  const std::size_t big_n = roc_first.size() - 2;
  const std::size_t big_p = pr_first.size() - 2;
  emit(0, 0);
  std::size_t t = 1;
  std::size_t c = 1;
  while (t <= big_p || c <= big_n) {
    while (t <= big_p && pr_first[t] == kUnseen) ++t;
    while (c <= big_n && roc_first[c] == kUnseen) ++c;
    const bool has_t = t <= big_p;
    const bool has_c = c <= big_n;
    if (!has_t && !has_c) break;
    // Candidates (t, pr_first[t]) and (roc_first[c], c): the one earlier in the walk first.
    const std::uint64_t t_fp = has_t ? pr_first[t] : kUnseen;
    const std::uint64_t c_tp = has_c ? roc_first[c] : kUnseen;
    if (has_t && has_c && t_fp == c && c_tp == t) {  // one point, reached by a mixed group
      emit(t, c);
      ++t;
      ++c;
    } else if (has_t && (!has_c || t_fp < c || (t_fp == c && t < c_tp))) {
      emit(t, t_fp);
      ++t;
    } else {
      emit(c_tp, c);
      ++c;
    }
  }
}

CurvePoints CurveGridScratch::roc() const {
  if (roc_points_ == 0 && exact_points_) {
    roc_x_.clear();
    roc_y_.clear();
    ExactPoints(roc_first_, pr_first_, [&](std::uint64_t tp, std::uint64_t fp) {
      roc_x_.push_back(fpr_of_[fp]);
      roc_y_.push_back(tpr_of_[tp]);
    });
    roc_points_ = roc_x_.size();
  }
  return {std::span<const double>(roc_x_).first(roc_points_), std::span<const double>(roc_y_).first(roc_points_)};
}

CurvePoints CurveGridScratch::pr() const {
  if (pr_points_ == 0 && exact_points_) {
    pr_x_.clear();
    pr_y_.clear();
    ExactPoints(roc_first_, pr_first_, [&](std::uint64_t tp, std::uint64_t fp) {
      pr_x_.push_back(tpr_of_[tp]);
      pr_y_.push_back(PrecisionOf(tp, fp));
    });
    pr_points_ = pr_x_.size();
  }
  return {std::span<const double>(pr_x_).first(pr_points_), std::span<const double>(pr_y_).first(pr_points_)};
}

CurveGridEvaluator::CurveGridEvaluator(CurveGridOptions options) : options_(std::move(options)) {
  static std::atomic<std::uint64_t> next_id{1};
  id_ = next_id.fetch_add(1, std::memory_order_relaxed);
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
  RequireBothClasses({front, m - front});
  std::uint64_t* const keys = s.keys_.data();
  SortKeys(keys, front);
  SortKeys(keys + front, m - front);

  // The distinct scores from the highest, both classes at once: positives [0, pos) and
  // negatives [front, neg) not yet walked.
  struct Merge {
    const std::uint64_t* keys;
    std::size_t front;
    std::size_t pos;
    std::size_t neg;
    bool Next(std::size_t& dp, std::size_t& dn) noexcept {
      if (pos == 0 && neg == front) return false;
      std::uint64_t key = 0;
      if (pos > 0) key = keys[pos - 1];
      if (neg > front) key = std::max(key, keys[neg - 1]);
      dp = 0;
      dn = 0;
      while (pos > 0 && keys[pos - 1] == key) {
        --pos;
        ++dp;
      }
      while (neg > front && keys[neg - 1] == key) {
        --neg;
        ++dn;
      }
      return true;
    }
  } groups{keys, front, front, m};
  WalkExact(
      [&](std::uint64_t* roc_first, std::uint64_t* roc_last, std::uint64_t* pr_first, std::uint64_t* pr_last) {
        FillTablesFromGroups(groups, front, m - front, roc_first, roc_last, pr_first, pr_last);
      },
      front, m - front, s, out);
}

void CurveGridEvaluator::EvaluateRanked(std::span<const std::uint8_t> positive_by_rank,
                                        std::span<const std::uint8_t> tie_with_previous, CurveGridScratch& s,
                                        CurveGridValues& out) const {
  PERFSHAP_CHECK(options_.mode == CurveMode::kExact,
                 "CurveGridEvaluator::EvaluateRanked reads exact curves; use Evaluate for the curve points " +
                     CurvePointsName(options_),
                 {"curves"});
  const std::size_t m = positive_by_rank.size();
  CheckLengths(m, tie_with_previous.size());
  out.tpr.resize(options_.fpr_grid.size());
  out.precision.resize(options_.recall_grid.size());
  // Count and validate in one branch-free pass over the bytes.
  const std::uint8_t* const pos = positive_by_rank.data();
  std::size_t positives = 0;
  unsigned other_bits = 0;
  for (std::size_t i = 0; i < m; ++i) {
    positives += pos[i];
    other_bits |= pos[i];
  }
  if ((other_bits & ~1u) != 0)
    for (std::size_t i = 0; i < m; ++i)
      if (pos[i] > 1)
        throw InvalidArgument("CurveGridEvaluator: positive_by_rank[" + std::to_string(i) + "] = " +
                              std::to_string(pos[i]) + " is not a binary label; pass 0 (negative) or 1 (positive)");
  RequireBothClasses({positives, m - positives});
  const std::uint8_t* const tie = tie_with_previous.data();
  WalkExact(
      [&](std::uint64_t* roc_first, std::uint64_t* roc_last, std::uint64_t* pr_first, std::uint64_t* pr_last) {
        FillTablesFromRanks(pos, tie, m, positives, m - positives, roc_first, roc_last, pr_first, pr_last);
      },
      positives, m - positives, s, out);
}

// The curve walk shared by EvaluateExact and EvaluateRanked: groups of tied rows from the
// highest score down (sklearn _binary_clf_curve), one curve point per group. The walk itself has
// no data-dependent branch: it records counts (per point, and the first and last point at each
// false- / true-positive count) and the two areas; the grids are read from those tables after it.
// Rates come from tables made once per class counts, so the only division per point is the
// precision of the areas.
template <class FillTables>
void CurveGridEvaluator::WalkExact(FillTables&& fill, std::size_t n_pos_count, std::size_t n_neg_count,
                                   CurveGridScratch& s, CurveGridValues& out) const {
  const std::size_t big_n = n_neg_count;
  const std::size_t big_p = n_pos_count;
  const auto n_pos = static_cast<double>(big_p);
  const auto n_neg = static_cast<double>(big_n);
  if (s.tpr_of_.size() != big_p + 1) {
    s.tpr_of_.resize(big_p + 1);
    for (std::size_t c = 0; c <= big_p; ++c) s.tpr_of_[c] = static_cast<double>(c) / n_pos;
  }
  if (s.fpr_of_.size() != big_n + 1) {
    s.fpr_of_.resize(big_n + 1);
    for (std::size_t c = 0; c <= big_n; ++c) s.fpr_of_[c] = static_cast<double>(c) / n_neg;
  }
  const double* const tpr_of = s.tpr_of_.data();
  const double* const fpr_of = s.fpr_of_.data();
  // Slot N + 1 (P + 1) receives the writes of groups that start no new count. The filler sets
  // every first-point entry (kUnseen where a count has no point).
  s.roc_first_.resize(big_n + 2);
  s.roc_last_.resize(big_n + 2);
  s.pr_first_.resize(big_p + 2);
  s.pr_last_.resize(big_p + 2);
  std::uint64_t* const roc_first = s.roc_first_.data();
  std::uint64_t* const roc_last = s.roc_last_.data();
  std::uint64_t* const pr_first = s.pr_first_.data();
  std::uint64_t* const pr_last = s.pr_last_.data();
  // The leading point at threshold +inf: ROC (0, 0), PR (recall 0, precision 1).
  roc_first[0] = roc_last[0] = 0;
  pr_first[0] = pr_last[0] = 0;

  fill(roc_first, roc_last, pr_first, pr_last);
  std::uint64_t twice_u = 0;
  s.exact_points_ = true;
  s.roc_points_ = 0;
  s.pr_points_ = 0;
  // The areas, metric.cpp AveragePrecision / AuprcTrapezoid's terms in the same order: one per
  // group holding positives, i.e. per true-positive count c reached (pr_first[c] set), at that
  // group's point (c, pr_first[c]); the trapezoid pairs it with the point before the group, the
  // last one with the previous count c' (c', pr_last[c']).
  // The precision at the first and the last point of each count reached is kept for the PR
  // grid below.
  s.prec_first_.resize(big_p + 1);
  s.prec_last_.resize(big_p + 1);
  double* const prec_first = s.prec_first_.data();
  double* const prec_last = s.prec_last_.data();
  CompensatedSum average_precision;
  CompensatedSum trapezoid;
  std::uint64_t previous = 0;
  double previous_precision = PrecisionOf(0, pr_last[0]);
  prec_first[0] = PrecisionOf(0, pr_first[0]);
  prec_last[0] = previous_precision;
  // The Mann-Whitney sum from the same groups: the group reaching c has dp = c - c' positives
  // and dn = pr_first[c] - pr_last[c'] negatives, and ends with pr_first[c] false positives.
  for (std::uint64_t c = 1; c <= big_p; ++c) {
    if (pr_first[c] == kUnseen) continue;
    const std::uint64_t fp_end = pr_first[c];
    const std::uint64_t group_dp = c - previous;
    twice_u += group_dp * (2 * (big_n - fp_end) + (fp_end - pr_last[previous]));
    const double tps = CountValue(c);
    const double precision = tps / (tps + CountValue(fp_end));
    const double dtp = CountValue(group_dp);
    average_precision.Add(dtp * precision);
    trapezoid.Add(dtp * (0.5 * (precision + previous_precision)));
    previous = c;
    previous_precision = tps / (tps + CountValue(pr_last[c]));
    prec_first[c] = precision;
    prec_last[c] = previous_precision;
  }
  out.auc = CountValue(twice_u) / (2.0 * (n_pos * n_neg));
  out.average_precision = average_precision.Value() / n_pos;
  out.auprc_trapezoid = trapezoid.Value() / n_pos;

  // The grids.
  auto index = [this](CurveGridScratch::GridIndex& cache, std::span<const double> grid, const double* rate,
                      std::size_t n) -> const CurveGridScratch::GridIndex& {
    if (cache.evaluator != id_ || cache.count != n) {
      IndexGrid(grid, rate, n, cache.below, cache.equal, cache.above);
      cache.evaluator = id_;
      cache.count = n;
    }
    return cache;
  };
  {
    const auto& idx = index(s.roc_index_, options_.fpr_grid, fpr_of, big_n);
    ReadGridExact(
        options_.fpr_grid, options_.strategy, fpr_of, idx.below.data(), idx.equal.data(), idx.above.data(),
        roc_first,
        [&](std::uint32_t c, bool first) { return tpr_of[first ? roc_first[c] : roc_last[c]]; }, out.tpr.data());
  }
  {
    const auto& idx = index(s.pr_index_, options_.recall_grid, tpr_of, big_p);
    ReadGridExact(
        options_.recall_grid, options_.strategy, tpr_of, idx.below.data(), idx.equal.data(), idx.above.data(),
        pr_first,
        [&](std::uint32_t c, bool first) { return first ? prec_first[c] : prec_last[c]; },
        out.precision.data());
  }
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
      throw InvalidArgument("CurveGridEvaluator: score[" + std::to_string(i) + "] = " + GridNumberText(p) +
                                " is not a probability; the curve points thresholds:T need "
                                "probabilities in [0, 1] (use exact curve points for other scores)",
                            {"curves"});
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
  LabelCounts counts;
  for (std::size_t c = 0; c <= t; ++c) {
    counts.positives += s.positives_[c];
    counts.negatives += s.negatives_[c];
  }
  RequireBothClasses(counts);
  const auto n_pos = static_cast<double>(counts.positives);
  const auto n_neg = static_cast<double>(counts.negatives);

  // Walk the thresholds from the highest: counts only grow, so x (FPR, recall) never
  // decreases and the merge of equal x needs no sort.
  for (auto* v : {&s.roc_x_, &s.roc_y_, &s.pr_x_, &s.pr_y_})
    if (v->size() < t + 2) v->resize(t + 2);
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
  s.exact_points_ = false;
  s.roc_points_ = roc_points;
  s.pr_points_ = pr_points;
  const auto roc = s.roc();
  const auto pr = s.pr();
  ReadGridThresholds(roc.x, roc.y, options_.fpr_grid, options_.strategy, out.tpr.data());
  ReadGridThresholds(pr.x, pr.y, options_.recall_grid, options_.strategy, out.precision.data());
  // The areas the scripts' ShapAUC / ShapAUPRC explain (eqs. 5 and 13): each coalition's own
  // curve, the trapezoid over its merged knots, x = the knots' FPR / recall, never the grid
  // readings (so they do not depend on the strategy). The knots run from x = 0 (threshold 1:
  // nothing positive) to x = 1 (closed above if need be), so AUC - 0.5 and AUPRC - b are the
  // scripts' trapz(TPR - FPR, FPR) and trapz(precision - b, recall) up to rounding.
  out.auc = Trapezoid(s.roc_x_.data(), s.roc_y_.data(), roc_points);
  out.auprc_trapezoid = Trapezoid(s.pr_x_.data(), s.pr_y_.data(), pr_points);
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

}}  // namespace perfshap
