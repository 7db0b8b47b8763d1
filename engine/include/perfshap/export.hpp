// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

/// Symbols are hidden by default; PERFSHAP_EXPORT marks the public ABI.
#if defined(_WIN32)
#define PERFSHAP_EXPORT
#else
#define PERFSHAP_EXPORT __attribute__((visibility("default")))
#endif
