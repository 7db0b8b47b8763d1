// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// Declared options (perfshap/blocks/options.hpp): the text of each type parsed once, here, with the
// messages every front end shows.
#include "perfshap/blocks/options.hpp"

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace perfshap { inline namespace v0 {

namespace {

std::string Trim(const std::string& s) {
  std::size_t a = 0;
  std::size_t b = s.size();
  while (a < b && (s[a] == ' ' || s[a] == '\t')) ++a;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t')) --b;
  return s.substr(a, b - a);
}

// A value quoted in a message: at most 40 characters (a message never formats an unbounded value).
std::string Shortened(const std::string& text) {
  std::string s;
  s.append(text, 0, std::min<std::size_t>(text.size(), 40));
  if (text.size() > 40) s.append("...");
  return s;
}

std::string Quoted(const std::string& text) {
  std::string q = "'";
  q.append(Shortened(text));
  q.push_back('\'');
  return q;
}

// "an integer in [0, 64]": what an option takes, with its range when it has one.
std::string WithRange(std::string what, const OptionInfo& info) {
  const std::string range = info.RangeText();
  if (!range.empty()) {
    what.push_back(' ');
    what.append(range);
  }
  return what;
}

std::string Number(double v) { return detail::FormatOptionNumber(v); }

[[noreturn]] void Bad(const std::string& owner, const OptionInfo& info, const std::string& text,
                      const std::string& takes) {
  throw InvalidArgument(owner + ": option " + info.name + " = " + Quoted(text) + " is not " + takes, {info.name});
}

void CheckRange(const std::string& owner, const OptionInfo& info, const std::string& text, double v) {
  const bool low = info.min_exclusive ? !(v > info.min) : !(v >= info.min);
  const bool high = info.max_exclusive ? !(v < info.max) : !(v <= info.max);
  if (low || high)
    throw InvalidArgument(owner + ": option " + info.name + " must be " +
                              (info.type == OptionType::kInteger ? "an integer " : "a finite number ") + info.RangeText() +
                              ", got " + Quoted(text),
                          {info.name});
}

}  // namespace

std::string OptionInfo::RangeText() const {
  if (!choices.empty()) {
    std::string s = "one of ";
    for (std::size_t i = 0; i < choices.size(); ++i) s += (i > 0 ? ", " : "") + choices[i];
    return s;
  }
  if (type != OptionType::kInteger && type != OptionType::kNumber) return "";
  // An integer field's own bounds (0 of an unsigned field, the limits of its type) go unsaid.
  const bool has_min = std::isfinite(min) && !(type == OptionType::kInteger && (min <= -2147483648.0 || (is_unsigned && min <= 0.0)));
  const bool has_max = std::isfinite(max) && !(type == OptionType::kInteger && max >= 2147483647.0);
  if (has_min && has_max)
    return std::string("in ") + (min_exclusive ? "(" : "[") + Number(min) + ", " + Number(max) +
           (max_exclusive ? ")" : "]");
  if (has_min) return std::string(min_exclusive ? "> " : ">= ") + Number(min);
  if (has_max) return std::string(max_exclusive ? "< " : "<= ") + Number(max);
  return "";
}

namespace detail {

std::string FormatOptionNumber(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {  // a whole number as its digits: 10, not 1e+01
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) return buf;
  }
  return buf;
}

std::string CanonicalOptionName(const std::string& name) {
  std::string s = name;
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

void ThrowUnknownOption(const std::string& owner, const std::string& name, const std::vector<OptionInfo>& known) {
  std::string list;
  for (const OptionInfo& info : known) list += (list.empty() ? "" : ", ") + info.name;
  throw InvalidArgument(owner + " has no option " + Shortened(name) + " (its options: " +
                            (known.empty() ? std::string("none") : list) + ")",
                        {Shortened(name)});
}

bool ParseBoolOption(const std::string& owner, const OptionInfo& info, const std::string& text) {
  const std::string t = Trim(text);
  if (t == "true" || t == "1" || t == "yes" || t == "on" || t == "True") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off" || t == "False") return false;
  Bad(owner, info, text, "true or false");
}

std::int64_t ParseIntegerOption(const std::string& owner, const OptionInfo& info, const std::string& text) {
  const std::string t = Trim(text);
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || p != t.data() + t.size())
    Bad(owner, info, text, WithRange("an integer", info));
  CheckRange(owner, info, text, static_cast<double>(v));
  return v;
}

std::uint64_t ParseUnsignedOption(const std::string& owner, const OptionInfo& info, const std::string& text) {
  const std::string t = Trim(text);
  std::uint64_t v = 0;
  // from_chars takes no sign for unsigned types: "-1" is refused, not wrapped to 2^64 - 1.
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  const std::string range = info.RangeText();
  if (t.empty() || ec != std::errc() || p != t.data() + t.size())
    Bad(owner, info, text,
        "an integer " + (range.empty() || range == ">= 0" ? std::string("in 0 .. 18446744073709551615") : range));
  CheckRange(owner, info, text, static_cast<double>(v));
  return v;
}

double ParseNumberOption(const std::string& owner, const OptionInfo& info, const std::string& text) {
  const std::string t = Trim(text);
  errno = 0;
  char* end = nullptr;
  const double v = t.empty() ? 0.0 : std::strtod(t.c_str(), &end);
  if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v))
    Bad(owner, info, text, WithRange("a number", info));
  CheckRange(owner, info, text, v);
  return v;
}

std::string ParseTextOption(const std::string& owner, const OptionInfo& info, const std::string& text) {
  if (!info.choices.empty() &&
      std::find(info.choices.begin(), info.choices.end(), Trim(text)) == info.choices.end())
    Bad(owner, info, text, info.RangeText());
  return info.choices.empty() ? text : Trim(text);
}

std::vector<std::string> ParseListOption(const std::string& owner, const OptionInfo& info, const std::string& text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = Trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (!item.empty()) {
      if (!info.choices.empty() && std::find(info.choices.begin(), info.choices.end(), item) == info.choices.end())
        Bad(owner, info, item, info.RangeText());
      items.push_back(item);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

}  // namespace detail
}}  // namespace perfshap
