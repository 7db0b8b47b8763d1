// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// The main of perfshap_tests: GoogleTest's own, plus a listener that fails every test that
// skips. Every file a test reads ships in tests/fixtures and a test that depends on the CPU runs
// what this CPU has, so a skip is always a test that silently stopped checking. GTEST_SKIP()
// in the test body, in its fixture's SetUp or in its suite's SetUpTestSuite all end in
// OnTestEnd with a skipped result; the failure added there turns it into a failed one, so the
// binary exits non-zero and prints "[  FAILED  ]", never the "[  SKIPPED ]" that CTest
// (gtest_discover_tests' SKIP_REGULAR_EXPRESSION) would count as skipped rather than failed.
//
// The proof: with --perfshap_register_skipping_test, and only then, main registers
// SkipGuard.DeliberatelySkips, a test that calls GTEST_SKIP(). The CTest test
// SkippedTestFails (tests/CMakeLists.txt, tests/support/check_skip_fails.cmake) runs it
// alone and requires the binary to fail it. Without the flag the test does not exist, so the
// suite itself never skips.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

/// Fails, at its end, every test whose result is "skipped", repeating the skip's reason.
class FailSkippedTests final : public ::testing::EmptyTestEventListener {
 public:
  void OnTestEnd(const ::testing::TestInfo& info) override {
    const ::testing::TestResult& result = *info.result();
    if (!result.Skipped()) return;
    std::string reason;
    for (int i = 0; i < result.total_part_count(); ++i) {
      const ::testing::TestPartResult& part = result.GetTestPartResult(i);
      if (part.skipped() && part.message() != nullptr && *part.message() != '\0') reason = part.message();
    }
    ADD_FAILURE() << info.test_suite_name() << "." << info.name()
                  << " was skipped, and no perfshap test may skip (tests/support/test_main.cpp): "
                  << "make it run everywhere (its files in tests/fixtures) or remove it. Reason given: "
                  << (reason.empty() ? "none" : reason);
  }
};

/// Compiled for SkippedTestFails alone; registered only with --perfshap_register_skipping_test.
class DeliberatelySkips final : public ::testing::Test {
 public:
  void TestBody() override { GTEST_SKIP() << "SkipGuard.DeliberatelySkips skips on purpose"; }
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--perfshap_register_skipping_test") == 0) {
      ::testing::RegisterTest("SkipGuard", "DeliberatelySkips", nullptr, nullptr, __FILE__, __LINE__,
                              []() -> ::testing::Test* { return new DeliberatelySkips; });
    }
  }
  // Appended after GoogleTest's printer: end events reach the listeners in reverse order, so
  // the failure is in the result before the printer reports the test.
  ::testing::UnitTest::GetInstance()->listeners().Append(new FailSkippedTests);
  return RUN_ALL_TESTS();
}
