// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/gaussian_nb_rank.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/sort_keys.hpp"
#include "models/gaussian_nb_model.hpp"

namespace perfshap::detail {
namespace {

constexpr double kUnit = 0x1p-53;  // u, the unit roundoff of double
constexpr double kLog2E = 1.4426950408889634;
constexpr double kInf = std::numeric_limits<double>::infinity();
// Below this log-odds P(1) may be subnormal (x <= d < -708 gives exp(x) < 2^-1022), where
// relative error bounds fail: such rows get the interval (-inf, kSubnormalCeiling], which holds
// every P(1) < e^-699.
constexpr double kSubnormalLogOdds = -700.0;
constexpr double kSubnormalCeiling = -699.0;

/// An upper bound of e^max(d, 0): 2^(floor(y) + 2) >= 2^(ceil(y) + 1) with y = max(d, 0) log2 e
/// rounded up, so that it holds at the true log-odds too; y is capped at 999 (the bound is then
/// 2^1001, far beyond any use: the interval is unbounded above from t >= 1/2 on).
double ExpBound(double d) noexcept {
  const double y = std::min(std::max(d, 0.0) * (kLog2E * (1.0 + 0x1p-40)) + 0x1p-40, 999.0);
  const auto e = static_cast<std::int64_t>(y) + 2;
  return std::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
}

/// [lo, hi] in log-odds units holding the row's computed P(1): P(1) lies in
/// [sigma(lo), sigma(hi)]. With eta = the relative error radius of P(1) around sigma(d) (four
/// times u (2|jll0| + 2|jll1| + 9), worked out for GaussianNbProbability's logsumexp, so that exp
/// and log may each be off by about four ulps) and t = eta e^d:
///   logit(sigma(d)(1 + eta)) <= d + eta + 2t   (t <= 1/2; otherwise P(1) may round to 1),
///   logit(sigma(d)(1 - eta)) >= d - 1.01 eta - t,
/// widened by a quarter, plus 4u|d| for the rounding of d = jll1 - jll0 and of d +- the radius.
inline void Interval(double jll0, double jll1, double d, double& lo, double& hi) noexcept {
  const double eta = (8.0 * kUnit) * (std::abs(jll0) + std::abs(jll1)) + 64.0 * kUnit;
  const double t = eta * ExpBound(d);
  const double rounding = (4.0 * kUnit) * std::abs(d);
  const double up = d + (1.25 * (eta + 2.0 * t) + rounding);
  hi = t < 0.5 ? up : kInf;
  lo = d - (1.25 * (1.01 * eta + t) + rounding);
  if (!(eta < 1e-3)) {  // |jll| near 1e12: no useful bound (false also for NaN)
    lo = -kInf;
    hi = kInf;
  }
  if (d < kSubnormalLogOdds) {
    lo = -kInf;
    hi = std::max(hi, kSubnormalCeiling);
  }
}

}  // namespace

bool RankGaussianNb(std::span<const double> jll0, std::span<const double> jll1, GaussianNbRanking& ranking,
                    std::span<const std::uint8_t> labels) {
  const std::size_t m = jll0.size();
  if (jll1.size() != m || m > std::numeric_limits<std::uint32_t>::max()) return false;
  if (!labels.empty() && labels.size() != m) return false;
  const bool with_labels = !labels.empty();
  ranking.positive.resize(with_labels ? m : 0);
  ranking.order.resize(m);
  ranking.tie.resize(m);
  ranking.keys.resize(m);
  ranking.lo.resize(m);
  ranking.hi.resize(m);
  ranking.prefix_hi.resize(m);
  ranking.cluster.reserve(m);
  ranking.evaluated = 0;
  if (m == 0) return true;
  // Keys: the log-odds' order key with its lowest `bits` bits replaced by the row index, so one
  // sort of plain integers orders the rows. Rows whose log-odds agree in all other bits may
  // come out of order; their intervals then overlap, which puts them in one cluster below.
  const int bits = static_cast<int>(std::bit_width(m - 1));
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  std::uint64_t* const keys = ranking.keys.data();
  double* const lo = ranking.lo.data();
  double* const hi = ranking.hi.data();
  bool finite = true;
  std::size_t row = 0;
#if defined(__SSE2__)
  // Two rows at a time with SSE2 (every x86-64 has it): the same interval and key as the
  // scalar loop below, without its branches. d * 0 stays 0 unless d is inf or NaN.
  {
    const __m128d zero = _mm_setzero_pd();
    const __m128d sign = _mm_set1_pd(-0.0);
    const __m128d inf = _mm_set1_pd(kInf);
    const __m128d minus_inf = _mm_set1_pd(-kInf);
    const __m128i key_mask = _mm_set1_epi64x(static_cast<long long>(~mask));
    const __m128i sign_bit = _mm_set1_epi64x(static_cast<long long>(std::uint64_t{1} << 63));
    __m128i index = _mm_set_epi64x(1, 0);
    const __m128i two = _mm_set1_epi64x(2);
    __m128d nan_check = zero;
    for (; row + 2 <= m; row += 2) {
      const __m128d a = _mm_loadu_pd(jll0.data() + row);
      const __m128d b = _mm_loadu_pd(jll1.data() + row);
      const __m128d d = _mm_sub_pd(b, a);
      nan_check = _mm_add_pd(nan_check, _mm_mul_pd(d, zero));
      const __m128d eta = _mm_add_pd(
          _mm_mul_pd(_mm_set1_pd(8.0 * kUnit), _mm_add_pd(_mm_andnot_pd(sign, a), _mm_andnot_pd(sign, b))),
          _mm_set1_pd(64.0 * kUnit));
      // ExpBound: 2^(floor(y) + 2), y = min(max(d, 0) log2 e (1 + 2^-40) + 2^-40, 999).
      const __m128d y = _mm_min_pd(
          _mm_add_pd(_mm_mul_pd(_mm_max_pd(d, zero), _mm_set1_pd(kLog2E * (1.0 + 0x1p-40))), _mm_set1_pd(0x1p-40)),
          _mm_set1_pd(999.0));
      const __m128i e = _mm_unpacklo_epi32(_mm_cvttpd_epi32(y), _mm_setzero_si128());
      const __m128d bound = _mm_castsi128_pd(_mm_slli_epi64(_mm_add_epi64(e, _mm_set1_epi64x(1025)), 52));
      const __m128d t = _mm_mul_pd(eta, bound);
      const __m128d rounding = _mm_mul_pd(_mm_set1_pd(4.0 * kUnit), _mm_andnot_pd(sign, d));
      const __m128d up = _mm_add_pd(
          d, _mm_add_pd(_mm_mul_pd(_mm_set1_pd(1.25), _mm_add_pd(eta, _mm_add_pd(t, t))), rounding));
      const __m128d down = _mm_sub_pd(
          d, _mm_add_pd(_mm_mul_pd(_mm_set1_pd(1.25), _mm_add_pd(_mm_mul_pd(_mm_set1_pd(1.01), eta), t)), rounding));
      auto select = [](__m128d mask_pd, __m128d yes, __m128d no) {
        return _mm_or_pd(_mm_and_pd(mask_pd, yes), _mm_andnot_pd(mask_pd, no));
      };
      __m128d h = select(_mm_cmplt_pd(t, _mm_set1_pd(0.5)), up, inf);
      __m128d l = down;
      const __m128d unbounded = _mm_cmpnlt_pd(eta, _mm_set1_pd(1e-3));  // also NaN
      h = select(unbounded, inf, h);
      l = select(unbounded, minus_inf, l);
      const __m128d subnormal = _mm_cmplt_pd(d, _mm_set1_pd(kSubnormalLogOdds));
      h = select(subnormal, _mm_max_pd(h, _mm_set1_pd(kSubnormalCeiling)), h);
      l = select(subnormal, minus_inf, l);
      _mm_storeu_pd(hi + row, h);
      _mm_storeu_pd(lo + row, l);
      // OrderedKey: -0.0 + 0.0 = +0.0 folds the zeros; negatives have every bit flipped,
      // the others their sign bit set.
      const __m128i word = _mm_castpd_si128(_mm_add_pd(d, zero));
      const __m128i negative = _mm_sub_epi64(_mm_setzero_si128(), _mm_srli_epi64(word, 63));
      const __m128i key = _mm_xor_si128(word, _mm_or_si128(negative, sign_bit));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(keys + row), _mm_or_si128(_mm_and_si128(key, key_mask), index));
      index = _mm_add_epi64(index, two);
    }
    double check[2];
    _mm_storeu_pd(check, nan_check);
    finite = check[0] == 0.0 && check[1] == 0.0;
  }
#endif
  for (; row < m; ++row) {
    const double d = jll1[row] - jll0[row];
    finite = finite && std::isfinite(d);
    Interval(jll0[row], jll1[row], d, lo[row], hi[row]);
    keys[row] = (OrderedKey(d) & ~mask) | static_cast<std::uint64_t>(row);
  }
  if (!finite) return false;
  SortKeys(keys, m);

  // In rank order: the largest hi so far, then (walking back) the smallest lo from here on.
  // Ranks i - 1 and i are certainly in strict order, with every row before i below every row
  // from i on, when the largest hi before i is below the smallest lo from i on; otherwise they
  // share a cluster (tie[i] = 1 for now).
  std::uint32_t* const order = ranking.order.data();
  std::uint8_t* const tie = ranking.tie.data();
  double* const prefix_hi = ranking.prefix_hi.data();
  double running = -kInf;
  std::uint8_t* const positive = ranking.positive.data();
  const std::uint8_t* const label = with_labels ? labels.data() : nullptr;
  for (std::size_t i = 0; i < m; ++i) {
    const auto r = static_cast<std::uint32_t>(keys[i] & mask);
    order[i] = r;
    running = std::max(running, hi[r]);
    prefix_hi[i] = running;
    if (label != nullptr) positive[i] = label[r];
  }
  running = kInf;
  unsigned joined = 0;
  for (std::size_t i = m; i-- > 1;) {
    running = std::min(running, lo[order[i]]);
    const unsigned join = prefix_hi[i - 1] < running ? 0 : 1;
    tie[i] = static_cast<std::uint8_t>(join);
    joined |= join;
  }
  tie[0] = 0;
  if (joined == 0) return true;
  // Each cluster [begin, end): evaluate, sort by the exact probability, mark the real ties.
  for (std::size_t from = 1; from < m;) {
    // The next cluster starts just before the next flagged rank (memchr skips the rest fast).
    const void* hit = std::memchr(tie + from, 1, m - from);
    if (hit == nullptr) break;
    const std::size_t begin = static_cast<std::size_t>(static_cast<const std::uint8_t*>(hit) - tie) - 1;
    std::size_t end = begin + 2;
    while (end < m && tie[end] != 0) ++end;
    auto& cluster = ranking.cluster;
    cluster.clear();
    for (std::size_t i = begin; i < end; ++i) {
      const std::uint32_t r = order[i];
      cluster.emplace_back(GaussianNbProbability(jll0[r], jll1[r]), r);
    }
    std::sort(cluster.begin(), cluster.end());
    for (std::size_t i = begin; i < end; ++i) {
      order[i] = cluster[i - begin].second;
      if (label != nullptr) positive[i] = label[order[i]];
      tie[i] = i > begin && cluster[i - begin].first == cluster[i - begin - 1].first ? 1 : 0;
    }
    ranking.evaluated += end - begin;
    from = end;
  }
  return true;
}

}  // namespace perfshap::detail
