// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <initializer_list>
#include <string>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace testing {

/**
 * @brief Runs fn and expects an E (DataError by default) whose message is one line, holds
 * every part, names no command-line flag ("--": the library speaks of its options) and, when
 * `option` is given, lists it among options().
 */
template <class E = DataError>
void ExpectError(const std::function<void()>& fn, std::initializer_list<std::string> parts,
                 const std::string& option = "") {
  try {
    fn();
    ADD_FAILURE() << "expected an error, nothing was thrown";
  } catch (const E& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << "message spans lines: " << what;
    EXPECT_EQ(what.find("--"), std::string::npos) << "library message names a flag: " << what;
    for (const std::string& part : parts) {
      EXPECT_NE(what.find(part), std::string::npos) << "'" << part << "' not in: " << what;
    }
    if (!option.empty()) {
      EXPECT_NE(std::find(e.options().begin(), e.options().end(), option), e.options().end())
          << "option '" << option << "' not in options() of: " << what;
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected another kind of error, got: " << e.what();
  }
}

/** @brief ExpectError<DataError>. */
inline void ExpectDataError(const std::function<void()>& fn, std::initializer_list<std::string> parts,
                            const std::string& option = "") {
  ExpectError<DataError>(fn, parts, option);
}

}}}  // namespace perfshap::testing
