// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <stdexcept>
#include <string>

#include "perfshap/export.hpp"

namespace perfshap {

/**
 * @brief A mistake in what the user gave (file, column, option, data): the message says
 * what was wrong, where, and what to do. The CLI prints it on one line and exits with 2.
 */
class PERFSHAP_EXPORT Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

/** @brief An argument outside its documented domain (bad option value, shape mismatch). */
class PERFSHAP_EXPORT InvalidArgument : public Error {
 public:
  explicit InvalidArgument(const std::string& what) : Error(what) {}
};

/** @brief Input data that cannot be used as it is (unreadable file, ragged row, NaN...). */
class PERFSHAP_EXPORT DataError : public Error {
 public:
  explicit DataError(const std::string& what) : Error(what) {}
};

/** @brief The computation was cancelled through its cancellation flag. */
class PERFSHAP_EXPORT Cancelled : public Error {
 public:
  Cancelled() : Error("computation cancelled") {}
};

}  // namespace perfshap

/// Throws perfshap::InvalidArgument(msg) when cond is false; for public entry points.
#define PERFSHAP_CHECK(cond, msg)                        \
  do {                                                   \
    if (!(cond)) throw ::perfshap::InvalidArgument(msg); \
  } while (false)

/// Internal invariant: a failure is a bug in perfshap (std::logic_error, exit code 1).
#define PERFSHAP_DCHECK(cond)                                                                \
  do {                                                                                       \
    if (!(cond))                                                                             \
      throw std::logic_error(std::string("perfshap internal check failed: ") + #cond + " at " + \
                             __FILE__ + ":" + std::to_string(__LINE__));                     \
  } while (false)
