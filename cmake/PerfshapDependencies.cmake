# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# Every dependency is a Debian package found through its CMake config; nothing is downloaded.
find_package(Threads REQUIRED)
find_package(TBB REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(nlohmann_json 3.10 REQUIRED)
# Boost.Math's distributions (the p-values of perfshap/blocks/stats.hpp); header-only, private.
find_package(Boost 1.74 REQUIRED)
# MPI (OpenMPI's C interface), for ExecutionOptions::processes; one translation unit uses it
# (engine/src/schedule/processes.cpp).
if(PERFSHAP_MPI)
  find_package(MPI REQUIRED COMPONENTS C)
endif()
if(PERFSHAP_BUILD_CLI)
  find_package(CLI11 2.0 REQUIRED)
endif()
if(PERFSHAP_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(PERFSHAP_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()
