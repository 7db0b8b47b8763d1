// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "models/learner_params.hpp"

#include <cstdio>

#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

std::string ParamText(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}}}  // namespace perfshap::detail
