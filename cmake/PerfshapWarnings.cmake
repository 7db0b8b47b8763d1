# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
function(perfshap_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion -Wnon-virtual-dtor)
  if(PERFSHAP_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
