// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The run-time CPU checks, and SortKeys32, a bitonic sorting network over AVX-512 registers of 16
// unsigned 32-bit keys. Only this file's functions use AVX-512 (function-level
// target attributes): the rest of the library stays baseline x86-64.
#include "common/vector_kernels.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/x86_intrinsics.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

#if defined(PERFSHAP_X86_KERNELS)

namespace {
std::atomic<bool> vector_kernels_enabled{true};

// PERFSHAP_NO_VECTOR_KERNELS=1 in the environment runs the portable code everywhere (to test
// it on a machine that has the vector units).
bool VectorKernelsAllowed() noexcept {
  static const bool allowed = [] {
    const char* v = std::getenv("PERFSHAP_NO_VECTOR_KERNELS");
    return v == nullptr || *v == '\0' || std::strcmp(v, "0") == 0;
  }();
  return allowed;
}

}  // namespace

void EnableVectorKernels(bool enabled) noexcept { vector_kernels_enabled.store(enabled, std::memory_order_relaxed); }

bool HasAvx512() noexcept {
  static const bool has = __builtin_cpu_supports("avx512f") != 0 && VectorKernelsAllowed();
  return has && vector_kernels_enabled.load(std::memory_order_relaxed);
}

bool HasAvx2() noexcept {
  static const bool has = __builtin_cpu_supports("avx2") != 0 && VectorKernelsAllowed();
  return has && vector_kernels_enabled.load(std::memory_order_relaxed);
}

namespace {

#define PERFSHAP_AVX512 __attribute__((target("avx512f")))

/// The lane permutation i -> i ^ d.
PERFSHAP_AVX512 inline __m512i XorLanes(unsigned d) noexcept {
  const __m512i lane = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  return _mm512_xor_si512(lane, _mm512_set1_epi32(static_cast<int>(d)));
}

/// The permutations and lane masks of the in-register stages.
struct Lanes {
  __m512i x1, x2, x3, x4, x7, x8, x15;
};

/// One compare-exchange stage inside a register: lane i meets lane idx[i]; the lanes in `upper`
/// keep the larger key, the others the smaller.
PERFSHAP_AVX512 inline __m512i Stage(__m512i v, __m512i idx, __mmask16 upper) noexcept {
  const __m512i p = _mm512_permutexvar_epi32(idx, v);
  return _mm512_mask_blend_epi32(upper, _mm512_min_epu32(v, p), _mm512_max_epu32(v, p));
}

/// Sorts the 16 lanes of v ascending: for block sizes 2, 4, 8, 16, a flip (lane i against its
/// mirror in the block) and then half-cleaners at lane distances block/4 .. 1.
PERFSHAP_AVX512 inline __m512i SortRegister(__m512i v, const Lanes& l) noexcept {
  v = Stage(v, l.x1, 0xAAAA);
  v = Stage(v, l.x3, 0xCCCC);
  v = Stage(v, l.x1, 0xAAAA);
  v = Stage(v, l.x7, 0xF0F0);
  v = Stage(v, l.x2, 0xCCCC);
  v = Stage(v, l.x1, 0xAAAA);
  v = Stage(v, l.x15, 0xFF00);
  v = Stage(v, l.x4, 0xF0F0);
  v = Stage(v, l.x2, 0xCCCC);
  v = Stage(v, l.x1, 0xAAAA);
  return v;
}

/// The half-cleaners at lane distances 8, 4, 2, 1: sorts a register holding a bitonic sequence.
PERFSHAP_AVX512 inline __m512i CleanRegister(__m512i v, const Lanes& l) noexcept {
  v = Stage(v, l.x8, 0xFF00);
  v = Stage(v, l.x4, 0xF0F0);
  v = Stage(v, l.x2, 0xCCCC);
  v = Stage(v, l.x1, 0xAAAA);
  return v;
}

/// The lanes of register i of keys[0, n) that hold keys.
inline __mmask16 LoadMask(std::size_t n, std::size_t i) noexcept {
  const std::size_t rest = n - 16 * i;
  return rest >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rest) - 1u);
}

}  // namespace

// The keys fill `live` registers, the last one padded with the largest key; conceptually the
// network sorts a power-of-two number of registers, the rest all padding. Every compare-exchange
// puts the smaller key at the lower position, so a register made only of padding never changes
// (each exchange with it leaves the other register as it was), and the exchanges involving one
// are skipped. Merging sorted blocks of b registers into 2b: a flip (register j against the
// lane-reversed register 2b - 1 - j), half-cleaners between registers at distances b/2 .. 1,
// and the in-register half-cleaners.
PERFSHAP_AVX512 void SortKeys32(std::uint32_t* keys, std::size_t n) {
  PERFSHAP_DCHECK(n <= kSortKeys32Max);
  if (n < 2) return;
  const Lanes l{XorLanes(1), XorLanes(2), XorLanes(3), XorLanes(4), XorLanes(7), XorLanes(8), XorLanes(15)};
  const __m512i padding = _mm512_set1_epi32(-1);
  __m512i r[kSortKeys32Max / 16];
  const std::size_t live = (n + 15) / 16;
  for (std::size_t i = 0; i < live; ++i)
    r[i] = SortRegister(_mm512_mask_loadu_epi32(padding, LoadMask(n, i), keys + 16 * i), l);
  for (std::size_t b = 1; b < live; b *= 2) {
    for (std::size_t base = 0; base + b < live; base += 2 * b) {
      for (std::size_t j = 0; j < b; ++j) {
        const std::size_t c = base + 2 * b - 1 - j;
        if (c >= live) continue;
        const std::size_t a = base + j;
        const __m512i mirrored = _mm512_permutexvar_epi32(l.x15, r[c]);
        const __m512i high = _mm512_max_epu32(r[a], mirrored);
        r[a] = _mm512_min_epu32(r[a], mirrored);
        r[c] = _mm512_permutexvar_epi32(l.x15, high);
      }
    }
    for (std::size_t d = b / 2; d >= 1; d /= 2) {
      for (std::size_t base = 0; base + d < live; base += 2 * d) {
        for (std::size_t j = 0; j < d && base + j + d < live; ++j) {
          const std::size_t a = base + j;
          const std::size_t c = a + d;
          const __m512i low = _mm512_min_epu32(r[a], r[c]);
          r[c] = _mm512_max_epu32(r[a], r[c]);
          r[a] = low;
        }
      }
    }
    for (std::size_t i = 0; i < live; ++i) r[i] = CleanRegister(r[i], l);
  }
  for (std::size_t i = 0; i < live; ++i) _mm512_mask_storeu_epi32(keys + 16 * i, LoadMask(n, i), r[i]);
}

#undef PERFSHAP_AVX512

#else  // no AVX-512 kernels on this target

void EnableVectorKernels(bool) noexcept {}

bool HasAvx512() noexcept { return false; }

bool HasAvx2() noexcept { return false; }

void SortKeys32(std::uint32_t*, std::size_t) {
  PERFSHAP_CHECK(false, "SortKeys32: built without the AVX-512 kernels; check HasAvx512() first");
}

#endif

}}}  // namespace perfshap::detail
