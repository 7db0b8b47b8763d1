// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// The x86 vector intrinsics, for the kernels compiled for AVX2 / AVX-512 alone (function-level
// target attributes) and chosen at run time (vector_kernels.hpp): PERFSHAP_X86_KERNELS is
// defined where they can be built.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PERFSHAP_X86_KERNELS 1
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12 warns inside its own vector headers (bug 105593, the undefined vectors they start
// from); the warning is placed at the header's lines, so it is silenced for them alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#else
#include <immintrin.h>
#endif
#endif
