// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
// model_param: a learner a host registers, with an option declared once (OptionTable), is
// reachable with its option from every registered method that trains a learner (the registry
// every front end calls: api::CallMethod), with no front-end edit. The
// toy learner lives here: naive Bayes that ignores one player named by its option `ignore`, so
// the option's effect is exact and visible (that player's value is 0 in every method).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "api/registry.hpp"
#include "report/run_reporter.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/learner.hpp"
#include "perfshap/blocks/options.hpp"
#include "support/test_paths.hpp"

namespace perfshap { inline namespace v0 {
namespace {

struct IgnoreOptions {
  std::string ignore;
};

const OptionTable<IgnoreOptions>& IgnoreTable() {
  static const OptionTable<IgnoreOptions> table = [] {
    OptionTable<IgnoreOptions> t("learner toy_ignore");
    t.Add("ignore", &IgnoreOptions::ignore).Help("the player (feature) the model never sees");
    return t;
  }();
  return table;
}

/// The coalition's columns the base model reads: the full coalition is the players' columns in
/// player order; the base model was trained on the kept players' columns in that order.
class ColumnSubsetModel final : public Model {
 public:
  ColumnSubsetModel(std::unique_ptr<Model> base, std::vector<std::size_t> columns, std::size_t n_full)
      : base_(std::move(base)), columns_(std::move(columns)), n_full_(n_full) {}
  std::size_t n_features() const override { return n_full_; }
  bool is_classifier() const override { return base_->is_classifier(); }
  void Predict(std::span<const double> x, std::size_t n_rows, std::span<double> out) const override {
    std::vector<double> kept(columns_.size() * n_rows);
    for (std::size_t k = 0; k < columns_.size(); ++k)
      std::copy_n(x.begin() + static_cast<std::ptrdiff_t>(columns_[k] * n_rows), n_rows,
                  kept.begin() + static_cast<std::ptrdiff_t>(k * n_rows));
    base_->Predict(kept, n_rows, out);
  }
  std::string Describe() const override { return "toy: " + base_->Describe(); }

 private:
  std::unique_ptr<Model> base_;
  std::vector<std::size_t> columns_;
  std::size_t n_full_;
};

class IgnoringSplit final : public PreparedSplit {
 public:
  IgnoringSplit(std::unique_ptr<PreparedSplit> base, std::vector<int> kept_index, std::vector<std::size_t> widths,
                std::vector<std::string> names)
      : base_(std::move(base)), kept_index_(std::move(kept_index)), widths_(std::move(widths)) {
    learner_name_ = "toy_ignore";
    split_name_ = base_->split_name();
    player_names_ = std::move(names);
    n_train_ = base_->n_train();
    test_label_.assign(base_->test_labels().begin(), base_->test_labels().end());
  }
  std::unique_ptr<CoalitionFitter> MakeFitter() const override;
  const PreparedSplit& base() const { return *base_; }
  const std::vector<int>& kept_index() const { return kept_index_; }
  const std::vector<std::size_t>& widths() const { return widths_; }

 private:
  std::unique_ptr<PreparedSplit> base_;
  std::vector<int> kept_index_;      // player -> index among the kept players, -1 if ignored
  std::vector<std::size_t> widths_;  // columns per player
};

class IgnoringFitter final : public CoalitionFitter {
 public:
  explicit IgnoringFitter(const IgnoringSplit& split) : split_(&split), base_(split.base().MakeFitter()) {}
  bool Rebind(const PreparedSplit& split) override {
    const auto* s = dynamic_cast<const IgnoringSplit*>(&split);
    if (s == nullptr || !base_->Rebind(s->base())) return false;
    split_ = s;
    return true;
  }
  void Reset() noexcept override { base_->Reset(); }
  int Fit(std::span<const std::uint32_t> players) override {
    last_.assign(players.begin(), players.end());
    kept_.clear();
    for (std::uint32_t p : players)
      if (split_->kept_index()[p] >= 0) kept_.push_back(static_cast<std::uint32_t>(split_->kept_index()[p]));
    return base_->Fit(kept_);
  }
  void ScoreTest(std::span<double> out, ScoreScale scale) override { base_->ScoreTest(out, scale); }
  std::unique_ptr<Model> MakeModel() const override {
    std::vector<std::size_t> columns;
    std::size_t at = 0;
    for (std::uint32_t p : last_) {
      const std::size_t w = split_->widths()[p];
      if (split_->kept_index()[p] >= 0)
        for (std::size_t c = 0; c < w; ++c) columns.push_back(at + c);
      at += w;
    }
    return std::make_unique<ColumnSubsetModel>(base_->MakeModel(), std::move(columns), at);
  }

 private:
  const IgnoringSplit* split_;
  std::unique_ptr<CoalitionFitter> base_;
  std::vector<std::uint32_t> last_;
  std::vector<std::uint32_t> kept_;
};

std::unique_ptr<CoalitionFitter> IgnoringSplit::MakeFitter() const { return std::make_unique<IgnoringFitter>(*this); }

class IgnoringLearner final : public Learner {
 public:
  explicit IgnoringLearner(IgnoreOptions options) : options_(std::move(options)), base_(MakeLearner("gnb")) {}
  const std::string& name() const noexcept override { return name_; }
  bool is_classifier() const noexcept override { return true; }
  LearnerParams params() const override { return IgnoreTable().Format(options_); }
  std::unique_ptr<PreparedSplit> Prepare(const Dataset& data, std::span<const Player> players,
                                         std::span<const std::size_t> train_rows,
                                         std::span<const std::size_t> test_rows,
                                         const std::string& split_name) const override {
    std::vector<Player> kept;
    std::vector<int> index(players.size(), -1);
    std::vector<std::size_t> widths;
    std::vector<std::string> names;
    for (std::size_t p = 0; p < players.size(); ++p) {
      widths.push_back(players[p].columns.size());
      names.push_back(players[p].name);
      if (players[p].name == options_.ignore) continue;
      index[p] = static_cast<int>(kept.size());
      kept.push_back(players[p]);
    }
    return std::make_unique<IgnoringSplit>(base_->Prepare(data, kept, train_rows, test_rows, split_name),
                                           std::move(index), std::move(widths), std::move(names));
  }

 private:
  std::string name_ = "toy_ignore";
  IgnoreOptions options_;
  std::shared_ptr<const Learner> base_;
};

/// Registers the toy learner for one test and removes it after, so that no other test sees it.
class ToyLearnerRegistered {
 public:
  ToyLearnerRegistered() {
    RegisterLearner({"toy_ignore", "naive Bayes that never sees the player named by `ignore`", IgnoreTable().infos(),
                     [](const LearnerParams& params) {
                       IgnoreOptions o;
                       IgnoreTable().Parse(params, o);
                       return std::make_shared<IgnoringLearner>(o);
                     }});
  }
  ~ToyLearnerRegistered() { UnregisterLearner("toy_ignore"); }
  ToyLearnerRegistered(const ToyLearnerRegistered&) = delete;
  ToyLearnerRegistered& operator=(const ToyLearnerRegistered&) = delete;
};

/// The method and options of command-line words ("robustness", "--data", f, "--model-param",
/// "C=1", ...) as a front end hands them to the registry: a repeated option is a list, a flag
/// without a value is true; --quiet is the command line's own and goes.
std::pair<std::string, api::GivenOptions> Given(const std::vector<std::string>& args) {
  api::GivenOptions given;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string key = args[i].substr(2);
    std::replace(key.begin(), key.end(), '-', '_');
    if (key == "quiet") continue;
    const bool has_value = i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0;
    const std::string value = has_value ? args[++i] : "true";
    const auto same = std::find_if(given.begin(), given.end(), [&](const api::GivenOption& g) { return g.first == key; });
    if (same == given.end()) {
      given.push_back({key, value, false});
    } else {
      same->second += "," + value;
      same->list = true;
    }
  }
  return {args.front(), given};
}

/// Runs a registered method in this process (the registered learner is visible only here) and
/// returns its result.json document.
nlohmann::json RunInProcess(const std::vector<std::string>& args) {
  const auto [method, given] = Given(args);
  const api::MethodCall call = api::CallMethod(method, {}, given);
  detail::Json document;
  detail::RunReporter(call.run.reporter, call.target, &document);
  return nlohmann::json::parse(document.dump());
}

/// The message of the error a run throws, and the options it names; "(no error)" if none.
std::pair<std::string, std::vector<std::string>> ErrorOf(const std::vector<std::string>& args) {
  try {
    RunInProcess(args);
  } catch (const Error& e) {
    return {e.what(), e.options()};
  }
  return {"(no error)", {}};
}

/// The value of every feature a run reports, as the method's result.json keys them.
std::vector<std::pair<std::string, double>> FeatureValues(const std::string& command, const nlohmann::json& r) {
  const nlohmann::json* values = nullptr;
  if (command == "robustness" || command == "xper") values = &r.at("phi");
  if (command == "shap") values = &r.at("global").at("mean_abs").at("P(y=1)");
  if (command == "chains") values = &r.at("direct").at("and");
  std::vector<std::pair<std::string, double>> out;
  if (values == nullptr) return out;
  for (const auto& [name, v] : values->items()) out.emplace_back(name, v.get<double>());
  return out;
}

struct Case {
  std::string command;
  std::vector<std::string> args;
  std::string ignored;  // the feature the option removes
};

std::vector<Case> Cases() {
  const std::string banknote = testing::FixturePath("data/banknote.csv");
  return {
      {"robustness", {"robustness", "--data", banknote, "--label", "label", "--quiet"}, "skewness"},
      {"xper", {"xper", "--data", banknote, "--train", banknote, "--label", "label", "--quiet"}, "curtosis"},
      {"shap",
       {"shap", "--data", banknote, "--train", banknote, "--label", "label", "--rows", "0..9", "--quiet"},
       "variance"},
      {"chains", {"chains", "--quiet"}, "x1"},
  };
}

TEST(ModelParam, AHostsLearnerAndItsOptionReachEverySubcommand) {
  const ToyLearnerRegistered registered;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.command);
    std::vector<std::string> plain = c.args;
    plain.insert(plain.end(), {"--model", "toy_ignore"});
    std::vector<std::string> ignoring = plain;
    ignoring.insert(ignoring.end(), {"--model-param", "ignore=" + c.ignored});
    const auto before = FeatureValues(c.command, RunInProcess(plain));
    const auto after = FeatureValues(c.command, RunInProcess(ignoring));
    ASSERT_EQ(before.size(), after.size());
    ASSERT_FALSE(before.empty());
    bool seen = false;
    for (std::size_t j = 0; j < before.size(); ++j) {
      if (after[j].first != c.ignored) continue;
      seen = true;
      // A null player: zero up to the rounding of the coalition values' differences.
      EXPECT_GT(std::abs(before[j].second), 1e-6) << "without the option " << c.ignored << " counts";
      EXPECT_NEAR(after[j].second, 0.0, 1e-12) << "the learner never sees " << c.ignored;
    }
    EXPECT_TRUE(seen) << c.ignored << " is not among the reported features";
  }
}

TEST(ModelParam, BadItemsAndUnknownOptionsAreOneLineErrors) {
  const ToyLearnerRegistered registered;
  const std::string banknote = testing::FixturePath("data/banknote.csv");
  const std::vector<std::string> base = {"robustness", "--data", banknote, "--label", "label", "--quiet"};
  const auto error = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return ErrorOf(args);
  };
  EXPECT_NE(error({"--model", "toy_ignore", "--model-param", "colour=red"})
                .first.find("learner toy_ignore has no option colour (its options: ignore"),
            std::string::npos);
  EXPECT_NE(error({"--model-param", "ignore"}).first.find("is not KEY=VALUE items"), std::string::npos);
  EXPECT_NE(error({"--model", "logistic", "--model-param", "C=0.5", "--model-param", "C=2"}).first.find("gives C twice"),
            std::string::npos);
  const auto both = error({"--model", "logistic", "--C", "2", "--model-param", "C=0.5"});
  EXPECT_NE(both.first.find("options C and model_param both set C; give one of them"), std::string::npos) << both.first;
  EXPECT_EQ(both.second, (std::vector<std::string>{"C", "model_param"}));
  EXPECT_NE(error({"--model", "logistic", "--model-param", "C=-1"}).first.find("learner logistic: option C must be"),
            std::string::npos);
  EXPECT_EQ(error({"--model", "gnb", "--model-param", "var_smoothing=x"}).second,
            std::vector<std::string>{"model_param"});
}

// result.json's "model_params": the learner's options in effect, typed by its declaration, in
// every subcommand that trains a learner (a host's learner's too).
TEST(ModelParam, ResultJsonHasTheOptionsInEffectTyped) {
  const std::string banknote = testing::FixturePath("data/banknote.csv");
  // Robustness: a number and a bool of the logistic learner, set and default.
  const nlohmann::json rob = RunInProcess({"robustness", "--data", banknote, "--label", "label", "--quiet", "--cv",
                                           "mc:2", "--model", "logistic", "--model-param", "C=0.25"});
  EXPECT_EQ(rob.at("model_params").at("C"), 0.25);
  EXPECT_EQ(rob.at("model_params").at("standardize"), true);
  EXPECT_EQ(rob.at("C"), 0.25);  // the older key stays
  // XPER and SHAP: the forest's whole numbers and texts.
  const nlohmann::json xper = RunInProcess({"xper", "--data", banknote, "--train", banknote, "--label", "label",
                                            "--quiet", "--model", "forest", "--model-param", "n_estimators=7",
                                            "--model-param", "max_features=sqrt"});
  EXPECT_EQ(xper.at("model_params").at("n_estimators"), 7);
  EXPECT_EQ(xper.at("model_params").at("max_features"), "sqrt");
  EXPECT_EQ(xper.at("model_params").at("bootstrap"), true);
  const nlohmann::json shap =
      RunInProcess({"shap", "--data", banknote, "--train", banknote, "--label", "label", "--rows", "0..4", "--quiet",
                    "--model", "gnb", "--model-param", "var_smoothing=1e-06"});
  EXPECT_EQ(shap.at("model_params").at("var_smoothing"), 1e-06);
  // A model file has no learner, so no model_params.
  const nlohmann::json file =
      RunInProcess({"treeshap", "--model-file", testing::FixturePath("xgboost/binary_logistic.json"), "--data",
                    testing::FixturePath("data/breast_cancer.csv"), "--quiet"});
  EXPECT_FALSE(file.contains("model_params"));
  // Chains, with a host's learner: its text option.
  const ToyLearnerRegistered registered;
  const nlohmann::json chains =
      RunInProcess({"chains", "--quiet", "--model", "toy_ignore", "--model-param", "ignore=x1"});
  EXPECT_EQ(chains.at("model_params").at("ignore"), "x1");
}

// --model-param sets the same option as its dedicated flag, bit for bit.
TEST(ModelParam, SameNumbersAsTheDedicatedFlag) {
  const std::string banknote = testing::FixturePath("data/banknote.csv");
  const std::vector<std::string> base = {"robustness", "--data", banknote, "--label", "label", "--quiet",
                                         "--model", "logistic", "--seed", "3"};
  std::vector<std::string> flag = base;
  flag.insert(flag.end(), {"--C", "0.25"});
  std::vector<std::string> param = base;
  param.insert(param.end(), {"--model-param", "C=0.25"});
  const nlohmann::json a = RunInProcess(flag);
  const nlohmann::json b = RunInProcess(param);
  EXPECT_EQ(a.at("phi"), b.at("phi"));
  EXPECT_EQ(a.at("value"), b.at("value"));
  EXPECT_NE(a.at("phi"), RunInProcess(base).at("phi"));  // and C changes the numbers
}

// Whole-number options take decimal digits in range: no wrapping or saturating (the seed), and a
// number the field cannot hold is refused, by the registry's declarations every front end uses
// ("0x10" is not decimal digits, "1.5" not an integer). Each is refused, none runs with another
// number.
TEST(WholeNumberFlags, RefusedRatherThanWrapped) {
  struct Bad {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Bad& bad : std::vector<Bad>{{{"demo", "--seed", "-1"}, "is not an integer in 0 .. 18446744073709551615"},
                                         {{"demo", "--seed", "18446744073709551616"}, "is not an integer in 0 .."},
                                         {{"demo", "--rows", "0x10"}, "is not an integer in [10, 100000000]"},
                                         {{"robustness", "--threads", "1.5"}, "option threads = '1.5' is not an integer >= 0"}}) {
    SCOPED_TRACE(bad.args[1] + " " + bad.args[2]);
    const auto [says, options] = ErrorOf(bad.args);
    EXPECT_NE(says.find(bad.says), std::string::npos) << says;
  }
}

}  // namespace
}}  // namespace perfshap
