// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "metrics/xper_rank.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

namespace {

std::size_t CountPositive(std::span<const std::uint8_t> positive) {
  std::size_t c = 0;
  for (std::uint8_t v : positive) c += v != 0 ? 1 : 0;
  return c;
}

// Number of sorted values strictly below each query of a non-decreasing query sequence
// q_u = base + sorted_b[u], summed over u: one merge of two sorted lists (O(n + m)).
// The query is formed exactly as the caller forms the scores (base + b), so equal points give
// equal doubles and ties are kept.
std::uint64_t MergeCountBelow(double base, std::span<const double> sorted_b,
                              std::span<const double> sorted_c) {
  std::uint64_t total = 0;
  std::size_t ptr = 0;
  const std::size_t m = sorted_c.size();
  const double* c = sorted_c.data();
  for (double bu : sorted_b) {
    const double q = base + bu;
    while (ptr < m && c[ptr] < q) ++ptr;
    total += ptr;
  }
  return total;
}

// Monotone 31-bit key of a score in [lo, hi]: s1 < s2 implies key(s1) <= key(s2), because
// subtraction and multiplication by a positive constant round monotonically. Equal keys are
// resolved by comparing the scores themselves, so the order is exact.
struct KeyMap {
  // Halved bounds: hi - lo can overflow to inf for finite scores near the double range, and an
  // inf range would turn every key into NaN (an undefined int conversion). Halving is exact
  // for normal numbers and keeps the map monotone.
  double half_lo = 0.0;
  double scale = 0.0;
  // 31-bit keys: the conversion goes through int32, which vectorises (cvttpd2dq).
  static constexpr double kMax = 2147483647.0;

  KeyMap(double lo_in, double hi_in) : half_lo(0.5 * lo_in) {
    const double half_range = 0.5 * hi_in - 0.5 * lo_in;
    if (half_range > 0) scale = kMax / half_range;
    if (!std::isfinite(scale)) scale = 0.0;  // range too narrow for a key: one run, sorted exactly
  }
  std::uint32_t operator()(double s) const {
    const double t = std::min((0.5 * s - half_lo) * scale, kMax);
    return static_cast<std::uint32_t>(static_cast<std::int32_t>(t));
  }
};

// Key layout: the top `top_bits` bits pick a bucket (one scatter pass over main memory); the
// low bits are sorted inside each bucket while it sits in cache. top_bits grows with the grid
// so that buckets hold a few thousand points.
constexpr int kMaxTopBits = 10;
constexpr int kMaxDigitBits = 12;
constexpr std::size_t kSmallBucket = 48;  // insertion sort below this size

// Buckets of about 2^14 points (128 KB of records: in L2 while they are sorted).
int TopBits(std::size_t m) {
  const int width = static_cast<int>(std::bit_width(m));
  return std::clamp(width - 14, 0, kMaxTopBits);
}

// Sorts one bucket's records by their low key (bits 32..32+low_bits), LSD with digits of at
// most 12 bits through tmp, skipping constant digits. Returns the sorted range (rec or tmp).
std::uint64_t* SortBucket(std::uint64_t* rec, std::uint64_t* tmp, std::size_t m, int low_bits,
                          std::uint32_t* hist) {
  if (m <= kSmallBucket) {
    for (std::size_t i = 1; i < m; ++i) {
      const std::uint64_t v = rec[i];
      const std::uint64_t kv = v >> 32;
      std::size_t j = i;
      while (j > 0 && (rec[j - 1] >> 32) > kv) {
        rec[j] = rec[j - 1];
        --j;
      }
      rec[j] = v;
    }
    return rec;
  }
  const int digits = (low_bits + kMaxDigitBits - 1) / kMaxDigitBits;
  int width[3] = {0, 0, 0};
  int shift[3] = {0, 0, 0};
  for (int d = 0, at = 32; d < digits; ++d) {
    width[d] = (low_bits - (at - 32) + (digits - d) - 1) / (digits - d);
    shift[d] = at;
    at += width[d];
  }
  const std::size_t stride = std::size_t{1} << kMaxDigitBits;
  std::fill_n(hist, static_cast<std::size_t>(digits) * stride, 0U);
  const std::uint64_t m0 = (std::uint64_t{1} << width[0]) - 1;
  const std::uint64_t m1 = (std::uint64_t{1} << width[1]) - 1;
  const std::uint64_t m2 = (std::uint64_t{1} << width[2]) - 1;
  std::uint32_t* h0 = hist;
  std::uint32_t* h1 = hist + stride;
  std::uint32_t* h2 = hist + 2 * stride;
  if (digits == 2) {  // the common case (up to 24 low bits): unrolled
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t v = rec[i];
      ++h0[(v >> shift[0]) & m0];
      ++h1[(v >> shift[1]) & m1];
    }
  } else {
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t v = rec[i];
      ++h0[(v >> shift[0]) & m0];
      if (digits > 1) ++h1[(v >> shift[1]) & m1];
      if (digits > 2) ++h2[(v >> shift[2]) & m2];
    }
  }
  std::uint64_t* src = rec;
  std::uint64_t* dst = tmp;
  for (int d = 0; d < digits; ++d) {
    std::uint32_t* h = hist + static_cast<std::size_t>(d) * stride;
    const std::size_t nb = std::size_t{1} << width[d];
    if (std::any_of(h, h + nb, [m](std::uint32_t c) { return c == m; })) continue;  // constant digit
    std::uint32_t run = 0;
    for (std::size_t b = 0; b < nb; ++b) {
      const std::uint32_t c = h[b];
      h[b] = run;
      run += c;
    }
    const int sh = shift[d];
    const std::uint64_t mask = nb - 1;
    for (std::size_t i = 0; i < m; ++i) {
      const std::uint64_t v = src[i];
      dst[h[(v >> sh) & mask]++] = v;
    }
    std::swap(src, dst);
  }
  return src;
}

// Pass 1 of FullGridRank: adds to top[b] the number of grid points whose key's top bits are b
// (the keys are recomputed in pass 2: cheaper than storing them). Rows are mostly increasing,
// so runs of one bucket are counted in a register rather than through a memory increment per
// point (a store-to-load chain). kr: n keys of scratch.
template <class KeyRow>
void CountBuckets(std::size_t n, const KeyRow& key_row, int low_bits, std::uint32_t* kr, std::size_t* top) {
  for (std::size_t k = 0; k < n; ++k) {
    key_row(k, kr);
    std::uint32_t cur = kr[0] >> low_bits;
    std::size_t count = 0;
    for (std::size_t l = 0; l < n; ++l) {
      const std::uint32_t b = kr[l] >> low_bits;
      if (b != cur) {
        top[cur] += count;
        cur = b;
        count = 0;
      }
      ++count;
    }
    top[cur] += count;
  }
}

// Turns the n_top bucket sizes in top into the buckets' starts; returns the largest size.
std::size_t BucketStarts(std::size_t* top, std::size_t n_top) {
  std::size_t largest = 0;
  std::size_t run = 0;
  for (std::size_t b = 0; b < n_top; ++b) {
    const std::size_t c = top[b];
    largest = std::max(largest, c);
    top[b] = run;
    run += c;
  }
  return largest;
}

// Pass 2 of FullGridRank: scatters the records (low key << 32 | k << 16 | l) into their
// buckets; top[b] ends at the start of bucket b + 1.
template <class KeyRow>
void ScatterRecords(std::size_t n, const KeyRow& key_row, int low_bits, std::uint32_t* kr, std::size_t* top,
                    std::uint64_t* out) {
  const std::uint64_t low_mask = (std::uint64_t{1} << low_bits) - 1;
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint64_t owner = static_cast<std::uint64_t>(k) << 16;
    key_row(k, kr);
    std::uint64_t cur = kr[0] >> low_bits;
    std::size_t at = top[cur];
    for (std::size_t l = 0; l < n; ++l) {
      const std::uint64_t kv = kr[l];
      const std::uint64_t b = kv >> low_bits;
      if (b != cur) {
        top[cur] = at;
        cur = b;
        at = top[cur];
      }
      out[at++] = ((kv & low_mask) << 32) | owner | l;
    }
    top[cur] = at;
  }
}

// The records [r, stop) of a sorted bucket share one key: orders them by their exact scores,
// then counts each group of equal scores at once, advancing below0 / below1 past the run.
template <class Score>
void CountTiedRun(const std::uint64_t* src, std::size_t r, std::size_t stop, const Score& score,
                  std::span<const std::uint8_t> positive, std::span<std::uint64_t> totals,
                  std::uint64_t n_pos_points, std::vector<std::pair<double, std::uint32_t>>& tied,
                  std::uint64_t& below0, std::uint64_t& below1) {
  tied.clear();
  for (std::size_t t = r; t < stop; ++t) {
    const auto k = static_cast<std::uint32_t>((src[t] >> 16) & 0xFFFFU);
    const std::size_t l = src[t] & 0xFFFFU;
    tied.emplace_back(score(k, l), k);
  }
  std::sort(tied.begin(), tied.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::size_t g = 0;
  while (g < tied.size()) {
    std::size_t ge = g + 1;
    while (ge < tied.size() && tied[ge].first == tied[g].first) ++ge;
    std::uint64_t group_pos = 0;
    for (std::size_t t = g; t < ge; ++t) {
      const std::uint32_t k = tied[t].second;
      if (positive[k] != 0) {
        totals[k] += below0;
        ++group_pos;
      } else {
        totals[k] += n_pos_points - below1;
      }
    }
    below1 += group_pos;
    below0 += (ge - g) - group_pos;
    g = ge;
  }
}

// Pass 3 of FullGridRank: bucket by bucket in increasing key (bucket b ends at top[b]), sorts
// in cache, then sweeps. below0/below1 = negative/positive points strictly below the current score.
template <class Score>
void SweepBuckets(std::size_t n, const Score& score, std::span<const std::uint8_t> positive,
                  std::span<std::uint64_t> totals, const std::size_t* top, std::size_t n_top, int low_bits,
                  XperRankScratch& scratch) {
  const std::uint64_t n_pos_points = static_cast<std::uint64_t>(CountPositive(positive)) * n;
  std::uint64_t below0 = 0, below1 = 0;
  std::fill(totals.begin(), totals.end(), 0);
  std::size_t begin = 0;
  for (std::size_t b = 0; b < n_top; ++b) {
    const std::size_t end = top[b];
    const std::size_t size = end - begin;
    if (size == 0) continue;
    const std::uint64_t* src = SortBucket(scratch.records.data() + begin, scratch.buffer.data(), size, low_bits,
                                          scratch.digit_histogram.data());
    std::size_t r = 0;
    while (r < size) {
      const std::uint64_t kv = src[r] >> 32;
      std::size_t stop = r + 1;
      while (stop < size && (src[stop] >> 32) == kv) ++stop;
      if (stop == r + 1) {
        // Branch-free: the owner's class is a coin flip for the branch predictor.
        const std::size_t k = (src[r] >> 16) & 0xFFFFU;
        const std::uint64_t pos = positive[k];
        const std::uint64_t mask = 0 - pos;
        totals[k] += (below0 & mask) | ((n_pos_points - below1) & ~mask);
        below1 += pos;
        below0 += 1 - pos;
      } else {
        // Equal keys: order by the exact score, then count each group of equal scores at once.
        CountTiedRun(src, r, stop, score, positive, totals, n_pos_points, scratch.run, below0, below1);
      }
      r = stop;
    }
    begin = end;
  }
}

// Grid rank sweep over n^2 points (k, l) with score(k, l); key_row(k, keys) writes the keys
// of row k (n values). A monotone 31-bit key orders the points (MSD: one scatter by the top
// bits, then an in-cache LSD sort of each bucket by the low bits); points with equal keys are
// ordered by their exact scores, and each group of equal scores is counted at once.
// Record = low key << 32 | k << 16 | l.
template <class Score, class KeyRow>
void FullGridRank(std::size_t n, const Score& score, const KeyRow& key_row,
                  std::span<const std::uint8_t> positive, std::span<std::uint64_t> totals,
                  XperRankScratch& scratch) {
  PERFSHAP_CHECK(n >= 1 && n <= kMaxFullGridRows,
                 "XPER full comparator: the sample needs between 1 and 65535 rows");
  const std::size_t m = n * n;
  const int top_bits = TopBits(m);
  const int low_bits = 31 - top_bits;
  const std::size_t n_top = std::size_t{1} << top_bits;
  auto& top_hist = scratch.histogram;
  top_hist.assign(n_top, 0);
  std::size_t* top = top_hist.data();
  scratch.digit_histogram.resize(std::size_t{3} << kMaxDigitBits);
  auto& keys = scratch.row_keys;
  keys.resize(n);
  std::uint32_t* kr = keys.data();

  CountBuckets(n, key_row, low_bits, kr, top);
  const std::size_t largest = BucketStarts(top, n_top);
  scratch.records.resize(m);
  scratch.buffer.resize(largest);
  ScatterRecords(n, key_row, low_bits, kr, top, scratch.records.data());
  SweepBuckets(n, score, positive, totals, top, n_top, low_bits, scratch);
}

void CheckFinite(std::span<const double> v, const char* what) {
  for (double x : v)
    if (!std::isfinite(x))
      throw DataError(
          std::string("XPER: the model's ") + what +
          " contain a non-finite value; check the model and the sample for huge or missing values");
}

}  // namespace

void PermutedRankAdditive(std::span<const double> a, std::span<const double> b,
                          std::span<const std::size_t> pi, std::span<const std::uint8_t> positive,
                          std::span<std::uint64_t> totals, XperRankScratch& scratch) {
  const std::size_t n = a.size();
  auto& sb = scratch.sorted_b;
  sb.assign(b.begin(), b.end());
  std::sort(sb.begin(), sb.end());
  auto& c0 = scratch.comparison_neg;
  auto& c1 = scratch.comparison_pos;
  c0.clear();
  c1.clear();
  // Comparison sample w_k = (x_k on S, x_pi(k) off S): score a_k + b_pi(k), class of k.
  for (std::size_t k = 0; k < n; ++k) (positive[k] != 0 ? c1 : c0).push_back(a[k] + b[pi[k]]);
  std::sort(c0.begin(), c0.end());
  std::sort(c1.begin(), c1.end());
  const std::uint64_t all_pos = static_cast<std::uint64_t>(c1.size()) * n;
  for (std::size_t i = 0; i < n; ++i) {
    if (positive[i] != 0) {
      totals[i] = MergeCountBelow(a[i], sb, c0);
    } else {
      totals[i] = all_pos - MergeCountBelow(a[i], sb, c1);
    }
  }
}

void PrepareComparison(std::span<const double> comparison, std::span<const std::uint8_t> positive,
                       XperRankScratch& scratch) {
  CheckFinite(comparison, "predictions");
  auto& c0 = scratch.comparison_neg;
  auto& c1 = scratch.comparison_pos;
  c0.clear();
  c1.clear();
  for (std::size_t k = 0; k < comparison.size(); ++k) (positive[k] != 0 ? c1 : c0).push_back(comparison[k]);
  std::sort(c0.begin(), c0.end());
  std::sort(c1.begin(), c1.end());
}

std::uint64_t PermutedRankRow(std::span<const double> row, bool positive_row,
                              const XperRankScratch& scratch) {
  std::uint64_t total = 0;
  if (positive_row) {
    const auto& c = scratch.comparison_neg;
    for (double q : row)
      total += static_cast<std::uint64_t>(std::lower_bound(c.begin(), c.end(), q) - c.begin());
  } else {
    const auto& c = scratch.comparison_pos;
    for (double q : row)
      total += static_cast<std::uint64_t>(c.end() - std::lower_bound(c.begin(), c.end(), q));
  }
  return total;
}

void FullGridRankAdditive(std::span<const double> a, std::span<const double> b,
                          std::span<const std::uint8_t> positive, std::span<std::uint64_t> totals,
                          XperRankScratch& scratch) {
  CheckFinite(a, "scores");
  CheckFinite(b, "scores");
  // fl(a + b) is non-decreasing in each argument, so the grid's extremes are these sums.
  const auto [amin, amax] = std::minmax_element(a.begin(), a.end());
  const auto [bmin, bmax] = std::minmax_element(b.begin(), b.end());
  const double lo = *amin + *bmin;
  const double hi = *amax + *bmax;
  if (!std::isfinite(lo) || !std::isfinite(hi))
    throw DataError("XPER: the model's scores overflow; check the model and the sample for huge values");
  // Columns in increasing b: every row's scores are then increasing, so the scatter pass
  // writes each row into consecutive slots of few buckets. Only the owner k is needed later.
  auto& sb = scratch.sorted_b;
  sb.assign(b.begin(), b.end());
  std::sort(sb.begin(), sb.end());
  const double* pa = a.data();
  const double* pb = sb.data();
  const std::size_t n = a.size();
  const KeyMap key(lo, hi);
  FullGridRank(
      n, [pa, pb](std::size_t k, std::size_t l) { return pa[k] + pb[l]; },
      [pa, pb, n, key](std::size_t k, std::uint32_t* out) {
        const double ak = pa[k];
        for (std::size_t l = 0; l < n; ++l) out[l] = key(ak + pb[l]);
      },
      positive, totals, scratch);
}

void FullGridRankStored(std::span<const double> grid, std::size_t n, std::span<const std::uint8_t> positive,
                        std::span<std::uint64_t> totals, XperRankScratch& scratch) {
  CheckFinite(grid, "predictions");
  const auto [lo, hi] = std::minmax_element(grid.begin(), grid.end());
  const double* g = grid.data();
  const KeyMap key(*lo, *hi);
  FullGridRank(
      n, [g, n](std::size_t k, std::size_t l) { return g[k * n + l]; },
      [g, n, key](std::size_t k, std::uint32_t* out) {
        const double* row = g + k * n;
        for (std::size_t l = 0; l < n; ++l) out[l] = key(row[l]);
      },
      positive, totals, scratch);
}

}}}  // namespace perfshap::detail
