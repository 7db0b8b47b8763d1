// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/gaussian_nb/gaussian_nb_rank.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/sort_keys.hpp"
#include "common/vector_kernels.hpp"
#include "common/x86_intrinsics.hpp"
#include "models/gaussian_nb/gaussian_nb_model.hpp"

namespace perfshap { inline namespace v0 { namespace detail {
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

#if defined(PERFSHAP_X86_KERNELS)
/// The AVX-512 kernel's first half: per row the interval of Interval (the same operations, eight
/// rows at a time), the log-odds, and a 32-bit key: the log-odds mapped linearly onto
/// [0, 2^(32 - bits) - 1] over the sample's range (rounded down: monotone, so keys never order
/// two rows against their log-odds; rows sharing a value come out in row order and, where that
/// is not their log-odds order, join a cluster), the row index in the low `bits` bits.
/// keys must hold m rounded up to 8. Returns false when some log-odds value is not finite.
__attribute__((target("avx512f"))) bool BuildKeysAvx512(const double* jll0, const double* jll1, std::size_t m,
                                                        int bits, double* lo, double* hi, double* log_odds,
                                                        std::uint32_t* keys) noexcept {
  const __m512d zero = _mm512_setzero_pd();
  const __m512d inf = _mm512_set1_pd(kInf);
  const __m512d minus_inf = _mm512_set1_pd(-kInf);
  __m512d low = inf;
  __m512d high = minus_inf;
  __mmask8 not_finite = 0;
  for (std::size_t row = 0; row < m; row += 8) {
    const std::size_t rest = m - row;
    const auto live = static_cast<__mmask8>(rest >= 8 ? 0xFFu : (1u << rest) - 1u);
    const __m512d a = _mm512_maskz_loadu_pd(live, jll0 + row);
    const __m512d b = _mm512_maskz_loadu_pd(live, jll1 + row);
    const __m512d d = _mm512_sub_pd(b, a);
    not_finite |= _mm512_mask_cmp_pd_mask(live, _mm512_mul_pd(d, zero), zero, _CMP_NEQ_UQ);
    const __m512d eta = _mm512_add_pd(
        _mm512_mul_pd(_mm512_set1_pd(8.0 * kUnit), _mm512_add_pd(_mm512_abs_pd(a), _mm512_abs_pd(b))),
        _mm512_set1_pd(64.0 * kUnit));
    const __m512d y = _mm512_min_pd(
        _mm512_add_pd(_mm512_mul_pd(_mm512_max_pd(d, zero), _mm512_set1_pd(kLog2E * (1.0 + 0x1p-40))),
                      _mm512_set1_pd(0x1p-40)),
        _mm512_set1_pd(999.0));
    const __m512i e = _mm512_cvtepi32_epi64(_mm512_cvttpd_epi32(y));
    const __m512d bound = _mm512_castsi512_pd(_mm512_slli_epi64(_mm512_add_epi64(e, _mm512_set1_epi64(1025)), 52));
    const __m512d t = _mm512_mul_pd(eta, bound);
    const __m512d rounding = _mm512_mul_pd(_mm512_set1_pd(4.0 * kUnit), _mm512_abs_pd(d));
    const __m512d up = _mm512_add_pd(
        d, _mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(1.25), _mm512_add_pd(eta, _mm512_add_pd(t, t))), rounding));
    const __m512d down = _mm512_sub_pd(
        d, _mm512_add_pd(
               _mm512_mul_pd(_mm512_set1_pd(1.25), _mm512_add_pd(_mm512_mul_pd(_mm512_set1_pd(1.01), eta), t)),
               rounding));
    // mask_blend(k, x, y) takes y where k is set.
    __m512d h = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(t, _mm512_set1_pd(0.5), _CMP_LT_OQ), inf, up);
    __m512d l = down;
    const __mmask8 unbounded = _mm512_cmp_pd_mask(eta, _mm512_set1_pd(1e-3), _CMP_NLT_UQ);  // also NaN
    h = _mm512_mask_blend_pd(unbounded, h, inf);
    l = _mm512_mask_blend_pd(unbounded, l, minus_inf);
    const __mmask8 subnormal = _mm512_cmp_pd_mask(d, _mm512_set1_pd(kSubnormalLogOdds), _CMP_LT_OQ);
    h = _mm512_mask_blend_pd(subnormal, h, _mm512_max_pd(h, _mm512_set1_pd(kSubnormalCeiling)));
    l = _mm512_mask_blend_pd(subnormal, l, minus_inf);
    _mm512_mask_storeu_pd(hi + row, live, h);
    _mm512_mask_storeu_pd(lo + row, live, l);
    _mm512_mask_storeu_pd(log_odds + row, live, d);
    low = _mm512_mask_min_pd(low, live, low, d);
    high = _mm512_mask_max_pd(high, live, high, d);
  }
  if (not_finite != 0) return false;
  const double first = _mm512_reduce_min_pd(low);
  const double last = _mm512_reduce_max_pd(high);
  const auto top = static_cast<double>((std::uint64_t{1} << (32 - bits)) - 1);
  double scale = last > first ? top / (last - first) : 0.0;
  if (!(scale < 1e300)) scale = 0.0;  // a range overflowing to inf or underflowing: one value
  const __m512d offset = _mm512_set1_pd(first);
  const __m512d factor = _mm512_set1_pd(scale);
  const __m512d ceiling = _mm512_set1_pd(top);
  const __m128i shift = _mm_cvtsi32_si128(bits);
  __m256i index = _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0);
  for (std::size_t row = 0; row < m; row += 8) {
    const std::size_t rest = m - row;
    const auto live = static_cast<__mmask8>(rest >= 8 ? 0xFFu : (1u << rest) - 1u);
    const __m512d d = _mm512_maskz_loadu_pd(live, log_odds + row);
    // d >= first, so the product is >= 0 (at most top, bar rounding: capped).
    const __m512d v = _mm512_min_pd(_mm512_mul_pd(_mm512_sub_pd(d, offset), factor), ceiling);
    const __m256i value = _mm512_cvttpd_epu32(v);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(keys + row), _mm256_or_si256(_mm256_sll_epi32(value, shift), index));
    index = _mm256_add_epi32(index, _mm256_set1_epi32(8));
  }
  return true;
}
#endif

/// The portable first half: intervals and 64-bit keys (the log-odds' order key, the row index
/// in the low `bits` bits), two rows at a time with SSE2. Returns false when some log-odds value
/// is not finite.
bool BuildKeysPortable(const double* jll0, const double* jll1, std::size_t m, int bits, double* lo, double* hi,
                       std::uint64_t* keys) noexcept {
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
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
      const __m128d a = _mm_loadu_pd(jll0 + row);
      const __m128d b = _mm_loadu_pd(jll1 + row);
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
  return finite;
}

}  // namespace

bool RankGaussianNb(std::span<const double> jll0, std::span<const double> jll1, GaussianNbRanking& ranking,
                    std::span<const std::uint8_t> labels, RankKernel kernel) {
  const std::size_t m = jll0.size();
  if (jll1.size() != m || m > std::numeric_limits<std::uint32_t>::max()) return false;
  if (!labels.empty() && labels.size() != m) return false;
  const bool with_labels = !labels.empty();
  ranking.positive.resize(with_labels ? m : 0);
  ranking.order.resize(m);
  ranking.tie.resize(m);
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
  double* const lo = ranking.lo.data();
  double* const hi = ranking.hi.data();
  std::uint32_t* const order = ranking.order.data();
#if defined(PERFSHAP_X86_KERNELS)
  const bool vector = kernel != RankKernel::kPortable && m <= kSortKeys32Max && HasAvx512();
#else
  const bool vector = false;
  (void)kernel;
#endif
  if (vector) {
#if defined(PERFSHAP_X86_KERNELS)
    ranking.keys32.resize((m + 7) / 8 * 8);
    ranking.log_odds.resize(m);
    std::uint32_t* const keys = ranking.keys32.data();
    if (!BuildKeysAvx512(jll0.data(), jll1.data(), m, bits, lo, hi, ranking.log_odds.data(), keys)) return false;
    SortKeys32(keys, m);
    const auto mask32 = static_cast<std::uint32_t>(mask);
    for (std::size_t i = 0; i < m; ++i) order[i] = keys[i] & mask32;
#endif
  } else {
    ranking.keys.resize(m);
    std::uint64_t* const keys = ranking.keys.data();
    if (!BuildKeysPortable(jll0.data(), jll1.data(), m, bits, lo, hi, keys)) return false;
    SortKeys(keys, m);
    for (std::size_t i = 0; i < m; ++i) order[i] = static_cast<std::uint32_t>(keys[i] & mask);
  }

  // In rank order: the largest hi so far, then (walking back) the smallest lo from here on.
  // Ranks i - 1 and i are certainly in strict order, with every row before i below every row
  // from i on, when the largest hi before i is below the smallest lo from i on; otherwise they
  // share a cluster (tie[i] = 1 for now).
  std::uint8_t* const tie = ranking.tie.data();
  double* const prefix_hi = ranking.prefix_hi.data();
  double running = -kInf;
  std::uint8_t* const positive = ranking.positive.data();
  const std::uint8_t* const label = with_labels ? labels.data() : nullptr;
  for (std::size_t i = 0; i < m; ++i) {
    const std::uint32_t r = order[i];
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
  // Each cluster [begin, end): evaluate, sort by the exact probability (then the row), mark the
  // real ties.
  for (std::size_t from = 1; from < m;) {
    // The next cluster starts just before the next flagged rank (memchr skips the rest fast).
    const void* hit = std::memchr(tie + from, 1, m - from);
    if (hit == nullptr) break;
    const std::size_t begin = static_cast<std::size_t>(static_cast<const std::uint8_t*>(hit) - tie) - 1;
    std::size_t end = begin + 2;
    while (end < m && tie[end] != 0) ++end;
    // Rows with the very same log-likelihoods (duplicated rows, or rows equal on the
    // coalition's players) have the same probability: such a cluster is one tie, in row order,
    // without evaluating anything.
    bool same = true;
    const std::uint32_t first = order[begin];
    for (std::size_t i = begin + 1; i < end && same; ++i) {
      const std::uint32_t r = order[i];
      same = std::bit_cast<std::uint64_t>(jll0[r]) == std::bit_cast<std::uint64_t>(jll0[first]) &&
             std::bit_cast<std::uint64_t>(jll1[r]) == std::bit_cast<std::uint64_t>(jll1[first]);
    }
    if (same) {
      std::sort(order + begin, order + end);
      for (std::size_t i = begin; i < end; ++i) {
        if (label != nullptr) positive[i] = label[order[i]];
        tie[i] = i > begin ? 1 : 0;
      }
      from = end;
      continue;
    }
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

}}}  // namespace perfshap::detail
