// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// Options declared once (as xgboost's DMLC_DECLARE_FIELD): each option of a learner or a method
// is declared with its name, type, default, range and help, bound to a field of its options
// struct. That one declaration gives the parser of text values (the command line's flags,
// Python's keywords and the C API's JSON keys all arrive as text), the range checks and their
// messages, the help text, and the text form of the values in effect (result.json).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "perfshap/error.hpp"
#include "perfshap/export.hpp"

namespace perfshap { inline namespace v0 {

/** @brief The kind of value an option takes. */
enum class OptionType : std::uint8_t {
  kBool,      ///< true/false (also 1/0, yes/no, on/off)
  kInteger,   ///< a whole number (signed or unsigned, as its field)
  kNumber,    ///< a finite number (double)
  kText,      ///< a string, maybe one of fixed choices
  kList,      ///< comma-separated strings
};

/** @brief What is declared of one option. */
struct PERFSHAP_EXPORT OptionInfo {
  /** Canonical name, snake_case ("test_size", "C"); a front end may spell '_' as '-'. */
  std::string name;
  OptionType type = OptionType::kText;
  /** The default, as text (the field's value in a default-constructed options struct). */
  std::string default_text;
  std::string help;
  /** kText and kList items: the accepted values (empty: any). */
  std::vector<std::string> choices;
  /** kInteger and kNumber: the accepted range (inclusive unless exclusive). */
  double min = -HUGE_VAL;
  double max = HUGE_VAL;
  bool min_exclusive = false;
  bool max_exclusive = false;
  /** Unsigned integer fields: no sign, up to 2^64 - 1. */
  bool is_unsigned = false;

  /** @brief "in (0, 1)", ">= 1", "one of exact, permutation" or "" (for help and messages). */
  std::string RangeText() const;
};

/** @brief Text values by option name, as front ends collect them. */
using OptionValues = std::map<std::string, std::string>;

namespace detail {
/** @brief Parses `text` as a value of `info` (checked against its range and choices).
 *  @throws InvalidArgument naming `owner`, the option and what it accepts. */
PERFSHAP_EXPORT bool ParseBoolOption(const std::string& owner, const OptionInfo& info, const std::string& text);
PERFSHAP_EXPORT std::int64_t ParseIntegerOption(const std::string& owner, const OptionInfo& info, const std::string& text);
PERFSHAP_EXPORT std::uint64_t ParseUnsignedOption(const std::string& owner, const OptionInfo& info,
                                                  const std::string& text);
PERFSHAP_EXPORT double ParseNumberOption(const std::string& owner, const OptionInfo& info, const std::string& text);
PERFSHAP_EXPORT std::string ParseTextOption(const std::string& owner, const OptionInfo& info, const std::string& text);
PERFSHAP_EXPORT std::vector<std::string> ParseListOption(const std::string& owner, const OptionInfo& info,
                                                         const std::string& text);
/** @brief A number as text that reads back to the same double ("0.1", "1e-09", "inf"). */
PERFSHAP_EXPORT std::string FormatOptionNumber(double v);
/** @brief `name` with '-' as '_' (the canonical spelling). */
PERFSHAP_EXPORT std::string CanonicalOptionName(const std::string& name);
/** @throws InvalidArgument: `owner` has no option `name` (listing `known`). */
[[noreturn]] PERFSHAP_EXPORT void ThrowUnknownOption(const std::string& owner, const std::string& name,
                                                     const std::vector<OptionInfo>& known);
}  // namespace detail

/**
 * @brief The options of `T` (a learner's or a method's options struct), each declared once and
 * bound to a field of T.
 *
 *     OptionTable<LogisticOptions> t("logistic");
 *     t.Add("C", &LogisticOptions::C).Help("inverse L2 strength").Above(0);
 *     t.Add("standardize", &LogisticOptions::standardize).Help("fit on standardised columns");
 *     LogisticOptions o;
 *     t.Parse({{"C", "0.5"}}, o);         // o.C == 0.5; an unknown name or a bad value throws
 *     t.Format(o);                        // {{"C", "0.5"}, {"standardize", "true"}}
 */
template <class T>
class OptionTable {
 public:
  /** @brief A declared option, to finish its declaration. */
  class Declared {
   public:
    explicit Declared(OptionInfo& info) : info_(&info) {}
    Declared& Help(std::string text) {
      info_->help = std::move(text);
      return *this;
    }
    /** @brief Values > v (exclusive). */
    Declared& Above(double v) {
      info_->min = v;
      info_->min_exclusive = true;
      return *this;
    }
    /** @brief Values >= v. */
    Declared& AtLeast(double v) {
      info_->min = v;
      info_->min_exclusive = false;
      return *this;
    }
    /** @brief Values <= v. */
    Declared& AtMost(double v) {
      info_->max = v;
      info_->max_exclusive = false;
      return *this;
    }
    /** @brief Values < v. */
    Declared& Below(double v) {
      info_->max = v;
      info_->max_exclusive = true;
      return *this;
    }
    /** @brief Text (or list items) among `values`. */
    Declared& Choices(std::vector<std::string> values) {
      info_->choices = std::move(values);
      return *this;
    }

   private:
    OptionInfo* info_;
  };

  explicit OptionTable(std::string owner) : owner_(std::move(owner)) {}

  /** @brief Declares option `name`, bound to `field` (bool, int, int64, unsigned, size_t,
   *  uint64, double, string or vector<string>); its default is the field's value in T{}. */
  template <class V>
  Declared Add(std::string name, V T::*field) {
    return AddVia<V>(std::move(name), [field](T& t) -> V& { return t.*field; });
  }

  /** @brief Declares option `name`, bound to the field `access(t)` returns (a field of a member
   *  struct: `[](LogisticOptions& o) -> double& { return o.newton.gradient_tolerance; }`). */
  template <class V>
  Declared AddVia(std::string name, std::function<V&(T&)> access) {
    auto entry = std::make_unique<Entry>();
    entry->info.name = std::move(name);
    Bind(*entry, std::move(access));
    entries_.push_back(std::move(entry));
    Entry& e = *entries_.back();
    e.info.default_text = e.format(T{});
    return Declared(e.info);
  }

  /** @brief Sets the fields of `out` named in `values` (names in either spelling).
   *  @throws InvalidArgument for an unknown name (listing the options) or a value outside the
   *  option's type, range or choices (naming the option and what it takes). */
  void Parse(const OptionValues& values, T& out) const {
    for (const auto& [raw_name, text] : values) {
      const std::string name = detail::CanonicalOptionName(raw_name);
      const Entry* entry = Find(name);
      if (entry == nullptr) detail::ThrowUnknownOption(owner_, raw_name, infos());
      entry->parse(owner_, entry->info, text, out);
    }
  }

  /** @brief Every option's value in `v`, as text that parses back to it. */
  OptionValues Format(const T& v) const {
    OptionValues out;
    for (const auto& e : entries_) out[e->info.name] = e->format(v);
    return out;
  }

  /** @brief The declarations, in declaration order. */
  std::vector<OptionInfo> infos() const {
    std::vector<OptionInfo> out;
    for (const auto& e : entries_) out.push_back(e->info);
    return out;
  }

  /** @brief Whether `name` (either spelling) is declared. */
  bool Has(const std::string& name) const { return Find(detail::CanonicalOptionName(name)) != nullptr; }
  const std::string& owner() const noexcept { return owner_; }

 private:
  struct Entry {
    OptionInfo info;
    std::function<void(const std::string&, const OptionInfo&, const std::string&, T&)> parse;
    std::function<std::string(const T&)> format;
  };

  const Entry* Find(const std::string& name) const {
    for (const auto& e : entries_)
      if (e->info.name == name) return e.get();
    return nullptr;
  }

  template <class V>
  using Access = std::function<V&(T&)>;
  template <class V>
  static const V& Read(const Access<V>& access, const T& v) {
    return access(const_cast<T&>(v));  // the accessor only names the field
  }

  void Bind(Entry& e, Access<bool> field) {
    e.info.type = OptionType::kBool;
    e.parse = [field](const std::string& o, const OptionInfo& i, const std::string& t, T& out) {
      field(out) = detail::ParseBoolOption(o, i, t);
    };
    e.format = [field](const T& v) { return std::string(Read(field, v) ? "true" : "false"); };
  }
  template <class I>
  void BindSigned(Entry& e, Access<I> field) {
    e.info.type = OptionType::kInteger;
    e.info.min = static_cast<double>(std::numeric_limits<I>::min());
    e.info.max = static_cast<double>(std::numeric_limits<I>::max());
    e.parse = [field](const std::string& o, const OptionInfo& i, const std::string& t, T& out) {
      field(out) = static_cast<I>(detail::ParseIntegerOption(o, i, t));
    };
    e.format = [field](const T& v) { return std::to_string(Read(field, v)); };
  }
  template <class U>
  void BindUnsigned(Entry& e, Access<U> field) {
    e.info.type = OptionType::kInteger;
    e.info.is_unsigned = true;
    e.info.min = 0.0;
    e.info.max = static_cast<double>(std::numeric_limits<U>::max());
    e.parse = [field](const std::string& o, const OptionInfo& i, const std::string& t, T& out) {
      field(out) = static_cast<U>(detail::ParseUnsignedOption(o, i, t));
    };
    e.format = [field](const T& v) { return std::to_string(Read(field, v)); };
  }
  void Bind(Entry& e, Access<int> field) { BindSigned<int>(e, std::move(field)); }
  void Bind(Entry& e, Access<long> field) { BindSigned<long>(e, std::move(field)); }
  void Bind(Entry& e, Access<long long> field) { BindSigned<long long>(e, std::move(field)); }
  void Bind(Entry& e, Access<unsigned> field) { BindUnsigned<unsigned>(e, std::move(field)); }
  void Bind(Entry& e, Access<unsigned long> field) { BindUnsigned<unsigned long>(e, std::move(field)); }
  void Bind(Entry& e, Access<unsigned long long> field) { BindUnsigned<unsigned long long>(e, std::move(field)); }
  void Bind(Entry& e, Access<double> field) {
    e.info.type = OptionType::kNumber;
    e.parse = [field](const std::string& o, const OptionInfo& i, const std::string& t, T& out) {
      field(out) = detail::ParseNumberOption(o, i, t);
    };
    e.format = [field](const T& v) { return detail::FormatOptionNumber(Read(field, v)); };
  }
  void Bind(Entry& e, Access<std::string> field) {
    e.info.type = OptionType::kText;
    e.parse = [field](const std::string& o, const OptionInfo& i, const std::string& t, T& out) {
      field(out) = detail::ParseTextOption(o, i, t);
    };
    e.format = [field](const T& v) { return Read(field, v); };
  }
  void Bind(Entry& e, Access<std::vector<std::string>> field) {
    e.info.type = OptionType::kList;
    e.parse = [field](const std::string& o, const OptionInfo& i, const std::string& t, T& out) {
      field(out) = detail::ParseListOption(o, i, t);
    };
    e.format = [field](const T& v) {
      std::string s;
      for (const std::string& item : Read(field, v)) s += (s.empty() ? "" : ",") + item;
      return s;
    };
  }

  std::string owner_;
  std::vector<std::unique_ptr<Entry>> entries_;
};

}}  // namespace perfshap
