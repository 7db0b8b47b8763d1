# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
# PERFSHAP_SANITIZE is a list: "address;undefined" (preset asan) or "thread" (preset tsan).
if(PERFSHAP_SANITIZE)
  list(JOIN PERFSHAP_SANITIZE "," _perfshap_san)
  add_compile_options(-fsanitize=${_perfshap_san} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${_perfshap_san})
endif()
