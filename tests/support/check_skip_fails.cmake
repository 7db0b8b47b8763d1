# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# CTest test SkippedTestFails: runs perfshap_tests (TEST_BINARY) on SkipGuard.DeliberatelySkips
# alone, a test that calls GTEST_SKIP() and exists only with --perfshap_register_skipping_test
# (tests/support/test_main.cpp), and passes when the binary fails it: a non-zero exit, the test
# reported "[  FAILED  ]" with the listener's reason, and no "[  SKIPPED ]" anywhere (that text
# would make CTest count a discovered test as skipped, not failed).
execute_process(
  COMMAND ${TEST_BINARY} --perfshap_register_skipping_test --gtest_filter=SkipGuard.DeliberatelySkips
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}${err}")
message("${all}")
if(rc EQUAL 0)
  message(FATAL_ERROR "perfshap_tests exited 0 with a skipped test: skips are not failed")
endif()
if(NOT all MATCHES "\\[  FAILED  \\] SkipGuard\\.DeliberatelySkips")
  message(FATAL_ERROR "perfshap_tests did not report SkipGuard.DeliberatelySkips as failed (exit ${rc})")
endif()
if(NOT all MATCHES "was skipped, and no perfshap test may skip")
  message(FATAL_ERROR "the failure does not carry the skip listener's message")
endif()
if(all MATCHES "\\[  SKIPPED \\]")
  message(FATAL_ERROR "the output still says [  SKIPPED ]: CTest would count the test as skipped")
endif()
