// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// The subcommands of registered methods (api/registry.hpp), built from their declarations: one
// --flag per option (its aliases as more names of the same flag), its help with the default and
// the range, a switch for a true/false the command line gives bare. The values go to the library
// as typed; the library parses and checks them (the same message as from C or Python). What only
// a terminal has is the command line's own: --quiet and --progress.
#include <memory>
#include <string>
#include <vector>

#include "api/registry.hpp"
#include "api/shared_options.hpp"
#include "commands.hpp"
#include "perfshap/error.hpp"

namespace perfshap { inline namespace v0 { namespace cli {

namespace {

/** What the command line collects of one declared option. */
struct Collected {
  api::MethodOption option;
  CLI::Option* flag = nullptr;
  std::string text;
  std::vector<std::string> items;  // a repeatable option's
};

struct RegisteredState {
  std::vector<Collected> options;
  bool quiet = false;
  std::string progress = "auto";
};

std::string Dashed(std::string name) {
  for (char& c : name)
    if (c == '_') c = '-';
  return name;
}

/** The value's name in help: the declared grammar, else the type's. */
std::string TypeName(const api::MethodOption& o) {
  if (!o.value_name.empty()) return o.value_name;
  switch (o.info.type) {
    case OptionType::kBool:
      return "true|false";
    case OptionType::kInteger:
      return "INTEGER";
    case OptionType::kNumber:
      return "NUMBER";
    case OptionType::kList:
      return "A,B,...";
    case OptionType::kText:
      break;
  }
  return o.info.choices.empty() ? "TEXT" : Join(o.info.choices, "|");
}

std::string HelpOf(const api::MethodOption& o) {
  std::string help = o.info.help;
  const std::string range = o.info.RangeText();
  if (!range.empty() && o.info.choices.empty()) help += " (" + range + ")";
  for (const std::string& alias : o.aliases) help += " [alias: --" + Dashed(alias) + "]";
  return help;
}

void AddDeclared(CLI::App& app, Collected& c) {
  const api::MethodOption& o = c.option;
  std::string names = "--" + Dashed(o.info.name);
  for (const std::string& alias : o.aliases) names += ",--" + Dashed(alias);
  if (o.is_switch) {
    // Bare, it is "true"; --force=false gives its value, which the library reads as any front end's.
    c.flag = app.add_flag(names, c.text, HelpOf(o));
    return;
  }
  c.flag = o.repeatable ? app.add_option(names, c.items, HelpOf(o))->allow_extra_args(false)
                        : app.add_option(names, c.text, HelpOf(o));
  c.flag->type_name(TypeName(o));
  if (!o.info.default_text.empty()) c.flag->default_str(o.info.default_text);
}

/** The options given, as the library takes them. */
api::GivenOptions Given(const RegisteredState& s) {
  api::GivenOptions given;
  for (const Collected& c : s.options) {
    if (c.flag->count() == 0) continue;
    if (c.option.repeatable) {
      given.emplace_back(c.option.info.name, Join(c.items, ","));
    } else {
      given.emplace_back(c.option.info.name, c.text);
    }
  }
  return given;
}

/** What the command line says after a method's own text: the demo (README command 1) points on. */
std::string Footer(const std::string& method) {
  if (method != "demo") return {};
  return "\nfrom Python: import perfshap; perfshap.robustness(X, y), .xper, .shap, .treeshap, .axom, .chains on "
         "numpy arrays or pandas DataFrames (README, \"Python\")\na page to share of any run: --report html --out DIR "
         "writes DIR/report.html\n";
}

void RunRegistered(const api::MethodEntry& m, const RegisteredState& s) {
  const api::GivenOptions given = Given(s);
  bool out = false, html = false;
  for (const api::GivenOption& g : given) {
    out = out || (g.first == "out" && !g.second.empty());
    html = html || (g.first == "report" && g.second == "html");
  }
  if (html && !out)
    throw InvalidArgument("--report html writes report.html into the output directory: give --out DIR", {"out"});
  api::MethodInputs inputs;
  inputs.prepare_out = ProcessRank() == 0;
  inputs.wire = [quiet = s.quiet, progress = s.progress](ExecutionOptions& e, const std::string& what) {
    WireExecution(e, quiet, progress, what);
  };
  const api::MethodCall call = api::CallMethod(m.name, std::move(inputs), given);
  Report(call.target, call.run.reporter);  // before the console, which says what was written
  Say(s.quiet, call.run.console + Footer(m.name));
}

void SetupRegistered(CLI::App& app, const api::MethodEntry& m) {
  auto s = std::make_shared<RegisteredState>();
  for (const api::MethodOption& o : m.options) s->options.push_back(Collected{o, nullptr, {}, {}});
  for (const api::MethodOption& o : api::OutputOptionGroup().options()) s->options.push_back(Collected{o, nullptr, {}, {}});
  for (Collected& c : s->options) AddDeclared(app, c);
  app.add_flag("--quiet", s->quiet, "print nothing but errors");
  app.add_option("--progress", s->progress, "progress on stderr: auto (bar on a terminal), bar, plain, none")
      ->check(CLI::IsMember({"auto", "bar", "plain", "none"}))
      ->capture_default_str();
  app.callback([s, &m] { RunRegistered(m, *s); });
}

}  // namespace

Command RegisteredCommand(const std::string& name) {
  const api::MethodEntry* m = api::FindMethod(name);
  PERFSHAP_CHECK(m != nullptr, "no registered method " + name);
  return {m->name.c_str(), m->description.c_str(), [m](CLI::App& app) { SetupRegistered(app, *m); }};
}

}}}  // namespace perfshap::cli
