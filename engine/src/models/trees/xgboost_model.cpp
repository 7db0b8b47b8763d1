// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The perfshap authors
//
// XGBoost models saved as JSON (Booster.save_model("m.json")), read into a TreeEnsemble. The
// layout, as XGBoost 1.7 writes it (and 2.x, which keeps the same keys):
//   learner.learner_model_param: base_score ("5E-1"), num_class, num_feature, num_target (strings)
//   learner.objective.name, learner.feature_names, learner.attributes.best_iteration
//   learner.gradient_booster: name "gbtree"; model.trees[] and model.tree_info[] (each tree's
//     output group, the class it adds to)
//   a tree: tree_param.num_nodes, and per node left_children, right_children (-1 at leaves),
//     split_indices, split_conditions (the threshold, or a leaf's value with the learning rate
//     applied), default_left (0/1 or booleans), sum_hessian (the cover), split_type (1 for a
//     categorical split).
// XGBoost keeps thresholds, leaf values and hessian sums as float32 and writes each in its
// shortest round-trip form: rounding the parsed double to float recovers the value XGBoost uses.
// Pruned trees (tree_method "exact" with gamma > 0) keep their deleted nodes in the arrays, with
// no parent linking to them: only the nodes the root reaches are kept.
// Reading one tree is xgboost_tree.cpp's; what the two share is xgboost_reader.hpp's.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "data/json_text.hpp"
#include "data/message_text.hpp"
#include "models/trees/tree_checks.hpp"
#include "models/trees/xgboost_reader.hpp"
#include "perfshap/error.hpp"
#include "perfshap/blocks/trees.hpp"

namespace perfshap { inline namespace v0 {
namespace {

using detail::xgboost::AsFloat;
using detail::xgboost::Json;
using detail::xgboost::kSaveAgain;
using detail::xgboost::ParseNumberText;
using detail::xgboost::Reader;
using detail::xgboost::ReadTree;

constexpr const char* kSupportedObjectives =
    "binary:logistic, binary:logitraw, binary:hinge, reg:logistic, reg:squarederror, reg:squaredlogerror, "
    "reg:pseudohubererror, reg:absoluteerror, count:poisson, reg:gamma, reg:tweedie, survival:cox, survival:aft, "
    "rank:pairwise, rank:ndcg, rank:map, multi:softprob and multi:softmax";

/**
 * @brief XGBoost writes non-finite floats as the bare words NaN, Infinity and -Infinity, which
 * JSON lacks (a categorical split's condition is NaN): the text with each of them outside a
 * string quoted ("NaN"), so that it parses; nothing when there is none.
 */
std::optional<std::string> QuoteNonFiniteWords(const std::string& text) {
  std::optional<std::string> out;
  bool in_string = false;
  std::size_t copied = 0;  // text[0, copied) is in *out
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (c != 'N' && c != 'I' && c != '-') continue;
    std::size_t length = 0;
    for (const std::string_view word : {"NaN", "Infinity", "-Infinity"}) {
      if (text.compare(i, word.size(), word) == 0) length = word.size();
    }
    if (length == 0) continue;
    if (!out) out.emplace().reserve(text.size() + 64);
    out->append(text, copied, i - copied);
    out->append("\"").append(text, i, length).append("\"");
    i += length - 1;
    copied = i + 1;
  }
  if (out) out->append(text, copied, std::string::npos);
  return out;
}

/** @brief How base_score (on the output scale) moves to the margin: XGBoost's ProbToMargin. */
enum class BaseLink : std::uint8_t {
  kIdentity,  // the margin's base is base_score
  kLogit,     // base_score is a probability: the base is its logit
  kLog,       // base_score is a positive mean: the base is its log
};

/** @brief What the objective makes of the model. */
struct Objective {
  TreeTransform transform = TreeTransform::kIdentity;
  bool classifier = false;
  bool multiclass = false;
  BaseLink base = BaseLink::kIdentity;
};

/** @brief The gbtree objectives, with XGBoost's (1.7 to 3.x) prediction transform and
 *  base_score link; what shap's TreeExplainer explains on the margin. */
struct ObjectiveEntry {
  const char* name;
  Objective objective;
};

constexpr ObjectiveEntry kObjectives[] = {
    {"binary:logistic", {TreeTransform::kLogistic, true, false, BaseLink::kLogit}},
    // XGBoost's predict() returns binary:logitraw's margin; as a classifier perfshap predicts
    // its probability, the logistic of the margin (the margin scale is XGBoost's output). Its
    // base_score is added to the margin as it is.
    {"binary:logitraw", {TreeTransform::kLogistic, true, false, BaseLink::kIdentity}},
    {"binary:hinge", {TreeTransform::kStep, true, false, BaseLink::kIdentity}},
    // reg:logistic: a regression whose predictions lie in (0, 1).
    {"reg:logistic", {TreeTransform::kLogistic, false, false, BaseLink::kLogit}},
    {"reg:squarederror", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    // reg:linear is the name XGBoost before 1.0 gave reg:squarederror.
    {"reg:linear", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"reg:squaredlogerror", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"reg:pseudohubererror", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"reg:absoluteerror", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"count:poisson", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"reg:gamma", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"reg:tweedie", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"survival:cox", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"survival:aft", {TreeTransform::kExp, false, false, BaseLink::kLog}},
    {"rank:pairwise", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"rank:ndcg", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    {"rank:map", {TreeTransform::kIdentity, false, false, BaseLink::kIdentity}},
    // multi:softmax predicts the class index in XGBoost; its margins are multi:softprob's, and
    // perfshap predicts the class probabilities of both.
    {"multi:softprob", {TreeTransform::kSoftmax, true, true, BaseLink::kIdentity}},
    {"multi:softmax", {TreeTransform::kSoftmax, true, true, BaseLink::kIdentity}},
};

Objective ReadObjective(const Reader& r, const std::string& name) {
  for (const ObjectiveEntry& entry : kObjectives)
    if (name == entry.name) return entry.objective;
  r.Fail("the objective is " + detail::Quoted(name) + ", which perfshap does not read; it reads " +
         kSupportedObjectives + ": retrain with one of them");
}

/** @brief A one-line account of a parse error: "byte 12: syntax error ...", printable ASCII. */
std::string ParseErrorText(const Json::parse_error& e) {
  std::string what = e.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 12: syntax error ..."
  const auto at = what.find("parse error");
  if (at != std::string::npos) {
    const auto colon = what.find(": ", at);
    what = colon == std::string::npos ? what.substr(at) : what.substr(colon + 2);
  }
  for (char& c : what) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u > 0x7e) c = '?';
  }
  return "byte " + std::to_string(e.byte) + ": " + detail::ShortParserMessage(what);
}

/**
 * @brief Whether text looks like UBJSON holding an XGBoost learner (Booster.save_model("m.ubj")):
 * an object whose first key, "learner", follows a UBJSON length marker. Not parsed: nlohmann's
 * UBJSON reader recurses on nesting, and the bytes are not JSON, so their nesting is unchecked.
 */
bool IsUbjsonModel(const std::string& text) {
  if (text.size() < 4 || text[0] != '{') return false;
  // '{', then the key's length: a type marker (i U I l L, or XGBoost's own) and its bytes.
  if (std::string_view("iUIlL").find(text[1]) == std::string_view::npos) return false;
  const auto at = text.find("learner");
  return at != std::string::npos && at <= 16;
}

/** @brief Where each boosting round's trees start: round k is trees [boundary[k], boundary[k + 1]). */
struct RoundTrees {
  std::vector<std::int64_t> boundary;
  std::int64_t rounds() const noexcept { return static_cast<std::int64_t>(boundary.size()) - 1; }
};

/**
 * @brief The rounds of a model of n_trees trees, per_round (num_class x num_parallel_tree) to a
 * round, or as XGBoost 2's iteration_indptr lists them. Trees past the last whole round (a file
 * XGBoost would not write) belong to no round: XGBoost counts n_trees / per_round rounds too.
 */
RoundTrees RoundBoundaries(const Reader& r, const Json& model, std::size_t n_trees, std::int64_t per_round) {
  RoundTrees rt;
  if (const auto it = model.find("iteration_indptr"); it != model.end() && it->is_array() && !it->empty()) {
    const std::string where = "learner.gradient_booster.model.iteration_indptr";
    for (std::size_t k = 0; k < it->size(); ++k) {
      const std::int64_t b = r.Count((*it)[k], where + "[" + std::to_string(k) + "]");
      if ((k == 0 && b != 0) || (k > 0 && b < rt.boundary.back()) || b > static_cast<std::int64_t>(n_trees))
        r.Fail(where + "[" + std::to_string(k) + "] is " + std::to_string(b) +
               ", which does not fit the model's " + std::to_string(n_trees) +
               " trees in round order: the file is inconsistent; " + kSaveAgain);
      rt.boundary.push_back(b);
    }
    return rt;
  }
  const std::int64_t rounds = static_cast<std::int64_t>(n_trees) / per_round;
  rt.boundary.reserve(static_cast<std::size_t>(rounds) + 1);
  for (std::int64_t k = 0; k <= rounds; ++k) rt.boundary.push_back(k * per_round);
  return rt;
}

/**
 * @brief The rounds to keep: options.iteration_range, else [0, best_iteration + 1) for an
 * early-stopped model (as XGBoost's scikit-learn predict and shap), else all.
 */
BoostingRounds ChooseRounds(const Reader& r, const Json& learner, const RoundTrees& rt, std::int64_t parallel_trees,
                            const XgboostReadOptions& options) {
  BoostingRounds out;
  out.total = rt.rounds();
  // XGBoost writes best_iteration as a string; XGBoost 1.x also best_ntree_limit, which is
  // (best_iteration + 1) x num_parallel_tree, and very old files only that.
  if (const auto a = learner.find("attributes"); a != learner.end() && a->is_object()) {
    const std::string where = "learner.attributes.";
    if (const auto it = a->find("best_iteration"); it != a->end()) {
      out.best_iteration = r.Count(*it, where + "best_iteration");
    } else if (const auto limit = a->find("best_ntree_limit"); limit != a->end()) {
      const std::int64_t trees = r.Count(*limit, where + "best_ntree_limit");
      if (trees > 0) out.best_iteration = (trees + parallel_trees - 1) / parallel_trees - 1;
    }
  }
  const std::string rounds = std::to_string(out.total) + (out.total == 1 ? " round" : " rounds");
  if (options.iteration_range) {
    const IterationRange ir = *options.iteration_range;
    out.begin = ir.begin;
    out.end = ir.end == 0 ? out.total : ir.end;
    out.explicit_range = true;
    if (ir.begin < 0 || ir.end < 0 || out.end > out.total || out.begin >= out.end)
      throw InvalidArgument(r.prefix() + "the iteration range [" + std::to_string(ir.begin) + ", " +
                                std::to_string(ir.end) + ") does not fit the model's " + rounds +
                                "; give 0 <= begin < end <= " + std::to_string(out.total) + " (end 0: to the last round)",
                            {"iteration_range"});
    return out;
  }
  out.begin = 0;
  out.end = out.total;
  if (out.best_iteration >= out.total) {
    // A slice of an early-stopped model (booster[0:50]) that kept its parent's best_iteration,
    // past the rounds it holds: the slice's trees are what the user chose, all of them.
    out.sliced_best_iteration = out.best_iteration;
    out.best_iteration = -1;
  } else if (out.best_iteration >= 0) {
    out.end = out.best_iteration + 1;
  }
  return out;
}

/**
 * @brief The margin's base of each output from learner_model_param.base_score: one number
 * (XGBoost < 3.1: "5E-1"), or since 3.1 a vector in a string, one entry per output
 * ("[-2.8E-2,3.4E-2,-6.1E-2]" for 3 classes; "[5.039E-1]" for one output; a single entry is
 * every output's). Each entry is on the output scale and moves to the margin by the objective's
 * link (XGBoost's ProbToMargin): the logit of a probability, the log of a positive mean, else as
 * it is (multi:softprob's entries are margins already).
 */
std::vector<double> BaseMargins(const Reader& r, const Json& value, const std::string& where, std::size_t n_outputs,
                                const Objective& objective, const std::string& objective_text) {
  std::vector<double> scores;
  if (value.is_string() && !value.get_ref<const std::string&>().empty() &&
      value.get_ref<const std::string&>().front() == '[') {
    const std::string& text = value.get_ref<const std::string&>();
    if (text.size() < 2 || text.back() != ']')
      r.Fail(where + " is " + Reader::Shown(value) + ", not a number or a list of numbers; " + kSaveAgain);
    const std::string_view inner = std::string_view(text).substr(1, text.size() - 2);
    std::size_t begin = 0;
    while (begin <= inner.size()) {
      const std::size_t end = std::min(inner.find(',', begin), inner.size());
      double v = 0.0;
      if (!ParseNumberText(std::string(inner.substr(begin, end - begin)), v))
        r.Fail(where + " is " + Reader::Shown(value) + ", not a list of numbers; " + kSaveAgain);
      scores.push_back(v);
      begin = end + 1;
    }
  } else {
    scores.push_back(r.Number(value, where));
  }
  if (scores.size() == 1) scores.assign(n_outputs, scores.front());
  if (scores.size() != n_outputs)
    r.Fail(where + " holds " + std::to_string(scores.size()) + " values for a model of " + std::to_string(n_outputs) +
           " outputs: the file is inconsistent; " + kSaveAgain);
  std::vector<double> base(n_outputs);
  for (std::size_t o = 0; o < n_outputs; ++o) {
    // base_score is float32 in XGBoost: round it as XGBoost does before moving it to the margin.
    const double score = AsFloat(scores[o]);
    // Built by append: GCC 12 warns (-Wrestrict, a false positive) on "[" + std::to_string(o).
    std::string shown = where;
    if (n_outputs > 1) shown.append("[").append(std::to_string(o)).append("]");
    shown.append(" is ").append(Reader::Shown(Json(score))).append("; ").append(objective_text);
    if (objective.base == BaseLink::kLogit) {
      if (!(score > 0.0 && score < 1.0)) r.Fail(shown + " needs a probability in (0, 1): retrain with another base_score");
      base[o] = std::log(score / (1.0 - score));
    } else if (objective.base == BaseLink::kLog) {
      if (!(score > 0.0 && std::isfinite(score)))
        r.Fail(shown + " needs a positive base_score (its margin is the log): retrain with another base_score");
      base[o] = std::log(score);
    } else {
      if (!std::isfinite(score)) r.Fail(where + " is not finite; retrain with a finite base_score");
      base[o] = score;
    }
  }
  return base;
}

/** @brief The text parsed as JSON, checked to be an XGBoost model: an object holding "learner". */
Json ParseModelJson(const Reader& r, const std::string& text) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) r.Fail(std::string("the file is empty; ") + kSaveAgain);
  // UBJSON first (no JSON starts that way), then the nesting of the JSON: a model nests about 7
  // levels, and deeper values would overflow the stack where a message formats them.
  if (IsUbjsonModel(text))
    r.Fail(
        "the file is XGBoost's binary UBJSON format, not JSON; save the model with "
        "Booster.save_model(\"model.json\") (the .json extension selects JSON)");
  detail::CheckJsonNesting(text, r.prefix(), kSaveAgain);
  const std::optional<std::string> quoted = QuoteNonFiniteWords(text);
  const std::string& json = quoted ? *quoted : text;
  Json doc;
  try {
    doc = Json::parse(json);
  } catch (const Json::parse_error& e) {
    // Input that ends where the parser still expected more: e.byte is past the last byte.
    if (e.byte > json.size())
      r.Fail("the JSON ends early (" + ParseErrorText(e) + "): the file seems truncated; " + kSaveAgain);
    r.Fail("not JSON (" + ParseErrorText(e) + "); save the model with Booster.save_model(\"model.json\")");
  } catch (const Json::out_of_range& e) {
    // A number beyond a double's range (1e999): the parser's only other error. XGBoost writes
    // floats, so no model it saved holds one.
    r.Fail("the number " + detail::OverflowingNumber(e) + " is beyond the range of a double; " + kSaveAgain);
  }
  if (doc.is_array())
    r.Fail(
        "a JSON array, not an XGBoost model: a tree dump (Booster.dump_model) lacks the base score and "
        "objective; save the model with Booster.save_model(\"model.json\")");
  if (!doc.is_object() || !doc.contains("learner"))
    r.Fail(
        "JSON but not an XGBoost model (no \"learner\" object at the top); save the model with "
        "Booster.save_model(\"model.json\")");
  return doc;
}

/** @brief learner.gradient_booster, which must be a gbtree (gblinear and dart models have no
 *  gbtree model to read). */
const Json& GbtreeBooster(const Reader& r, const Json& learner) {
  const Json& booster = r.Member(learner, "gradient_booster", "learner");
  const Json& booster_name = r.Member(booster, "name", "learner.gradient_booster");
  const std::string name = booster_name.is_string() ? booster_name.get<std::string>() : Reader::Shown(booster_name);
  if (name != "gbtree")
    r.Fail("the booster is " + detail::Quoted(name) +
           "; perfshap explains gbtree models only: retrain with "
           "booster=\"gbtree\"");
  return booster;
}

/** @brief The model's features and outputs, from learner_model_param. */
struct ModelShape {
  std::size_t n_features = 0;
  std::size_t n_outputs = 1;
};

/** @brief learner_model_param's num_feature, and num_class checked against the objective (one
 *  output, or num_class >= 2 for a multiclass one); a model of one target only. */
ModelShape ReadModelShape(const Reader& r, const Json& param, const Objective& objective,
                          const std::string& objective_text) {
  const std::string pwhere = "learner.learner_model_param";
  const std::int64_t n_features = r.Count(r.Member(param, "num_feature", pwhere), pwhere + ".num_feature");
  const std::int64_t num_class = param.contains("num_class") ? r.Count(param["num_class"], pwhere + ".num_class") : 0;
  if (param.contains("num_target")) {
    const std::int64_t targets = r.Count(param["num_target"], pwhere + ".num_target");
    if (targets > 1)
      r.Fail("the model has " + std::to_string(targets) +
             " targets (num_target); perfshap reads models of one "
             "target: train one model per target");
  }
  ModelShape shape;
  if (objective.multiclass) {
    if (num_class < 2)
      r.Fail("the objective " + objective_text + " needs num_class >= 2, the model has " + std::to_string(num_class) +
             "; " + kSaveAgain);
    shape.n_outputs = static_cast<std::size_t>(num_class);
  } else if (num_class > 1) {
    r.Fail("the objective " + objective_text + " has one output but num_class is " + std::to_string(num_class) + "; " +
           kSaveAgain);
  }
  shape.n_features = static_cast<std::size_t>(n_features);
  return shape;
}

/** @brief learner.feature_names into info.feature_names when the file has them: one name per
 *  feature, checked as TreeEnsemble checks them. */
void ReadFeatureNames(const Reader& r, const Json& learner, TreeEnsembleInfo& info) {
  const auto it = learner.find("feature_names");
  if (it == learner.end() || !it->is_array() || it->empty()) return;
  if (it->size() != info.n_features)
    r.Fail("learner.feature_names has " + std::to_string(it->size()) + " names for " +
           std::to_string(info.n_features) + " features (num_feature); " + kSaveAgain);
  for (const Json& f : *it) {
    if (!f.is_string()) r.Fail("learner.feature_names holds " + Reader::Shown(f) + ", not a name; " + kSaveAgain);
    info.feature_names.push_back(f.get<std::string>());
  }
  // Checked here as TreeEnsemble checks them, worded for the file: data columns are matched
  // to the features by name.
  try {
    detail::CheckFeatureNames(info.feature_names, "learner.feature_names");
  } catch (const InvalidArgument& e) {
    r.Fail(std::string(e.what()) + " (retrain on data with distinct column names)");
  }
}

/** @brief The trees to a boosting round (n_outputs x num_parallel_tree), after checking
 *  model.trees against model.tree_info and gbtree_model_param (one output per leaf). */
std::int64_t TreesPerRound(const Reader& r, const Json& model, const Json& trees_json, const Json& tree_info,
                           std::size_t n_outputs) {
  const std::string mwhere = "learner.gradient_booster.model";
  if (!trees_json.is_array() || !tree_info.is_array())
    r.Fail(mwhere + ".trees and .tree_info must be arrays; " + kSaveAgain);
  if (tree_info.size() != trees_json.size())
    r.Fail(mwhere + ".tree_info has " + std::to_string(tree_info.size()) + " entries for " +
           std::to_string(trees_json.size()) + " trees: the arrays are inconsistent; " + kSaveAgain);
  std::int64_t per_round = static_cast<std::int64_t>(n_outputs);
  if (const auto gp = model.find("gbtree_model_param"); gp != model.end() && gp->is_object()) {
    const std::string gwhere = mwhere + ".gbtree_model_param";
    if (gp->contains("num_trees") &&
        r.Count((*gp)["num_trees"], gwhere + ".num_trees") != static_cast<std::int64_t>(trees_json.size()))
      r.Fail(gwhere + ".num_trees is " + Reader::Shown((*gp)["num_trees"]) + " but the model holds " +
             std::to_string(trees_json.size()) + " trees: the file is inconsistent; " + kSaveAgain);
    if (gp->contains("size_leaf_vector")) {
      const std::int64_t k = r.Count((*gp)["size_leaf_vector"], gwhere + ".size_leaf_vector");
      if (k > 1)
        r.Fail("the model has vector leaves (size_leaf_vector " + std::to_string(k) +
               "), which perfshap does not read: retrain with multi_strategy=\"one_output_per_tree\"");
    }
    // num_parallel_tree > 1 (boosted random forests): the trees of a round simply add up.
    if (gp->contains("num_parallel_tree"))
      per_round *= std::max<std::int64_t>(1, r.Count((*gp)["num_parallel_tree"], gwhere + ".num_parallel_tree"));
  }
  return per_round;
}

/** @brief The model's trees, in file order, each with its depth. */
struct ModelTrees {
  std::vector<Tree> trees;
  std::vector<int> depths;
};

/** @brief Every tree of the file, read and checked, each adding to the output group tree_info
 *  gives it. */
ModelTrees ReadTrees(const Reader& r, const Json& trees_json, const Json& tree_info, std::size_t n_outputs) {
  const std::string mwhere = "learner.gradient_booster.model";
  ModelTrees out;
  out.trees.reserve(trees_json.size());
  out.depths.reserve(trees_json.size());
  for (std::size_t t = 0; t < trees_json.size(); ++t) {
    const std::int64_t group = r.Count(tree_info[t], mwhere + ".tree_info[" + std::to_string(t) + "]");
    if (group >= static_cast<std::int64_t>(n_outputs))
      r.Fail("tree " + std::to_string(t) + " adds to output group " + std::to_string(group) + " of a model with " +
             std::to_string(n_outputs) + " outputs (tree_info): the file is inconsistent; " + kSaveAgain);
    int tree_depth = 0;
    out.trees.push_back(ReadTree(r, trees_json[t], t, static_cast<int>(group), tree_depth));
    out.depths.push_back(tree_depth);
  }
  return out;
}

/** @brief Keeps the trees (and depths) of the rounds info.rounds chose, setting its first_tree
 *  when not all are kept; whether all rounds are. */
bool KeepChosenRounds(const RoundTrees& rt, TreeEnsembleInfo& info, ModelTrees& read) {
  const BoostingRounds& rounds = info.rounds;
  const bool all = rounds.begin == 0 && rounds.end == rounds.total;
  if (!all) {
    std::vector<Tree>& trees = read.trees;
    std::vector<int>& depths = read.depths;
    const auto first = static_cast<std::size_t>(rt.boundary[static_cast<std::size_t>(rounds.begin)]);
    const auto last = static_cast<std::size_t>(rt.boundary[static_cast<std::size_t>(rounds.end)]);
    trees.erase(trees.begin() + static_cast<std::ptrdiff_t>(last), trees.end());
    trees.erase(trees.begin(), trees.begin() + static_cast<std::ptrdiff_t>(first));
    depths.erase(depths.begin() + static_cast<std::ptrdiff_t>(last), depths.end());
    depths.erase(depths.begin(), depths.begin() + static_cast<std::ptrdiff_t>(first));
    info.rounds.first_tree = static_cast<std::int64_t>(first);
  }
  return all;
}

/** @brief The model's one-line description: objective, classes, trees, depth, and the rounds
 *  used whenever that is not simply all of them. */
std::string Describe(const std::string& objective_text, bool multiclass, std::size_t n_outputs, std::size_t n_trees,
                     int depth, const BoostingRounds& rounds, bool all) {
  std::string description = "XGBoost " + objective_text + ", ";
  if (multiclass) description += std::to_string(n_outputs) + " classes, ";
  description += std::to_string(n_trees) + (n_trees == 1 ? " tree" : " trees");
  description += ", depth <= " + std::to_string(depth);
  // XGBoost's scikit-learn predict and shap stop at best_iteration after early stopping (and
  // Booster.predict with its iteration_range): the description says which rounds are used
  // whenever that is not simply all of them.
  const std::string best =
      rounds.best_iteration >= 0 ? "best_iteration " + std::to_string(rounds.best_iteration) : std::string();
  if (!all) {
    description += ", rounds [" + std::to_string(rounds.begin) + ", " + std::to_string(rounds.end) + ") of " +
                   std::to_string(rounds.total) + (best.empty() ? "" : " (" + best + ")");
  } else if (rounds.best_iteration >= 0 && rounds.best_iteration + 1 < rounds.total) {
    description += ", all " + std::to_string(rounds.total) + " rounds (" + best + " not applied)";
  } else if (rounds.sliced_best_iteration >= 0) {
    description += ", all " + std::to_string(rounds.total) + " rounds (a slice: the best_iteration " +
                   std::to_string(rounds.sliced_best_iteration) + " it keeps is its parent's)";
  }
  return description;
}

std::shared_ptr<const TreeEnsemble> Parse(const Reader& r, const std::string& text, const XgboostReadOptions& options) {
  const Json doc = ParseModelJson(r, text);
  const Json& learner = r.Member(doc, "learner", "the file");

  // The booster first: gblinear and dart models have no gbtree model to read.
  const Json& booster = GbtreeBooster(r, learner);

  const Json& objective_name = r.Member(r.Member(learner, "objective", "learner"), "name", "learner.objective");
  if (!objective_name.is_string()) r.Fail("learner.objective.name is not a string; " + std::string(kSaveAgain));
  const std::string objective_text = objective_name.get<std::string>();
  const Objective objective = ReadObjective(r, objective_text);

  const Json& param = r.Member(learner, "learner_model_param", "learner");
  const std::string pwhere = "learner.learner_model_param";
  const ModelShape shape = ReadModelShape(r, param, objective, objective_text);
  const std::size_t n_outputs = shape.n_outputs;
  TreeEnsembleInfo info;
  info.n_features = shape.n_features;
  info.n_outputs = n_outputs;
  info.base_margin = BaseMargins(r, r.Member(param, "base_score", pwhere), pwhere + ".base_score", n_outputs,
                                 objective, objective_text);
  info.tree_scale = 1.0;
  info.transform = objective.transform;
  info.rule = SplitRule::kLessFloat;
  info.classifier = objective.classifier;
  ReadFeatureNames(r, learner, info);

  const Json& model = r.Member(booster, "model", "learner.gradient_booster");
  const std::string mwhere = "learner.gradient_booster.model";
  const Json& trees_json = r.Member(model, "trees", mwhere);
  const Json& tree_info = r.Member(model, "tree_info", mwhere);
  const std::int64_t per_round = TreesPerRound(r, model, trees_json, tree_info, n_outputs);
  ModelTrees read = ReadTrees(r, trees_json, tree_info, n_outputs);

  // The rounds to keep (every tree of the file is read and checked above, kept or not).
  const RoundTrees rt = RoundBoundaries(r, model, read.trees.size(), per_round);
  info.rounds = ChooseRounds(r, learner, rt, per_round / static_cast<std::int64_t>(n_outputs), options);
  const bool all = KeepChosenRounds(rt, info, read);
  const int depth = read.depths.empty() ? 0 : *std::max_element(read.depths.begin(), read.depths.end());
  info.description = Describe(objective_text, objective.multiclass, n_outputs, read.trees.size(), depth, info.rounds, all);

  try {
    return std::make_shared<const TreeEnsemble>(std::move(read.trees), std::move(info));
  } catch (const InvalidArgument& e) {
    r.Fail(std::string(e.what()) + "; " + kSaveAgain);
  }
}

}  // namespace

std::shared_ptr<const TreeEnsemble> ParseXgboostModel(const std::string& json, const std::string& source,
                                                       const XgboostReadOptions& options) {
  const Reader r(source);
  try {
    return Parse(r, json, options);
  } catch (const Json::exception& e) {
    // A value of an unexpected type somewhere the checks above do not look.
    std::string what = e.what();
    for (char& c : what)
      if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    r.Fail("unexpected content (" + what + "); " + kSaveAgain);
  }
}

std::shared_ptr<const TreeEnsemble> ReadXgboostModel(const std::string& path, const XgboostReadOptions& options) {
  return ParseXgboostModel(ReadXgboostModelText(path), path, options);
}

std::string ReadXgboostModelText(const std::string& path) {
  namespace fs = std::filesystem;
  const Reader r(path);
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    r.Fail("cannot access the file (" + ec.message() + "); check the path and its permissions");
  if (!fs::exists(st)) r.Fail("no such file; check the path of the model file");
  if (fs::is_directory(st)) r.Fail("is a directory, not a model file; pass the path of the model's JSON file");
  // Read with a text file's checks and a size limit; UBJSON (binary) is named by its first bytes.
  return detail::ReadJsonFileText(path, r.prefix(), {}, [&r](std::string_view first) {
    if (IsUbjsonModel(std::string(first.substr(0, 64))))
      r.Fail(
          "the file is XGBoost's binary UBJSON format, not JSON; save the model with "
          "Booster.save_model(\"model.json\") (the .json extension selects JSON)");
  });
}

}}  // namespace perfshap
