# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# Installs the build tree into a scratch prefix, then configures, builds and runs the consumer.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${err}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix)
set(flags "")
if(SANITIZE)
  string(REPLACE ";" "," san "${SANITIZE}")
  set(flags "-fsanitize=${san}")
endif()
# The C++ examples of README.md and docs/, one program a block.
run(${PYTHON} ${REPO_ROOT}/tests/docs/run_examples.py --write-cpp ${WORK_DIR}/docs_cpp)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS=${flags}" "-DCMAKE_C_FLAGS=${flags}"
    "-DCMAKE_EXE_LINKER_FLAGS=${flags}" -DC_PROGRAM=${C_PROGRAM} -DDOCS_CPP_DIR=${WORK_DIR}/docs_cpp)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel 2)
run(${WORK_DIR}/build/consumer)
# Each docs example runs from the repository root, as the pages say (their paths are the repo's).
file(GLOB docs_programs ${WORK_DIR}/docs_cpp/*.cpp)
foreach(src ${docs_programs})
  get_filename_component(name ${src} NAME_WE)
  execute_process(COMMAND ${WORK_DIR}/build/docs_${name} WORKING_DIRECTORY ${REPO_ROOT} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  file(STRINGS ${src} where LIMIT_COUNT 1)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "the docs example ${where} failed (${rc}) built against the installed package:\n${out}${err}")
  endif()
  message("${where}: ${out}")
endforeach()
run(${WORK_DIR}/build/c_consumer ${FIXTURES}/data/pima.csv ${FIXTURES}/data/breast_cancer.csv
    ${FIXTURES}/xgboost/binary_logistic.json)
# The C library through pkg-config, as a C project without CMake uses it: the README's C example
# (examples/c_api_xper.c) compiled with `pkg-config --cflags --libs perfshap-c` and run.
if(C_EXAMPLE AND NOT SANITIZE)
  find_program(PKG_CONFIG NAMES pkg-config pkgconf REQUIRED)
  file(GLOB_RECURSE pc_file ${WORK_DIR}/prefix/*/perfshap-c.pc)
  get_filename_component(pc_dir "${pc_file}" DIRECTORY)
  set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
  execute_process(COMMAND ${PKG_CONFIG} --cflags --libs perfshap-c RESULT_VARIABLE rc OUTPUT_VARIABLE pc_flags
                  ERROR_VARIABLE err OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config perfshap-c failed (${rc}) with PKG_CONFIG_PATH=${pc_dir}: ${err}")
  endif()
  separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
  string(REGEX MATCH "-L[^ ;]+" libdir_flag "${pc_flags}")
  string(SUBSTRING "${libdir_flag}" 2 -1 libdir)
  run(cc -std=c11 ${C_EXAMPLE} ${pc_flags} -Wl,-rpath,${libdir} -o ${WORK_DIR}/c_api_xper)
  run(${WORK_DIR}/c_api_xper)
endif()
