# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
#
# The XGBoost fixtures (tests/fixtures/xgboost) are what their script writes: regenerate them into
# the build tree with Debian's python (xgboost 1.7.4) and compare them with the shipped files (the
# bytes, or else the parsed JSON values). Included from tests/CMakeLists.txt.
find_program(PYTHON3_DEBIAN NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
set(PERFSHAP_XGBOOST_FIXTURES ${CMAKE_CURRENT_LIST_DIR}/../fixtures/xgboost)
if(PYTHON3_DEBIAN)
  add_test(NAME XgboostFixturesRegenerate
           COMMAND ${PYTHON3_DEBIAN} ${PERFSHAP_XGBOOST_FIXTURES}/make_fixtures.py
                   --out ${CMAKE_CURRENT_BINARY_DIR}/xgboost_fixtures_regenerated
                   --data ${PERFSHAP_XGBOOST_FIXTURES}/../data
                   --compare ${PERFSHAP_XGBOOST_FIXTURES})
else()
  # No test skips: without the interpreter the check fails, saying why.
  message(WARNING "/usr/bin/python3 not found: the test XgboostFixturesRegenerate will fail")
  add_test(NAME XgboostFixturesRegenerate COMMAND ${CMAKE_COMMAND} -E false)
endif()
set_tests_properties(XgboostFixturesRegenerate PROPERTIES TIMEOUT 300)
