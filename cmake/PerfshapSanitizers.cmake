# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# PERFSHAP_SANITIZE is a list: "address;undefined" (preset asan) or "thread" (preset tsan).
if(PERFSHAP_SANITIZE)
  list(JOIN PERFSHAP_SANITIZE "," _perfshap_san)
  add_compile_options(-fsanitize=${_perfshap_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_perfshap_san})
  if("undefined" IN_LIST PERFSHAP_SANITIZE)
    # oneTBB 2021.8's flow graph (flow_graph_impl.h) casts a task's memory to its final type
    # before the object is constructed; UBSan's vptr check flags that inside TBB's headers.
    # Every other UBSan check stays on.
    add_compile_options(-fno-sanitize=vptr)
  endif()
endif()
# The fuzz build (preset fuzz) instruments every object for libFuzzer's coverage feedback; only
# the fuzz targets link libFuzzer itself (fuzz/CMakeLists.txt).
if(PERFSHAP_BUILD_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "PERFSHAP_BUILD_FUZZ needs clang++ (libFuzzer): configure with the preset fuzz")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
