# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
#
# The HTML report in a real browser: for each command, a quick run writes <out>/report.html
# (`--report html`), then check_report.py opens it in headless Chromium at 1280, 800 and 390 px
# and checks that its script ran and logged nothing, that its tables are there, that it fits the
# window, that no figure is blank, that it opens on the summary and the main figure and that no
# text leaves its box (tests HtmlReportBrowser_<command>, one per registered method).
#
# Two roles in one file: included from tests/CMakeLists.txt, it registers the tests; run with
# `cmake -P` (as each test does), it is the test: the CLI run, then the browser check.
# Chromium and Debian's Python with PIL are required (.ci/deps installs both): no test skips.

if(CMAKE_SCRIPT_MODE_FILE)
  # ---- one test: -DCLI= -DRUN_ARGS=a|b|c -DOUT= -DPYTHON= -DCHECK= -DCHROMIUM= -DMIN_FIGURES= ----
  string(REPLACE "|" ";" run_args "${RUN_ARGS}")
  string(REPLACE "|" " " run_shown "${RUN_ARGS}")
  execute_process(COMMAND "${CLI}" ${run_args} --report html --out "${OUT}" --force --quiet
                  RESULT_VARIABLE run_rc TIMEOUT 120)
  if(NOT run_rc EQUAL 0)
    message(FATAL_ERROR "perfshap ${run_shown} failed (${run_rc})")
  endif()
  if(NOT EXISTS "${OUT}/report.html")
    message(FATAL_ERROR "perfshap ${run_shown} --report html wrote no ${OUT}/report.html")
  endif()
  execute_process(COMMAND "${PYTHON}" "${CHECK}" --chromium "${CHROMIUM}" --out "${OUT}.check"
                          --min-figures ${MIN_FIGURES} "${OUT}/report.html"
                  RESULT_VARIABLE check_rc TIMEOUT 300)
  if(NOT check_rc EQUAL 0)
    message(FATAL_ERROR "the browser check of ${OUT}/report.html failed (${check_rc}); "
                        "screenshots, DOM dumps and Chromium logs are in ${OUT}.check")
  endif()
  return()
endif()

# ---- registration ----
find_program(CHROMIUM_EXECUTABLE NAMES chromium chromium-browser)
if(NOT CHROMIUM_EXECUTABLE)
  message(FATAL_ERROR "Chromium not found: the HTML report's browser tests (tests/browser) need it. "
                      "Run .ci/deps (Debian package chromium), or set CHROMIUM_EXECUTABLE.")
endif()
find_program(PERFSHAP_BROWSER_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(PERFSHAP_BROWSER_PYTHON)
  execute_process(COMMAND ${PERFSHAP_BROWSER_PYTHON} -c "import PIL" RESULT_VARIABLE perfshap_pil_rc
                  OUTPUT_QUIET ERROR_QUIET)
endif()
if(NOT PERFSHAP_BROWSER_PYTHON OR NOT perfshap_pil_rc EQUAL 0)
  message(FATAL_ERROR "/usr/bin/python3 with PIL not found: the HTML report's browser tests "
                      "(tests/browser) need it. Run .ci/deps (Debian package python3-pil).")
endif()

cmake_path(SET perfshap_browser_data NORMALIZE "${CMAKE_CURRENT_LIST_DIR}/../fixtures/data")
# command -> its quick job (a second or two on two cores), arguments separated by '|'.
set(perfshap_browser_robustness "robustness|--cv|mc:5")
set(perfshap_browser_xper "xper")
set(perfshap_browser_shap
    "shap|--model|logistic|--train|${perfshap_browser_data}/pima.csv|--data|${perfshap_browser_data}/pima.csv|--label|label|--rows|10..29")
set(perfshap_browser_axom
    "axom|--data|${perfshap_browser_data}/wine.csv|--label|label|--trees|10|--neighbours|200|--heatmap-grid|20")
set(perfshap_browser_chains "chains")
set(perfshap_browser_demo "demo|--rows|200")
# sage under a conditional value function: its report adds the comparison with the marginal
# values and the background's correlation map.
set(perfshap_browser_sage
    "sage|--data|${perfshap_browser_data}/pima.csv|--label|label|--model|logistic|--train|${perfshap_browser_data}/pima.csv|--background|100|--conditional|gaussian|--conditional-samples|100")
set(perfshap_browser_treeshap
    "treeshap|--model-file|${perfshap_browser_data}/../xgboost/binary_logistic_100x6.json|--data|${perfshap_browser_data}/breast_cancer.csv")
set(perfshap_browser_xper-montecarlo "xper-montecarlo|--samples|20")

foreach(cmd robustness xper shap treeshap sage axom chains demo xper-montecarlo)
  # demo reports tables and numbers only: its page has no figure.
  set(min_figures 1)
  if(cmd STREQUAL "demo")
    set(min_figures 0)
  endif()
  add_test(NAME HtmlReportBrowser_${cmd}
           COMMAND ${CMAKE_COMMAND}
                   -DCLI=$<TARGET_FILE:perfshap_cli>
                   "-DRUN_ARGS=${perfshap_browser_${cmd}}"
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/browser/${cmd}
                   -DPYTHON=${PERFSHAP_BROWSER_PYTHON}
                   -DCHECK=${CMAKE_CURRENT_LIST_DIR}/check_report.py
                   -DCHROMIUM=${CHROMIUM_EXECUTABLE}
                   -DMIN_FIGURES=${min_figures}
                   -P ${CMAKE_CURRENT_LIST_FILE})
  set_tests_properties(HtmlReportBrowser_${cmd} PROPERTIES TIMEOUT 300 LABELS browser)
endforeach()
