// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/**
 * @brief A mistake in what the user gave (file, column, option, data): the message says
 * what was wrong, where, and what to do. The CLI prints it on one line and exits with 2.
 *
 * The library speaks of its own options, never of a front end's spelling of them: a message
 * says "name the positive class" and lists `positive` among options(), the names of the
 * option fields (as the library's options structs call them) that the advice is about. A
 * front end maps them to its own spelling: the CLI appends its flags ("(--positive)").
 */
class PERFSHAP_EXPORT Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what, std::vector<std::string> options = {})
      : std::runtime_error(what), options_(std::move(options)) {}
  /** @brief The options the message's advice refers to (option field names), maybe none. */
  const std::vector<std::string>& options() const noexcept { return options_; }

 private:
  std::vector<std::string> options_;
};

/** @brief An argument outside its documented domain (bad option value, shape mismatch). */
class PERFSHAP_EXPORT InvalidArgument : public Error {
 public:
  explicit InvalidArgument(const std::string& what, std::vector<std::string> options = {})
      : Error(what, std::move(options)) {}
};

/** @brief Input data that cannot be used as it is (unreadable file, ragged row, NaN...). */
class PERFSHAP_EXPORT DataError : public Error {
 public:
  explicit DataError(const std::string& what, std::vector<std::string> options = {})
      : Error(what, std::move(options)) {}
};

/** @brief The computation was cancelled through its cancellation flag. */
class PERFSHAP_EXPORT Cancelled : public Error {
 public:
  Cancelled() : Error("computation cancelled") {}
};

}}  // namespace perfshap

/// Throws perfshap::InvalidArgument(msg[, options]) when cond is false; for public entry points.
#define PERFSHAP_CHECK(cond, ...)                                \
  do {                                                           \
    if (!(cond)) throw ::perfshap::InvalidArgument(__VA_ARGS__); \
  } while (false)

/// Internal invariant: a failure is a bug in perfshap (std::logic_error, exit code 1).
#define PERFSHAP_DCHECK(cond)                                                                \
  do {                                                                                       \
    if (!(cond))                                                                             \
      throw std::logic_error(std::string("perfshap internal check failed: ") + #cond + " at " + \
                             __FILE__ + ":" + std::to_string(__LINE__));                     \
  } while (false)
