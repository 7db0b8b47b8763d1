// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
#pragma once

// A method's options, each declared once (issue 36), as the learners declare theirs
// (perfshap/blocks/options.hpp): its name, type, default, range or grammar and help, bound to a
// field of the method's request. The declared name is the JSON key, the Python keyword, the
// command line's --flag (with '-' for '_') and the name every message gives. Every front end hands
// the values over as text (the command line's arguments as typed; JSON and Python values by
// OptionText), and this one declaration parses and checks them, so that a value one front end
// refuses every front end refuses, with the same message.

#include <algorithm>
#include <functional>
#include <type_traits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "perfshap/blocks/options.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace api {

/** @brief What a method declares of one option, beyond a learner option's OptionInfo. */
struct MethodOption {
  /** The name (canonical, snake_case), type, default as text, range or choices, and help. */
  OptionInfo info;
  /** Older names still accepted (help shows them as aliases). */
  std::vector<std::string> aliases;
  /** The library's names of what it sets (RobustnessOptions::plan for cv), which messages from
   *  inside the library name (Error::options()): said as this option. Not accepted as input. */
  std::vector<std::string> fields;
  /** The value's grammar in help ("BEGIN:END", "FILE", "SIZE"); empty: the type's. */
  std::string value_name;
  /** A true/false the command line gives bare (--overfit), true when given. */
  bool is_switch = false;
  /** A list the command line takes one item per flag (--model-param A=1 --model-param B=2). */
  bool repeatable = false;
  /** Takes a list from JSON and Python (a list type, a repeatable option, or a grammar of its own
   *  that reads the items joined by commas); another option refuses one. */
  bool takes_list = false;
  /** May differ between the processes of one MPI run (threads, max_memory): not part of the
   *  run's invocation, which every process must share. */
  bool per_process = false;
};

/** @brief One option given: the name it was given under (a declared name or alias, '-' or '_'),
 *  its value as text, and whether it came as a list (JSON or Python; its items joined by commas). */
struct GivenOption {
  std::string first;
  std::string second;
  bool list = false;

  GivenOption(std::string name, std::string text, bool is_list = false)
      : first(std::move(name)), second(std::move(text)), list(is_list) {}
};

/** @brief The options given, in the order given. */
using GivenOptions = std::vector<GivenOption>;

}}}  // namespace perfshap::api

namespace perfshap { inline namespace v0 { namespace detail {
/** @brief The option of `options` that `name` (either spelling, or an alias) names, or null. */
const api::MethodOption* FindMethodOption(const std::vector<api::MethodOption>& options, const std::string& name);
/** @brief The option a message's option `name` is about: a declared name or alias, or a library
 *  field the option sets (MethodOption::fields); null for none. */
const api::MethodOption* OptionOfField(const std::vector<api::MethodOption>& options, const std::string& name);
/** @throws InvalidArgument: `method` has no option `name` (listing its options). */
[[noreturn]] void ThrowUnknownMethodOption(const std::string& method, const std::string& name,
                                           const std::vector<api::MethodOption>& options);
/** @throws InvalidArgument: `a` and `b` name one option of `method`. */
[[noreturn]] void ThrowGivenTwice(const std::string& method, const api::MethodOption& option, const std::string& a,
                                  const std::string& b);
/** @throws InvalidArgument: `method`'s option `option` = `text` is not `takes`. */
[[noreturn]] void ThrowBadValue(const std::string& method, const api::MethodOption& option, const std::string& text,
                                const std::string& takes);
}}}  // namespace perfshap::detail

namespace perfshap { inline namespace v0 { namespace api {

/**
 * @brief The options of request type `R`, each declared once and bound to the request.
 *
 *     RequestOptions<DemoRequest> t("demo");
 *     t.Add<double>("test_size", [](DemoRequest& r) -> double& { return r.test_size; })
 *         .Help("test fraction of the holdout split").Above(0).Below(1);
 *     t.AddParsed("rows", OptionType::kText, "", [](const ParseContext& c, DemoRequest& r) { ... });
 *     DemoRequest r;
 *     t.Parse({{"test-size", "0.25"}}, r);   // r.test_size == 0.25; a bad value throws, naming it
 */
template <class R>
class RequestOptions {
 public:
  /** @brief What a parser of its own grammar gets: the method, the option and the text. */
  struct ParseContext {
    const std::string& method;
    const MethodOption& option;
    const std::string& text;
    /** Whether the value came as a list (JSON or Python), its items joined by commas. */
    bool list = false;
    /** @throws InvalidArgument: the text is not `takes` ("BEGIN:END with BEGIN <= END"). */
    [[noreturn]] void Refuse(const std::string& takes) const { detail::ThrowBadValue(method, option, text, takes); }
  };
  using Parser = std::function<void(const ParseContext&, R&)>;

  /** @brief A declared option, to finish its declaration. */
  class Declared {
   public:
    explicit Declared(MethodOption& o) : o_(&o) {}
    Declared& Help(std::string text) { return Set([&](MethodOption& o) { o.info.help = std::move(text); }); }
    Declared& Above(double v) { return Set([&](MethodOption& o) { o.info.min = v, o.info.min_exclusive = true; }); }
    Declared& AtLeast(double v) { return Set([&](MethodOption& o) { o.info.min = v, o.info.min_exclusive = false; }); }
    Declared& AtMost(double v) { return Set([&](MethodOption& o) { o.info.max = v, o.info.max_exclusive = false; }); }
    Declared& Below(double v) { return Set([&](MethodOption& o) { o.info.max = v, o.info.max_exclusive = true; }); }
    Declared& Choices(std::vector<std::string> v) { return Set([&](MethodOption& o) { o.info.choices = std::move(v); }); }
    Declared& Alias(std::string name) { return Set([&](MethodOption& o) { o.aliases.push_back(std::move(name)); }); }
    Declared& Sets(std::string field) { return Set([&](MethodOption& o) { o.fields.push_back(std::move(field)); }); }
    Declared& Value(std::string grammar) { return Set([&](MethodOption& o) { o.value_name = std::move(grammar); }); }
    Declared& Switch() { return Set([](MethodOption& o) { o.is_switch = true; }); }
    Declared& Repeatable() { return Set([](MethodOption& o) { o.repeatable = true; }); }
    Declared& PerProcess() { return Set([](MethodOption& o) { o.per_process = true; }); }
    /** @brief A value of its own grammar that may also come as a list ([first, last] for "I..J"). */
    Declared& TakesList() { return Set([](MethodOption& o) { o.takes_list = true; }); }

   private:
    template <class F>
    Declared& Set(F&& f) {
      f(*o_);
      return *this;
    }
    MethodOption* o_;
  };

  explicit RequestOptions(std::string method) : method_(std::move(method)) {}

  /**
   * @brief Declares option `name`, bound to the field `field(r)` returns (bool, a whole number,
   * double, string or vector<string>, parsed as OptionTable parses a learner's); its default is
   * the field's value in a default request.
   */
  template <class V>
  Declared Add(std::string name, std::function<V&(R&)> field) {
    OptionTable<Holder<V>> typed(method_);
    typed.Add("v", &Holder<V>::value);
    Entry& e = NewEntry(std::move(name));
    const OptionInfo info = typed.infos().front();
    e.option.info.type = info.type;
    e.option.info.min = info.min;
    e.option.info.max = info.max;
    e.option.info.is_unsigned = info.is_unsigned;
    R defaults{};
    e.option.info.default_text = typed.Format(Holder<V>{field(defaults)}).at("v");
    e.parse = [field](const ParseContext& c, R& r) { field(r) = ParseAs<V>(c.method, c.option.info, c.text); };
    return Declared(e.option);
  }

  /**
   * @brief Declares option `name` of a grammar of its own: `parse` reads the text into the
   * request (refusing it with ParseContext::Refuse). With a non-empty `default_text`, a request
   * the option is not given for is parsed from it: the declared default is the default.
   */
  Declared AddParsed(std::string name, OptionType type, std::string default_text, Parser parse) {
    Entry& e = NewEntry(std::move(name));
    e.option.info.type = type;
    e.option.info.default_text = std::move(default_text);
    e.parse = std::move(parse);
    e.parse_default = !e.option.info.default_text.empty();
    return Declared(e.option);
  }

  /**
   * @brief Declares every option of `group` (the options of a part `S` of the request, as
   * `access(r)` reaches it), with the group's declarations: the execution options, the solver's.
   */
  template <class S>
  void Include(const RequestOptions<S>& group, std::function<S&(R&)> access) {
    for (const auto& g : group.entries_) {
      Entry& e = NewEntry(g->option.info.name);
      e.option = g->option;
      e.parse_default = g->parse_default;
      e.parse = [access, parse = g->parse](const ParseContext& c, R& r) {
        typename RequestOptions<S>::ParseContext inner{c.method, c.option, c.text, c.list};
        parse(inner, access(r));
      };
    }
  }

  /** @brief The declared default of `name`, changed for this request (a method's own solver or
   *  learner): a request the option is not given for is parsed from it. */
  void SetDefault(const std::string& name, std::string text) {
    Entry& e = EntryOf(name);
    e.option.info.default_text = std::move(text);
    e.parse_default = true;
  }

  /** @brief How the default of an option that is parsed only when given is described, where the
   *  method's differs from the group's (sage's cv: none, one model). */
  void DescribeDefault(const std::string& name, std::string text) {
    Entry& e = EntryOf(name);
    PERFSHAP_CHECK(!e.parse_default, "DescribeDefault of an option parsed from its default");
    e.option.info.default_text = std::move(text);
  }

  /** @brief A check of the whole request once every option is read (ranges that span options). */
  void Finish(std::function<void(R&)> check) { finish_.push_back(std::move(check)); }

  /**
   * @brief Reads `given` into `request`, in declaration order (an option's parser may read the
   * options declared before it), the defaults of the options of a grammar of their own first.
   * @throws InvalidArgument for an unknown name (listing the options), one option given twice
   * (under two names), or a value its declaration refuses, naming the option; messages name the
   * method `owner` (by default this table's).
   */
  void Parse(const GivenOptions& given, R& request, const std::string& owner = {}) const {
    const std::string& method = owner.empty() ? method_ : owner;
    std::vector<const GivenOption*> by_entry(entries_.size(), nullptr);
    for (const auto& item : given) {
      const std::size_t at = IndexOf(item.first, method);
      if (by_entry[at] != nullptr)
        detail::ThrowGivenTwice(method, entries_[at]->option, by_entry[at]->first, item.first);
      by_entry[at] = &item;
    }
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const Entry& e = *entries_[i];
      if (by_entry[i] == nullptr && !e.parse_default) continue;
      const std::string& text = by_entry[i] != nullptr ? by_entry[i]->second : e.option.info.default_text;
      const bool list = by_entry[i] != nullptr && by_entry[i]->list;
      if (list && !e.option.takes_list && e.option.info.type != OptionType::kList && !e.option.repeatable)
        detail::ThrowBadValue(method, e.option, text, "a list: give one value");
      // An error of the option's own parse is about this option, whatever the library calls it.
      try {
        e.parse(ParseContext{method, e.option, text, list}, request);
      } catch (const DataError& error) {
        throw DataError(error.what(), OwnNames(error, e.option));
      } catch (const InvalidArgument& error) {
        throw InvalidArgument(error.what(), OwnNames(error, e.option));
      }
    }
    for (const auto& check : finish_) check(request);
  }

  /** @brief Whether `name` (either spelling, or an alias) is declared. */
  bool Has(const std::string& name) const { return detail::FindMethodOption(options(), name) != nullptr; }

  /** @brief The declarations, in declaration order. */
  std::vector<MethodOption> options() const {
    std::vector<MethodOption> out;
    for (const auto& e : entries_) out.push_back(e->option);
    return out;
  }

  const std::string& method() const noexcept { return method_; }

 private:
  template <class>
  friend class RequestOptions;

  template <class V>
  struct Holder {
    V value{};
  };

  struct Entry {
    MethodOption option;
    Parser parse;
    bool parse_default = false;
  };

  template <class V>
  static V ParseAs(const std::string& owner, const OptionInfo& info, const std::string& text) {
    if constexpr (std::is_same_v<V, bool>) {
      return perfshap::detail::ParseBoolOption(owner, info, text);
    } else if constexpr (std::is_same_v<V, double>) {
      return perfshap::detail::ParseNumberOption(owner, info, text);
    } else if constexpr (std::is_same_v<V, std::string>) {
      return perfshap::detail::ParseTextOption(owner, info, text);
    } else if constexpr (std::is_same_v<V, std::vector<std::string>>) {
      return perfshap::detail::ParseListOption(owner, info, text);
    } else if constexpr (std::is_unsigned_v<V>) {
      return static_cast<V>(perfshap::detail::ParseUnsignedOption(owner, info, text));
    } else {
      static_assert(std::is_integral_v<V>, "an option is a bool, a whole number, a double, text or a list");
      return static_cast<V>(perfshap::detail::ParseIntegerOption(owner, info, text));
    }
  }

  Entry& NewEntry(std::string name) {
    auto e = std::make_unique<Entry>();
    e->option.info.name = std::move(name);
    entries_.push_back(std::move(e));
    return *entries_.back();
  }

  /** The options an error of `option`'s parse names: its own, unless it names this one already
   *  with others (C and model_param both setting C). */
  static std::vector<std::string> OwnNames(const Error& error, const MethodOption& option) {
    const auto& named = error.options();
    if (std::find(named.begin(), named.end(), option.info.name) != named.end()) return named;
    return {option.info.name};
  }

  std::size_t IndexOf(const std::string& name, const std::string& method) const {
    const std::vector<MethodOption> all = options();
    const MethodOption* found = detail::FindMethodOption(all, name);
    if (found == nullptr) detail::ThrowUnknownMethodOption(method, name, all);
    return static_cast<std::size_t>(found - all.data());
  }

  Entry& EntryOf(const std::string& name) { return *entries_[IndexOf(name, method_)]; }

  std::string method_;
  std::vector<std::unique_ptr<Entry>> entries_;
  std::vector<std::function<void(R&)>> finish_;
};

/** @brief The options table `Make()` builds, built once (a method's or a shared group's
 *  declarations). */
template <auto Make>
const auto& OptionsOnce() {
  static const auto table = Make();
  return table;
}

}}}  // namespace perfshap::api
