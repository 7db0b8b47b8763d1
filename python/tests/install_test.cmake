# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# cmake --install of the Python component into a scratch prefix, then `import perfshap` from there
# (with no build tree on the path) runs a method and checks its result.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR} --component python
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${err}")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=PYTHONPATH PYTHONPATH=${WORK_DIR}/${PACKAGE_DIR}
          ${PYTHON} -c "import perfshap, os; r = perfshap.robustness(cv='mc:3'); assert perfshap.__file__.startswith(os.environ['PYTHONPATH']), perfshap.__file__; assert r.phi.shape == (3,); print('installed perfshap at', perfshap.__file__)"
  WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "import perfshap from the installed prefix failed: ${err}")
endif()
