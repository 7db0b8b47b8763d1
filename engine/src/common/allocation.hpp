// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Allocations that grow with the inputs name what they hold when they fail: a std::bad_alloc
// becomes a ResourceError saying how many bytes of what could not be had, instead of a generic
// "out of memory" at the front end.

#include <cstddef>
#include <new>
#include <string>
#include <vector>

#include "perfshap/blocks/cost.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief Throws the ResourceError of a failed allocation of `bytes` for `what`. */
[[noreturn]] inline void ThrowAllocationFailed(const std::string& what, double bytes) {
  throw ResourceError("could not allocate " + FormatBytes(bytes) + " for " + what +
                          " (out of memory); use fewer rows, features or splits, or give the run a memory limit to be "
                          "refused before it starts",
                      {"max_memory"});
}

/** @brief v.resize(n), or the ResourceError naming `what`. */
template <class T>
void ResizeOrThrow(std::vector<T>& v, std::size_t n, const std::string& what) {
  try {
    v.resize(n);
  } catch (const std::bad_alloc&) {
    ThrowAllocationFailed(what, static_cast<double>(n) * sizeof(T));
  } catch (const std::length_error&) {
    ThrowAllocationFailed(what, static_cast<double>(n) * sizeof(T));
  }
}

}}}  // namespace perfshap::detail
