# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# Installs an exported package: find_package(perfshap) + perfshap::perfshap (C++) and
# perfshap::perfshap_c (the C ABI, libperfshap_c.so.1 and perfshap/c_api.h).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(PERFSHAP_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/perfshap)
install(TARGETS perfshap perfshap_c EXPORT perfshapTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/include/perfshap
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/engine/c_api/include/perfshap/c_api.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/perfshap)
install(FILES ${PROJECT_BINARY_DIR}/generated/perfshap/version_config.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/perfshap)
if(TARGET perfshap_cli)
  install(TARGETS perfshap_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(EXPORT perfshapTargets NAMESPACE perfshap:: DESTINATION ${PERFSHAP_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/perfshapConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/perfshapConfig.cmake
                              INSTALL_DESTINATION ${PERFSHAP_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/perfshapConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/perfshapConfig.cmake ${PROJECT_BINARY_DIR}/perfshapConfigVersion.cmake
        DESTINATION ${PERFSHAP_INSTALL_CMAKEDIR})

# pkg-config for the C library (perfshap-c.pc), relocatable: its prefix is found from where the
# file lies (${pcfiledir}), so `cmake --install --prefix P` anywhere gives a working file.
set(PERFSHAP_PC_TO_PREFIX "..")
string(REGEX MATCHALL "[^/]+" perfshap_libdir_parts "${CMAKE_INSTALL_LIBDIR}")
foreach(part ${perfshap_libdir_parts})
  string(APPEND PERFSHAP_PC_TO_PREFIX "/..")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/perfshap-c.pc.in ${PROJECT_BINARY_DIR}/perfshap-c.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/perfshap-c.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
