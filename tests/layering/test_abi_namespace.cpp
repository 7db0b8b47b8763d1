// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The library's C++ symbols live in the inline namespace perfshap::v0: code written against
// perfshap:: keeps compiling, and a later ABI (v1) can sit beside this one in a process without
// its symbols colliding.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <typeinfo>

#include "perfshap/perfshap.hpp"

namespace perfshap { inline namespace v0 {
namespace {

TEST(AbiNamespace, PublicTypesAndFunctionsLiveInTheVersionedInlineNamespace) {
  static_assert(std::is_same_v<Dataset, v0::Dataset>);
  static_assert(std::is_same_v<ExecutionOptions, ::perfshap::v0::ExecutionOptions>);
  // The mangled names carry the version: "N8perfshap2v07DatasetE".
  EXPECT_NE(std::string(typeid(Dataset).name()).find("8perfshap2v0"), std::string::npos) << typeid(Dataset).name();
  EXPECT_NE(std::string(typeid(&ResolvedThreads).name()).find("8perfshap2v0"), std::string::npos)
      << typeid(&ResolvedThreads).name();
}

}  // namespace
}}  // namespace perfshap
