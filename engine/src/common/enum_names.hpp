// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// An enumeration's names as one table: the name of a value and the value of a name read from the
// same lines, so a new value is one line and the two directions never disagree.

#include <cstddef>
#include <optional>
#include <string_view>

namespace perfshap { inline namespace v0 { namespace detail {

/** @brief One value of an enumeration and its name. */
template <class E>
struct EnumName {
  E value;
  const char* name;
};

/** @brief The name of `value` in `names`, or `otherwise` when it has none. */
template <class E, std::size_t N>
constexpr const char* NameOf(const EnumName<E> (&names)[N], E value, const char* otherwise) noexcept {
  for (const EnumName<E>& n : names)
    if (n.value == value) return n.name;
  return otherwise;
}

/** @brief The value named `name` in `names`, or nothing. */
template <class E, std::size_t N>
constexpr std::optional<E> ValueOf(const EnumName<E> (&names)[N], std::string_view name) noexcept {
  for (const EnumName<E>& n : names)
    if (name == n.name) return n.value;
  return std::nullopt;
}

}}}  // namespace perfshap::detail
