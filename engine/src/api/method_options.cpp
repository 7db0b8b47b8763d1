// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#include "api/method_options.hpp"

#include <algorithm>

#include "data/message_text.hpp"

namespace perfshap { inline namespace v0 { namespace detail {

using api::MethodOption;

const MethodOption* FindMethodOption(const std::vector<MethodOption>& options, const std::string& name) {
  const std::string canonical = CanonicalOptionName(name);
  for (const MethodOption& o : options) {
    if (o.info.name == canonical) return &o;
    if (std::find(o.aliases.begin(), o.aliases.end(), canonical) != o.aliases.end()) return &o;
  }
  return nullptr;
}

const MethodOption* OptionOfField(const std::vector<MethodOption>& options, const std::string& name) {
  if (const MethodOption* o = FindMethodOption(options, name)) return o;
  for (const MethodOption& o : options)
    if (std::find(o.fields.begin(), o.fields.end(), name) != o.fields.end()) return &o;
  return nullptr;
}

void ThrowUnknownMethodOption(const std::string& method, const std::string& name,
                              const std::vector<MethodOption>& options) {
  std::vector<std::string> names;
  for (const MethodOption& o : options) names.push_back(o.info.name);
  throw InvalidArgument(method + " has no option " + Quoted(name) + "; its options: " +
                            CommaList(names),
                        {CanonicalOptionName(name)});
}

void ThrowGivenTwice(const std::string& method, const MethodOption& option, const std::string& a,
                     const std::string& b) {
  const std::string ca = CanonicalOptionName(a), cb = CanonicalOptionName(b);
  throw InvalidArgument(method + ": option " + option.info.name + " is given twice" +
                            (ca == cb ? std::string() : " (as " + ca + " and " + cb + ")") + "; give it once",
                        {option.info.name});
}

void ThrowBadValue(const std::string& method, const MethodOption& option, const std::string& text,
                   const std::string& takes) {
  throw InvalidArgument(method + ": option " + option.info.name + " = " + Quoted(text) +
                            " is not " + takes,
                        {option.info.name});
}

}}}  // namespace perfshap::detail
