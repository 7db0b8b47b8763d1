// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// GaussianNB's vector kernels (gaussian_nb_kernels.cpp): call them only where HasAvx2() /
// HasAvx512() (common/vector_kernels.hpp) says the CPU has the unit; each gives the bits of
// the portable loop it replaces.

#include <cstddef>
#include <span>

#include "common/x86_intrinsics.hpp"

#if defined(PERFSHAP_X86_KERNELS)
namespace perfshap { inline namespace v0 { namespace detail {

/// The most coalition members whose cached terms NbJointFromTermsAvx512 sums at once.
inline constexpr std::size_t kMaxNbMembers = 64;

/// Moment pass 1 for four columns col[0..3], one lane each, over the training rows in order:
/// sum, sums masked by class (y, 1 - y), sum of v * 0 (NaN once a value is not finite), and
/// whether any value differs from the first.
__attribute__((target("avx2"))) void MomentSumsAvx2(const double* const* col, std::span<const std::size_t> rows, const double* y, double* sum,
                    double* sum1, double* sum0, double* nan, bool* differs) noexcept;
/// Moment pass 2 for four columns: squared deviations from the overall and the class means.
__attribute__((target("avx2"))) void MomentSquaresAvx2(const double* const* col, std::span<const std::size_t> rows, const double* y,
                       const double* mean, const double* theta1, const double* theta0, double* ss, double* ss1,
                       double* ss0) noexcept;
/// t[r] = (x[r] - theta)^2 / var for r < m.
__attribute__((target("avx512f"))) void NbTermsAvx512(const double* x, double theta, double var, double* t, std::size_t m) noexcept;
/// q[r] = head + (constant - 0.5 ((t_0[r] + t_1[r]) + ...)) over k <= kMaxNbMembers term rows.
__attribute__((target("avx512f"))) void NbJointFromTermsAvx512(const double* const* terms, std::size_t k, double head, double constant, double* q,
                            std::size_t m) noexcept;

}}}  // namespace perfshap::detail
#endif
