// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// GaussianNB's AVX2 / AVX-512 kernels, compiled for those units alone (function-level target
// attributes) and chosen at run time; each does the portable loop's operations in the same
// order, so it gives the same bits (the portable loops sit next to their calls in
// gaussian_nb_learner.cpp; tests run both).
#include "models/gaussian_nb/gaussian_nb_kernels.hpp"

#if defined(PERFSHAP_X86_KERNELS)

namespace perfshap { inline namespace v0 { namespace detail {
namespace {

/// The four players' values of training row r, player k in lane k.
__attribute__((target("avx2"), always_inline)) inline __m256d FourValues(const double* const* col,
                                                                        std::size_t r) noexcept {
  return _mm256_set_pd(col[3][r], col[2][r], col[1][r], col[0][r]);
}

}  // namespace

/// Pass 1 of PrepareGaussianNb for four players, one lane each: the same operations per player
/// and row, in row order, as the portable loop (sum, sums masked by class, v * 0, v != first).
__attribute__((target("avx2"))) void MomentSumsAvx2(const double* const* col, std::span<const std::size_t> rows,
                                                    const double* y, double* sum, double* sum1, double* sum0,
                                                    double* nan, bool* differs) noexcept {
  const __m256d zero = _mm256_setzero_pd();
  const __m256d first = FourValues(col, rows[0]);
  __m256d s = zero;
  __m256d s1 = zero;
  __m256d s0 = zero;
  __m256d not_finite = zero;
  __m256d changed = zero;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const __m256d v = FourValues(col, rows[i]);
    const double y1 = y[i];
    const __m256d label1 = _mm256_set1_pd(y1);
    const __m256d label0 = _mm256_set1_pd(1.0 - y1);
    s = _mm256_add_pd(s, v);
    s1 = _mm256_add_pd(s1, _mm256_mul_pd(label1, v));
    s0 = _mm256_add_pd(s0, _mm256_mul_pd(label0, v));
    not_finite = _mm256_add_pd(not_finite, _mm256_mul_pd(v, zero));
    changed = _mm256_or_pd(changed, _mm256_cmp_pd(v, first, _CMP_NEQ_UQ));
  }
  _mm256_storeu_pd(sum, s);
  _mm256_storeu_pd(sum1, s1);
  _mm256_storeu_pd(sum0, s0);
  _mm256_storeu_pd(nan, not_finite);
  const int mask = _mm256_movemask_pd(changed);
  for (int k = 0; k < 4; ++k) differs[k] = (mask >> k & 1) != 0;
}

/// Pass 2 for four players: squared deviations from the overall and the class means, as the
/// portable loop.
__attribute__((target("avx2"))) void MomentSquaresAvx2(const double* const* col, std::span<const std::size_t> rows,
                                                       const double* y, const double* mean, const double* theta1,
                                                       const double* theta0, double* ss, double* ss1,
                                                       double* ss0) noexcept {
  const __m256d mu = _mm256_loadu_pd(mean);
  const __m256d t1 = _mm256_loadu_pd(theta1);
  const __m256d t0 = _mm256_loadu_pd(theta0);
  __m256d q = _mm256_setzero_pd();
  __m256d q1 = q;
  __m256d q0 = q;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const __m256d v = FourValues(col, rows[i]);
    const double y1 = y[i];
    const __m256d label1 = _mm256_set1_pd(y1);
    const __m256d label0 = _mm256_set1_pd(1.0 - y1);
    const __m256d d = _mm256_sub_pd(v, mu);
    const __m256d d1 = _mm256_sub_pd(v, t1);
    const __m256d d0 = _mm256_sub_pd(v, t0);
    q = _mm256_add_pd(q, _mm256_mul_pd(d, d));
    q1 = _mm256_add_pd(q1, _mm256_mul_pd(label1, _mm256_mul_pd(d1, d1)));
    q0 = _mm256_add_pd(q0, _mm256_mul_pd(label0, _mm256_mul_pd(d0, d0)));
  }
  _mm256_storeu_pd(ss, q);
  _mm256_storeu_pd(ss1, q1);
  _mm256_storeu_pd(ss0, q0);
}

/// GaussianNB's quadratic term of one player and class over the test rows, eight rows at a
/// time: t = (x - theta)^2 / var, as the portable loop.
__attribute__((target("avx512f"))) void NbTermsAvx512(const double* x, double theta, double var, double* t,
                                                      std::size_t m) noexcept {
  const __m512d center = _mm512_set1_pd(theta);
  const __m512d scale = _mm512_set1_pd(var);
  std::size_t r = 0;
  for (; r + 8 <= m; r += 8) {
    const __m512d d = _mm512_sub_pd(_mm512_loadu_pd(x + r), center);
    _mm512_storeu_pd(t + r, _mm512_div_pd(_mm512_mul_pd(d, d), scale));
  }
  if (r < m) {
    const auto live = static_cast<__mmask8>((1u << (m - r)) - 1u);
    const __m512d d = _mm512_sub_pd(_mm512_maskz_loadu_pd(live, x + r), center);
    _mm512_mask_storeu_pd(t + r, live, _mm512_div_pd(_mm512_mul_pd(d, d), scale));
  }
}

/// One class's joint log-likelihoods from the coalition's cached terms, eight rows at a time in
/// one pass: head + (constant - 0.5 ((t_0 + t_1) + ...)), the portable passes' operations.
__attribute__((target("avx512f"))) void NbJointFromTermsAvx512(const double* const* terms, std::size_t k,
                                                               double head, double constant, double* q,
                                                               std::size_t m) noexcept {
  const __m512d h = _mm512_set1_pd(head);
  const __m512d c = _mm512_set1_pd(constant);
  const __m512d half = _mm512_set1_pd(0.5);
  for (std::size_t r = 0; r < m; r += 8) {
    const auto live = static_cast<__mmask8>(m - r >= 8 ? 0xFFu : (1u << (m - r)) - 1u);
    __m512d sum = k == 0 ? _mm512_setzero_pd() : _mm512_maskz_loadu_pd(live, terms[0] + r);
    for (std::size_t i = 1; i < k; ++i) sum = _mm512_add_pd(sum, _mm512_maskz_loadu_pd(live, terms[i] + r));
    _mm512_mask_storeu_pd(q + r, live, _mm512_add_pd(h, _mm512_sub_pd(c, _mm512_mul_pd(half, sum))));
  }
}

}}}  // namespace perfshap::detail

#endif
